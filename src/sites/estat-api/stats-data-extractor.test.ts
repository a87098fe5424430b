// e-Stat extractor on answers the golden fixtures do not cover: no-data status, unknown cell text, odd roots.
import { describe, expect, it } from 'vitest';
import type { JsonPage } from '../../normalize/page.js';
import { estatStatsDataExtractor } from './stats-data-extractor.js';

const json = (value: unknown): JsonPage => ({
  kind: 'json',
  url: 'https://api.e-stat.go.jp/x',
  charset: 'utf-8',
  json: value,
});
const table = (value: unknown) => ({
  GET_STATS_DATA: {
    RESULT: { STATUS: 0, ERROR_MSG: '正常に終了しました。' },
    STATISTICAL_DATA: {
      TABLE_INF: { '@id': '1', TITLE: { '@no': '1', $: '表' } },
      CLASS_INF: { CLASS_OBJ: { '@id': 'cat01', '@name': '項目', CLASS: { '@code': '1', '@name': '人口' } } },
      DATA_INF: { VALUE: value },
    },
  },
});

describe('estat_api/table', () => {
  it('reads a single VALUE object and class lists given as bare objects', () => {
    const r = estatStatsDataExtractor.extract(json(table({ '@cat01': '1', $: '1,234' })));
    expect(r.data.rows).toEqual([{ classes: { cat01: '1' }, value: 1234, raw: '1,234', unit: null }]);
    expect(r.warnings).toEqual([]);
  });

  it('serves unknown cell text as null with a warning, never a guessed number', () => {
    const r = estatStatsDataExtractor.extract(json(table([{ '@cat01': '1', $: '約100' }])));
    expect(r.data.rows).toEqual([
      { classes: { cat01: '1' }, value: null, reason: 'unavailable', raw: '約100', unit: null },
    ]);
    expect(r.warnings[0]).toMatch(/1 value\(s\) were neither numbers nor marks/);
  });

  it('names class items by code in rows: names declared once are not copied per row', () => {
    const longName = '長い分類名'.repeat(200);
    const rows = 50_000;
    const response = {
      GET_STATS_DATA: {
        RESULT: { STATUS: 0 },
        STATISTICAL_DATA: {
          TABLE_INF: { '@id': '1', TITLE: '表' },
          CLASS_INF: {
            CLASS_OBJ: ['cat01', 'cat02', 'cat03'].map((id) => ({
              '@id': id,
              '@name': longName,
              CLASS: Array.from({ length: 10 }, (_, i) => ({
                '@code': String(i),
                '@name': `${longName}${i}`,
              })),
            })),
          },
          DATA_INF: {
            VALUE: Array.from({ length: rows }, (_, i) => ({
              '@cat01': String(i % 10),
              '@cat02': String((i >> 3) % 10),
              '@cat03': String((i >> 6) % 10),
              $: String(i),
            })),
          },
        },
      },
    };
    const input = JSON.stringify(response).length;
    const r = estatStatsDataExtractor.extract(json(response));
    const output = JSON.stringify(r.data).length;
    expect((r.data.rows as unknown[]).length).toBe(rows);
    expect((r.data.rows as unknown[])[1]).toEqual({
      classes: { cat01: '1', cat02: '0', cat03: '0' },
      value: 1,
      raw: '1',
      unit: null,
    });
    // Output grows with the input, not with rows × declared names (it was 50× here).
    expect(output).toBeLessThan(input * 2);
  });

  it("keeps a cell's own @unit on its row", () => {
    const r = estatStatsDataExtractor.extract(json(table([{ '@cat01': '1', '@unit': '人', $: '5' }])));
    expect(r.data.rows).toEqual([{ classes: { cat01: '1' }, value: 5, raw: '5', unit: '人' }]);
  });

  it.each([
    [
      'no data (STATUS 1, no table)',
      { GET_STATS_DATA: { RESULT: { STATUS: 1, ERROR_MSG: '正常に終了しましたが、該当データはありませんでした。' } } },
    ],
    ['another API answer', { GET_META_INFO: {} }],
    ['an array', []],
  ])('fails on %s', (_name, value) => {
    expect(() => estatStatsDataExtractor.extract(json(value))).toThrow(
      expect.objectContaining({ code: 'extraction_failed' }),
    );
  });

  // The contract changed (issue 7 §5): e-Stat's ERROR_MSG is target text and never reaches a caller; its STATUS is
  // mapped to our own code and wording. STATUS 100 (bad appId) used to be extraction_failed quoting ERROR_MSG.
  const planted = '<script>PLANTED-BY-TARGET call +81-0-0000</script>';
  it.each([
    [100, 'target_blocked'],
    [101, 'fetch_failed'],
    [200, 'fetch_failed'],
    [300, 'fetch_failed'],
  ])('maps error STATUS %i to %s in our words, never echoing ERROR_MSG', (status, code) => {
    let thrown: unknown;
    try {
      estatStatsDataExtractor.extract(json({ GET_STATS_DATA: { RESULT: { STATUS: status, ERROR_MSG: planted } } }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code });
    expect(
      JSON.stringify({ message: (thrown as Error).message, extras: (thrown as { extras: unknown }).extras }),
    ).not.toContain('PLANTED');
  });

  it('does not echo ERROR_MSG when a success STATUS comes without a table', () => {
    expect(() =>
      estatStatsDataExtractor.extract(json({ GET_STATS_DATA: { RESULT: { STATUS: 1, ERROR_MSG: planted } } })),
    ).toThrow(expect.objectContaining({ code: 'extraction_failed', message: expect.not.stringContaining('PLANTED') }));
  });
});
