// EDINET (金融庁): 有価証券報告書 inline-XBRL bodies; the balance sheet as a table.
import type { Site } from '../site.js';
import { edinetBalanceSheetExtractor } from './balance-sheet-extractor.js';

// The body files are named `0105310_honbun_<id>.htm` inside a filing's XBRL/PublicDoc folder.
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
      urlPattern: '…/XBRL/PublicDoc/0105xxx_honbun_<id>.htm',
      matches: (url) => HONBUN_PATH.test(url.pathname),
      extractor: edinetBalanceSheetExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      // The extractor verifies against a real filing, but the URL under which EDINET serves a body file was not
      // confirmed from the site: not served until a page recorded from EDINET itself passes.
      coverage: 'experimental',
      verifiedBy: 'real page: edinet/jsoup_main.html (0105310 honbun, 貸借対照表 FY2019); URL pattern unconfirmed',
    },
  ],
  secretQueryParams: [],
};
