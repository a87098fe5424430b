// jma_forecast/areas beyond the golden fixtures: the tree checks, key order, and the real file under the output caps.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateExtraction, type AreasData } from '../../extract/page-types.js';
import type { JsonPage } from '../../normalize/page.js';
import { produce } from '../../scrape/produce.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { jmaAreasExtractor } from './areas-extractor.js';
import { jmaForecast } from './site.js';

const URL_AREAS = 'https://www.jma.go.jp/bosai/common/const/area.json';
const json = (value: unknown): JsonPage => ({ kind: 'json', url: URL_AREAS, charset: 'utf-8', json: value });

/** A small tree in area.json's structure; each test breaks one part of it. */
const tree = () => ({
  centers: { '010300': { name: '関東甲信地方', enName: 'Kanto Koshin', officeName: '気象庁', children: ['130000'] } },
  offices: {
    '130000': { name: '東京都', enName: 'Tokyo', officeName: '気象庁', parent: '010300', children: ['130010'] },
  },
  class10s: { '130010': { name: '東京地方', enName: 'Tokyo Region', parent: '130000', children: ['130011'] } },
  class15s: { '130011': { name: '２３区西部', parent: '130010', children: ['1310100'] } } as Record<
    string,
    Record<string, unknown>
  >,
  class20s: {
    '1310100': { name: '千代田区', enName: 'Chiyoda City', kana: 'ちよだく', parent: '130011' },
  } as Record<string, Record<string, unknown>>,
});
const failure = (value: unknown) => {
  try {
    jmaAreasExtractor.extract(json(value));
  } catch (e) {
    return (e as { code?: string; message?: string }).message ?? String(e);
  }
  return 'no error';
};

describe('jma_forecast/areas', () => {
  it('is chosen for area.json only', () => {
    const entry = jmaForecast.pageTypes.find((e) => e.pageType === 'areas')!;
    expect(entry.matches(new URL(URL_AREAS))).toBe(true);
    for (const other of ['/bosai/common/const/area.json.gz', '/bosai/common/const/class20s.json', '/area.json'])
      expect(entry.matches(new URL(`https://www.jma.go.jp${other}`))).toBe(false);
  });

  it('gives one typed list per level, names normalized, en_name and kana null when absent', () => {
    const r = jmaAreasExtractor.extract(json(tree()));
    validateExtraction('areas', r);
    const data = r.data as AreasData;
    expect(data.offices).toEqual([
      {
        code: '130000',
        name: '東京都',
        en_name: 'Tokyo',
        office_name: '気象庁',
        parent: '010300',
        children: ['130010'],
      },
    ]);
    expect(data.class15s[0]).toEqual({
      code: '130011',
      name: '23区西部',
      en_name: null,
      parent: '130010',
      children: ['1310100'],
    });
    expect(data.class20s[0]!.kana).toBe('ちよだく');
    expect(r.provenance).toEqual({
      centers: 'json:$.centers',
      offices: 'json:$.offices',
      class10s: 'json:$.class10s',
      class15s: 'json:$.class15s',
      class20s: 'json:$.class20s',
    });
  });

  it('orders by code, whatever order JSON.parse gives integer-like keys', () => {
    const t = tree();
    t.class20s = {
      '1310100': t.class20s['1310100']!,
      '0110000': { name: '札幌市', kana: 'さっぽろし', parent: '130011' },
    };
    t.class15s['130011']!.children = ['1310100', '0110000'];
    const data = jmaAreasExtractor.extract(json(t)).data as AreasData;
    expect(data.class20s.map((e) => e.code)).toEqual(['0110000', '1310100']);
  });

  it('fails on a tree that does not close, a missing level or name, and a root that is not an object', () => {
    const dangling = tree();
    dangling.class20s['1310100']!.parent = '130019';
    // Seen first from above: 130011 lists a child that names another parent.
    expect(failure(dangling)).toMatch(/class15s: a child that does not name it as parent/);
    const unlisted = tree();
    unlisted.class20s['1310200'] = { name: '中央区', parent: '130011' };
    expect(failure(unlisted)).toMatch(/class20s: a parent that does not list the entry/);
    const orphanChild = tree();
    orphanChild.class15s['130011']!.children = ['1310100', '1319999'];
    expect(failure(orphanChild)).toMatch(/class15s: a child that does not name it as parent/);
    const { class10s: _dropped, ...missingLevel } = tree();
    expect(failure(missingLevel)).toMatch(/no class10s object/);
    const nameless = tree();
    nameless.class20s['1310100']!.name = '　';
    expect(failure(nameless)).toMatch(/class20s: an entry without a name/);
    expect(failure([tree()])).toMatch(/expected a JSON object/);
  });

  it('refuses codes of the wrong length at validation', () => {
    const t = tree();
    t.class20s = { '131010': { name: '千代田区', parent: '130011' } };
    t.class15s['130011']!.children = ['131010'];
    expect(() => validateExtraction('areas', jmaAreasExtractor.extract(json(t)))).toThrow(/class20s\/0\/code/);
  });
});

describe.skipIf(!corpusAvailable())('jma_forecast/areas on the real area.json under the output caps', () => {
  const body = () => new Uint8Array(readFileSync(corpusPath('jma/area.json')));
  const job = () => ({
    extractorId: 'jma_forecast/areas',
    body: body(),
    headers: { 'content-type': 'application/json' },
    finalUrl: URL_AREAS,
    wantData: true,
    wantHtml: false,
  });

  it('is served whole at the default caps (10,000 rows, 20 MiB): 1,788 class20s, no warning', () => {
    const produced = produce(job(), jmaAreasExtractor, { maxRows: 10_000, maxBytes: 20 * 1024 * 1024 });
    const data = produced.extraction!.data as AreasData;
    expect(produced.extraction!.warnings).toEqual([]);
    expect([data.centers, data.offices, data.class10s, data.class15s, data.class20s].map((l) => l.length)).toEqual([
      11, 58, 142, 375, 1788,
    ]);
    expect(data.offices.find((o) => o.code === '130000')).toEqual({
      code: '130000',
      name: '東京都',
      en_name: 'Tokyo',
      office_name: '気象庁',
      parent: '010300',
      children: ['130010', '130020', '130030', '130040'],
    });
  });

  it('a lower row cap cuts the long lists, says so, and the cut answer still validates', () => {
    const produced = produce(job(), jmaAreasExtractor, { maxRows: 1000, maxBytes: 20 * 1024 * 1024 });
    expect(produced.extraction!.warnings).toEqual(['rows_truncated:class20s:1000/1788']);
    expect((produced.extraction!.data as AreasData).class20s).toHaveLength(1000);
  });
});
