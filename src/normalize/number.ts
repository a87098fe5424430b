// Cells of Japanese statistical tables → numbers, or null with the reason the table's mark gives (research §3.2).
import { normalizeText } from './text.js';

export type MissingReason = 'not_applicable' | 'unavailable' | 'confidential';

export interface TableNumber {
  value: number | null;
  reason?: MissingReason;
  /** Marks kept with a value: `#` 内数 (subtotal counted elsewhere), `*` small-sample caution. */
  flags?: string[];
}

/** A table's own legend (e-Stat `NOTE`): the mark as written and what the table says it means. */
export interface MarkNote {
  mark: string;
  meaning: string;
}

// The marks of §3.2, for tables without a legend or cells their legend does not list.
function reasonOfMark(mark: string): MissingReason | null {
  if (/^[-―]$/.test(mark)) return 'not_applicable';
  if (/^(?:\.{2,}|・{2,}|…+)$/.test(mark) || mark === '***' || mark === '') return 'unavailable';
  if (/^[xX]$/.test(mark)) return 'confidential';
  return null;
}

function reasonOfMeaning(meaning: string): MissingReason {
  if (/秘匿/.test(meaning)) return 'confidential';
  if (/皆無|該当(?:数字|数値)?(?:が)?(?:ない|なし)|定義上/.test(meaning)) return 'not_applicable';
  return 'unavailable';
}

/**
 * Parses one cell. `△`/`▲`/`-` before digits negate; thousands commas and full-width digits are accepted; the
 * flags `p` (preliminary) and `r` (revised) are dropped. Returns null when the cell is neither a number nor a
 * known mark: the caller decides whether that is an error.
 */
export function parseTableNumber(raw: string, notes: readonly MarkNote[] = []): TableNumber | null {
  const cell = normalizeText(raw);
  // The table's legend first: e-Stat tables define `-` as 皆無 in one table and 数字が得られない in another.
  const note = notes.find((n) => normalizeText(n.mark) === cell);
  if (note) return { value: null, reason: reasonOfMeaning(note.meaning) };
  const standard = reasonOfMark(cell);
  if (standard) return { value: null, reason: standard };

  const m = /^([△▲-]|\+)?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*([pr#*]*)$/i.exec(cell);
  if (!m) return null;
  const magnitude = Number(`${(m[2] ?? '').replace(/,/g, '')}${m[3] ?? ''}`);
  if (!Number.isFinite(magnitude)) return null;
  const negative = m[1] !== undefined && m[1] !== '+';
  // 0 with a minus is "less than half the unit", not a negative quantity; JSON has no -0 either.
  const value = negative && magnitude !== 0 ? -magnitude : magnitude;
  const flags = [...new Set((m[4] ?? '').replace(/[pr]/gi, ''))];
  return flags.length > 0 ? { value, flags } : { value };
}
