// The normalized page every extractor reads: decoded, parsed, cleaned; no I/O happens past this point.
import type { Document } from 'domhandler';

interface PageBase {
  /** Final URL after redirects, the base for absolute links. */
  url: string;
  /** The charset the body was decoded with (WHATWG label, lower-case, e.g. `shift_jis`). */
  charset: string;
  /** What normalization had to drop or cut (oversized JSON-LD, absurd nesting); extractors pass these on. */
  warnings?: string[];
}

export interface HtmlPage extends PageBase {
  kind: 'html';
  /** The cleaned tree: no scripts (JSON-LD kept), styles or comments; links made absolute. */
  document: Document;
  /** Raw JSON-LD blocks found before scripts were stripped, in document order. */
  jsonLd: string[];
  /**
   * Embedded page state kept before scripts were stripped, in document order: data scripts (`type` JSON or another
   * non-JavaScript type, e.g. `__NEXT_DATA__`) and inline scripts that assign a state global
   * (`window.__INITIAL_STATE__ = {…}`). Never executed; extractors parse them with `src/extract/embedded-state.ts`.
   */
  scripts: EmbeddedScript[];
}

export interface EmbeddedScript {
  id: string | null;
  /** The `type` attribute, lower-cased essence; null for classic inline JavaScript. */
  type: string | null;
  text: string;
}

export interface JsonPage extends PageBase {
  kind: 'json';
  json: unknown;
}

/** A CSV response (RFC 4180): decoded with the charset code, split into rows of fields; quotes and `""` undone. */
export interface CsvPage extends PageBase {
  kind: 'csv';
  rows: string[][];
}

/** An XML document (e-Gov law XML): element and attribute names keep their case, no HTML parsing rules apply. */
export interface XmlPage extends PageBase {
  kind: 'xml';
  /** Parsed in XML mode; only the predefined and numeric entities are decoded (no DTD, no entity expansion). */
  document: Document;
}

/**
 * A ZIP archive (EDINET's filing package): its entry names, and the entries an extractor asks for, read within the
 * caps of src/normalize/zip.ts (bounded inflation, sizes and CRC-32 checked). Reading is in memory; no name is ever a
 * filesystem path.
 */
export interface ZipPage extends PageBase {
  kind: 'zip';
  entries: readonly { name: string; size: number }[];
  /** An entry normalized as an HTML page (charset from its BOM, <meta> or detection), or null when absent. */
  html(name: string): HtmlPage | null;
  /** An entry's bytes decoded as text by the same charset rules, or null when absent. */
  text(name: string): string | null;
}

export type NormalizedPage = HtmlPage | JsonPage | CsvPage | XmlPage | ZipPage;
