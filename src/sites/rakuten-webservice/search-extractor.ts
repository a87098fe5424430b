// 楽天ウェブサービス search answers (IchibaItem, Product, BooksBook, BooksTotal, Kobo EbookSearch) as a `search` list.
import type { Extraction, Extractor } from '../../extract/extractor.js';
import type { NormalizedPage } from '../../normalize/page.js';
import { readRakutenList } from './api-response.js';

export const rakutenSearchExtractor: Extractor = {
  id: 'rakuten_webservice/search',
  version: 2,
  pageType: 'search',
  input: 'json',
  extract(page: NormalizedPage): Extraction {
    return readRakutenList('rakuten_webservice/search', page);
  },
};
