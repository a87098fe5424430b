// e-Gov 法令検索 (laws.e-gov.go.jp): one law as the standard law XML (法令標準XML) of the law API v2.
import type { Site } from '../site.js';
import { egovLawDocumentExtractor } from './document-extractor.js';
import { EGOV_HOST, egovLawRef, egovLawXmlUrl } from './law-url.js';

export const egovLaws: Site = {
  id: 'egov_laws',
  name: 'e-Gov 法令検索 (法令API v2)',
  kind: 'public_data',
  hosts: [EGOV_HOST],
  schemes: ['https:'],
  // One law has several URLs (law_file/xml, law_data, the viewer); each is served by the law_file/xml request for the
  // same id, the answer verified on a real file (docs/decisions/0010).
  route: 'api',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'A revision’s text is fixed but the current revision can change with a promulgation; kept at most 24 h until e-Gov’s terms are read for longer (research proposes 30 d by revision)',
  },
  pageTypes: [
    {
      pageType: 'document',
      urlPattern:
        '/api/2/law_file/xml/<law_id, law number or law_revision_id>, /api/2/law_data/<same ids> (both with at most ' +
        '?asof=YYYY-MM-DD), /law/<law_id> and /law/<law_id>/<YYYYMMDD>_<amending law id>; all via ' +
        '/api/2/law_file/xml/<id>',
      matches: (url) => egovLawRef(url) !== null,
      api: { hosts: [EGOV_HOST], request: (pageUrl) => ({ url: egovLawXmlUrl(pageUrl) }) },
      extractor: egovLawDocumentExtractor,
      contentTypes: ['application/xml', 'text/xml'],
      coverage: 'stable',
      verifiedBy:
        'the real 行政手続法 XML (405AC0000000088, revision of 2024-04-01), asked for as law_file/xml, law_data and ' +
        'the viewer URL of that revision; modelled XML (条の2 numbering, items and subitems; an error answer)',
    },
  ],
  secretQueryParams: [],
};
