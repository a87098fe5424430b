// 駿河屋 (www.suruga-ya.jp): item pages, the 取り扱い店舗一覧 offers list of one product, and search results.
import type { Site } from '../site.js';
import { surugayaItemExtractor } from './item-extractor.js';
import { surugayaOffersExtractor } from './offers-extractor.js';
import { surugayaSearchExtractor } from './search-extractor.js';

// Product ids are digits (128049960) or letters and digits (G4404338, ZTOKA53710: seen in the search page's
// links); a marketplace copy adds ?tenpo_cd=<shop>, another grade ?branch_number=<n>.
const ITEM_PATH = /^\/product\/detail\/[A-Za-z0-9]+\/?$/;
const OFFERS_PATH = /^\/product\/other\/[A-Za-z0-9]+\/?$/;
// One search path for every query (category, search_word, category1, tenpo_code, rankBy, page …).
const SEARCH_PATH = /^\/search\/?$/;
const HTML = ['text/html', 'application/xhtml+xml'] as const;

export const surugaya: Site = {
  id: 'surugaya',
  name: '駿河屋',
  kind: 'commerce',
  hosts: ['www.suruga-ya.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5 (no site terms allow longer), the caller’s max_age_s chooses how fresh',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/product/detail/<id>[?tenpo_cd=<shop>][&branch_number=<n>]',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: surugayaItemExtractor,
      contentTypes: HTML,
      coverage: 'stable',
      verifiedBy:
        'real pages (corpus, 2024-10..2025-06): a time sale, a marketplace seller, a page with 3 other grades; modelled new+used, sold out, no price',
    },
    {
      pageType: 'offers',
      cacheLimit: {
        seconds: 21_600,
        reason:
          'An offer list of used items: offers sell and are added during the day (next-capabilities §4.4: lists 6 h)',
      },
      urlPattern: '/product/other/<id>',
      matches: (url) => OFFERS_PATH.test(url.pathname),
      extractor: surugayaOffersExtractor,
      contentTypes: HTML,
      coverage: 'stable',
      verifiedBy:
        'real pages (corpus, 2024-12 and 2025-06): 2 offers with a time sale, 13 offers from 12 shops; modelled new+used from 駿河屋 and 2 shops, an empty 全て tab, a page without the table',
    },
    {
      pageType: 'search',
      cacheLimit: {
        seconds: 21_600,
        reason: 'A search list: its order and prices refresh during the day (next-capabilities §4.4: lists 6 h)',
      },
      urlPattern: '/search?category=…&search_word=…[&page=N]',
      matches: (url) => SEARCH_PATH.test(url.pathname),
      extractor: surugayaSearchExtractor,
      contentTypes: HTML,
      coverage: 'stable',
      verifiedBy:
        'real page (corpus, 2025): 24 results with マケプレ offers; modelled page 2, an empty result, time-sale and price-range cards',
    },
  ],
  secretQueryParams: [],
};
