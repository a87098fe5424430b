// 国税庁 法人番号 Web-API (api.houjin-bangou.nta.go.jp): corporations by number, by change period or by name; CSV only.
import type { Site } from '../site.js';
import { houjinRecordExtractor, houjinRecordsExtractor } from './corporations-extractor.js';

// Versions 1–4 share the path shape; type=12 (XML) is not read yet, so those URLs match no page type.
const csvType = (url: URL) => ['01', '02'].includes(url.searchParams.get('type') ?? '');
const NUM_PATH = /^\/[1-4]\/num$/;
const LIST_PATH = /^\/[1-4]\/(?:diff|name)$/;
const VERIFIED = 'recorded v2 answers (Shift_JIS CSV, 2017-06-07): houjin-bangou/num.response.csv';

export const houjinBangou: Site = {
  id: 'houjin_bangou',
  name: '法人番号システム Web-API（国税庁）',
  kind: 'public_data',
  hosts: ['api.houjin-bangou.nta.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: { seconds: 86_400, reason: '法人番号 data is updated daily (next-capabilities §4.4)' },
  pageTypes: [
    {
      pageType: 'record',
      urlPattern:
        '/<1-4>/num?id=…&number=<13 digits, comma-separated for several>&type=01|02 (CSV; type=12 XML not supported; the caller’s id is a secret)',
      matches: (url) => NUM_PATH.test(url.pathname) && csvType(url),
      extractor: houjinRecordExtractor,
      contentTypes: ['text/csv'],
      coverage: 'stable',
      verifiedBy: VERIFIED,
    },
    {
      pageType: 'records',
      urlPattern:
        '/<1-4>/diff?id=…&from=…&to=…&type=01|02 and /<1-4>/name?id=…&name=…&type=01|02 (CSV; type=12 XML not supported; the caller’s id is a secret)',
      matches: (url) => LIST_PATH.test(url.pathname) && csvType(url),
      extractor: houjinRecordsExtractor,
      contentTypes: ['text/csv'],
      coverage: 'stable',
      verifiedBy: 'recorded v2 answer (Shift_JIS CSV, 2017-06-07): houjin-bangou/diff.response.csv, part 1 of 3',
    },
  ],
  // The id is the caller's 法人番号 Web-API application id: never stored, logged or echoed.
  secretQueryParams: ['id'],
};
