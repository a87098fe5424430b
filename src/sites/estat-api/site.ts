// 政府統計 e-Stat API (api.e-stat.go.jp): tables, their descriptions and table searches; the caller brings its appId.
import type { Site } from '../site.js';
import { estatMetaInfoExtractor } from './meta-info-extractor.js';
import { estatStatsDataExtractor } from './stats-data-extractor.js';
import { estatStatsListExtractor } from './stats-list-extractor.js';

// API 2.0 and 3.0 share the path shape; only the version segment differs.
const apiPath = (call: string) => new RegExp(`^/rest/\\d+\\.\\d+/app/json/${call}$`);
const STATS_DATA_PATH = apiPath('getStatsData');
const META_INFO_PATH = apiPath('getMetaInfo');
const STATS_LIST_PATH = apiPath('getStatsList');

export const estatApi: Site = {
  id: 'estat_api',
  name: 'e-Stat API（政府統計の総合窓口）',
  kind: 'public_data',
  hosts: ['api.e-stat.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Tables change on e-Stat’s release schedule, not within a day; kept at most 24 h until e-Stat’s terms are read for longer (research proposes 7 d)',
  },
  pageTypes: [
    {
      pageType: 'table',
      urlPattern: '/rest/<version>/app/json/getStatsData (the caller’s appId is a secret)',
      matches: (url) => STATS_DATA_PATH.test(url.pathname),
      extractor: estatStatsDataExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy: 'recorded response: e-stat/stats_data.response.json (API 2.0, statsDataId 0003014522, 2016)',
    },
    {
      pageType: 'meta',
      urlPattern: '/rest/<version>/app/json/getMetaInfo?statsDataId=… (the caller’s appId is a secret)',
      matches: (url) => META_INFO_PATH.test(url.pathname),
      extractor: estatMetaInfoExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy: 'recorded response: e-stat/meta_info.response.json (API 2.0, statsDataId 0003014522, 2016)',
    },
    {
      pageType: 'list',
      urlPattern: '/rest/<version>/app/json/getStatsList?statsCode=…|searchWord=… (the caller’s appId is a secret)',
      matches: (url) => STATS_LIST_PATH.test(url.pathname),
      extractor: estatStatsListExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'recorded response: e-stat/stats_list.response.json (API 2.0, statsCode 00200502, statsNameList=Y, 2016)',
    },
  ],
  // The appId is the caller's e-Stat credential: never stored, logged or echoed.
  secretQueryParams: ['appId'],
};
