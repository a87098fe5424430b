// Fetched bytes → what a scrape call serves (normalized page, validated data, HTML), with its output caps; this is
// the work an extraction worker does, kept to plain data in and out so that it can cross a thread boundary.
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import { disagreementsOf, type Disagreement } from '../extract/disagreements.js';
import type { Extraction, Extractor } from '../extract/extractor.js';
import { validateExtraction } from '../extract/page-types.js';
import { normalizePage, serializeHtml } from '../normalize/normalize-page.js';

export interface OutputLimits {
  /** Longest array kept anywhere in `data`; longer ones are cut and named in warnings. */
  maxRows: number;
  /** Largest serialized `data` + served HTML as they are served (JSON, escapes included), in UTF-8 bytes; past it
   * the call is `output_too_large`. */
  maxBytes: number;
}

/** One page to produce. Only plain data: it is structured-cloned into a worker (the body is transferred). */
export interface ProduceJob {
  /** `<site_id>/<page_type>`; the worker looks the extractor up in its own copy of the site catalogue. */
  extractorId: string;
  body: Uint8Array;
  /** Lower-cased response headers. */
  headers: Record<string, string>;
  finalUrl: string;
  /** Run the extractor (mode html_json). */
  wantData: boolean;
  /** Serialize the normalized HTML (mode html, include_html or store_artifact). */
  wantHtml: boolean;
}

export interface Produced {
  charset: string;
  extraction: Extraction | null;
  /** The normalized HTML when asked for and the source is HTML; null otherwise. */
  html: string | null;
  /** Structured sources of the page that disagreed about a served field: for metrics, never served. */
  disagreements: Disagreement[];
}

/** What a failure looks like after crossing a thread: a catalogue code and its detail, never a stack. */
export interface ProduceFailure {
  code: ErrorCode;
  message: string;
  body?: Record<string, unknown>;
}

export function produce(job: ProduceJob, extractor: Extractor, limits: OutputLimits): Produced {
  const normalized = normalizePage({
    body: job.body,
    headers: job.headers,
    finalUrl: job.finalUrl,
    input: extractor.input,
  });
  let extraction: Extraction | null = null;
  let disagreements: Disagreement[] = [];
  if (job.wantData) {
    const { disagreements: reported, ...extracted } = extractor.extract(normalized);
    extraction = extracted;
    try {
      disagreements = disagreementsOf(normalized, { ...extracted, disagreements: reported });
    } catch {
      // Telemetry never costs a caller an answer.
    }
    // Cut first: what is validated is exactly what is served, and rows past the cap cost no validation time.
    const cut = capLists(extraction.data, limits.maxRows);
    if (cut.length > 0) extraction = { ...extraction, warnings: [...extraction.warnings, ...cut] };
    validateExtraction(extractor.pageType, extraction);
  }
  const html = normalized.kind === 'html' && job.wantHtml ? serializeHtml(normalized) : null;
  // Counted as served: inside JSON, where a quote or backslash takes 2 bytes and a control character 6.
  const htmlBytes = html === null ? 0 : jsonStringByteLength(html);
  const bytes = htmlBytes + (extraction ? jsonByteLength(extraction.data, limits.maxBytes - htmlBytes + 1) : 0);
  if (bytes > limits.maxBytes) {
    throw new KumoError('output_too_large', `the answer's data and HTML would be over the ${limits.maxBytes}-byte cap`);
  }
  return { charset: normalized.charset, extraction, html, disagreements };
}

/**
 * Cuts every array in `data` (table rows, list items, class items) to `maxRows`, in place, and returns one warning
 * per cut array: `rows_truncated:<path>:<kept>/<total>`. Walks with an explicit stack: data can be deep.
 */
export function capLists(data: Record<string, unknown>, maxRows: number): string[] {
  const warnings: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: data, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) {
      if (value.length > maxRows) {
        warnings.push(`rows_truncated:${path}:${maxRows}/${value.length}`);
        value.length = maxRows;
      }
      value.forEach((inner, i) => stack.push({ value: inner, path: `${path}[${i}]` }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (inner !== null && typeof inner === 'object')
          stack.push({ value: inner, path: path === '' ? key : `${path}.${key}` });
      }
    }
  }
  return warnings.sort();
}

/**
 * UTF-8 length of JSON.stringify(value), counted without building the string (an amplified answer can be past
 * V8's largest string) and given up as soon as it passes `stopAbove`; then the result is only known to be larger.
 */
export function jsonByteLength(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= stopAbove) {
    const v = stack.pop();
    if (v === null || v === undefined) total += 4;
    else if (typeof v === 'string') total += jsonStringByteLength(v);
    else if (typeof v === 'number' || typeof v === 'boolean') total += String(v).length;
    else if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const inner of v) stack.push(inner);
    } else if (typeof v === 'object') {
      const entries = Object.entries(v).filter(([, inner]) => inner !== undefined);
      total += 2 + Math.max(0, entries.length - 1);
      for (const [key, inner] of entries) {
        total += jsonStringByteLength(key) + 1;
        stack.push(inner);
      }
    }
  }
  return total;
}

/**
 * UTF-8 length of JSON.stringify(text), quotes included, counted one UTF-16 unit at a time: the escaped string (up to
 * six times the text) is never built. Mirrors JSON.stringify exactly: `"` `\\` and \b \f \n \r \t take 2 bytes, other
 * controls and lone surrogates a 6-byte `\uXXXX`, a surrogate pair 4.
 */
export function jsonStringByteLength(text: string): number {
  let total = 2;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) total += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) total += 2;
    else if (c < 0x80) total += 1;
    else if (c < 0x800) total += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        total += 4;
        i++;
      } else total += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) total += 6;
    else total += 3;
  }
  return total;
}

export function failureOf(error: unknown): ProduceFailure {
  if (isKumoError(error)) {
    return { code: error.code, message: error.message, ...(error.extras.body ? { body: error.extras.body } : {}) };
  }
  // A bug or a stack overflow in an extractor: no message leaves the process (it could quote the page).
  return { code: 'internal', message: 'an internal error occurred while extracting' };
}
