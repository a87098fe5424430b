// EDINET (金融庁): 有価証券報告書 inline-XBRL bodies; the balance sheet as a table.
import type { Site } from '../site.js';
import { edinetBalanceSheetExtractor } from './balance-sheet-extractor.js';

// The body files are named `0105310_honbun_<id>.htm` inside a filing's XBRL/PublicDoc folder. EDINET publishes a
// filing only as a whole: the API v2 ZIP (`api.edinet-fsa.go.jp/api/v2/documents/<docID>?type=1`, which needs the
// caller's Subscription-Key) or the PDF. No EDINET URL serves one body file, so this pattern names where the body sits
// inside the package, not a URL anyone can fetch; serving EDINET for real needs a ZIP input kind and a real API ZIP
// (none is recorded: corpus MANIFEST, "EDINET API … no committed response files found").
const HONBUN_PATH = /\/XBRL\/PublicDoc\/0105\d{3}_honbun_[A-Za-z0-9_-]+\.x?html?$/;

export const edinet: Site = {
  id: 'edinet',
  name: 'EDINET（金融庁 電子開示システム）',
  kind: 'public_data',
  hosts: ['disclosure2dl.edinet-fsa.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  pageTypes: [
    {
      pageType: 'table',
      urlPattern: '…/XBRL/PublicDoc/0105xxx_honbun_<id>.htm (a body inside the filing ZIP, not served alone)',
      matches: (url) => HONBUN_PATH.test(url.pathname),
      extractor: edinetBalanceSheetExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      // The extractor verifies against a real body file, but no EDINET URL returns that file: the page type stays
      // experimental (not served in production) until the API's ZIP is read and a real ZIP is recorded.
      coverage: 'experimental',
      verifiedBy:
        'extractor only: real body edinet/jsoup_main.html (0105310 honbun, 貸借対照表 FY2019) passes, but EDINET serves ' +
        'no body file alone (only the API v2 ZIP, which needs a Subscription-Key, and the PDF) and no real ZIP is ' +
        'recorded; the URL pattern names a path inside the ZIP, so experimental',
    },
  ],
  secretQueryParams: [],
};
