// Bytes → text: the HTML Standard's sniffing order (BOM, transport, <meta> prescan) plus Japanese detection.
import Encoding from 'encoding-japanese';

export interface DecodeOptions {
  /** A caller's explicit choice (HTML Standard step 2); beaten only by a BOM. */
  override?: string;
  /** Look for <meta charset> in the first 1,024 bytes; off for JSON, which has no such declaration. */
  prescanMeta?: boolean;
  /** How many bytes detection may read; it is linear in this and the body can be megabytes. */
  detectBytes?: number;
}

export interface DecodedBody {
  text: string;
  /** WHATWG canonical name, lower-case: `utf-8`, `shift_jis`, `euc-jp`, `iso-2022-jp`, … */
  charset: string;
  /** Which step decided: useful when a page decodes badly and someone asks why. */
  source: 'bom' | 'override' | 'header' | 'meta' | 'detected' | 'default';
}

const PRESCAN_BYTES = 1024;
const DEFAULT_DETECT_BYTES = 64 * 1024;

// Labels seen on Japanese sites that are not WHATWG labels, so TextDecoder would reject them. Every Shift_JIS
// variant goes to WHATWG shift_jis, which is Windows-31J: decoding a page that says Shift_JIS but uses ①/㈱/髙
// with a strict JIS table would lose exactly those characters.
const aliases: Readonly<Record<string, string>> = {
  cp932: 'shift_jis',
  'windows-932': 'shift_jis',
  'x-ms-cp932': 'shift_jis',
  'ms-932': 'shift_jis',
  'sjis-win': 'shift_jis',
  'sjis-open': 'shift_jis',
  'shift_jis-2004': 'shift_jis',
  shift_jisx0213: 'shift_jis',
  'x-shift_jis': 'shift_jis',
  eucjp: 'euc-jp',
  'eucjp-win': 'euc-jp',
  'eucjp-ms': 'euc-jp',
  'euc-jp-ms': 'euc-jp',
  cp51932: 'euc-jp',
  'x-euc': 'euc-jp',
  ujis: 'euc-jp',
  iso2022jp: 'iso-2022-jp',
  jis: 'iso-2022-jp',
  utf8: 'utf-8',
};

/** Maps a declared label to the WHATWG canonical name, or null when no decoder exists for it. */
export function canonicalCharset(label: string): string | null {
  const cleaned = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim()
    .toLowerCase();
  if (cleaned === '') return null;
  const mapped = aliases[cleaned] ?? cleaned;
  try {
    const name = new TextDecoder(mapped).encoding;
    // The WHATWG "replacement" decoder exists to make dangerous labels unreadable; treat as undeclared.
    return name === 'replacement' ? null : name;
  } catch {
    return null;
  }
}

/** The charset parameter of a Content-Type header value, if any. */
export function charsetFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const match = /(?:^|[;\s])charset\s*=\s*("([^"]*)"|[^;\s"]*)/i.exec(contentType);
  if (!match) return null;
  return match[2] ?? match[1] ?? null;
}

function sniffBom(bytes: Uint8Array): { charset: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return null;
}

/**
 * The HTML Standard's prescan, simplified: it reads only ASCII, so latin1 over the first 1,024 bytes is exact.
 * Comments are skipped so a commented-out <meta> cannot decide. An XML declaration counts too: XHTML pages and
 * feeds declare their encoding there.
 */
export function prescanMetaCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, PRESCAN_BYTES));
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1]) return xml[1];
  const withoutComments = head.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  for (const tag of withoutComments.matchAll(/<meta\b([^>]*)>?/gi)) {
    const attrs = attributesOf(tag[1] ?? '');
    const charset = attrs.get('charset');
    if (charset) return charset;
    if (attrs.get('http-equiv')?.toLowerCase() === 'content-type') {
      const fromContent = charsetFromContentType(attrs.get('content'));
      if (fromContent) return fromContent;
    }
  }
  return null;
}

function attributesOf(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of source.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = (m[1] ?? '').toLowerCase();
    // The first occurrence of an attribute wins, as in the tokenizer.
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

function lastCharBoundary(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.length <= limit) return bytes;
  // Cutting right after an ASCII byte never splits a character in UTF-8, EUC-JP or Shift_JIS (lead bytes are
  // all ≥ 0x81), and the detector rejects a buffer that ends inside a character.
  for (let end = limit; end > limit - 64 && end > 0; end--) {
    if ((bytes[end - 1] ?? 0x80) < 0x80) return bytes.subarray(0, end);
  }
  return bytes.subarray(0, limit);
}

const detected: Readonly<Partial<Record<string, string>>> = {
  UTF8: 'utf-8',
  ASCII: 'utf-8',
  SJIS: 'shift_jis',
  EUCJP: 'euc-jp',
  JIS: 'iso-2022-jp',
};

/** Statistical step for undeclared pages: encoding.js's strict validators, in its own preference order. */
export function detectJapaneseCharset(bytes: Uint8Array, maxBytes = DEFAULT_DETECT_BYTES): string | null {
  // Pages often open with tens of kilobytes of ASCII (scripts, styles): the sample starts where the first
  // non-ASCII byte or ISO-2022-JP escape does, which is always a character boundary.
  const start = bytes.findIndex((b) => b >= 0x80 || b === 0x1b);
  if (start < 0) return bytes.length > 0 ? 'utf-8' : null;
  const sample = lastCharBoundary(bytes.subarray(start), maxBytes);
  const found = Encoding.detect(sample, ['JIS', 'UTF8', 'EUCJP', 'SJIS']);
  return found === false ? null : (detected[found] ?? null);
}

function decodeWith(charset: string, bytes: Uint8Array): string {
  // ignoreBOM: a BOM was already consumed (or is absent); a stray one mid-decision must not be eaten twice.
  return new TextDecoder(charset, { ignoreBOM: true }).decode(bytes);
}

/** Decodes a response body following BOM → override → header → <meta> → detection → UTF-8. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, opts: DecodeOptions = {}): DecodedBody {
  const bom = sniffBom(bytes);
  if (bom) return { text: decodeWith(bom.charset, bytes.subarray(bom.length)), charset: bom.charset, source: 'bom' };

  const override = opts.override ? canonicalCharset(opts.override) : null;
  if (override) return { text: decodeWith(override, bytes), charset: override, source: 'override' };

  const headerLabel = charsetFromContentType(contentType);
  const header = headerLabel ? canonicalCharset(headerLabel) : null;
  if (header) return { text: decodeWith(header, bytes), charset: header, source: 'header' };

  if (opts.prescanMeta ?? true) {
    const metaLabel = prescanMetaCharset(bytes);
    let meta = metaLabel ? canonicalCharset(metaLabel) : null;
    // A <meta> cannot truthfully declare UTF-16: the prescan could read it as ASCII, so the spec says UTF-8.
    if (meta === 'utf-16le' || meta === 'utf-16be') meta = 'utf-8';
    if (meta) return { text: decodeWith(meta, bytes), charset: meta, source: 'meta' };
  }

  const sniffed = detectJapaneseCharset(bytes, opts.detectBytes);
  if (sniffed) return { text: decodeWith(sniffed, bytes), charset: sniffed, source: 'detected' };

  return { text: decodeWith('utf-8', bytes), charset: 'utf-8', source: 'default' };
}
