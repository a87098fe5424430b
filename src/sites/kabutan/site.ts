// 株探 (kabutan.jp): a stock's basic-information page and its daily price history pages.
import type { Site } from '../site.js';
import { kabutanHistoryExtractor } from './history-extractor.js';
import { kabutanQuoteExtractor } from './quote-extractor.js';

const CODE = /^[0-9][0-9A-Z]{3}$/;
const hasCode = (url: URL) => CODE.test(url.searchParams.get('code') ?? '');

export const kabutan: Site = {
  id: 'kabutan',
  name: '株探',
  kind: 'public_data',
  hosts: ['kabutan.jp'],
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
      urlPattern: '/stock/?code=<code>',
      matches: (url) => url.pathname === '/stock/' && hasCode(url),
      extractor: kabutanQuoteExtractor,
      contentTypes: ['text/html'],
      coverage: 'stable',
      verifiedBy: 'real page: kabutan/main_7203.html (トヨタ自動車, pykabutan TestParseProfileToyota expectations)',
    },
    {
      pageType: 'history',
      cacheLimit: {
        seconds: 3_600,
        reason: 'Daily prices: the current day’s row changes while the market is open, earlier rows do not',
      },
      urlPattern: '/stock/kabuka?code=<code>&ashi=day[&page=<n>] (daily rows)',
      matches: (url) =>
        url.pathname === '/stock/kabuka' &&
        hasCode(url) &&
        (url.searchParams.get('ashi') ?? 'day') === 'day' &&
        !url.searchParams.has('historical'),
      extractor: kabutanHistoryExtractor,
      contentTypes: ['text/html'],
      coverage: 'stable',
      verifiedBy: 'real page: kabutan/kabuka_7203_day_p1.html (29 daily rows, pykabutan TestParsePageDaily)',
    },
  ],
  secretQueryParams: [],
};
