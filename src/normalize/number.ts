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

// Multipliers of §3.1; 百万 before 万 so that 485百万円 is read as one unit.
const MULTIPLIERS: readonly (readonly [string, bigint])[] = [
  ['兆', 10n ** 12n],
  ['億', 10n ** 8n],
  ['百万', 10n ** 6n],
  ['万', 10n ** 4n],
  ['千', 10n ** 3n],
];
const GROUP = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(兆|億|百万|万|千)?`;

// Decimal string × 10^k without floating error (12.5億 is exactly 1,250,000,000).
function scaled(intPart: string, fraction: string, multiplier: bigint): number {
  const digits = BigInt(`${intPart.replace(/,/g, '')}${fraction}`);
  const divisor = 10n ** BigInt(fraction.length);
  const product = digits * multiplier;
  return product % divisor === 0n ? Number(product / divisor) : Number(product) / Number(divisor);
}

/**
 * A number as written in prose or a table cell with its unit: 千/万/億/兆 and 千円/百万円/億円/兆円 multiply
 * (`1兆2,345億円`), `%`/`‰` keep their displayed magnitude, △/▲/minus negate, p/r are dropped, and the
 * missing/confidential marks give null with a reason. Null without a reason: not a number at all.
 */
export function parseNumber(raw: string, notes: readonly MarkNote[] = []): TableNumber | null {
  // Spaces around units and signs go; between two digit runs they would join two numbers into one.
  const cell = normalizeText(raw).replace(/(?<!\d)\s+|\s+(?!\d)/g, '');
  const plain = parseTableNumber(cell, notes);
  if (plain) return plain;
  const m = /^([△▲+-])?(.+?)(円)?(%|‰)?([pr#*]*)$/i.exec(cell);
  if (!m) return null;
  const body = m[2] ?? '';
  const groups = [...body.matchAll(new RegExp(GROUP, 'g'))];
  if (groups.length === 0 || groups.map((g) => g[0]).join('') !== body) return null;
  let value = 0;
  let previous = Infinity;
  for (const [index, g] of groups.entries()) {
    const unit = g[3];
    const multiplier = unit ? MULTIPLIERS.find(([u]) => u === unit)![1] : 1n;
    // Groups must descend (1兆2,345億), and only the last may lack a unit: 12 34 is not a number.
    if (!unit && index !== groups.length - 1) return null;
    if (Number(multiplier) >= previous) return null;
    previous = Number(multiplier);
    value += scaled(g[1] ?? '0', (g[2] ?? '').slice(1), multiplier);
  }
  if (m[4] && groups.some((g) => g[3])) return null;
  const negative = m[1] !== undefined && m[1] !== '+';
  const signed = negative && value !== 0 ? -value : value;
  const flags = [...new Set((m[5] ?? '').replace(/[pr]/gi, ''))];
  return flags.length > 0 ? { value: signed, flags } : { value: signed };
}
