// The EDINET balance sheet against the values the upstream project's test expects (corpus MANIFEST §2).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { edinetBalanceSheetExtractor } from './balance-sheet-extractor.js';

const url = 'https://disclosure2dl.edinet-fsa.go.jp/searchdocument/XBRL/PublicDoc/0105310_honbun_9109900103110.htm';
const run = (html: string | Buffer) =>
  edinetBalanceSheetExtractor.extract(
    normalizePage({
      body: new Uint8Array(typeof html === 'string' ? Buffer.from(html) : html),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: url,
      input: 'html',
    }),
  );

if (!corpusAvailable()) console.info(`edinet corpus tests skipped: ${corpusPath('')} is absent`);

describe.skipIf(!corpusAvailable())('EDINET 0105310 balance sheet (real filing)', () => {
  it('reads the unit, the period ends and the manifest rows (千円 applied: yen)', () => {
    // Read inside the test: a skipped describe still runs its body, and the corpus may be absent.
    const { data } = run(readFileSync(corpusPath('edinet/jsoup_main.html')));
    const rows = data.rows as { item: string; prior: number | null; current: number | null }[];
    const row = (item: string) => rows.find((r) => r.item === item);
    expect(data.columns).toEqual([
      { key: 'item', label: '科目', type: 'text', unit: null },
      { key: 'prior', label: '前事業年度 (平成30年10月20日)', type: 'number', unit: '円', as_of: '2018-10-20' },
      { key: 'current', label: '当事業年度 (令和元年10月20日)', type: 'number', unit: '円', as_of: '2019-10-20' },
    ]);
    expect(rows[0]).toEqual({ item: '現金及び預金', prior: 116_109_000, current: 476_095_000 });
    expect(row('流動負債合計')).toEqual({ item: '流動負債合計', prior: 1_070_764_000, current: 1_283_815_000 });
    expect(rows.at(-1)).toEqual({ item: '負債純資産合計', prior: 5_262_964_000, current: 5_457_406_000 });
    expect(row('資産合計')?.current).toBe(row('負債純資産合計')?.current);
  });
});

describe('edinet balance sheet rules', () => {
  const table = (
    cells: string,
  ) => `<html><body><ix:nonNumeric name="jpcrp_cor:BalanceSheetTextBlock"><h4>①【貸借対照表】</h4>
    <table><tr><td></td><td></td><td>(単位：百万円)</td></tr>
    <tr><td></td><td>前事業年度 (2023年3月31日)</td><td>当事業年度 (2024年3月31日)</td></tr>${cells}</table></ix:nonNumeric></body></html>`;

  it('applies 百万円 and reads △ as negative', () => {
    const { data } = run(table('<tr><td>利益剰余金</td><td>△1,200</td><td>３５</td></tr>'));
    expect(data.rows).toEqual([{ item: '利益剰余金', prior: -1_200_000_000, current: 35_000_000 }]);
    expect(data.title).toBe('貸借対照表');
  });

  it('refuses a value that is not a number instead of guessing', () => {
    expect(() => run(table('<tr><td>現金</td><td>約100</td><td>1</td></tr>'))).toThrow(/not a number/);
  });
});
