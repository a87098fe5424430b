// JMA extractors on shapes the golden fixtures do not cover: wrong roots, weekly-only answers, bad numbers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateExtraction, type ForecastData } from '../../extract/page-types.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import type { JsonPage } from '../../normalize/page.js';
import { jmaForecastExtractor } from './forecast-extractor.js';
import { jmaOverviewExtractor } from './overview-extractor.js';

const json = (value: unknown): JsonPage => ({
  kind: 'json',
  url: 'https://www.jma.go.jp/x.json',
  charset: 'utf-8',
  json: value,
});
const weekly = {
  publishingOffice: '札幌管区気象台',
  reportDatetime: '2024-01-10T17:00:00+09:00',
  timeSeries: [
    {
      timeDefines: ['2024-01-11T00:00:00+09:00'],
      areas: [{ area: { name: '石狩地方', code: '016010' }, weatherCodes: ['400'], pops: ['80'], reliabilities: [''] }],
    },
  ],
  tempAverage: { areas: [{ area: { name: '札幌', code: '14163' }, min: '-6.1', max: '-0.4' }] },
};

describe('jma_forecast/forecast', () => {
  it('accepts a weekly-only answer with short_term null', () => {
    const r = jmaForecastExtractor.extract(json([weekly]));
    validateExtraction('forecast', r);
    expect(r.data).toMatchObject({
      publishing_office: '札幌管区気象台',
      short_term: null,
      weekly: {
        areas: [{ code: '016010', days: [{ weather_code: '400', pop: 80, reliability: null }] }],
        temp_average: [{ code: '14163', name: '札幌', min: -6.1, max: -0.4 }],
        precip_average: [],
      },
    });
  });

  it.each([
    ['an object instead of the report array', { publishingOffice: 'x' }],
    ['an empty array', []],
    ['a report without an office', [{ ...weekly, publishingOffice: '' }]],
    [
      'a non-numeric pop',
      [
        {
          ...weekly,
          timeSeries: [
            {
              ...weekly.timeSeries[0],
              areas: [{ area: { name: 'a', code: '1' }, weatherCodes: ['1'], pops: ['多い'], reliabilities: ['A'] }],
            },
          ],
        },
      ],
    ],
    [
      'an area without a code',
      [
        {
          ...weekly,
          timeSeries: [
            { ...weekly.timeSeries[0], areas: [{ area: { name: 'a' }, pops: ['1'], reliabilities: ['A'] }] },
          ],
        },
      ],
    ],
  ])('fails on %s', (_name, value) => {
    expect(() => jmaForecastExtractor.extract(json(value))).toThrow(
      expect.objectContaining({ code: 'extraction_failed' }),
    );
  });
});

describe('jma_forecast/forecast_overview', () => {
  it('keeps a headline, and an empty bulletin fails validation', () => {
    const r = jmaOverviewExtractor.extract(
      json({
        publishingOffice: '気象庁',
        reportDatetime: '2024-01-10T10:40:00+09:00',
        targetArea: '東京都',
        headlineText: '［大雪］',
        text: '本文',
      }),
    );
    expect(r.data.headline).toBe('[大雪]');
    const empty = jmaOverviewExtractor.extract(
      json({ publishingOffice: '気象庁', reportDatetime: '2024-01-10T10:40:00+09:00', targetArea: '東京都', text: '' }),
    );
    expect(() => validateExtraction('forecast_overview', empty)).toThrow(/\/text invalid/);
  });
});

describe('jma_forecast/forecast on the raw 2026 response (issue 9: the current format must read)', () => {
  it.skipIf(!corpusAvailable())('gives the MANIFEST values of forecast/130000.json as served on 2026-01-05', () => {
    const raw = JSON.parse(readFileSync(corpusPath('jma/130000_20260105T1700.json'), 'utf8')) as unknown;
    const r = jmaForecastExtractor.extract(json(raw));
    validateExtraction('forecast', r);
    const data = r.data as ForecastData;
    expect(data.publishing_office).toBe('気象庁');
    expect(data.report_datetime).toBe('2026-01-05T17:00:00+09:00');
    const tokyo = data.short_term!.areas.find((a) => a.code === '130010')!;
    expect(tokyo.name).toBe('東京地方');
    // The file's full-width spaces are normalized (ja-extract), the words kept.
    expect(tokyo.weathers.map((w) => w.weather)).toEqual(['晴れ 夜遅く くもり', '晴れ 朝晩 くもり', 'くもり 後 晴れ']);
    const point = data.short_term!.temperature_points.find((t) => t.code === '44132')!;
    expect(point.temps.map((t) => t.temp)).toEqual([2, 11]);
    expect(data.weekly!.temp_average.find((a) => a.code === '44132')).toMatchObject({
      name: '東京',
      min: 1.4,
      max: 10,
    });
  });
});
