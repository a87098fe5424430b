// 楽天ウェブサービス search answers (IchibaItem, Product, BooksBook, BooksTotal, Kobo EbookSearch) as a `search` list.
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { readRakutenList } from './api-response.js';

export const rakutenSearchExtractor = defineExtractor({
  id: 'rakuten_webservice/search',
  version: 2,
  pageType: 'search',
  input: 'json',
  reads: 'the JSON answer of the API',
  extract(page): Extraction {
    return readRakutenList('rakuten_webservice/search', page);
  },
});
