// 楽天市場ランキング API (IchibaItem/Ranking) answers as a `ranking` list: entries in rank order with their rank.
import type { Extraction, Extractor } from '../../extract/extractor.js';
import type { NormalizedPage } from '../../normalize/page.js';
import { readRakutenList } from './api-response.js';

export const rakutenRankingExtractor: Extractor = {
  id: 'rakuten_webservice/ranking',
  version: 2,
  pageType: 'ranking',
  input: 'json',
  extract(page: NormalizedPage): Extraction {
    return readRakutenList('rakuten_webservice/ranking', page);
  },
};
