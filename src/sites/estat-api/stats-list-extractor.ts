// e-Stat API `getStatsList` (JSON): the statistical tables a search found, or the statistics (statsNameList=Y).
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { int, list, obj } from '../../extract/json-path.js';
import type { StatsListData } from '../../extract/page-types.js';
import { attr, estatStatusError, textOf } from './stats-data-extractor.js';
import { readTableInfo } from './table-info.js';

const ID = 'estat_api/list';
const ROOT = 'json:$.GET_STATS_LIST';

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

export const estatStatsListExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'list',
  input: 'json',
  extract(page): Extraction {
    const root = obj(obj(page.json)?.GET_STATS_LIST);
    if (!root) fail('not a getStatsList response (no GET_STATS_LIST)');
    const status = int(obj(root.RESULT)?.STATUS);
    if (status === null) fail('no RESULT.STATUS');
    if (status >= 100) throw estatStatusError(status);
    const datalist = obj(root.DATALIST_INF);
    // STATUS 1 is e-Stat's "no matching data": a search that found nothing, an empty list rather than an error.
    if (!datalist && status !== 1) fail(`e-Stat answered STATUS ${status} without DATALIST_INF`);

    const warnings: string[] = [];
    const tableEntries = list(datalist?.TABLE_INF);
    const tables = tableEntries.flatMap((t) => {
      const info = readTableInfo(t);
      return info ? [info] : [];
    });
    if (tables.length < tableEntries.length) {
      warnings.push(
        `${tableEntries.length - tables.length} TABLE_INF entr(ies) without an id or a title were left out`,
      );
    }
    const statistics = list(datalist?.LIST_INF).flatMap((s) => {
      const statCode = attr(obj(s)?.STAT_NAME, 'code') ?? attr(s, 'id');
      const statName = textOf(obj(s)?.STAT_NAME);
      if (!statCode || !statName) return [];
      return [
        {
          stat_code: statCode,
          stat_name: statName,
          gov_org: textOf(obj(s)?.GOV_ORG),
          gov_org_code: attr(obj(s)?.GOV_ORG, 'code'),
        },
      ];
    });

    const resultInf = obj(datalist?.RESULT_INF);
    const data: StatsListData = {
      total_number: int(datalist?.NUMBER) ?? (status === 1 ? 0 : null),
      from_number: int(resultInf?.FROM_NUMBER),
      to_number: int(resultInf?.TO_NUMBER),
      next_key: int(resultInf?.NEXT_KEY),
      tables,
      statistics,
    };
    const at = `${ROOT}.DATALIST_INF`;
    const provenance = {
      total_number: status === 1 && int(datalist?.NUMBER) === null ? `${ROOT}.RESULT.STATUS` : `${at}.NUMBER`,
      from_number: `${at}.RESULT_INF.FROM_NUMBER`,
      to_number: `${at}.RESULT_INF.TO_NUMBER`,
      next_key: `${at}.RESULT_INF.NEXT_KEY`,
      tables: `${at}.TABLE_INF`,
      statistics: `${at}.LIST_INF`,
    };
    return { data, provenance, warnings };
  },
});
