// `kumo batch submit`'s input file: one URL per line, or a CSV with a `url` column (and optional `ref`), as a price
// team exports it (Excel writes Shift_JIS or UTF-8 with a BOM), read into the items of POST /v1/batches.
import { UsageError } from './args.js';

export interface InputItem {
  url: string;
  ref?: string;
  /** Where the item is in the file (1-based, the first line of its CSV record), for messages about it. */
  line: number;
}

/**
 * The file's text: UTF-8 (a BOM is dropped) when the bytes are valid UTF-8, otherwise Shift_JIS (Windows-31J, what
 * Excel in Japan saves a CSV as). Anything else is refused rather than read as mojibake URLs.
 */
export function decodeInput(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    try {
      return new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
    } catch {
      throw new UsageError('the file is neither UTF-8 nor Shift_JIS text');
    }
  }
}

interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * RFC 4180 records: comma-separated fields, a field in double quotes may hold commas, line breaks and doubled quotes;
 * CRLF or LF ends a record. An unclosed quote is refused with its line.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (c === '\n') line += 1;
        field += c;
      }
      i += 1;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      // Spaces before an opening quote are dropped, as spreadsheet programs do.
      field = '';
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      endRecord();
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      line += 1;
      recordLine = line;
    } else {
      field += c;
    }
    i += 1;
  }
  if (quoted) throw new UsageError(`line ${quoteLine}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

function isBlank(fields: string[]): boolean {
  return fields.every((f) => f.trim() === '');
}

/**
 * The items of the file, in its order. A CSV is recognised by its first record having a `url` column (any case);
 * its `ref` column, when present, names each item (empty = none); other columns are ignored. Otherwise each
 * non-blank line not starting with `#` is one URL. The URLs are not judged here: the server checks each one as a
 * call would and lists those it refuses in `rejected[]`.
 */
export function readBatchInput(bytes: Uint8Array): InputItem[] {
  const text = decodeInput(bytes);
  const lines = text.split(/\r\n|\n|\r/);
  const meaningful = (raw: string) => raw.trim() !== '' && !raw.trimStart().startsWith('#');
  const first = lines.find(meaningful);
  // Judged on the first line alone, so a plain list whose URL holds a stray quote is never read as CSV.
  let header: string[] = [];
  try {
    header = first === undefined ? [] : parseCsv(first)[0]!.fields.map((f) => f.trim().toLowerCase());
  } catch {
    header = [];
  }
  const urlColumn = header.indexOf('url');
  const items: InputItem[] = [];
  if (urlColumn !== -1) {
    const refColumn = header.indexOf('ref');
    const records = parseCsv(text).filter(
      (record) => !isBlank(record.fields) && !record.fields[0]!.trimStart().startsWith('#'),
    );
    for (const record of records.slice(1)) {
      const url = (record.fields[urlColumn] ?? '').trim();
      if (url === '') throw new UsageError(`line ${record.line}: no url in the url column`);
      const ref = refColumn === -1 ? '' : (record.fields[refColumn] ?? '').trim();
      items.push({ url, ...(ref !== '' ? { ref } : {}), line: record.line });
    }
  } else {
    // A plain list: each line as written (a URL's commas or quotes are part of it, not CSV).
    lines.forEach((raw, index) => {
      if (meaningful(raw)) items.push({ url: raw.trim(), line: index + 1 });
    });
  }
  if (items.length === 0) throw new UsageError('the file holds no URLs');
  return items;
}

/** Consecutive slices of at most `size` (the API takes 1–1,000 items a request). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
