// 楽天市場ランキング API (IchibaItem/Ranking) answers as a `ranking` list: entries in rank order with their rank.
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { readRakutenList } from './api-response.js';

export const rakutenRankingExtractor = defineExtractor({
  id: 'rakuten_webservice/ranking',
  version: 2,
  pageType: 'ranking',
  input: 'json',
  reads: 'the JSON answer of the API',
  extract(page): Extraction {
    return readRakutenList('rakuten_webservice/ranking', page);
  },
});
