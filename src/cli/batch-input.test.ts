// The input file of `kumo batch submit`: URL lists with comments, CSVs with quoted fields, BOMs and Shift_JIS.
import { describe, expect, it } from 'vitest';
import { chunks, parseCsv, readBatchInput } from './batch-input.js';
import { UsageError } from './args.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('readBatchInput: a URL list', () => {
  it('takes one URL per line, skipping blank lines and # comments, with their line numbers', () => {
    const items = readBatchInput(
      utf8(
        '# nightly JAN refresh\nhttps://a.example/1\n\n   \r\n  https://b.example/2?x=1,2  \r\n#https://c.example/\n',
      ),
    );
    expect(items).toEqual([
      { url: 'https://a.example/1', line: 2 },
      { url: 'https://b.example/2?x=1,2', line: 5 },
    ]);
  });

  it('keeps a stray quote or comma as part of the URL (a plain list is never read as CSV)', () => {
    expect(readBatchInput(utf8('https://a.example/"q\nhttps://b.example/a,b'))).toEqual([
      { url: 'https://a.example/"q', line: 1 },
      { url: 'https://b.example/a,b', line: 2 },
    ]);
  });

  it('refuses a file without URLs', () => {
    expect(() => readBatchInput(utf8('# only a comment\n\n'))).toThrow(UsageError);
    expect(() => readBatchInput(new Uint8Array())).toThrow('no URLs');
  });
});

describe('readBatchInput: a CSV', () => {
  it('reads the url and ref columns by name, in any order and case, ignoring other columns', () => {
    const csv =
      'JAN,Ref,URL,note\n4901234567894,rakuten-1,https://item.rakuten.co.jp/shop/a/,x\n,,https://b.example/,\n';
    expect(readBatchInput(utf8(csv))).toEqual([
      { url: 'https://item.rakuten.co.jp/shop/a/', ref: 'rakuten-1', line: 2 },
      { url: 'https://b.example/', line: 3 },
    ]);
  });

  it('handles quoted fields with commas, doubled quotes and line breaks, CRLF, and a UTF-8 BOM', () => {
    const csv = '\uFEFFurl,ref\r\n"https://a.example/?q=1,2","say ""hi""\r\nagain"\r\nhttps://b.example/,  plain  \r\n';
    expect(readBatchInput(utf8(csv))).toEqual([
      { url: 'https://a.example/?q=1,2', ref: 'say "hi"\r\nagain', line: 2 },
      { url: 'https://b.example/', ref: 'plain', line: 4 },
    ]);
  });

  it('reads Shift_JIS (Excel in Japan) when the bytes are not UTF-8', () => {
    // "url,ref\nhttps://a.example/,ヨドバシ\n" in Shift_JIS: ヨドバシ = 83 88 83 68 83 6f 83 56.
    const bytes = Buffer.concat([
      Buffer.from('url,ref\nhttps://a.example/,', 'latin1'),
      Buffer.from([0x83, 0x88, 0x83, 0x68, 0x83, 0x6f, 0x83, 0x56]),
      Buffer.from('\n', 'latin1'),
    ]);
    expect(readBatchInput(bytes)).toEqual([{ url: 'https://a.example/', ref: 'ヨドバシ', line: 2 }]);
  });

  it('refuses a row without a url and an unclosed quote, naming the line', () => {
    expect(() => readBatchInput(utf8('url,ref\nhttps://a.example/,1\n,2\n'))).toThrow('line 3: no url');
    expect(() => readBatchInput(utf8('url,ref\nhttps://a.example/,"open\n'))).toThrow('line 2: a quoted field');
  });

  it('skips blank and # rows between records', () => {
    expect(readBatchInput(utf8('url\n\n# paused\nhttps://a.example/\n,\n'))).toEqual([
      { url: 'https://a.example/', line: 4 },
    ]);
  });
});

describe('parseCsv and chunks', () => {
  it('parses a last record without a line break', () => {
    expect(parseCsv('a,b\n1,"2"')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['1', '2'], line: 2 },
    ]);
  });

  it('splits into requests of at most 1,000', () => {
    const sizes = chunks(
      Array.from({ length: 2501 }, (_, i) => i),
      1000,
    ).map((c) => c.length);
    expect(sizes).toEqual([1000, 1000, 501]);
    expect(chunks([], 1000)).toEqual([]);
  });
});
