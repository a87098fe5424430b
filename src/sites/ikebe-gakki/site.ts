// イケベ楽器店 (www.ikebe-gakki.com): a futureshop shop; items `/c/<groups…>/<numeric code>`, lists `/p/search`, `/c/<groups…>`.
import type { Site } from '../site.js';
import { ikebeItemExtractor } from './item-extractor.js';
import { ikebeSearchExtractor } from './search-extractor.js';

// futureshop product URLs are /c/<main group>/…/<product URL code> (its canonical rule); イケベ's product codes
// are all digits and its group codes (c-, kb, kb01, kb011427 …) never are. Seen on the recorded page's canonical
// link and on the 40 item links of its search page.
const ITEM_PATH = /^\/c\/(?:[A-Za-z0-9_-]+\/)+\d+\/?$/;
// A group's own page lists its products: the path ends in a group code (letters in it), never in a product code.
// Seen on the search page's links: /c/c-/gt/gt01/gt0111, /c/c-/ba/ba01/ba0105/ (and the item links above).
const GROUP_PATH = /^\/c\/(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]*[A-Za-z_-][A-Za-z0-9_-]*\/?$/;
const SEARCH_PATH = /^\/p\/search\/?$/;

export const ikebeGakki: Site = {
  id: 'ikebe_gakki',
  name: 'イケベ楽器店',
  kind: 'commerce',
  hosts: ['www.ikebe-gakki.com'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5 (no site terms allow longer), the caller’s max_age_s chooses how fresh',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/c/<groups…>/<numeric code>',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: ikebeItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'stable',
      verifiedBy: 'recorded page: ikebe-gakki/product.html (2023-02); modelled variants for fallbacks and failure',
    },
    {
      pageType: 'search',
      cacheLimit: {
        seconds: 21_600,
        reason: 'A search list: its order and prices refresh during the day (next-capabilities §4.4: lists 6 h)',
      },
      urlPattern: '/p/search?<query>, /c/<groups…> (a group code last, no product code)',
      matches: (url) => SEARCH_PATH.test(url.pathname) || GROUP_PATH.test(url.pathname),
      extractor: ikebeSearchExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'stable',
      verifiedBy:
        'recorded page: ikebe-gakki/product_list.html (2023-02, 40 products, upstream test values); modelled last ' +
        'page (sold out, 税抜 list price), a category page with low-stock/used/no-maker entries, a one-page search ' +
        'with reordered cards, member and label-only price rows, empty result; the real item page read as a list ' +
        'fails',
    },
  ],
  secretQueryParams: [],
};
