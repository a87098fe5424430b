// 政府統計 e-Stat API (api.e-stat.go.jp): statistical tables by statsDataId; the caller brings its own appId.
import type { Site } from '../site.js';
import { estatStatsDataExtractor } from './stats-data-extractor.js';

const STATS_DATA_PATH = /^\/rest\/\d+\.\d+\/app\/json\/getStatsData$/;

export const estatApi: Site = {
  id: 'estat_api',
  name: 'e-Stat API（政府統計の総合窓口）',
  kind: 'public_data',
  hosts: ['api.e-stat.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
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
  ],
  // The appId is the caller's e-Stat credential: never stored, logged or echoed.
  secretQueryParams: ['appId'],
};
