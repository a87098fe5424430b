// 株式投資メモ (kabuoji3.com) daily price pages: the stock_data_table rows as dated OHLC, volume and adjusted close.
import { KumoError } from '../../errors.js';
import {
  DAILY_PRICE_COLUMNS,
  PRICE_TABLE_PARTS,
  datedRow,
  knownColumns,
  type DataColumn,
} from '../../extract/dated-rows.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { DataTableData } from '../../extract/page-types.js';
import { all, elementText, selectMany, textOf } from '../../extract/selectors.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'kabuoji3/table';
const TABLE = 'table.stock_data_table';
// The page's own headings; a heading not listed here means the layout changed, and we stop rather than guess.
const COLUMNS: Readonly<Record<string, DataColumn>> = {
  ...DAILY_PRICE_COLUMNS,
  出来高: { key: 'volume', label: '出来高', type: 'number', unit: '株' },
  終値調整: { key: 'adjusted_close', label: '終値調整', type: 'number', unit: '円' },
};

// The page is read in one walk (tables, subject, title), each table in one more (its headings and rows).
const PAGE_PARTS = {
  first: { subject: 'h2.base_box_ttl span.jp', title: 'h1.page_name' },
  all: { tables: TABLE },
} as const;

export const kabuoji3PriceTableExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'table',
  input: 'html',
  extract(page): Extraction {
    const warnings = [...(page.warnings ?? [])];
    const parts = selectMany(page.document, PAGE_PARTS);
    const tables = parts.all.tables.map((table) => {
      const { all: own } = selectMany(table, PRICE_TABLE_PARTS);
      return { headings: own.headings.map((th) => normalizeText(textOf(th))), rows: own.rows };
    });
    if (tables.length === 0) throw new KumoError('extraction_failed', `${ID}: no price table`);

    const headings = tables[0]!.headings;
    const columns = knownColumns(headings, COLUMNS, ID);

    const rows: DataTableData['rows'] = [];
    // The page splits the year into two tables (recent months, older months) with the same header.
    for (const table of tables) {
      if (table.headings.join() !== headings.join()) throw new KumoError('extraction_failed', `${ID}: tables disagree`);
      for (const tr of table.rows) {
        const row = datedRow(
          all(tr, 'td').map((td) => textOf(td)),
          columns,
          ID,
        );
        rows.push(row);
      }
    }
    if (rows.length === 0) throw new KumoError('extraction_failed', `${ID}: the price table is empty`);

    const subject = elementText(parts.first.subject);
    const title = elementText(parts.first.title);
    const data: DataTableData = {
      title: title ?? subject ?? '株価データ',
      subject: subject ?? null,
      columns,
      rows,
    };
    return {
      data,
      provenance: {
        title: title ? 'selector:h1.page_name' : 'selector:h2.base_box_ttl span.jp',
        subject: 'selector:h2.base_box_ttl span.jp',
        columns: `selector:${TABLE} thead th`,
        rows: `selector:${TABLE} tbody tr`,
      },
      warnings,
    };
  },
});
