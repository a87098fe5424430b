// NETSEA (www.netsea.jp), B2B wholesale: search, supplier and category item lists (`/search?…`, `/shop/<supplier id>`).
import type { Site } from '../site.js';
import { netseaSearchExtractor } from './search-extractor.js';

// Item pages are /shop/<supplier id>/<supplier's product code>; the supplier's own list is /shop/<supplier id>
// (optionally filtered, `?adm_id=<brand>`); keyword, category (`category_id=`) and supplier (`supplier_id=`) lists are
// all /search?… (also written /search/?…). Seen on the real supplier list page's own links and pagination.
const SUPPLIER_LIST = /^\/shop\/\d+\/?$/;
const SEARCH = /^\/search\/?$/;

export const netsea: Site = {
  id: 'netsea',
  name: 'NETSEA',
  kind: 'commerce',
  hosts: ['www.netsea.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 21_600,
    reason: 'A search list: its order and prices refresh during the day (next-capabilities §4.4: lists 6 h)',
  },
  pageTypes: [
    {
      pageType: 'search',
      urlPattern: '/search?<query> (keyword, category_id, supplier_id), /shop/<supplier id>',
      matches: (url) => SEARCH.test(url.pathname) || SUPPLIER_LIST.test(url.pathname),
      extractor: netseaSearchExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'stable',
      verifiedBy:
        'recorded page: netsea/scrape_not_discount_price.html (2022, supplier list, 60 items, upstream test values); ' +
        'modelled sale price, the search template (discount balloon, supplier button, NEW badge) learned from the ' +
        'public heyjun3/aps scrape_discount_price.html, a supplier list with a sold-out card and per-ケース prices, ' +
        'prices hidden from logged-out visitors, empty result and a ' +
        'page that is not a list',
    },
  ],
  secretQueryParams: [],
};
