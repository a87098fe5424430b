// ヨドバシ.com (www.yodobashi.com): item pages are `/product/<18-digit product number>/`, served over HTTP.
import type { Site } from '../site.js';
import { yodobashiItemExtractor } from './item-extractor.js';

// Product numbers are 18 digits (100000001006328319, 200000000100177517 in public scrapers and the site's own
// search-result links `/product/<id>/`); older links use `/product-detail/<id>/` and some add `index.html`. The
// bound of 12–20 digits keeps category and maker numbers (5–6 digits) out without betting on the exact length.
const ITEM_PATH = /^\/product(?:-detail)?\/\d{12,20}\/?(?:index\.html)?$/;

export const yodobashi: Site = {
  id: 'yodobashi',
  name: 'ヨドバシ.com',
  kind: 'commerce',
  hosts: ['www.yodobashi.com'],
  schemes: ['https:'],
  route: 'http',
  // The site sits behind a bot-detecting CDN that blocks bursts: one request at a time, well spaced.
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5 (no site terms allow longer), the caller’s max_age_s chooses how fresh',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/product/<product number>/ (also /product/<number>/index.html, /product-detail/<number>/)',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: yodobashiItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'beta',
      verifiedBy:
        'modelled pages only (no real page recorded): in stock with points, list price beside the price, preorder, backorder, discontinued, a book on preorder and a game in the older markup (#salesInfoTxt, span.stockInfo), a price table whose 参考価格 row and 値引き phrase, split points and maker line follow a real page reported in issue 19, and a failure without a price',
    },
  ],
  secretQueryParams: [],
};
