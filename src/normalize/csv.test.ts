// normalizePage with input 'csv': charset decoding (Shift_JIS by header or detection) and RFC 4180 parsing.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { normalizeLimits, normalizePage, parseCsv } from './normalize-page.js';
import type { CsvPage } from './page.js';

const csv = (body: Uint8Array, contentType?: string) =>
  normalizePage({
    body,
    headers: contentType ? { 'content-type': contentType } : {},
    finalUrl: 'https://api.example.jp/data.csv',
    input: 'csv',
  }) as CsvPage;

describe('parseCsv (RFC 4180)', () => {
  it('splits CRLF rows and comma fields, keeps empty fields', () => {
    expect(parseCsv('a,b,,\r\n1,2,3,4\r\n')).toEqual([
      ['a', 'b', '', ''],
      ['1', '2', '3', '4'],
    ]);
  });
  it('undoes quotes: commas, line breaks and "" inside a quoted field', () => {
    expect(parseCsv('"x, y","say ""hi""","two\r\nlines",z\r\n"",end')).toEqual([
      ['x, y', 'say "hi"', 'two\r\nlines', 'z'],
      ['', 'end'],
    ]);
  });
  it('accepts bare LF, skips blank lines and a BOM, keeps a last row without a line break', () => {
    expect(parseCsv('\uFEFFa,b\n\n"c",d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
  it('refuses an unterminated quoted field and more rows than the cap, naming no content', () => {
    expect(() => parseCsv('a,"open\r\nsecret')).toThrow(KumoError);
    expect(() => parseCsv('1\r\n2\r\n3\r\n', 2)).toThrow(/more than 2 rows/);
    expect(normalizeLimits.maxCsvRows).toBeGreaterThanOrEqual(2000);
  });
});

describe('normalizePage (csv)', () => {
  const text = '2017-06-07,1,1,1\r\n1,"トヨタ自動車株式会社","愛知県"\r\n';
  it('decodes Shift_JIS named by the header', () => {
    const page = csv(iconv.encode(text, 'Shift_JIS'), 'text/csv;charset=Shift_JIS');
    expect(page.kind).toBe('csv');
    expect(page.charset).toBe('shift_jis');
    expect(page.rows[1]).toEqual(['1', 'トヨタ自動車株式会社', '愛知県']);
  });
  it('detects Shift_JIS without a charset, and reads UTF-8', () => {
    expect(csv(iconv.encode(text, 'Shift_JIS'), 'text/csv').rows[1]![1]).toBe('トヨタ自動車株式会社');
    expect(csv(new TextEncoder().encode(text), 'text/csv;charset=UTF-8').rows[1]![2]).toBe('愛知県');
  });
});
