// Charset decoding against the real legacy-encoding corpus (read in place) and the sniffing-order rules.
import { readdirSync, readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { corpusAvailable, corpusPath } from '../sites/corpus.js';
import {
  canonicalCharset,
  charsetFromContentType,
  decodeBody,
  detectJapaneseCharset,
  prescanMetaCharset,
} from './charset.js';

const haveCorpus = corpusAvailable();
if (!haveCorpus) console.warn(`charset corpus tests skipped: ${corpusPath('')} is absent`);

const bytes = (s: string, enc: string) => new Uint8Array(iconv.encode(s, enc));
const ascii = (s: string) => new TextEncoder().encode(s);

describe('label mapping', () => {
  it.each([
    ['Shift_JIS', 'shift_jis'],
    ['cp932', 'shift_jis'],
    ['MS932', 'shift_jis'],
    ['Windows-31J', 'shift_jis'],
    ['x-sjis', 'shift_jis'],
    ['SJIS', 'shift_jis'],
    ['shift-jis', 'shift_jis'],
    ['x-euc-jp', 'euc-jp'],
    ['EUC-JP', 'euc-jp'],
    ['ISO-2022-JP', 'iso-2022-jp'],
    ['"utf-8"', 'utf-8'],
  ])('%s → %s', (label, expected) => {
    expect(canonicalCharset(label)).toBe(expected);
  });

  it('rejects unknown and replacement labels', () => {
    expect(canonicalCharset('no-such-charset')).toBeNull();
    expect(canonicalCharset('iso-2022-kr')).toBeNull();
    expect(canonicalCharset('')).toBeNull();
  });

  it('reads the charset parameter of a Content-Type', () => {
    expect(charsetFromContentType('text/html; charset=Shift_JIS')).toBe('Shift_JIS');
    expect(charsetFromContentType('text/html;charset="euc-jp"')).toBe('euc-jp');
    expect(charsetFromContentType('text/html')).toBeNull();
    expect(charsetFromContentType(undefined)).toBeNull();
  });
});

describe('sniffing order', () => {
  const sjisPage = (declared: string) =>
    bytes(`<html><head><meta charset="${declared}"><title>価格 ￥１，２３４ ① ㈱ 髙</title></head></html>`, 'cp932');

  it('decodes Windows-31J extensions under the Shift_JIS label', () => {
    const r = decodeBody(sjisPage('Shift_JIS'), 'text/html; charset=Shift_JIS');
    expect(r.charset).toBe('shift_jis');
    expect(r.text).toContain('￥１，２３４ ① ㈱ 髙');
  });

  it('lets the HTTP header win over a disagreeing <meta>', () => {
    const page = bytes('<meta charset="Shift_JIS"><p>日本語</p>', 'euc-jp');
    const r = decodeBody(page, 'text/html; charset=EUC-JP');
    expect(r).toMatchObject({ charset: 'euc-jp', source: 'header' });
    expect(r.text).toContain('日本語');
  });

  it('lets a BOM beat the header', () => {
    const page = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...ascii('<p>'),
      ...new TextEncoder().encode('日本語'),
      ...ascii('</p>'),
    ]);
    const r = decodeBody(page, 'text/html; charset=Shift_JIS');
    expect(r).toMatchObject({ charset: 'utf-8', source: 'bom' });
    expect(r.text).toBe('<p>日本語</p>');
  });

  it('decodes UTF-16 with a BOM', () => {
    const page = new Uint8Array([0xff, 0xfe, ...iconv.encode('<p>日本</p>', 'utf16le')]);
    expect(decodeBody(page, undefined)).toMatchObject({ charset: 'utf-16le', text: '<p>日本</p>' });
  });

  it('uses <meta> when there is no header charset, http-equiv form included', () => {
    const page = bytes('<meta http-equiv="Content-Type" content="text/html; charset=euc-jp"><p>日本語</p>', 'euc-jp');
    expect(decodeBody(page, 'text/html')).toMatchObject({ charset: 'euc-jp', source: 'meta' });
  });

  it('ignores a <meta> inside a comment and treats a UTF-16 <meta> as UTF-8', () => {
    expect(prescanMetaCharset(ascii('<!-- <meta charset="euc-jp"> --><meta charset="utf-8">'))).toBe('utf-8');
    const page = ascii('<meta charset="utf-16"><p>x</p>');
    expect(decodeBody(page, undefined).charset).toBe('utf-8');
  });

  it('only prescans the first 1,024 bytes', () => {
    const page = ascii(`${' '.repeat(1100)}<meta charset="euc-jp">`);
    expect(prescanMetaCharset(page)).toBeNull();
  });

  it('detects undeclared Shift_JIS and EUC-JP', () => {
    const text = '<p>イケベ楽器店　消費税込 ￥2,200 です。ありがとうございました。</p>';
    expect(decodeBody(bytes(text, 'cp932'), 'text/html')).toMatchObject({
      charset: 'shift_jis',
      source: 'detected',
      text,
    });
    expect(decodeBody(bytes(text, 'euc-jp'), undefined)).toMatchObject({ charset: 'euc-jp', source: 'detected', text });
  });

  it('detects on a bounded prefix without splitting a character', () => {
    const text = `<p>${'日本語のテキスト'.repeat(20000)}</p>`;
    const r = decodeBody(bytes(text, 'cp932'), undefined, { detectBytes: 1001 });
    expect(r.charset).toBe('shift_jis');
    expect(r.text).toBe(text);
  });

  it('falls back to UTF-8 for undeclared bytes nothing recognises, and for plain ASCII', () => {
    expect(decodeBody(ascii('<p>hello</p>'), undefined)).toMatchObject({ charset: 'utf-8', text: '<p>hello</p>' });
    expect(decodeBody(new Uint8Array([0x3c, 0xff, 0xfe, 0xfd]), undefined, { prescanMeta: false }).charset).toBe(
      'utf-8',
    );
  });

  it('honours a caller override below the BOM', () => {
    const page = bytes('<p>日本語</p>', 'euc-jp');
    expect(decodeBody(page, 'text/html; charset=utf-8', { override: 'x-euc-jp' })).toMatchObject({
      charset: 'euc-jp',
      text: '<p>日本語</p>',
    });
  });
});

describe.skipIf(!haveCorpus)('real legacy-encoding corpus (encoding-chardet, read in place)', () => {
  const expectedByFolder: Record<string, string> = {
    SHIFT_JIS: 'shift_jis',
    CP932: 'shift_jis',
    'EUC-JP': 'euc-jp',
    'iso-2022-jp': 'iso-2022-jp',
  };
  const cases = haveCorpus
    ? Object.entries(expectedByFolder).flatMap(([folder, charset]) =>
        readdirSync(corpusPath(`encoding-chardet/${folder}`)).map((file) => [`${folder}/${file}`, charset] as const),
      )
    : [];

  it('covers every folder', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases)('%s decodes as %s without U+FFFD', (file, charset) => {
    const body = new Uint8Array(readFileSync(corpusPath(`encoding-chardet/${file}`)));
    const r = decodeBody(body, undefined);
    expect(r.charset).toBe(charset);
    expect(r.text).not.toContain('\uFFFD');
    expect(r.text.length).toBeGreaterThan(0);
    // Detection alone, as if the declaration were missing, must agree too.
    expect(detectJapaneseCharset(body)).toBe(charset);
  });
});

describe.skipIf(!haveCorpus)('parallel texts decode to the expected UTF-8 byte-for-byte', () => {
  const read = (p: string) => new Uint8Array(readFileSync(corpusPath(p)));
  const rashomon = 'encoding-golang-text/rashomon-utf-8.txt';
  const cases = [
    ['encoding-golang-text/rashomon-shift-jis.txt', 'shift_jis', null],
    ['encoding-golang-text/rashomon-euc-jp.txt', 'euc-jp', null],
    ['encoding-golang-text/rashomon-iso-2022-jp.txt', 'iso-2022-jp', null],
    // encoding.js's one-liners each name their own encoding, so the answer is the UTF-8 line with that name.
    ['encoding-encodingjs/encoding-sjis.txt', 'shift_jis', 'SJIS'],
    ['encoding-encodingjs/encoding-eucjp.txt', 'euc-jp', 'EUC-JP'],
    ['encoding-encodingjs/encoding-jis.txt', 'iso-2022-jp', 'JIS'],
  ] as const;

  it.each(cases)('%s (undeclared) → %s', (source, charset, name) => {
    const r = decodeBody(read(source), undefined);
    expect(r.charset).toBe(charset);
    const expected =
      name === null
        ? read(rashomon)
        : new TextEncoder().encode(
            new TextDecoder().decode(read('encoding-encodingjs/encoding-utf8.txt')).replace('UTF-8', name),
          );
    expect(Buffer.from(new TextEncoder().encode(r.text)).equals(Buffer.from(expected))).toBe(true);
  });

  it('the UTF-8 answer files decode as UTF-8 unchanged', () => {
    for (const f of ['encoding-golang-text/rashomon-utf-8.txt', 'encoding-encodingjs/encoding-utf8.txt']) {
      const raw = read(f);
      const r = decodeBody(raw, undefined);
      expect(r.charset).toBe('utf-8');
      expect(Buffer.from(new TextEncoder().encode(r.text)).equals(Buffer.from(raw))).toBe(true);
    }
  });

  it('an explicit label gives the same text as detection', () => {
    const expected = readFileSync(corpusPath('encoding-golang-text/rashomon-utf-8.txt'), 'utf8');
    const r = decodeBody(read('encoding-golang-text/rashomon-shift-jis.txt'), 'text/plain; charset=Shift_JIS');
    expect(r.text).toBe(expected);
  });
});

describe('detection past a long ASCII head', () => {
  it('finds Shift_JIS after 100 KB of script', () => {
    const text = `<script>${'var a = 1;\n'.repeat(10_000)}</script><p>消費税込 ￥2,200 ありがとうございました</p>`;
    const r = decodeBody(bytes(text, 'cp932'), undefined);
    expect(r).toMatchObject({ charset: 'shift_jis', source: 'detected' });
    expect(r.text).toBe(text);
  });
});
