// EDINET (金融庁): 有価証券報告書 filing packages from API v2; the 貸借対照表 as a table.
import type { Site } from '../site.js';
import { edinetBalanceSheetExtractor } from './balance-sheet-extractor.js';

// EDINET publishes a filing only whole: `/api/v2/documents/<docID>?type=1` is the submitted XBRL package as a ZIP
// (docID like `S100ABCD`), and the caller's `Subscription-Key` rides in the query. No URL serves one body file.
const DOCUMENT_PATH = /^\/api\/v2\/documents\/S[0-9A-Z]{7}$/;

export const edinet: Site = {
  id: 'edinet',
  name: 'EDINET（金融庁 電子開示システム）',
  kind: 'public_data',
  hosts: ['api.edinet-fsa.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'A filing by docID does not change, but corrections are filed as new documents; kept at most 24 h until EDINET’s terms are read for longer (research proposes 30 d)',
  },
  pageTypes: [
    {
      pageType: 'table',
      urlPattern: '/api/v2/documents/<docID>?type=1 (the filing ZIP)',
      // type=2 is the PDF, 3–5 attachments and English files: none holds the inline-XBRL statement.
      matches: (url) => DOCUMENT_PATH.test(url.pathname) && url.searchParams.get('type') === '1',
      extractor: edinetBalanceSheetExtractor,
      // EDINET documents application/octet-stream for the ZIP; application/zip is accepted as what it says.
      contentTypes: ['application/octet-stream', 'application/zip'],
      // The statement's body is real, but no real API ZIP is recorded: each fixture's container is built by us.
      coverage: 'beta',
      verifiedBy:
        'real body edinet/jsoup_main.html (0105310 honbun, 貸借対照表 FY2019) wrapped at verification time in a ZIP we ' +
        'build at XBRL/PublicDoc/ beside the real jsoup_ok.htm body, plus modelled packages (consolidated and ' +
        'non-consolidated, 百万円, none): beta, not stable, because no ZIP recorded from the API itself was read',
    },
  ],
  secretQueryParams: ['Subscription-Key'],
};
