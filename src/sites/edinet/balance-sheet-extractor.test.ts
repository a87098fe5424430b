// The EDINET balance sheet from a filing package: the upstream project's expected values (corpus MANIFEST §2) and the
// package rules (which body, which statement).
import { readFileSync } from 'node:fs';
import Encoding from 'encoding-japanese';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { writeZip } from '../../normalize/zip-write.js';
import { edinetBalanceSheetExtractor } from './balance-sheet-extractor.js';

const url = 'https://api.edinet-fsa.go.jp/api/v2/documents/S100TEST?type=1';
const BODY = 'XBRL/PublicDoc/0105310_honbun_jpcrp030000-asr-001_E00000-000_2024-03-31_01_2024-06-27_ixbrl.htm';
const pack = (files: Record<string, string | Buffer>) =>
  edinetBalanceSheetExtractor.extract(
    normalizePage({
      body: writeZip(Object.entries(files).map(([name, data]) => ({ name, data: new Uint8Array(Buffer.from(data)) }))),
      headers: { 'content-type': 'application/octet-stream' },
      finalUrl: url,
      input: 'zip',
    }),
  );
const run = (html: string | Buffer) => pack({ 'XBRL/PublicDoc/manifest_PublicDoc.xml': '<manifest/>', [BODY]: html });

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

  it('names the entry it read in the provenance', () => {
    const { provenance } = run(table('<tr><td>現金</td><td>1</td><td>2</td></tr>'));
    expect(provenance.rows).toBe(`zip:${BODY} selector:[name="jpcrp_cor:BalanceSheetTextBlock"] tr`);
  });

  it('reads only PublicDoc bodies, and says when none holds the statement', () => {
    const sheet = table('<tr><td>現金</td><td>1</td><td>2</td></tr>');
    expect(() => pack({ 'XBRL/AuditDoc/0000000_header_aai.htm': sheet })).toThrow(
      /no XBRL\/PublicDoc inline-XBRL body/,
    );
    expect(() => pack({ [BODY]: '<html><body>株式</body></html>' })).toThrow(/no body in the package holds/);
  });

  it('refuses two bodies that both hold the statement rather than picking one', () => {
    const sheet = table('<tr><td>現金</td><td>1</td><td>2</td></tr>');
    expect(() => pack({ [BODY]: sheet, [BODY.replace('0105310', '0105330')]: sheet })).toThrow(/2 bodies hold/);
  });

  it('reads a Shift_JIS body by its own <meta>, since entries carry no content type', () => {
    const html = table('<tr><td>現金及び預金</td><td>1</td><td>2</td></tr>').replace(
      '<html>',
      '<html><head><meta charset="Shift_JIS"></head>',
    );
    const { data } = run(sjis(html));
    expect((data.rows as { item: string }[])[0]!.item).toBe('現金及び預金');
  });
});

/** Shift_JIS bytes of a string (encoding-japanese is the project's converter). */
function sjis(text: string): Buffer {
  return Buffer.from(Encoding.convert(Encoding.stringToCode(text), { to: 'SJIS', from: 'UNICODE' }));
}
