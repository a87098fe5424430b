// A monitor target's history as CSV, one writer for the API (GET …/history?format=csv) and the console's download.
import type { HistoryView } from './monitor-service.js';

/** A history as CSV: `t` then the fields, one row per point (RFC 4180 quoting; UTF-8 with a BOM for Excel). */
export function historyCsv(history: HistoryView): string {
  const fields = Object.keys(history.stats);
  const quote = (value: string | number | boolean | null | undefined): string => {
    if (value === null || value === undefined) return '';
    const text = String(value);
    // A cell a spreadsheet would run as a formula is written as text.
    const safe = /^[=+\-@\t\r]/.test(text) && typeof value !== 'number' ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const lines = [['t', ...fields].join(',')];
  for (const point of history.points)
    lines.push([point.t, ...fields.map((field) => point[field])].map(quote).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
