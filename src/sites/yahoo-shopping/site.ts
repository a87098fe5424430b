// Yahoo!ショッピング (store.shopping.yahoo.co.jp): item pages are `/<store id>/<item code>.html`, a Next.js app.
import type { Site } from '../site.js';
import { yahooShoppingItemExtractor } from './item-extractor.js';

// Store ids are lower-case letters, digits and hyphens; item codes letters, digits, hyphens and underscores. A store's
// own pages share the shape (`/<store>/info.html`, `guide.html`, `search.html`, `privacypolicy.html`) and are left
// out; its category pages (`/<store>/<category code>.html`) cannot be told apart by URL and fail extraction instead.
const ITEM_PATH = /^\/[a-z0-9][a-z0-9-]*\/([A-Za-z0-9_-]+)\.html$/;
const STORE_PAGES = new Set(['info', 'guide', 'search', 'privacypolicy', 'review', 'index']);

export const yahooShopping: Site = {
  id: 'yahoo_shopping',
  name: 'Yahoo!ショッピング',
  kind: 'commerce',
  hosts: ['store.shopping.yahoo.co.jp'],
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
      urlPattern: '/<store id>/<item code>.html',
      matches: (url) => {
        const m = ITEM_PATH.exec(url.pathname);
        return m !== null && !STORE_PAGES.has(m[1]!);
      },
      extractor: yahooShoppingItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'beta',
      verifiedBy:
        'modelled pages only (no real page recorded): __NEXT_DATA__ item state, JSON-LD, meta and the displayed price of the current template, and the older mdItemName/mdItemPrice template (learned from a public copy of a real item page), written to the structure public scrapers read',
    },
  ],
  secretQueryParams: [],
};
