// 楽天ウェブサービス (app.rakuten.co.jp, and openapi.rakuten.co.jp since the 2026 migration): the public JSON APIs of
// Ichiba item search and ranking, Product search, the Books family and Kobo search; the caller brings its credentials.
import type { Site } from '../site.js';
import { RAKUTEN_SECRET_PARAMS, rakutenApiOf } from './api-response.js';
import { rakutenRankingExtractor } from './ranking-extractor.js';
import { rakutenSearchExtractor } from './search-extractor.js';

export const rakutenWebservice: Site = {
  id: 'rakuten_webservice',
  name: '楽天ウェブサービス（楽天市場・楽天ブックス API）',
  kind: 'commerce',
  hosts: ['app.rakuten.co.jp', 'openapi.rakuten.co.jp'],
  schemes: ['https:'],
  route: 'http',
  // Rakuten allows about one request per second per application id.
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      '楽天ウェブサービス’s FAQ, as developers quote it, allows caching prices and availability for 24 hours: the terms’ cap (next-capabilities §4.4)',
  },
  pageTypes: [
    {
      pageType: 'search',
      cacheLimit: {
        seconds: 21_600,
        reason:
          'A search list: its order and prices refresh during the day (next-capabilities §4.4: lists 6 h), under the terms’ 24 h',
      },
      urlPattern:
        '/services/api/{IchibaItem/Search|Product/Search|Books{Book,Total,CD,DVD,Game,Magazine,Software,ForeignBook}/Search|Kobo/EbookSearch}/<yyyymmdd> (openapi host: /ichibams/api/IchibaItem/Search/…, /ichibaproduct/api/Product/Search/…, /services/api/Books…, /services/api/Kobo/…); JSON only; applicationId, accessKey, affiliateId are secrets',
      matches: (url) => {
        const api = rakutenApiOf(url);
        return api !== null && api !== 'ichiba_ranking';
      },
      extractor: rakutenSearchExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'real responses: rakuten/item_search_with_keyword_Ruby.json, rakuten/product_search.json, rakuten-books/{book,total,ebook}_search…Ruby.json (rws-ruby-sdk fixtures); run unseen: rws-ruby-sdk BooksCD/DVD/Game/Magazine/Software/ForeignBook answers and its no-items answer; modelled: formatVersion 1, taxFlag 1, empty result (with and without Items), BooksCD, SKU price range (itemPriceMin/Max), error',
    },
    {
      pageType: 'ranking',
      cacheLimit: {
        seconds: 21_600,
        reason: 'Rankings refresh during the day (next-capabilities §4.4: lists 6 h), under the terms’ 24 h',
      },
      urlPattern:
        '/services/api/IchibaItem/Ranking/<yyyymmdd> (openapi host: /ichibaranking/api/IchibaItem/Ranking/<yyyymmdd>); JSON only; applicationId, accessKey, affiliateId are secrets',
      matches: (url) => rakutenApiOf(url) === 'ichiba_ranking',
      extractor: rakutenRankingExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'real response: rakuten/ranking_search.json (rws-ruby-sdk fixture, 2017-01-28, prices as strings); modelled: formatVersion 1',
    },
  ],
  // The caller's Rakuten credentials: never stored, logged or echoed (next_page is built without them).
  secretQueryParams: [...RAKUTEN_SECRET_PARAMS],
};
