// e-Stat API `getStatsData` (JSON): table metadata, class code lists, and every cell typed, naming its class items by code.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { int, list, obj, str, type JsonObject } from '../../extract/json-path.js';
import { jsonText } from '../../extract/text-or-null.js';
import type { TableData } from '../../extract/page-types.js';
import { parseTableNumber, type MarkNote } from '../../normalize/number.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'estat_api/table';
const ROOT = 'json:$.GET_STATS_DATA';

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

/**
 * e-Stat's error STATUS in our words: 100 is its "authentication failed" (the caller's appId was refused), like an
 * HTTP 401/403 from a page site; anything else ≥ 100 is the API refusing the request or failing itself.
 */
export function estatStatusError(status: number): KumoError {
  if (status === 100) {
    return new KumoError('target_blocked', 'e-Stat refused the application ID (appId) given in the URL (STATUS 100)');
  }
  return new KumoError('fetch_failed', `e-Stat refused the request or failed to answer it (STATUS ${status})`);
}

/** e-Stat writes text either bare or as `{ "@code": …, "$": … }`; the `$` is the text. */
export function textOf(value: unknown): string | null {
  // e-Stat gives a text either bare or as an object's `$`.
  return jsonText(value) ?? jsonText(obj(value)?.$);
}

export function attr(value: unknown, name: string): string | null {
  return str(obj(value)?.[`@${name}`]);
}

/** SURVEY_DATE is `yyyymm-yyyymm`, `yyyymm`, `yyyy` or `0` (not stated). */
export function surveyPeriod(raw: string | null): TableData['survey_period'] {
  if (!raw) return null;
  const part = (s: string) => (s.length === 6 ? `${s.slice(0, 4)}-${s.slice(4)}` : s.length === 4 ? s : null);
  const m = /^(\d{4}(?:\d{2})?)(?:-(\d{4}(?:\d{2})?))?$/.exec(raw.trim());
  if (!m?.[1]) return null;
  const start = part(m[1]);
  const end = part(m[2] ?? m[1]);
  return start && end ? { start, end } : null;
}

/**
 * OPEN_DATE and UPDATED_DATE are `YYYY-MM-DD` in every answer we have seen; a bare `YYYYMMDD` or `YYYYMM` is
 * written out the same ISO way, and anything else is kept as written rather than guessed at.
 */
export function estatDate(value: unknown): string | null {
  const raw = str(value)?.trim();
  if (!raw) return null;
  const m = /^(\d{4})-?(\d{2})(?:-?(\d{2}))?$/.exec(raw);
  if (!m) return raw;
  return m[3] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}`;
}

/** CLASS_INF → classification axes; CLASS_OBJ and CLASS may each be a bare object where the list has one entry. */
export function readClasses(classInf: unknown): TableData['classes'] {
  const classes: TableData['classes'] = [];
  for (const objValue of list(obj(classInf)?.CLASS_OBJ)) {
    const classObj = obj(objValue);
    const id = attr(classObj, 'id');
    if (!classObj || !id) continue;
    const items = list(classObj.CLASS).flatMap((c) => {
      const code = attr(c, 'code');
      if (!code) return [];
      const level = attr(c, 'level');
      return [
        {
          code,
          name: normalizeText(attr(c, 'name') ?? ''),
          level: level !== null && /^\d+$/.test(level) ? Number(level) : null,
          parent_code: attr(c, 'parentCode'),
          unit: attr(c, 'unit'),
        },
      ];
    });
    classes.push({ id, name: normalizeText(attr(classObj, 'name') ?? id), items });
  }
  return classes;
}

export const estatStatsDataExtractor = defineExtractor({
  id: ID,
  // 2: rows[].classes maps a class id to its item code (the item's name is in `classes`).
  // 3: open_date/updated_date written as ISO when e-Stat gives YYYYMMDD or YYYYMM (as `meta` and `list` do).
  version: 3,
  pageType: 'table',
  input: 'json',
  extract(page): Extraction {
    const root = obj(obj(page.json)?.GET_STATS_DATA);
    if (!root) fail('not a getStatsData response (no GET_STATS_DATA)');
    const result = obj(root.RESULT);
    const status = int(result?.STATUS);
    // 0 is success; 1 and 2 are successes with caveats (no data / some conditions ignored); ≥100 are errors,
    // 100 being a bad appId. ERROR_MSG is never passed on: it is text the target controls (DESIGN §4).
    if (status === null) fail('no RESULT.STATUS');
    if (status >= 100) throw estatStatusError(status);
    const data = obj(root.STATISTICAL_DATA);
    const table = obj(data?.TABLE_INF);
    if (!data || !table) fail(`e-Stat answered STATUS ${status} without a table`);

    const classes = readClasses(data.CLASS_INF);
    // Only units are looked up per row: a value needs its unit beside it. Names stay in `classes`.
    const units = new Map(
      classes.map((c) => [c.id, new Map(c.items.flatMap((i) => (i.unit === null ? [] : [[i.code, i.unit] as const])))]),
    );

    const dataInf = obj(data.DATA_INF);
    const notes: TableData['notes'] = list(dataInf?.NOTE).flatMap((n) => {
      const mark = attr(n, 'char');
      return mark === null ? [] : [{ mark, meaning: normalizeText(str(obj(n)?.$) ?? '') }];
    });
    const legend: MarkNote[] = notes.map((n) => ({ mark: n.mark, meaning: n.meaning }));

    let unparsed = 0;
    const rows: TableData['rows'] = list(dataInf?.VALUE).map((v) => {
      const cell: JsonObject = obj(v) ?? { $: str(v) ?? '' };
      const raw = str(cell.$) ?? '';
      // A row names its class items by code only: their names and units are written once, in `classes`. Copying
      // them into every row turned a 5 MB answer with long names into a 162 MB body (issue 7).
      const rowClasses: TableData['rows'][number]['classes'] = {};
      let classUnit: string | null = null;
      for (const [key, value] of Object.entries(cell)) {
        if (!key.startsWith('@') || key === '@unit' || key === '@annotation') continue;
        const id = key.slice(1);
        const code = str(value);
        if (!code) continue;
        rowClasses[id] = code;
        classUnit ??= units.get(id)?.get(code) ?? null;
      }
      const parsed = parseTableNumber(raw, legend);
      if (!parsed) unparsed++;
      const number = parsed ?? { value: null, reason: 'unavailable' as const };
      return {
        classes: rowClasses,
        value: number.value,
        ...(number.reason ? { reason: number.reason } : {}),
        ...(number.flags ? { flags: number.flags } : {}),
        raw,
        unit: str(cell['@unit']) ?? classUnit,
      };
    });

    const surveyDate = str(table.SURVEY_DATE);
    const out: TableData = {
      title: textOf(table.TITLE) ?? textOf(table.STATISTICS_NAME) ?? '',
      table_id: attr(table, 'id') ?? '',
      title_no: attr(table.TITLE, 'no'),
      stat_name: textOf(table.STAT_NAME),
      stat_code: attr(table.STAT_NAME, 'code'),
      gov_org: textOf(table.GOV_ORG),
      statistics_name: textOf(table.STATISTICS_NAME),
      survey_date: surveyDate,
      survey_period: surveyPeriod(surveyDate),
      open_date: estatDate(table.OPEN_DATE),
      updated_date: estatDate(table.UPDATED_DATE),
      total_number: int(obj(data.RESULT_INF)?.TOTAL_NUMBER),
      from_number: int(obj(data.RESULT_INF)?.FROM_NUMBER),
      to_number: int(obj(data.RESULT_INF)?.TO_NUMBER),
      next_key: int(obj(data.RESULT_INF)?.NEXT_KEY),
      classes,
      notes,
      rows,
    };
    const warnings =
      unparsed > 0 ? [`${unparsed} value(s) were neither numbers nor marks in the table's NOTE; served as null`] : [];
    const provenance = {
      title: `${ROOT}.STATISTICAL_DATA.TABLE_INF.TITLE`,
      table_id: `${ROOT}.STATISTICAL_DATA.TABLE_INF["@id"]`,
      title_no: `${ROOT}.STATISTICAL_DATA.TABLE_INF.TITLE["@no"]`,
      stat_name: `${ROOT}.STATISTICAL_DATA.TABLE_INF.STAT_NAME`,
      stat_code: `${ROOT}.STATISTICAL_DATA.TABLE_INF.STAT_NAME["@code"]`,
      gov_org: `${ROOT}.STATISTICAL_DATA.TABLE_INF.GOV_ORG`,
      statistics_name: `${ROOT}.STATISTICAL_DATA.TABLE_INF.STATISTICS_NAME`,
      survey_date: `${ROOT}.STATISTICAL_DATA.TABLE_INF.SURVEY_DATE`,
      survey_period: `${ROOT}.STATISTICAL_DATA.TABLE_INF.SURVEY_DATE`,
      open_date: `${ROOT}.STATISTICAL_DATA.TABLE_INF.OPEN_DATE`,
      updated_date: `${ROOT}.STATISTICAL_DATA.TABLE_INF.UPDATED_DATE`,
      total_number: `${ROOT}.STATISTICAL_DATA.RESULT_INF.TOTAL_NUMBER`,
      from_number: `${ROOT}.STATISTICAL_DATA.RESULT_INF.FROM_NUMBER`,
      to_number: `${ROOT}.STATISTICAL_DATA.RESULT_INF.TO_NUMBER`,
      next_key: `${ROOT}.STATISTICAL_DATA.RESULT_INF.NEXT_KEY`,
      classes: `${ROOT}.STATISTICAL_DATA.CLASS_INF.CLASS_OBJ`,
      notes: `${ROOT}.STATISTICAL_DATA.DATA_INF.NOTE`,
      rows: `${ROOT}.STATISTICAL_DATA.DATA_INF.VALUE`,
    };
    return { data: out, provenance, warnings };
  },
});
