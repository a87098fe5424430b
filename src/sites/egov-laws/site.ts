// e-Gov 法令検索 law API v2 (laws.e-gov.go.jp): one law as the standard law XML (法令標準XML).
import type { Site } from '../site.js';
import { egovLawDocumentExtractor } from './document-extractor.js';

// `{law_id}`, `{law_num}` or `{law_revision_id}` after law_file/xml; the other file types (json, html, rtf, docx)
// are not this page type.
const LAW_FILE_XML = /^\/api\/2\/law_file\/xml\/[^/]+$/;

export const egovLaws: Site = {
  id: 'egov_laws',
  name: 'e-Gov 法令検索 (法令API v2)',
  kind: 'public_data',
  hosts: ['laws.e-gov.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  pageTypes: [
    {
      pageType: 'document',
      urlPattern: '/api/2/law_file/xml/<law_id, law number or law_revision_id>',
      matches: (url) => LAW_FILE_XML.test(url.pathname),
      extractor: egovLawDocumentExtractor,
      contentTypes: ['application/xml', 'text/xml'],
      coverage: 'stable',
      verifiedBy:
        'the real 行政手続法 XML (405AC0000000088, revision of 2024-04-01) and modelled XML (条の2 numbering, ' +
        'items and subitems; an error answer)',
    },
  ],
  secretQueryParams: [],
};
