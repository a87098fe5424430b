// e-Stat TABLE_INF (one statistical table described), read the same way for `meta` and each `list` entry.
import { int, obj, str } from '../../extract/json-path.js';
import type { EstatMetaData } from '../../extract/page-types.js';
import { attr, estatDate, surveyPeriod, textOf } from './stats-data-extractor.js';

export { estatDate };

export type TableInfo = Omit<EstatMetaData, 'classes'>;

function codeName(value: unknown): TableInfo['main_category'] {
  const code = attr(value, 'code');
  const name = textOf(value);
  return code && name ? { code, name } : null;
}

/** null when the entry has no `@id` (not a table); a missing title falls back to STATISTICS_NAME, as `table` does. */
export function readTableInfo(value: unknown): TableInfo | null {
  const table = obj(value);
  const id = attr(table, 'id');
  if (!table || !id) return null;
  const title = textOf(table.TITLE) ?? textOf(table.STATISTICS_NAME);
  if (!title) return null;
  // SURVEY_DATE is a string in API 2.0 and often a bare number (201510) in 3.0; `0` means not stated.
  const surveyDate = str(table.SURVEY_DATE)?.trim() || null;
  const cycle = textOf(table.CYCLE);
  return {
    table_id: id,
    title,
    title_no: attr(table.TITLE, 'no'),
    stat_name: textOf(table.STAT_NAME),
    stat_code: attr(table.STAT_NAME, 'code'),
    gov_org: textOf(table.GOV_ORG),
    statistics_name: textOf(table.STATISTICS_NAME),
    cycle,
    survey_date: surveyDate,
    survey_period: surveyPeriod(surveyDate),
    open_date: estatDate(table.OPEN_DATE),
    updated_date: estatDate(table.UPDATED_DATE),
    small_area: int(table.SMALL_AREA),
    collect_area: textOf(table.COLLECT_AREA),
    main_category: codeName(table.MAIN_CATEGORY),
    sub_category: codeName(table.SUB_CATEGORY),
    overall_total_number: int(table.OVERALL_TOTAL_NUMBER),
  };
}

/** Where each TableInfo field comes from, under `at` (the TABLE_INF path). */
export function tableInfoProvenance(at: string): Record<keyof TableInfo, string> {
  return {
    table_id: `${at}["@id"]`,
    title: `${at}.TITLE`,
    title_no: `${at}.TITLE["@no"]`,
    stat_name: `${at}.STAT_NAME`,
    stat_code: `${at}.STAT_NAME["@code"]`,
    gov_org: `${at}.GOV_ORG`,
    statistics_name: `${at}.STATISTICS_NAME`,
    cycle: `${at}.CYCLE`,
    survey_date: `${at}.SURVEY_DATE`,
    survey_period: `${at}.SURVEY_DATE`,
    open_date: `${at}.OPEN_DATE`,
    updated_date: `${at}.UPDATED_DATE`,
    small_area: `${at}.SMALL_AREA`,
    collect_area: `${at}.COLLECT_AREA`,
    main_category: `${at}.MAIN_CATEGORY`,
    sub_category: `${at}.SUB_CATEGORY`,
    overall_total_number: `${at}.OVERALL_TOTAL_NUMBER`,
  };
}
