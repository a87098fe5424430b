// e-Stat getMetaInfo / getStatsList extractors and URL routing on answers the golden fixtures do not cover.
import { describe, expect, it } from 'vitest';
import type { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import type { JsonPage } from '../../normalize/page.js';
import { estatMetaInfoExtractor } from './meta-info-extractor.js';
import { estatApi } from './site.js';
import { estatStatsListExtractor } from './stats-list-extractor.js';
import { estatDate } from './table-info.js';

const json = (value: unknown): JsonPage => ({
  kind: 'json',
  url: 'https://api.e-stat.go.jp/x',
  charset: 'utf-8',
  json: value,
});
const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e as KumoError;
  }
  throw new Error('did not throw');
};
const tableInf = (extra: object = {}) => ({ '@id': '0000000009', TITLE: { '@no': '1', $: '表' }, ...extra });

describe('estat_api URL routing', () => {
  const typeOf = (u: string) => estatApi.pageTypes.find((p) => p.matches(new URL(u)))?.pageType ?? null;
  it.each([
    ['https://api.e-stat.go.jp/rest/2.0/app/json/getMetaInfo?appId=A&statsDataId=0003014522', 'meta'],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo?appId=A&statsDataId=0003014522', 'meta'],
    ['https://api.e-stat.go.jp/rest/2.0/app/json/getStatsList?appId=A&statsCode=00200502', 'list'],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getStatsList?appId=A&searchWord=x', 'list'],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?appId=A&statsDataId=1', 'table'],
    ['https://api.e-stat.go.jp/rest/3.0/app/xml/getStatsList?appId=A', null],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getDataCatalog?appId=A', null],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfoX?appId=A', null],
  ])('%s → %s', (url, type) => expect(typeOf(url)).toBe(type));

  it('keeps appId a secret query parameter for every page type', () => {
    expect(estatApi.secretQueryParams).toEqual(['appId']);
  });
});

describe('estat_api/meta', () => {
  const meta = (metadata: unknown, status = 0) => ({
    GET_META_INFO: { RESULT: { STATUS: status }, METADATA_INF: metadata },
  });

  it('reads a single CLASS_OBJ given as a bare object and validates against the schema', () => {
    const r = estatMetaInfoExtractor.extract(
      json(
        meta({
          TABLE_INF: tableInf(),
          CLASS_INF: { CLASS_OBJ: { '@id': 'cat01', '@name': '男女', CLASS: { '@code': '1', '@name': '男' } } },
        }),
      ),
    );
    expect(r.data.classes).toEqual([
      { id: 'cat01', name: '男女', items: [{ code: '1', name: '男', level: null, parent_code: null, unit: null }] },
    ]);
    expect(() => validateExtraction('meta', r)).not.toThrow();
    for (const field of Object.keys(r.data)) expect(r.provenance[field], field).toBeTruthy();
  });

  it.each([
    [100, 'target_blocked'],
    [101, 'fetch_failed'],
  ])('STATUS %i is %s, never e-Stat’s message', (status, code) => {
    const e = errorOf(() =>
      estatMetaInfoExtractor.extract(json({ GET_META_INFO: { RESULT: { STATUS: status, ERROR_MSG: '秘密の文言' } } })),
    );
    expect(e.code).toBe(code);
    expect(e.message).not.toContain('秘密');
  });

  it('refuses other API answers and tables without an id', () => {
    expect(errorOf(() => estatMetaInfoExtractor.extract(json({ GET_STATS_DATA: {} }))).code).toBe('extraction_failed');
    const noId = meta({
      TABLE_INF: { TITLE: '表' },
      CLASS_INF: { CLASS_OBJ: { '@id': 'c', CLASS: { '@code': '1' } } },
    });
    expect(errorOf(() => estatMetaInfoExtractor.extract(json(noId))).code).toBe('extraction_failed');
  });
});

describe('estat_api/list', () => {
  const listOf = (datalist: unknown, status = 0) => ({
    GET_STATS_LIST: { RESULT: { STATUS: status }, DATALIST_INF: datalist },
  });

  it('leaves out entries without an id or title, with a warning, and keeps page order', () => {
    const r = estatStatsListExtractor.extract(
      json(listOf({ NUMBER: 3, TABLE_INF: [tableInf({ '@id': 'a' }), { TITLE: 'no id' }, tableInf({ '@id': 'b' })] })),
    );
    expect((r.data.tables as { table_id: string }[]).map((t) => t.table_id)).toEqual(['a', 'b']);
    expect(r.warnings).toHaveLength(1);
    expect(() => validateExtraction('list', r)).not.toThrow();
  });

  it('reads an empty DATALIST_INF as an empty list and STATUS 0 without it as a failure', () => {
    const empty = estatStatsListExtractor.extract(json(listOf({ NUMBER: 0 }, 1)));
    expect(empty.data).toMatchObject({ total_number: 0, tables: [], statistics: [] });
    expect(errorOf(() => estatStatsListExtractor.extract(json(listOf(undefined, 0)))).code).toBe('extraction_failed');
  });

  it('reads several LIST_INF statistics', () => {
    const r = estatStatsListExtractor.extract(
      json(
        listOf({
          NUMBER: 2,
          LIST_INF: [
            {
              '@id': '00200521',
              STAT_NAME: { '@code': '00200521', $: '国勢調査' },
              GOV_ORG: { '@code': '00200', $: '総務省' },
            },
            { '@id': '00200522', STAT_NAME: { '@code': '00200522', $: '住宅・土地統計調査' } },
          ],
        }),
      ),
    );
    expect(r.data.statistics).toEqual([
      { stat_code: '00200521', stat_name: '国勢調査', gov_org: '総務省', gov_org_code: '00200' },
      { stat_code: '00200522', stat_name: '住宅・土地統計調査', gov_org: null, gov_org_code: null },
    ]);
  });
});

describe('estatDate', () => {
  it.each([
    ['2016-04-06', '2016-04-06'],
    ['20160406', '2016-04-06'],
    ['201604', '2016-04'],
    [201604, '2016-04'],
    ['', null],
    ['平成28年', '平成28年'],
  ])('%s → %s', (input, out) => expect(estatDate(input)).toBe(out));
});
