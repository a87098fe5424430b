// Fetched bytes → the NormalizedPage extractors read: decoded, parsed, stripped of active content, links absolute.
import { parseDocument } from 'htmlparser2';
import { textContent } from 'domutils';
import { render } from 'dom-serializer';
import { isCDATA, isComment, isTag, type AnyNode, type Document, type Element, type ParentNode } from 'domhandler';
import { KumoError } from '../errors.js';
import { decodeBody } from './charset.js';
import { linkResolver, type LinkResolver } from './links.js';
import type { CsvPage, EmbeddedScript, HtmlPage, JsonPage, NormalizedPage, XmlPage, ZipPage } from './page.js';
import { sanitizeOutputHtml } from './sanitize-output.js';
import { splitSrcset } from './srcset.js';
import { readZip } from './zip.js';

export interface NormalizeInput {
  body: Uint8Array;
  /** Lower-cased response headers; only content-type is read. */
  headers: Readonly<Record<string, string>>;
  finalUrl: string;
  input: NormalizedPage['kind'];
}

/** Defensive limits: a hostile or broken page must cost bounded time and memory, never crash the process. */
export const normalizeLimits = {
  /** Decoded JSON text; JSON.parse of more is slow and the answer would be too large to serve anyway. */
  maxJsonChars: 16 * 1024 * 1024,
  maxJsonLdBlocks: 32,
  maxJsonLdChars: 512 * 1024,
  /** Embedded state scripts (`__NEXT_DATA__`, `window.__INITIAL_STATE__ = …`): a shop's state can be large. */
  maxEmbeddedScripts: 64,
  maxEmbeddedScriptChars: 4 * 1024 * 1024,
  /** Deeper nodes are cut: recursive walkers (serializer, selectors) would otherwise overflow the stack. */
  maxDomDepth: 256,
  /** CSV rows (the 法人番号 API splits its answers at 2,000 rows); more is a hostile or wrong response. */
  maxCsvRows: 100_000,
} as const;

// Asked of every element and attribute of a page: plain comparisons, cheaper than hashing each name into a Set.
const isRemovedTag = (name: string) =>
  name === 'script' || name === 'style' || name === 'noscript' || name === 'template';
const isUrlAttribute = (name: string) =>
  name === 'href' || name === 'src' || name === 'action' || name === 'poster' || name === 'cite';

export function normalizePage(input: NormalizeInput): NormalizedPage {
  const contentType = input.headers['content-type'];
  if (input.input === 'csv') return normalizeCsv(input, contentType);
  if (input.input === 'json') return normalizeJson(input, contentType);
  if (input.input === 'xml') return normalizeXml(input, contentType);
  if (input.input === 'zip') return normalizeZip(input);
  return normalizeHtml(input, contentType);
}

/**
 * The archive's directory is read now (entry count and structure checked); entries are inflated only when an
 * extractor asks, each within the per-entry and total caps. An entry carries no content type: its charset comes from
 * its own bytes (BOM, <meta>, detection), as for a page served without one.
 */
function normalizeZip(input: NormalizeInput): ZipPage {
  const archive = readZip(input.body);
  const byName = new Map(archive.entries.map((e) => [e.name, e]));
  // An entry's links resolve against the archive's URL without its query: that query may hold the caller's key.
  const entryBase = (() => {
    const url = new URL(input.finalUrl);
    url.search = '';
    url.hash = '';
    return url.href;
  })();
  const bytesOf = (name: string) => {
    const entry = byName.get(name);
    return entry ? archive.read(entry) : null;
  };
  return {
    kind: 'zip',
    url: input.finalUrl,
    // The archive itself is binary; each entry's charset is given by the page or text read from it.
    charset: 'binary',
    entries: archive.entries.map(({ name, size }) => ({ name, size })),
    html(name) {
      const body = bytesOf(name);
      return body ? normalizeHtml({ body, headers: {}, finalUrl: entryBase, input: 'html' }, undefined) : null;
    },
    text(name) {
      const body = bytesOf(name);
      return body ? decodeBody(body, undefined).text : null;
    },
  };
}

function normalizeXml(input: NormalizeInput, contentType: string | undefined): XmlPage {
  // The XML declaration's encoding is not an HTML <meta>: BOM, header, then detection (e-Gov serves UTF-8).
  const { text, charset } = decodeBody(input.body, contentType, { prescanMeta: false });
  if (text.length > normalizeLimits.maxJsonChars) {
    throw new KumoError(
      'extraction_failed',
      `the XML response is larger than ${normalizeLimits.maxJsonChars} characters`,
    );
  }
  // xmlMode: names keep their case, no implied end tags or void elements. htmlparser2 never reads a DTD, so only the
  // predefined and numeric character references are decoded and no entity can expand.
  const document = parseDocument(text, { xmlMode: true, decodeEntities: true });
  const cut = cleanTree(document, { dropCdata: false });
  const warnings = cut ? [`xml: elements nested deeper than ${normalizeLimits.maxDomDepth} were dropped`] : [];
  return { kind: 'xml', url: input.finalUrl, charset, document, ...(warnings.length ? { warnings } : {}) };
}

function normalizeCsv(input: NormalizeInput, contentType: string | undefined): CsvPage {
  const { text, charset } = decodeBody(input.body, contentType, { prescanMeta: false });
  if (text.length > normalizeLimits.maxJsonChars) {
    throw new KumoError(
      'extraction_failed',
      `the CSV response is larger than ${normalizeLimits.maxJsonChars} characters`,
    );
  }
  return { kind: 'csv', url: input.finalUrl, charset, rows: parseCsv(text, normalizeLimits.maxCsvRows) };
}

/**
 * RFC 4180: fields split by commas, rows by CRLF (a bare LF or CR is accepted too), a quoted field may hold commas,
 * line breaks and `""` for a quote. A BOM and a final line break are dropped; blank lines are skipped.
 */
export function parseCsv(text: string, maxRows: number = normalizeLimits.maxCsvRows): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let atFieldStart = true;
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    if (row.length > 0 || field !== '' || quoted) {
      row.push(field);
      if (rows.length >= maxRows)
        throw new KumoError('extraction_failed', `the CSV response has more than ${maxRows} rows`);
      rows.push(row);
    }
    row = [];
    field = '';
    atFieldStart = true;
    quoted = false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && atFieldStart) {
      atFieldStart = false;
      quoted = true;
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new KumoError('extraction_failed', 'the CSV response has an unterminated quoted field');
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else if (c === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      quoted = false;
      i++;
    } else if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      atFieldStart = false;
      i++;
    }
  }
  endRow();
  return rows;
}

function normalizeJson(input: NormalizeInput, contentType: string | undefined): JsonPage {
  // JSON has no in-band declaration (RFC 8259 says UTF-8), so no <meta> prescan: only BOM, header, detection.
  const { text, charset } = decodeBody(input.body, contentType, { prescanMeta: false });
  if (text.length > normalizeLimits.maxJsonChars) {
    throw new KumoError(
      'extraction_failed',
      `the JSON response is larger than ${normalizeLimits.maxJsonChars} characters`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // The parser's message quotes the input; the detail names the problem only.
    throw new KumoError('extraction_failed', 'the response is not valid JSON');
  }
  return { kind: 'json', url: input.finalUrl, charset, json };
}

function normalizeHtml(input: NormalizeInput, contentType: string | undefined): HtmlPage {
  const { text, charset } = decodeBody(input.body, contentType);
  const document = parseDocument(text, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const warnings: string[] = [];
  const jsonLd: string[] = [];
  const scripts: EmbeddedScript[] = [];
  // One walk: embedded data is read, active content dropped and handlers stripped as elements are met; links wait for
  // the walk's end, since the first <base href> in tree order decides them all, even those before it.
  let baseHref: string | null = null;
  const linked: Element[] = [];
  const cut = cleanTree(document, {
    dropCdata: true,
    visit(node) {
      const name = node.name;
      if (name === 'script') {
        if (isJsonLd(node)) {
          if (jsonLd.length >= normalizeLimits.maxJsonLdBlocks) warnings.push('json-ld: too many blocks, rest ignored');
          else {
            const block = textContent(node);
            if (block.length > normalizeLimits.maxJsonLdChars) warnings.push('json-ld: oversized block ignored');
            else jsonLd.push(block);
          }
        } else keepEmbeddedState(node, scripts, warnings);
      }
      if (isRemovedTag(name)) return false;
      if (name === 'base' && baseHref === null && node.attribs.href !== undefined) baseHref = node.attribs.href;
      if (stripHandlers(node)) linked.push(node);
      return true;
    },
  });
  const base = baseHref === null ? input.finalUrl : (linkResolver(input.finalUrl).resolve(baseHref) ?? input.finalUrl);
  const links = linkResolver(base);
  for (const el of linked) absoluteLinks(el, links);
  if (cut) warnings.push(`html: elements nested deeper than ${normalizeLimits.maxDomDepth} were dropped`);
  return {
    kind: 'html',
    url: input.finalUrl,
    charset,
    document,
    jsonLd,
    scripts,
    ...(warnings.length ? { warnings } : {}),
  };
}

// Classic scripts and modules: code, not data. Any other type is a data block the browser never runs.
const JAVASCRIPT_TYPES =
  /^(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script(?:1\.[0-5])?|text\/jscript|text\/livescript)$/;
// An inline script that sets page state: `window.__INITIAL_STATE__ =`, `var __NUXT__ =`, `window["__APP__"] =`.
const STATE_ASSIGNMENT = /^\s*(?:(?:var|let|const)\s+|window\.|self\.|window\[["'])?__[A-Za-z0-9_$]+(?:["']\])?\s*=/;

function keepEmbeddedState(el: Element, out: EmbeddedScript[], warnings: string[]): void {
  if (el.attribs.src !== undefined) return;
  const type = (el.attribs.type ?? '').split(';')[0]!.trim().toLowerCase();
  const javascript = JAVASCRIPT_TYPES.test(type);
  const text = textContent(el);
  if (javascript && !STATE_ASSIGNMENT.test(text.slice(0, 200))) return;
  if (text.trim() === '') return;
  if (out.length >= normalizeLimits.maxEmbeddedScripts) {
    if (!warnings.includes('scripts: too many embedded state blocks, rest ignored'))
      warnings.push('scripts: too many embedded state blocks, rest ignored');
    return;
  }
  if (text.length > normalizeLimits.maxEmbeddedScriptChars) {
    warnings.push('scripts: oversized embedded state block ignored');
    return;
  }
  out.push({ id: el.attribs.id ?? null, type: javascript ? null : type, text });
}

function isJsonLd(el: Element): boolean {
  const type = (el.attribs.type ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/ld+json';
}

/** Tidies the tree the extractors read (absolute links, no handlers). It is not what makes served HTML safe: that is
 * sanitizeOutputHtml's job alone, on the way out (see serializeHtml). Returns whether the element has links to resolve. */
function stripHandlers(el: Element): boolean {
  let links = false;
  const attribs = el.attribs;
  for (const name in attribs) {
    // `on…`: a handler, whatever follows.
    if (name.charCodeAt(0) === 0x6f && name.charCodeAt(1) === 0x6e) delete attribs[name];
    else if (!links && (name === 'srcset' || isUrlAttribute(name))) links = true;
  }
  return links;
}

function absoluteLinks(el: Element, links: LinkResolver): void {
  // One pass over the attributes present: a lookup of each link attribute would mostly miss, and a miss is the
  // costly lookup.
  const attribs = el.attribs;
  for (const name in attribs) {
    if (name === 'srcset') attribs.srcset = absoluteSrcset(attribs.srcset!, links);
    else if (isUrlAttribute(name)) {
      const value = attribs[name]!;
      const fate = links.attribute(value);
      if (fate === null) delete attribs[name];
      else if (fate !== value) attribs[name] = fate;
    }
  }
}

/** srcset is `url [descriptor], …` where a URL may itself contain commas; split as the HTML Standard does. */
export function absoluteSrcset(srcset: string, links: LinkResolver): string {
  return splitSrcset(srcset)
    .map(({ url, descriptor }) => {
      const absolute = links.resolve(url) ?? url;
      return descriptor ? `${absolute} ${descriptor}` : absolute;
    })
    .join(', ');
}

/**
 * The one walk over a parsed tree, in tree order with an explicit stack (a recursive walk overflows on hostile
 * 50,000-deep pages): comments (and CDATA when asked) are dropped, children below the depth cap are cut, and `visit`
 * sees every element that is kept so far, returning false to drop it with its subtree. Returns whether anything was cut.
 */
function cleanTree(document: Document, options: { dropCdata: boolean; visit?: (el: Element) => boolean }): boolean {
  const { dropCdata, visit } = options;
  // Two stacks in step rather than one of {node, depth}: no object allocated per node.
  const nodes: AnyNode[] = [];
  const depths: number[] = [];
  for (let i = document.children.length - 1; i >= 0; i--) {
    nodes.push(document.children[i]!);
    depths.push(1);
  }
  const doomed: AnyNode[] = [];
  let cut = false;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (isComment(node) || (dropCdata && isCDATA(node))) {
      doomed.push(node);
      continue;
    }
    if (!isTag(node)) continue;
    if (visit && !visit(node)) {
      doomed.push(node);
      continue;
    }
    const children = node.children;
    if (depth >= normalizeLimits.maxDomDepth) {
      if (children.length > 0) cut = true;
      for (const child of children) doomed.push(child);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]!);
      depths.push(depth + 1);
    }
  }
  detachAll(doomed);
  return cut;
}

/** Removes nodes in one pass per parent: splicing one by one is quadratic on pages with thousands of comments. */
function detachAll(nodes: readonly AnyNode[]): void {
  // A removed node is known by its cleared parent: no set of removed nodes per parent.
  const parents = new Set<ParentNode>();
  for (const node of nodes) {
    if (!node.parent) continue;
    parents.add(node.parent);
    node.parent = null;
    node.prev = null;
    node.next = null;
  }
  for (const parent of parents) {
    const kept = parent.children.filter((child) => child.parent !== null);
    for (let i = 0; i < kept.length; i++) {
      kept[i]!.prev = i > 0 ? kept[i - 1]! : null;
      kept[i]!.next = i + 1 < kept.length ? kept[i + 1]! : null;
    }
    parent.children = kept;
  }
}

/** The normalized HTML served as `html` and kept in artifacts: UTF-8 text, Japanese left as characters, not entities,
 * passed through the allowlist sanitizer (docs/decisions/0006-html-sanitizer.md) so that it is inert wherever it is
 * opened. The tree extractors read is left as it is. */
export function serializeHtml(page: HtmlPage): string {
  return sanitizeOutputHtml(render(page.document.children, { encodeEntities: 'utf8', decodeEntities: true }), page.url);
}
