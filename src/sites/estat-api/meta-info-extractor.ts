// e-Stat API `getMetaInfo` (JSON): one statistical table described (TABLE_INF) with its classification axes.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { int, obj } from '../../extract/json-path.js';
import type { EstatMetaData } from '../../extract/page-types.js';
import { estatStatusError, readClasses } from './stats-data-extractor.js';
import { readTableInfo, tableInfoProvenance } from './table-info.js';

const ID = 'estat_api/meta';
const ROOT = 'json:$.GET_META_INFO';

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

export const estatMetaInfoExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'meta',
  input: 'json',
  extract(page): Extraction {
    const root = obj(obj(page.json)?.GET_META_INFO);
    if (!root) fail('not a getMetaInfo response (no GET_META_INFO)');
    const status = int(obj(root.RESULT)?.STATUS);
    // As for getStatsData: ≥100 is e-Stat refusing (100: the appId); its ERROR_MSG is never passed on.
    if (status === null) fail('no RESULT.STATUS');
    if (status >= 100) throw estatStatusError(status);
    const meta = obj(root.METADATA_INF);
    const info = readTableInfo(meta?.TABLE_INF);
    if (!meta || !info) fail(`e-Stat answered STATUS ${status} without a described table (TABLE_INF)`);
    const classes = readClasses(meta.CLASS_INF);
    // A table is described by its axes: without them the answer is not what getMetaInfo promises.
    if (classes.length === 0) fail('no CLASS_INF.CLASS_OBJ');

    const data: EstatMetaData = { ...info, classes };
    const provenance = {
      ...tableInfoProvenance(`${ROOT}.METADATA_INF.TABLE_INF`),
      classes: `${ROOT}.METADATA_INF.CLASS_INF.CLASS_OBJ`,
    };
    return { data, provenance, warnings: [] };
  },
});
