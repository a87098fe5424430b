// 株探 (kabutan.jp) 時系列 page `/stock/kabuka?code=CODE&ashi=day&page=N`: the dated daily rows of stock_kabuka_dwm.
import type { Element } from 'domhandler';
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
import { all, first, firstAttr, selectMany, textOf } from '../../extract/selectors.js';
import { parseNumber } from '../../normalize/number.js';
import type { HtmlPage } from '../../normalize/page.js';

const ID = 'kabutan/history';
// The history table proper; `stock_kabuka0` above it holds only today's row, which is not yet a closed day.
const TABLE = 'table.stock_kabuka_dwm';
// The page's own headings; a heading not listed here means the layout changed, and we stop rather than guess.
const COLUMNS: Readonly<Record<string, DataColumn>> = {
  ...DAILY_PRICE_COLUMNS,
  前日比: { key: 'change', label: '前日比', type: 'number', unit: '円' },
  '前日比%': { key: 'change_percent', label: '前日比%', type: 'number', unit: '%' },
  '売買高(株)': { key: 'volume', label: '売買高(株)', type: 'number', unit: '株' },
};

// The pager under the table: the current page is the one <strong> entry, the next page the link reading 次へ＞.
const PAGER = '.pagination';

/**
 * The next page of the same history: only a link that stays on this stock's daily view is taken (the pager is written
 * twice, above and below the table, with the same links).
 */
function pagerOf(pagers: readonly Element[], page: HtmlPage, warnings: string[]) {
  let current: number | null = null;
  let next: string | null = null;
  for (const pager of pagers) {
    const strong = first(pager, 'li strong');
    const number = strong ? parseNumber(textOf(strong)) : null;
    const value = number?.value ?? null;
    if (current === null && value !== null && Number.isInteger(value) && value >= 1) current = value;
    const link = all(pager, 'li a[href]').find((a) => /次へ/.test(textOf(a)));
    if (next === null && link) next = sameHistory(link.attribs.href ?? '', page.url, warnings);
  }
  return { current, next };
}

function sameHistory(href: string, pageUrl: string, warnings: string[]): string | null {
  let url: URL;
  try {
    url = new URL(href, pageUrl);
  } catch {
    warnings.push('next_page: the 次へ link is not a URL; left out');
    return null;
  }
  const here = new URL(pageUrl);
  const same =
    url.protocol === 'https:' &&
    url.hostname === here.hostname &&
    url.pathname === here.pathname &&
    url.searchParams.get('code') === here.searchParams.get('code') &&
    (url.searchParams.get('ashi') ?? 'day') === 'day' &&
    /^[1-9][0-9]{0,4}$/.test(url.searchParams.get('page') ?? '');
  if (!same) {
    warnings.push('next_page: the 次へ link leaves this stock’s daily history; left out');
    return null;
  }
  url.hash = '';
  return url.href;
}

// The page is read in one walk (table, heading, pagers), the table in one more (its headings and rows).
const PAGE_PARTS = { first: { table: TABLE, heading: '#stockinfo_i1 .si_i1_1 h2' }, all: { pagers: PAGER } } as const;

export const kabutanHistoryExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'history',
  input: 'html',
  extract(page): Extraction {
    const warnings = [...(page.warnings ?? [])];
    const parts = selectMany(page.document, PAGE_PARTS);
    const table = parts.first.table;
    if (!table) throw new KumoError('extraction_failed', `${ID}: no price table`);

    const own = selectMany(table, PRICE_TABLE_PARTS).all;
    const headings = own.headings.map((th) => textOf(th).replace(/\s+/g, ''));
    const columns = knownColumns(headings, COLUMNS, ID);

    const rows: DataTableData['rows'] = [];
    for (const tr of own.rows) {
      // The machine-readable datetime of the date cell beats its two-digit-year text (26/06/30).
      const values = all(tr, 'th, td').map((cell, i) =>
        columns[i]?.type === 'date' ? (firstAttr(cell, 'time', 'datetime') ?? textOf(cell)) : textOf(cell),
      );
      const row = datedRow(values, columns, ID);
      rows.push(row);
    }
    if (rows.length === 0) throw new KumoError('extraction_failed', `${ID}: the price table is empty`);

    const heading = parts.first.heading;
    const subject = heading ? textOf(heading) : null;
    const pager = pagerOf(parts.all.pagers, page, warnings);
    const data: DataTableData = {
      title: subject ? `${subject} 日足` : '日足',
      subject,
      columns,
      rows,
      next_page: pager.next,
      page: pager.current,
    };
    return {
      data,
      provenance: {
        title: subject ? 'selector:#stockinfo_i1 h2 (+ 日足, the ashi=day view)' : 'constant:日足 (the ashi=day view)',
        subject: 'selector:#stockinfo_i1 h2',
        columns: `selector:${TABLE} thead th`,
        rows: `selector:${TABLE} tbody tr (date from time[datetime])`,
        next_page: pager.next ? `selector:${PAGER} a (次へ)` : `none: no 次へ link in ${PAGER}`,
        page: pager.current !== null ? `selector:${PAGER} strong` : `none: no current page in ${PAGER}`,
      },
      warnings,
    };
  },
});
