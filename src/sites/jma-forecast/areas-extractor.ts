// 気象庁 bosai area names (`common/const/area.json`) → `areas`: one list per level, with codes, names and the tree.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { arr, obj, str, type JsonObject } from '../../extract/json-path.js';
import type { AreasData } from '../../extract/page-types.js';
import { jsonText } from '../../extract/text-or-null.js';

const ID = 'jma_forecast/areas';
const LEVELS = ['centers', 'offices', 'class10s', 'class15s', 'class20s'] as const;
type Level = (typeof LEVELS)[number];

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

/** Codes of a `children` list; a child that is not a string is a broken answer, not one to drop. */
function codes(value: unknown, at: string): string[] {
  const list = arr(value).map(str);
  if (list.some((c) => c === null)) fail(`${at}: a child code that is not a string`);
  return list as string[];
}

/** A level's entries ordered by code: JSON.parse puts integer-like keys ("130000") before "011000", JMA does not. */
function entriesOf(root: JsonObject, level: Level): [string, JsonObject][] {
  const value = obj(root[level]);
  if (!value) fail(`no ${level} object`);
  return Object.keys(value)
    .sort()
    .map((code) => {
      const entry = obj(value[code]);
      if (!entry) fail(`${level}: an entry that is not an object`);
      return [code, entry];
    });
}

export const jmaAreasExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'areas',
  input: 'json',
  extract(page): Extraction {
    const root = obj(page.json);
    if (!root) fail('expected a JSON object');
    const [centers, offices, class10s, class15s, class20s] = LEVELS.map((level) => entriesOf(root, level));
    const names = (code: string, e: JsonObject, level: Level) => {
      const name = jsonText(e.name);
      if (!name) fail(`${level}: an entry without a name`);
      return { code, name, en_name: jsonText(e.enName) };
    };
    const parent = (e: JsonObject, level: Level) => {
      const p = str(e.parent);
      if (!p) fail(`${level}: an entry without a parent`);
      return p;
    };
    const officeName = (e: JsonObject, level: Level) => {
      const o = jsonText(e.officeName);
      if (!o) fail(`${level}: an entry without officeName`);
      return o;
    };
    const data: AreasData = {
      centers: centers!.map(([code, e]) => ({
        ...names(code, e, 'centers'),
        office_name: officeName(e, 'centers'),
        children: codes(e.children, 'centers'),
      })),
      offices: offices!.map(([code, e]) => ({
        ...names(code, e, 'offices'),
        office_name: officeName(e, 'offices'),
        parent: parent(e, 'offices'),
        children: codes(e.children, 'offices'),
      })),
      class10s: class10s!.map(([code, e]) => ({
        ...names(code, e, 'class10s'),
        parent: parent(e, 'class10s'),
        children: codes(e.children, 'class10s'),
      })),
      class15s: class15s!.map(([code, e]) => ({
        ...names(code, e, 'class15s'),
        parent: parent(e, 'class15s'),
        children: codes(e.children, 'class15s'),
      })),
      class20s: class20s!.map(([code, e]) => ({
        ...names(code, e, 'class20s'),
        kana: jsonText(e.kana),
        parent: parent(e, 'class20s'),
      })),
    };
    checkTree(data);
    const provenance = Object.fromEntries(LEVELS.map((level) => [level, `json:$.${level}`]));
    return { data, provenance, warnings: [] };
  },
});

/**
 * Every parent and child names an entry of the level above or below, and a parent lists its child: a tree that does
 * not close is a broken answer (a code taken for a name would be a silent error). Checked here, on the whole answer,
 * not by the output validation: the row cap may cut a long list (class20s) after extraction, and what is cut is named
 * in the warnings.
 */
function checkTree(data: AreasData): void {
  const lists: { level: Level; entries: { code: string; parent?: string; children?: string[] }[] }[] = LEVELS.map(
    (level) => ({ level, entries: data[level] }),
  );
  const byCode = lists.map((l) => new Map(l.entries.map((e) => [e.code, e])));
  lists.forEach(({ level, entries }, i) => {
    if (byCode[i]!.size !== entries.length) fail(`${level}: a code twice`);
    for (const entry of entries) {
      if (i > 0) {
        const up = byCode[i - 1]!.get(entry.parent ?? '');
        if (!up?.children?.includes(entry.code)) fail(`${level}: a parent that does not list the entry`);
      }
      for (const child of entry.children ?? [])
        if (byCode[i + 1]?.get(child)?.parent !== entry.code) fail(`${level}: a child that does not name it as parent`);
    }
  });
}
