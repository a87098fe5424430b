// 価格.com (kakaku.com): a price-comparison site; item pages are `/item/<letter + 10 digits>/` (K…, J…), Shift_JIS.
import type { Site } from '../site.js';
import { kakakuItemExtractor } from './item-extractor.js';

// Product ids seen in public scrapers and links: `K0001314464`, `J0000037910` (a capital letter and 10 digits). Only
// the main item page: `/item/<id>/spec/`, `/review/`, `/pricehistory/` and the other tabs are different pages.
const ITEM_PATH = /^\/item\/[A-Z]\d{10}\/?$/;

export const kakaku: Site = {
  id: 'kakaku',
  name: '価格.com',
  kind: 'commerce',
  hosts: ['kakaku.com'],
  schemes: ['https:'],
  route: 'http',
  // A large comparison site that publishes its own data API with rate limits: we ask slower than the default.
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 21_600,
    reason: '価格.com’s lowest prices and rankings refresh during the day (next-capabilities §4.4: 6 h)',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/item/<K or J + 10 digits>/',
      matches: (url) => ITEM_PATH.test(url.pathname),
      // The site's own terms were not found in our sources; the published rules of 価格.com's data service forbid
      // keeping its price information and any secondary use of it (resale, modification). Reuse of the same data
      // taken from the pages is treated as restricted until an operator has reviewed the caller's use.
      review: {
        reason:
          '価格.com restricts reuse of its price information (its WEB service API guideline forbids keeping it and any secondary use); served only to accounts an operator has approved for this site',
      },
      extractor: kakakuItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'beta',
      verifiedBy:
        "modelled Shift_JIS pages only (no real item page recorded): #titleBox, #priceBox 最安価格 and 中古価格 (usedPriceTxt), the p-priceTable shop list and the phone categories' fontPrice/shopname table, as public scrapers read them; the older (2017) template (最安価格 in the product box, AggregateOffer microdata, the description meta) as a real page reported in issue 19 states it",
    },
  ],
  secretQueryParams: [],
};
