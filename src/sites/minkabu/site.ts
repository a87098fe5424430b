// みんかぶ (minkabu.jp): a stock's top page with its price and the 目標株価 / 理論株価 / 予想株価 card.
import type { Site } from '../site.js';
import { minkabuQuoteExtractor } from './quote-extractor.js';

const STOCK_PATH = /^\/stock\/[0-9][0-9A-Z]{3}\/?$/;

export const minkabu: Site = {
  id: 'minkabu',
  name: 'みんかぶ',
  kind: 'public_data',
  hosts: ['minkabu.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 300,
    reason:
      'A quote moves every few seconds while 東証 trades (9:00–15:30 JST); one fixed limit cannot follow market hours, so it is set for them',
  },
  pageTypes: [
    {
      pageType: 'quote',
      urlPattern: '/stock/<code>',
      matches: (url) => STOCK_PATH.test(url.pathname),
      extractor: minkabuQuoteExtractor,
      contentTypes: ['text/html'],
      coverage: 'stable',
      verifiedBy:
        'real pages: minkabu/minkabu.html (2157 コシダカHD) and minkabu/minkabu_9903.html (カンセキ), fundanalyzer minkabu_ok / minkabu_verify',
    },
  ],
  secretQueryParams: [],
};
