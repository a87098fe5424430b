// The link resolver against the WHATWG parser: its shortcuts and memo must give exactly what parsing every value does.
import { describe, expect, it } from 'vitest';
import { canonicalHrefAgainst, linkMemoLimit, linkResolver } from './links.js';

/** The rule as it reads with the parser asked every time (what normalize-page did before the resolver). */
function parse(value: string, base: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
function oracleResolve(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  const url = parse(trimmed, base);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.href : null;
}
function oracleAttribute(value: string, base: string): string | null {
  const scheme = parse(value, base)?.protocol;
  if (scheme === 'javascript:' || scheme === 'vbscript:') return null;
  return oracleResolve(value, base) ?? value;
}

/** Deterministic, so that a failure names an input that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASES = [
  'https://shop.example.jp/a/b/c.html?q=1#f',
  'http://www.ikebe-gakki.com/',
  'https://kabutan.jp/stock/?code=7203',
  'http://user:pw@example.jp:8080/dir/',
  'https://example.jp:443/x',
  'http://EXAMPLE.jp/x/y/',
  'https://xn--wgv71a.jp/日本/',
  'https://127.0.0.1:3000/a',
  'http://[::1]/a/b',
  'https://example.jp/a/b/?',
  'file:///tmp/x.html',
  'data:text/html,x',
  'javascript:void(0)',
  'not a url',
  '',
];

// Pieces that sit near the parser's edge cases: dot segments in all spellings, backslashes, controls and Unicode
// spaces, case, IDN and punycode, ports, credentials, IPv4 forms, quotes and the characters each URL part encodes.
const PIECES = [
  ...['a', 'b', 'z', 'Q', '0', '9', '-', '_', '~', '.', '..', '/', '//', '\\', '?', '#', '&', '=', ';', ',', '+'],
  ...['%2e', '%2E', '%2', '%', '%zz', '%41', '%2f', '.%2e', '%2e.', ':', '@', '!', '$', '(', ')', '*', "'", '"'],
  ...['<', '>', '`', '^', '{', '}', '|', '[', ']', ' ', '\t', '\n', '\r', '\f', '\v', '\0', '\u0001', '\u001f'],
  ...['\u007f', '\u00a0', '\u3000', '\ufeff', '\u2028', 'é', '日本', '\ud800', 'ß', 'ＡＢ', '｡', 'K', 'ﬀ'],
  ...['http:', 'https:', 'HTTP:', 'Https:', 'http://', 'https://', 'javascript:', 'JaVaScRiPt:', 'vbscript:'],
  ...['java\tscript:', 'java\nscript:', 'data:', 'mailto:', 'ftp://', 'file:', 'ws://', 'blob:', 'about:'],
  ...['example.jp', 'EXAMPLE.JP', 'xn--wgv71a', 'xn--a', 'xn--', 'a--b', '-a', 'a-', 'localhost', 'x.com.'],
  ...['127.1', '0x7f', '1.2.3.4', '0x7f.0.0.1', '08', '4294967296', '.jp', 'a..b', '[::1]', '[1:2::3]'],
  ...[':80', ':443', ':8080', ':', ':0', ':65536', 'user@', 'user:pw@', '@', 'a'.repeat(64), 'b'.repeat(260)],
];

function pick<T>(rand: () => number, from: readonly T[]): T {
  return from[Math.floor(rand() * from.length)]!;
}

const SAFE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&()*+,;=:@%';
const HOST_LABELS = ['www', 'shop', 'a', 'x1', 'a-b', 'kabutan', 'jp', 'com', 'co', '0', '12', 'xn--wgv71a', 'a--b'];

/** Mostly well-formed links (so the shortcuts are exercised) with one or two of PIECES slipped in somewhere. */
function generated(rand: () => number): string {
  const segment = () => {
    const n = Math.floor(rand() * 6);
    let s = '';
    for (let i = 0; i < n; i++) s += rand() < 0.15 ? pick(rand, PIECES) : pick(rand, [...SAFE]);
    return s;
  };
  const host = () => {
    const n = 1 + Math.floor(rand() * 3);
    const labels: string[] = [];
    for (let i = 0; i < n; i++) labels.push(rand() < 0.1 ? pick(rand, PIECES) : pick(rand, HOST_LABELS));
    return labels.join('.');
  };
  let path = '';
  for (let i = Math.floor(rand() * 4); i > 0; i--)
    path += `/${rand() < 0.1 ? pick(rand, ['.', '..', '%2e', '.%2E']) : segment()}`;
  if (path === '' || rand() < 0.2) path += '/';
  if (rand() < 0.3) path += `?${segment()}${rand() < 0.5 ? `&${segment()}=${segment()}` : ''}`;
  if (rand() < 0.2) path += `#${segment()}`;
  const shape = rand();
  let value =
    shape < 0.35
      ? `${pick(rand, ['https://', 'http://'])}${host()}${path}`
      : shape < 0.6
        ? path
        : shape < 0.7
          ? `//${host()}${path}`
          : shape < 0.8
            ? `${segment()}${path}`
            : Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(rand, PIECES)).join('');
  if (rand() < 0.1) value = pick(rand, PIECES) + value;
  if (rand() < 0.1) value += pick(rand, PIECES);
  return value;
}

const TRICKY = [
  '',
  ' ',
  '#',
  '#top',
  ' #top',
  '?',
  '?a=1',
  '/',
  '//',
  '///',
  '/\\evil.example/x',
  '\\\\evil.example/x',
  '//evil.example',
  '//evil.example/x',
  '//EVIL.example/x',
  'https://example.jp',
  'https://example.jp/',
  'https://Example.jp/',
  'https://example.jp:443/',
  'http://example.jp:80/',
  'https://example.jp/a/./b',
  'https://example.jp/a/../b',
  'https://example.jp/a/%2e%2E/b',
  'https://example.jp/a/.%2e',
  'https://example.jp/a/b/..',
  'https://example.jp/a?x=../..',
  'https://example.jp/a#/../',
  "https://example.jp/it's?q=it's#it's",
  'https://example.jp/a b',
  'https://example.jp/a\tb',
  'https://example.jp/a\nb',
  'https://example.jp/日本',
  'https://日本.jp/',
  'https://xn--wgv71a.jp/',
  'https://xn--a.jp/',
  'https://127.1/',
  'https://a.0x7f/',
  'https://a.1/',
  'https://user:pw@example.jp/',
  '/a/./b',
  '/a/../../b',
  '/%2e/x',
  '/a?b#c',
  '/a#b?c',
  ' /a',
  '/a ',
  '\u3000/a',
  '\u00a0https://example.jp/',
  'https://example.jp/\u3000',
  'javascript:alert(1)',
  ' javascript:alert(1)',
  '\u0001javascript:alert(1)',
  '\u3000javascript:alert(1)',
  '\ufeffjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'vbscript:msgbox(1)',
  ' VbScript:msgbox(1)',
  'javascript&#58;alert(1)',
  'javascript:',
  'data:text/html,<script>x</script>',
  'mailto:a@b.jp',
  'tel:0312345678',
  'http:/example.jp/x',
  'http:example.jp',
  'https:/\\example.jp',
  './x',
  '../x',
  'x',
  'x:y',
  '\u0000',
];

describe('linkResolver', () => {
  it('gives what parsing every value gives, for the tricky values and thousands of generated ones', () => {
    const rand = random(12);
    const values = [...TRICKY];
    for (let i = 0; i < 4000; i++) values.push(generated(rand));
    let shortcut = 0;
    const wrong: unknown[] = [];
    for (const base of BASES) {
      const links = linkResolver(base);
      const canonical = canonicalHrefAgainst(URL.parse(base));
      // Twice: the second time answers come from the memo.
      for (const value of [...values, ...values]) {
        const attribute = links.attribute(value);
        const resolved = links.resolve(value);
        const quick = canonical(value);
        if (quick !== undefined) shortcut++;
        if (
          attribute !== oracleAttribute(value, base) ||
          resolved !== oracleResolve(value, base) ||
          (quick !== undefined && quick !== new URL(value, base).href)
        )
          wrong.push({ value, base, attribute, resolved, quick });
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // The generator must reach the shortcuts often, or the comparison above proves little about them.
    expect(shortcut).toBeGreaterThan(values.length * 2);
  });

  it('keeps a javascript:/vbscript: link dropped however it is disguised, through the memo too', () => {
    const links = linkResolver('https://shop.example.jp/a/');
    for (let round = 0; round < 2; round++) {
      for (const value of ['javascript:x', ' javascript:x', 'java\tscript:x', '\u0001JavaScript:x', 'vbscript:x'])
        expect(links.attribute(value), value).toBeNull();
      // The parser strips only controls and spaces: behind U+3000 the value is a relative path, not a script, and it is
      // left as written (its trimmed form is not an http(s) link).
      expect(links.attribute('\u3000javascript:x')).toBe('\u3000javascript:x');
    }
  });

  it('stays right past its memo limit', () => {
    const base = 'https://shop.example.jp/a/';
    const links = linkResolver(base);
    for (let i = 0; i < linkMemoLimit + 100; i++) links.attribute(`p${i}`);
    for (const value of ['p1', `p${linkMemoLimit + 50}`, 'javascript:x', '../q', 'https://Example.jp/'])
      expect(links.attribute(value)).toBe(oracleAttribute(value, base));
  });
});
