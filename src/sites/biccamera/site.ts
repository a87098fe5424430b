// ビックカメラ.com (www.biccamera.com): item pages are `/bc/item/<item number>/`, served over HTTP.
import type { Site } from '../site.js';
import { biccameraItemExtractor } from './item-extractor.js';

// Item numbers are all digits, 7–8 of them in links seen in public code and articles (/bc/item/3080296/,
// /bc/item/14325899/); advertising links append a query (?source=googleps&utm_…), which the path test ignores.
// Category paths (/bc/category/001/300/) and the search (/bc/category/?q=) never match.
const ITEM_PATH = /^\/bc\/item\/\d{4,12}\/?$/;

export const biccamera: Site = {
  id: 'biccamera',
  name: 'ビックカメラ.com',
  kind: 'commerce',
  hosts: ['www.biccamera.com'],
  schemes: ['https:'],
  route: 'http',
  // Public scrapers report a WAF that blocks automated bursts: one request at a time, well spaced.
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5 (no site terms allow longer), the caller’s max_age_s chooses how fresh',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/bc/item/<item number>/ (query strings allowed)',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: biccameraItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'beta',
      verifiedBy:
        'modelled pages only (no real page recorded): JSON-LD and display agreeing, 税抜 shown first with a usual price, no JSON-LD with a shipping fee, sold out, JSON-LD disagreeing with colour variants, an older microdata layout without the basic-info block (.tax_cell price, coloured stock labels), a sold-out set with a ネット限定価格 label, and a failure without a price',
    },
  ],
  secretQueryParams: [],
};
