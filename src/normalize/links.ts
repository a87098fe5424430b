// A page's links made absolute against its one base: each distinct value parsed once, common shapes without a parse.

/** Distinct values remembered per page; past it values are still resolved, just not kept (hostile pages). */
export const linkMemoLimit = 8192;

export interface LinkResolver {
  /** What a URL attribute (href, src…) becomes: null to drop it (a javascript:/vbscript: link), else its new value —
   * the absolute http(s) form, or the value as it is (fragments, mailto:, data:…). The scheme is read after
   * resolution, as a browser reads it: `java&#x09;script:` must not come out as a clean `javascript:`. */
  attribute(value: string): string | null;
  /** The absolute http(s) form of a link, or null to leave the value as it is (fragments, mailto:, data:…). */
  resolve(value: string): string | null;
}

export function linkResolver(base: string): LinkResolver {
  const parsedBase = parseUrl(base, undefined);
  const httpBase = parsedBase !== null && isHttp(parsedBase.protocol);
  const fast = canonicalHrefAgainst(parsedBase);
  const attributes = new Map<string, string | null>();
  const resolved = new Map<string, string | null>();

  // Canonical links (most of a page's) are answered by a scan as cheap as the memo's own hashing; the memo is for
  // the rest, which the parser reads.
  const parsedResolve = (trimmed: string): string | null => {
    const url = parseUrl(trimmed, base);
    return url && isHttp(url.protocol) ? url.href : null;
  };

  // The scheme is read from the value as written (the parser strips only C0 controls and spaces around it), the
  // absolute form from the trimmed value (JS trim also strips NBSP, U+3000…): two parses only when they differ.
  const parsedAttribute = (value: string): string | null => {
    const url = parseUrl(value, base);
    const protocol = url?.protocol;
    if (protocol === 'javascript:' || protocol === 'vbscript:') return null;
    const trimmed = value.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return value;
    const absolute = trimmed.length === value.length ? url : parseUrl(trimmed, base);
    return absolute && isHttp(absolute.protocol) ? absolute.href : value;
  };

  return {
    attribute(value) {
      // '' and `#…` parse, against an http(s) base, to that base's scheme (never a script) and are left as written.
      if (httpBase && (value === '' || value.charCodeAt(0) === HASH)) return value;
      return fast(value) ?? memo(attributes, value, parsedAttribute);
    },
    resolve(value) {
      const trimmed = value.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return null;
      return fast(trimmed) ?? memo(resolved, trimmed, parsedResolve);
    },
  };
}

/**
 * For links already in canonical form (most of a page's: `https://host/path`, `/path`, `//host/path`), the href the
 * WHATWG parser would give against `base`, found without parsing; undefined when the parser must be asked.
 */
export function canonicalHrefAgainst(base: URL | null): (value: string) => string | undefined {
  // Against a base that does not parse, the parser refuses even an absolute link.
  if (base === null) return () => undefined;
  const scheme = isHttp(base.protocol) ? base.protocol : null;
  // A root-relative link against this base is this prefix and the link; credentials in the base would be kept in
  // between, so such a base takes the parser.
  const origin = scheme !== null && base.username === '' && base.password === '' ? `${scheme}//${base.host}` : null;
  return (value) => {
    if (isCanonicalAbsolute(value)) return value;
    if (scheme !== null && value.charCodeAt(0) === SLASH) {
      if (value.charCodeAt(1) === SLASH) return isCanonicalAuthorityAndRest(value, 2) ? scheme + value : undefined;
      if (origin !== null && isCanonicalRest(value, 0)) return origin + value;
    }
    return undefined;
  };
}

function memo(cache: Map<string, string | null>, value: string, compute: (value: string) => string | null) {
  const known = cache.get(value);
  if (known !== undefined) return known;
  const result = compute(value);
  if (cache.size < linkMemoLimit) cache.set(value, result);
  return result;
}

function parseUrl(value: string, base: string | undefined): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

const isHttp = (protocol: string) => protocol === 'http:' || protocol === 'https:';

const SLASH = 0x2f;
const HASH = 0x23;
const QUESTION = 0x3f;
const DOT = 0x2e;
const PERCENT = 0x25;

/**
 * Characters the WHATWG parser copies unchanged into an http(s) URL's path, query and fragment: unreserved, the
 * sub-delimiters but `'` (percent-encoded in a special URL's query), `:`, `@`, `/`, `?`, `#` and `%` (left as it is;
 * `%2e` is refused apart, being a dot segment). No controls, spaces, backslashes, quotes, `<>^`{|}[]` or non-ASCII.
 */
const REST_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/?#%')
    table[c.charCodeAt(0)] = 1;
  return table;
})();

/** `http://host/…` or `https://host/…` that the parser would give back exactly as written. */
function isCanonicalAbsolute(value: string): boolean {
  let start: number;
  if (value.startsWith('https://')) start = 8;
  else if (value.startsWith('http://')) start = 7;
  else return false;
  return isCanonicalAuthorityAndRest(value, start);
}

/**
 * From `start`: a host of lower-case ASCII labels (letters, digits, inner single hyphens; no `xn--`, no port, no
 * credentials; the last label opens with a letter, so it is never read as an IPv4 number), then a path.
 */
function isCanonicalAuthorityAndRest(value: string, start: number): boolean {
  let i = start;
  let labelStart = i;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === SLASH) break;
    if (c === DOT) {
      if (!isLabel(value, labelStart, i)) return false;
      labelStart = i + 1;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  if (i >= value.length || i - start > 253) return false;
  if (!isLabel(value, labelStart, i)) return false;
  const last = value.charCodeAt(labelStart);
  if (!(last >= 0x61 && last <= 0x7a)) return false;
  return isCanonicalRest(value, i);
}

function isLabel(value: string, from: number, to: number): boolean {
  if (to - from < 1 || to - from > 63) return false;
  if (value.charCodeAt(from) === 0x2d || value.charCodeAt(to - 1) === 0x2d) return false;
  for (let i = from + 1; i < to; i++)
    if (value.charCodeAt(i) === 0x2d && value.charCodeAt(i - 1) === 0x2d) return false;
  return true;
}

/**
 * From `start` (a `/`): a path, query and fragment of REST_CHARS with no `.` or `..` segment in the path and no `%2e`
 * anywhere in it (the parser reads `%2e` as a dot), and not `//` at the start of a relative link (another host).
 */
function isCanonicalRest(value: string, start: number): boolean {
  let inPath = true;
  let segmentStart = start + 1;
  for (let i = start + 1; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : -1;
    if (c >= 128 || (c >= 0 && REST_CHARS[c] === 0)) return false;
    if (!inPath) continue;
    if (c === SLASH || c === QUESTION || c === HASH || c === -1) {
      const length = i - segmentStart;
      if (
        (length === 1 && value.charCodeAt(segmentStart) === DOT) ||
        (length === 2 && value.charCodeAt(segmentStart) === DOT && value.charCodeAt(segmentStart + 1) === DOT)
      )
        return false;
      segmentStart = i + 1;
      if (c !== SLASH) inPath = false;
    } else if (c === PERCENT && value.charCodeAt(i + 1) === 0x32 && (value.charCodeAt(i + 2) | 0x20) === 0x65)
      return false;
  }
  return true;
}
