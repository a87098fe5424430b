// 株式投資メモ・株価データベース (kabuoji3.com): daily price history per security code, `/stock/<code>/[<year>/]`.
import type { Site } from '../site.js';
import { kabuoji3PriceTableExtractor } from './price-table-extractor.js';

const STOCK_PATH = /^\/stock\/\d{4}\/(?:\d{4}\/)?$/;

export const kabuoji3: Site = {
  id: 'kabuoji3',
  name: '株式投資メモ・株価データベース',
  kind: 'public_data',
  hosts: ['kabuoji3.com'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 3_600,
    reason: 'Daily prices: the current day’s row changes while the market is open, earlier rows do not',
  },
  pageTypes: [
    {
      pageType: 'table',
      urlPattern: '/stock/<code>/ and /stock/<code>/<year>/',
      matches: (url) => STOCK_PATH.test(url.pathname),
      extractor: kabuoji3PriceTableExtractor,
      contentTypes: ['text/html'],
      coverage: 'stable',
      verifiedBy: 'real page: kabuoji3/kabuoji3.html (9434 ソフトバンク, 300 daily rows to 2020-11-27)',
    },
  ],
  secretQueryParams: [],
};
