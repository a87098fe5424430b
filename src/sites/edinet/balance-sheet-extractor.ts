// EDINET filing packages (API v2 ZIP): the 貸借対照表 text block of the inline-XBRL body that holds it, as rows of
// item, prior year, current year.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { DataTableData } from '../../extract/page-types.js';
import { all, first, textOf } from '../../extract/selectors.js';
import { parseDate } from '../../normalize/date.js';
import { parseNumber } from '../../normalize/number.js';
import type { HtmlPage } from '../../normalize/page.js';

const ID = 'edinet/table';
// The non-consolidated 貸借対照表 (財務諸表, every filer has one). The consolidated statement is another element,
// `jpcrp_cor:ConsolidatedBalanceSheetTextBlock` in the 連結財務諸表 body, headed 連結会計年度: not read here.
const BLOCK_NAME = 'jpcrp_cor:BalanceSheetTextBlock';
const BLOCK = `[name="${BLOCK_NAME}"]`;
// Inline-XBRL bodies of the submitted document: `XBRL/PublicDoc/0105310_honbun_<id>_….htm` and siblings. The audit
// report (XBRL/AuditDoc) restates nothing of the statements as values.
const PUBLIC_BODY = /^XBRL\/PublicDoc\/[^/]+_honbun_[^/]*\.x?html?$/;
// The table states its unit once (`(単位:千円)`); cells are bare numbers in that unit.
const UNITS: Readonly<Record<string, number>> = { 円: 1, 千円: 1_000, 百万円: 1_000_000 };

type Row = DataTableData['rows'][number];

export const edinetBalanceSheetExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'table',
  input: 'zip',
  reads: 'EDINET filing ZIPs',
  extract(page): Extraction {
    const bodies = page.entries.filter((e) => PUBLIC_BODY.test(e.name)).map((e) => e.name);
    if (bodies.length === 0)
      throw new KumoError('extraction_failed', `${ID}: the package has no XBRL/PublicDoc inline-XBRL body`);
    // Entries are inflated one at a time and only parsed when the element name is in the text: a package holds
    // a dozen bodies and one of them carries the statement.
    const holding = bodies.filter((name) => page.text(name)?.includes(`"${BLOCK_NAME}"`));
    if (holding.length === 0)
      throw new KumoError('extraction_failed', `${ID}: no body in the package holds a ${BLOCK_NAME}`);
    if (holding.length > 1)
      throw new KumoError(
        'extraction_failed',
        `${ID}: ${holding.length} bodies hold a ${BLOCK_NAME}; which one is unclear`,
      );
    const extraction = balanceSheetOf(page.html(holding[0]!)!);
    // Provenance names the entry: `zip:XBRL/PublicDoc/0105310_honbun_….htm selector:…`.
    const provenance = Object.fromEntries(
      Object.entries(extraction.provenance).map(([field, from]) => [
        field,
        from === 'none' ? from : `zip:${holding[0]} ${from}`,
      ]),
    );
    return { ...extraction, provenance };
  },
});

/** The statement in one inline-XBRL body. */
export function balanceSheetOf(page: HtmlPage): Extraction {
  const block = first(page.document, BLOCK);
  if (!block) throw new KumoError('extraction_failed', `${ID}: no BalanceSheetTextBlock`);
  const heading = first(block, 'h4');
  const title = heading ? textOf(heading).replace(/^[①-⑳0-9]*\s*|[【】]/g, '') : '貸借対照表';

  let unit: string | null = null;
  let headers: [string, string] | null = null;
  const rows: Row[] = [];
  for (const tr of all(block, 'tr')) {
    const cells = all(tr, 'td').map((td) => textOf(td));
    if (cells.length < 3) continue;
    const [prior, current] = [cells[cells.length - 2]!, cells[cells.length - 1]!];
    const label = cells
      .slice(0, -2)
      .filter((c) => c !== '')
      .join(' ');
    const unitMark = /^\(単位:(千円|百万円|円)\)$/.exec(current);
    if (unitMark && prior === '' && label === '') {
      if (unit !== null && unit !== unitMark[1]) throw new KumoError('extraction_failed', `${ID}: units differ`);
      unit = unitMark[1]!;
      continue;
    }
    if (label === '' && /事業年度/.test(prior) && /事業年度/.test(current)) {
      // The statement repeats its column headings on each page (assets, then liabilities and equity).
      if (headers && (headers[0] !== prior || headers[1] !== current))
        throw new KumoError('extraction_failed', `${ID}: column headings differ between tables`);
      headers = [prior, current];
      continue;
    }
    // Section headings (資産の部, 流動資産 …) carry no values; their nesting is not marked reliably, so they go.
    if (prior === '' && current === '') continue;
    if (!unit || !headers || label === '')
      throw new KumoError('extraction_failed', `${ID}: a value row before its unit, headings or label`);
    const multiplier = UNITS[unit]!;
    rows.push({
      item: label,
      prior: amount(prior, multiplier),
      current: amount(current, multiplier),
    });
  }
  if (!headers || rows.length === 0) throw new KumoError('extraction_failed', `${ID}: no balance sheet rows`);

  const column = (key: string, label: string): DataTableData['columns'][number] => {
    const date = /\((.+)\)/.exec(label)?.[1];
    const asOf = date ? parseDate(date).value : null;
    return { key, label, type: 'number', unit: '円', ...(asOf && asOf.length === 10 ? { as_of: asOf } : {}) };
  };
  const data: DataTableData = {
    title,
    subject: null,
    columns: [
      { key: 'item', label: '科目', type: 'text', unit: null },
      column('prior', headers[0]),
      column('current', headers[1]),
    ],
    rows,
  };
  const source = `selector:${BLOCK} tr`;
  return {
    data,
    provenance: { title: `selector:${BLOCK} h4`, subject: 'none', columns: source, rows: source },
    warnings: [],
  };
}

// `※ 116,109`: ※ points at a note; △ marks a negative; the table's unit is applied (§0 rule 6).
function amount(cell: string, multiplier: number): number | null {
  const parsed = parseNumber(cell.replace(/^※\s*/, ''));
  if (!parsed) throw new KumoError('extraction_failed', `${ID}: a cell is not a number`);
  return parsed.value === null ? null : Math.round(parsed.value * multiplier);
}
