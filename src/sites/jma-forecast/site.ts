// 気象庁 防災情報 JSON (www.jma.go.jp/bosai): forecasts and weather overviews per forecast office.
import type { Site } from '../site.js';
import { jmaForecastExtractor } from './forecast-extractor.js';
import { jmaOverviewExtractor } from './overview-extractor.js';

const FORECAST_PATH = /^\/bosai\/forecast\/data\/forecast\/\d{6}\.json$/;
const OVERVIEW_PATH = /^\/bosai\/forecast\/data\/overview_forecast\/\d{6}\.json$/;
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
  pageTypes: [
    {
      pageType: 'forecast',
      urlPattern: '/bosai/forecast/data/forecast/<6 digits>.json',
      matches: (url) => FORECAST_PATH.test(url.pathname),
      extractor: jmaForecastExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy: `${REAL}: jma/forecast 130000, 070000, 200000`,
    },
    {
      pageType: 'forecast_overview',
      urlPattern: '/bosai/forecast/data/overview_forecast/<6 digits>.json',
      matches: (url) => OVERVIEW_PATH.test(url.pathname),
      extractor: jmaOverviewExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy: `${REAL}: jma/overview_forecast 070000`,
    },
  ],
  secretQueryParams: [],
};
