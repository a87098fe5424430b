// Tables of dated daily prices (kabutan, kabuoji3): the page's own headings mapped to known columns, and each row read
// as an ISO date and numbers; a heading or a cell that does not fit stops the extraction rather than guessing.
import { KumoError } from '../errors.js';
import { parseDate } from '../normalize/date.js';
import { parseNumber } from '../normalize/number.js';
import type { DataTableData } from './page-types.js';

export type DataColumn = DataTableData['columns'][number];
type Row = DataTableData['rows'][number];

/** 日付 and the four prices, headed alike on every daily price page we read. */
export const DAILY_PRICE_COLUMNS: Readonly<Record<string, DataColumn>> = {
  日付: { key: 'date', label: '日付', type: 'date', unit: null },
  始値: { key: 'open', label: '始値', type: 'number', unit: '円' },
  高値: { key: 'high', label: '高値', type: 'number', unit: '円' },
  安値: { key: 'low', label: '安値', type: 'number', unit: '円' },
  終値: { key: 'close', label: '終値', type: 'number', unit: '円' },
};

/** A daily price table's heading cells and body rows, found in one walk of the table (selectMany). */
export const PRICE_TABLE_PARTS = { all: { headings: 'thead th', rows: 'tbody tr' } } as const;

/** The columns the headings name; a heading not in `known` means the layout changed. The date comes first. */
export function knownColumns(
  headings: readonly string[],
  known: Readonly<Record<string, DataColumn>>,
  id: string,
): DataColumn[] {
  const columns = headings.map((h) => known[h]);
  if (columns.length === 0 || columns.some((c) => c === undefined) || columns[0]?.key !== 'date')
    throw new KumoError(
      'extraction_failed',
      // Positions only: the headings themselves are target text and never reach a caller.
      `${id}: unexpected column headings (at ${columns.flatMap((c, i) => (c === undefined ? [i + 1] : [])).join(', ') || 'first'})`,
    );
  return columns as DataColumn[];
}

/** One row from its cells' texts (a date cell may give its machine-readable datetime instead of its text). */
export function datedRow(values: readonly string[], columns: readonly DataColumn[], id: string): Row {
  if (values.length !== columns.length)
    throw new KumoError('extraction_failed', `${id}: a row has ${values.length} cells`);
  const row: Record<string, string | number | null> = {};
  columns.forEach((column, i) => {
    const raw = values[i]!;
    if (column.type === 'date') {
      const date = parseDate(raw).value;
      if (!date || date.length !== 10) throw new KumoError('extraction_failed', `${id}: a row without a date`);
      row[column.key] = date;
    } else {
      const n = parseNumber(raw);
      if (!n) throw new KumoError('extraction_failed', `${id}: ${column.key} is not a number`);
      row[column.key] = n.value;
    }
  });
  return row;
}
