// 気象庁 防災情報 JSON (www.jma.go.jp/bosai): forecasts and weather overviews per forecast office, and the area names.
import type { Site } from '../site.js';
import { jmaAreasExtractor } from './areas-extractor.js';
import { jmaForecastExtractor } from './forecast-extractor.js';
import { jmaOverviewExtractor } from './overview-extractor.js';

const FORECAST_PATH = /^\/bosai\/forecast\/data\/forecast\/\d{6}\.json$/;
const OVERVIEW_PATH = /^\/bosai\/forecast\/data\/overview_forecast\/\d{6}\.json$/;
const AREAS_PATH = /^\/bosai\/common\/const\/area\.json$/;
const REAL =
  'real JMA responses (Feb 2022) printed by el-jma and converted back to JSON: values and key order as served';

export const jmaForecast: Site = {
  id: 'jma_forecast',
  name: '気象庁 天気予報',
  kind: 'public_data',
  hosts: ['www.jma.go.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  cacheLimit: {
    seconds: 21_600,
    reason:
      'JMA issues forecasts at 05, 11 and 17 JST: an answer older than 6 h may have missed an issue (next-capabilities §4.4)',
  },
  pageTypes: [
    {
      pageType: 'forecast',
      urlPattern: '/bosai/forecast/data/forecast/<6 digits>.json',
      matches: (url) => FORECAST_PATH.test(url.pathname),
      extractor: jmaForecastExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        `the raw forecast/130000.json of 2026-01-05 17:00 (as served); ${REAL}: jma/forecast 130000, 070000, ` +
        '200000; modelled answers (3-day only, a winds array shorter than its times)',
    },
    {
      pageType: 'forecast_overview',
      urlPattern: '/bosai/forecast/data/overview_forecast/<6 digits>.json',
      matches: (url) => OVERVIEW_PATH.test(url.pathname),
      extractor: jmaOverviewExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy: `${REAL}: jma/overview_forecast 070000; a modelled 東京都 overview with a headline`,
    },
    {
      pageType: 'areas',
      cacheLimit: {
        seconds: 86_400,
        reason: 'The list of forecast areas changes a few times a year; kept at most the 24 h cap',
      },
      urlPattern: '/bosai/common/const/area.json',
      matches: (url) => AREAS_PATH.test(url.pathname),
      extractor: jmaAreasExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'the raw area.json (2026-01, as served: 11 centers, 58 offices, 142 class10s, 375 class15s, 1,788 ' +
        'class20s), checked by counts and sampled entries; a modelled small area.json (one region, a class10 ' +
        'sharing its office code, no English name)',
    },
  ],
  secretQueryParams: [],
};
