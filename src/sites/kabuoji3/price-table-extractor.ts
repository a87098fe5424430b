// 株式投資メモ (kabuoji3.com) daily price pages: the stock_data_table rows as dated OHLC, volume and adjusted close.
import { KumoError } from '../../errors.js';
import type { Extraction, Extractor } from '../../extract/extractor.js';
import type { DataTableData } from '../../extract/page-types.js';
import { all, firstText, textOf } from '../../extract/selectors.js';
import { parseDate } from '../../normalize/date.js';
import { parseNumber } from '../../normalize/number.js';
import type { NormalizedPage } from '../../normalize/page.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'kabuoji3/table';
const TABLE = 'table.stock_data_table';
type Column = DataTableData['columns'][number];

// The page's own headings; a heading not listed here means the layout changed, and we stop rather than guess.
const COLUMNS: Readonly<Record<string, Column>> = {
  日付: { key: 'date', label: '日付', type: 'date', unit: null },
  始値: { key: 'open', label: '始値', type: 'number', unit: '円' },
  高値: { key: 'high', label: '高値', type: 'number', unit: '円' },
  安値: { key: 'low', label: '安値', type: 'number', unit: '円' },
  終値: { key: 'close', label: '終値', type: 'number', unit: '円' },
  出来高: { key: 'volume', label: '出来高', type: 'number', unit: '株' },
  終値調整: { key: 'adjusted_close', label: '終値調整', type: 'number', unit: '円' },
};

export const kabuoji3PriceTableExtractor: Extractor = {
  id: ID,
  version: 1,
  pageType: 'table',
  input: 'html',
  extract(page: NormalizedPage): Extraction {
    if (page.kind !== 'html') throw new KumoError('extraction_failed', `${ID} reads HTML pages`);
    const warnings = [...(page.warnings ?? [])];
    const tables = all(page.document, TABLE);
    if (tables.length === 0) throw new KumoError('extraction_failed', `${ID}: no price table`);

    const headings = all(tables[0]!, 'thead th').map((th) => normalizeText(textOf(th)));
    const columns = headings.map((h) => COLUMNS[h]);
    if (columns.length === 0 || columns.some((c) => c === undefined) || columns[0]?.key !== 'date')
      throw new KumoError(
        'extraction_failed',
        // Positions only: the headings themselves are target text and never reach a caller.
        `${ID}: unexpected column headings (at ${columns.flatMap((c, i) => (c === undefined ? [i + 1] : [])).join(', ') || 'first'})`,
      );

    const rows: DataTableData['rows'] = [];
    // The page splits the year into two tables (recent months, older months) with the same header.
    for (const table of tables) {
      const own = all(table, 'thead th').map((th) => normalizeText(textOf(th)));
      if (own.join() !== headings.join()) throw new KumoError('extraction_failed', `${ID}: tables disagree`);
      for (const tr of all(table, 'tbody tr')) {
        const cells = all(tr, 'td').map((td) => textOf(td));
        if (cells.length !== columns.length)
          throw new KumoError('extraction_failed', `${ID}: a row has ${cells.length} cells`);
        const row: Record<string, string | number | null> = {};
        columns.forEach((column, i) => {
          const raw = cells[i] ?? '';
          if (column!.type === 'date') {
            const date = parseDate(raw).value;
            if (!date || date.length !== 10) throw new KumoError('extraction_failed', `${ID}: a row without a date`);
            row[column!.key] = date;
          } else {
            const n = parseNumber(raw);
            if (!n) throw new KumoError('extraction_failed', `${ID}: ${column!.label} is not a number`);
            row[column!.key] = n.value;
          }
        });
        rows.push(row);
      }
    }
    if (rows.length === 0) throw new KumoError('extraction_failed', `${ID}: the price table is empty`);

    const subject = firstText(page.document, 'h2.base_box_ttl span.jp');
    const title = firstText(page.document, 'h1.page_name');
    const data: DataTableData = {
      title: title ?? subject ?? '株価データ',
      subject: subject ?? null,
      columns: columns as Column[],
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
};
