// 日経会社情報DIGITAL (www.nikkei.com): a listed company's top page with its price and 株価指標.
import type { Site } from '../site.js';
import { nikkeiQuoteExtractor } from './quote-extractor.js';

export const nikkei: Site = {
  id: 'nikkei',
  name: '日経会社情報DIGITAL',
  kind: 'public_data',
  hosts: ['www.nikkei.com'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 300,
    reason:
      'An index quote moves every few seconds while 東証 trades (9:00–15:30 JST); one fixed limit cannot follow market hours, so it is set for them',
  },
  pageTypes: [
    {
      pageType: 'quote',
      urlPattern: '/nkd/company/?scode=<code>',
      matches: (url) =>
        url.pathname === '/nkd/company/' && /^[0-9][0-9A-Z]{3}$/.test(url.searchParams.get('scode') ?? ''),
      extractor: nikkeiQuoteExtractor,
      contentTypes: ['text/html'],
      coverage: 'stable',
      verifiedBy: 'real page: nikkei/nikkei.html (東京ドーム 9681, fundanalyzer nikkei_ok)',
    },
  ],
  secretQueryParams: [],
};
