// Cells of Japanese statistical tables → numbers, or null with the reason the table's mark gives (research §3.2).
import { normalizeText } from './text.js';

export type MissingReason = 'not_applicable' | 'unavailable' | 'confidential';

export interface TableNumber {
  value: number | null;
  reason?: MissingReason;
  /** Marks kept with a value: `#` 内数 (subtotal counted elsewhere), `*` small-sample caution. */
  flags?: string[];
  /** The counter (助数詞) written after the number: `人` for `5人`. Not a multiplier; the value is the count. */
  counter?: string;
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
  const magnitude = exactly(`${(m[2] ?? '').replace(/,/g, '')}${m[3] ?? ''}`);
  if (magnitude === null) return null;
  const negative = m[1] !== undefined && m[1] !== '+';
  // 0 with a minus is "less than half the unit", not a negative quantity; JSON has no -0 either.
  const value = negative && magnitude !== 0 ? -magnitude : magnitude;
  const flags = [...new Set((m[4] ?? '').replace(/[pr]/gi, ''))];
  return flags.length > 0 ? { value, flags } : { value };
}

// A JS number holds 15 significant digits exactly; more (`9007199254740993`) would be read as another number.
function exactly(decimal: string): number | null {
  const significant = decimal.replace('.', '').replace(/^0+/, '');
  const value = Number(decimal);
  return significant.length <= 15 && Number.isFinite(value) ? value : null;
}

/** An exact decimal: `units / 10^exp`. Prices and table units are multiplied without floating error. */
export interface Decimal {
  units: bigint;
  exp: number;
}

// 大字 (壱弐参拾, 萬) appear in legal and financial documents; they read like the common forms.
const KANJI_DIGITS: Readonly<Record<string, bigint>> = {
  〇: 0n,
  零: 0n,
  一: 1n,
  壱: 1n,
  二: 2n,
  弐: 2n,
  弍: 2n,
  三: 3n,
  参: 3n,
  四: 4n,
  五: 5n,
  六: 6n,
  七: 7n,
  八: 8n,
  九: 9n,
};
const SMALL_UNITS: Readonly<Record<string, number>> = { 十: 1, 拾: 1, 百: 2, 佰: 2, 陌: 2, 千: 3, 仟: 3, 阡: 3 };
const BIG_UNITS: Readonly<Record<string, number>> = { 万: 4, 萬: 4, 億: 8, 兆: 12 };
/** Every character a numeral may hold, for callers that cut one out of a longer string. */
export const NUMERAL_CHARS = `0-9,.${Object.keys(KANJI_DIGITS).join('')}${Object.keys(SMALL_UNITS).join('')}${Object.keys(BIG_UNITS).join('')}`;
const TOKEN = new RegExp(
  String.raw`([\d,.]+)|([${Object.keys(KANJI_DIGITS).join('')}]+)|([${Object.keys(SMALL_UNITS).join('')}])|([${Object.keys(BIG_UNITS).join('')}])|(.)`,
  'gu',
);
// Thousands commas only in groups of three; `1,2,3` is a list, not a number.
const ARABIC = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

interface Digits {
  value: Decimal;
  /** Written in Arabic digits (mixed notation) rather than kanji. */
  arabic: boolean;
  length: number;
}

const ten = (n: number): bigint => 10n ** BigInt(n);
const add = (a: Decimal, b: Decimal): Decimal => {
  const exp = Math.max(a.exp, b.exp);
  return { units: a.units * ten(exp - a.exp) + b.units * ten(exp - b.exp), exp };
};
const times = (a: Decimal, power: number): Decimal =>
  a.exp >= power ? { units: a.units, exp: a.exp - power } : { units: a.units * ten(power - a.exp), exp: 0 };
const below = (a: Decimal, power: number): boolean => a.units < ten(power) * ten(a.exp);
const isZero = (a: Decimal): boolean => a.units === 0n;
const ZERO: Decimal = { units: 0n, exp: 0 };

/**
 * Reads a numeral in Arabic, kanji or mixed notation: `2千`, `3千万`, `1億2千万`, `1万5千`, `1万2,300`, `二千五百`,
 * `千`, `12.8万`, `485百万`, `九〇〇七兆…`. Null when it is malformed rather than a guess: a unit repeated or out of
 * order (`2万万`, `千千`, `5万1億`), a group that overflows the position below its unit (`1千1000`, `1万12345`,
 * `1億15000万`), Arabic digits after 千/百/十 that do not fill the places below it (`2千5` is 2,005 or, said
 * aloud, 2,500; `5千1万`), zero groups (`〇万`, `千〇`), or digit-by-digit kanji inside a positional group.
 */
export function parseNumeral(text: string): Decimal | null {
  let total = ZERO;
  let lastBig = Infinity;
  // The group under construction (below 万, or the coefficient of the next 万/億/兆).
  let group = ZERO;
  let groupParts = 0;
  let lastSmall = Infinity;
  // A multi-digit or decimal coefficient (`1,234千`, `1.5百`) ends its group: nothing smaller may follow it.
  let groupClosed = false;
  let pending: Digits | null = null;
  let fractionSeen = false;
  let anything = false;
  // A run of 〇 after a unit that marks places skipped before a smaller unit (一万〇三百, 二千〇十九).
  let skippedPlaces = false;

  // Digits standing after a unit: below that unit's place, and in mixed notation filling it (`2千500`, `4千8百21`).
  const fitsBelow = (d: Digits, power: number): boolean => {
    if (isZero(d.value) || d.value.exp > 0 || !below(d.value, power)) return false;
    return d.arabic ? d.length === power : d.length === 1;
  };
  // The places a run written right after the last unit may fill: 3 after 千, 4 after 万 (then 8 after 億 …).
  const placesAfterUnit = (): number | null => {
    if (groupParts > 0) return lastSmall;
    return lastBig !== Infinity ? lastBig : null;
  };

  for (const m of text.matchAll(TOKEN)) {
    const [, arabic, kanji, small, big] = m;
    anything = true;
    if (arabic !== undefined || kanji !== undefined) {
      if (pending || fractionSeen || groupClosed || skippedPlaces) return null;
      if (arabic !== undefined) {
        const a = ARABIC.exec(arabic);
        if (!a) return null;
        const fraction = a[1] ?? '';
        const int = arabic.replace(/,/g, '').split('.')[0] ?? '';
        pending = {
          value: { units: BigInt(int + fraction), exp: fraction.length },
          arabic: true,
          length: int.length,
        };
      } else {
        const run = kanji!;
        let units = 0n;
        for (const c of run) units = units * 10n + KANJI_DIGITS[c]!;
        const places = placesAfterUnit();
        if (KANJI_DIGITS[run[0]!] === 0n && places !== null) {
          // 〇 right after a unit holds the empty places below it, which never changes the value: zero-padded to
          // the full width (一万〇〇〇三, 二千〇〇五) the run reads like Arabic digits filling those places; a shorter
          // run of 〇s (一万〇三, 百〇八, 一万〇三百) only marks skipped places, and the digit after it reads as usual.
          const rest = run.replace(/^[〇零]+/, '');
          if (run.length === places) pending = { value: { units, exp: 0 }, arabic: true, length: run.length };
          // 〇 alone before a smaller unit (二千〇十九): the unit must follow, or the 〇 stood for nothing.
          else if (rest === '') skippedPlaces = true;
          else if (rest.length === 1) pending = { value: { units, exp: 0 }, arabic: false, length: 1 };
          else return null;
        } else {
          // 二〇二四 is read digit by digit; a leading 〇 (〇一二) is no numeral.
          if (run.length > 1 && KANJI_DIGITS[run[0]!] === 0n) return null;
          pending = { value: { units, exp: 0 }, arabic: false, length: run.length };
        }
      }
    } else if (small !== undefined) {
      const power = SMALL_UNITS[small]!;
      if (groupClosed || power >= lastSmall) return null;
      skippedPlaces = false;
      let coefficient: Decimal = { units: 1n, exp: 0 };
      if (pending) {
        if (isZero(pending.value)) return null;
        if (!pending.arabic && pending.length > 1) return null;
        coefficient = pending.value;
        if (pending.arabic && (pending.length > 1 || pending.value.exp > 0)) groupClosed = true;
        if (pending.value.exp > 0) fractionSeen = true;
      }
      group = add(group, times(coefficient, power));
      groupParts++;
      lastSmall = power;
      pending = null;
    } else if (big !== undefined) {
      const power = BIG_UNITS[big]!;
      if (power >= lastBig || skippedPlaces) return null;
      if (pending) {
        if (groupParts > 0 && !fitsBelow(pending, lastSmall)) return null;
        if (pending.value.exp > 0) fractionSeen = true;
        group = add(group, pending.value);
      } else if (groupParts === 0) return null;
      if (isZero(group)) return null;
      // Below a larger unit the group fills at most the places between them (1億2000万, never 1億15000万).
      if (lastBig !== Infinity && !below(group, lastBig - power)) return null;
      total = add(total, times(group, power));
      lastBig = power;
      group = ZERO;
      groupParts = 0;
      lastSmall = Infinity;
      groupClosed = false;
      pending = null;
    } else return null;
  }
  if (!anything || skippedPlaces) return null;
  if (pending) {
    if (groupParts > 0) {
      if (!fitsBelow(pending, lastSmall)) return null;
    } else if (lastBig !== Infinity) {
      // Leading zeros go unwritten below 万 (1万500 = 10,500), but the group never reaches the unit. The last group
      // may carry the fraction of the whole number (1,234万5,678.9) when it is written out to the unit's full width,
      // so that the digits before the point are plainly the places below 万 (1万2.5 stays unread).
      const fraction = pending.value.exp > 0;
      if (isZero(pending.value) || !below(pending.value, lastBig)) return null;
      if (fraction && !(pending.arabic && pending.length === lastBig)) return null;
    }
    group = add(group, pending.value);
  } else if (lastBig !== Infinity && groupParts > 0 && !below(group, lastBig)) return null;
  return add(total, group);
}

// Groups after the first, each split off by whitespace (text nodes joined with a space: `¥1 ,198 ,000`). The run
// starts at a group of 1-3 digits that no digit, letter or separator stands before.
const SPLIT_GROUPS = /(?<![\w,.])\d{1,3}(?:,\d{3})*(?:\s*,\s*\d{3}(?!\d)|\s+\d{3}(?![\d]))+/g;

/**
 * Joins digit groups that whitespace split apart. A group is part of the number before it only when a comma
 * stands between them and it has exactly three digits (`1 ,198 ,000`, `12, 345`): that is how thousands are
 * written, and a comma followed by three digits is never the start of another number. Whitespace alone between a
 * short group and a three-digit one (`1 198 000`, `12 345`) is two numbers as often as one: the string is
 * ambiguous and the answer is null, never a guess.
 */
export function joinSplitGroups(text: string): string | null {
  let ambiguous = false;
  const joined = text.replace(SPLIT_GROUPS, (run) => {
    if (!/\s/.test(run)) return run;
    if (/\d\s+\d/.test(run)) ambiguous = true;
    return run.replace(/\s+/g, '');
  });
  return ambiguous ? null : joined;
}

/** The decimal as a JS number when it is exactly representable as a safe integer or a short fraction. */
export function decimalToNumber(d: Decimal): number | null {
  if (d.exp === 0) {
    const n = Number(d.units);
    return Number.isSafeInteger(n) ? n : null;
  }
  // Past 15 significant digits the quotient is no longer the decimal written.
  if (d.units.toString().replace(/^-/, '').length > 15) return null;
  const n = Number(d.units) / Number(ten(d.exp));
  return Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER ? n : null;
}

// Counters (助数詞) name what a number counts; the longer ones first so that 世帯 is not read as 世.
const COUNTERS = [
  'か所',
  'カ所',
  'ヶ所',
  'ケ所',
  '箇所',
  '世帯',
  '種類',
  'セット',
  'ページ',
  'か月',
  'ヶ月',
  'カ月',
  '人',
  '名',
  '件',
  '個',
  '本',
  '枚',
  '台',
  '冊',
  '点',
  '回',
  '社',
  '株',
  '匹',
  '頭',
  '羽',
  '棟',
  '戸',
  '軒',
  '校',
  '店',
  '所',
  '着',
  '足',
  '箱',
  '袋',
  '組',
  '種',
  '品',
  '口',
  '隻',
  '機',
  '両',
  '基',
  '室',
  '泊',
  '歳',
  '才',
  '問',
  '票',
  '通',
  '部',
  '巻',
  '話',
  '席',
  '杯',
  '錠',
  '粒',
  '頁',
];
/** The counters as one regex alternation, longest first. */
export const COUNTER = COUNTERS.join('|');
const SPELLED_MINUS = new RegExp(String.raw`^マイナス\s*(?=[${NUMERAL_CHARS}])`, 'u');
const PLAIN_NUMBER = /^([+-])?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/;
const CELL = new RegExp(String.raw`^([△▲+-])?([${NUMERAL_CHARS}]+)(円|${COUNTER})?(%|‰)?([pr#*]*)$`, 'iu');

/**
 * A number as written in prose or a table cell with its unit: 千/万/億/兆 (and 十/百) multiply in Arabic, kanji or
 * mixed notation (`3千万`, `1億2千万円`, `二千五百`, `1兆2,345億円`), 千円/百万円/億円/兆円 too, `%`/`‰` keep their
 * displayed magnitude, △/▲/minus negate, p/r are dropped, a counter (`5人`, `1万2千件`) is reported in `counter`,
 * and the missing/confidential marks give null with a reason. Null without a reason: not a number at all,
 * including a malformed numeral (`1千1000`, `2万万`), which is never guessed at.
 */
export function parseNumber(raw: string, notes: readonly MarkNote[] = []): TableNumber | null {
  // Most cells are plain ASCII numbers (`1,234`, `-5`, `12.5`): they read as parseTableNumber reads them, and only a
  // legend could give such a cell another meaning.
  if (notes.length === 0) {
    const plain = PLAIN_NUMBER.exec(raw);
    if (plain) {
      const magnitude = exactly(`${plain[2]!.replace(/,/g, '')}${plain[3] ?? ''}`);
      if (magnitude !== null) return { value: plain[1] === '-' && magnitude !== 0 ? -magnitude : magnitude };
      return null;
    }
  }
  // Spaces around units and signs go; between two digit runs they would join two numbers into one. マイナス is the
  // minus sign spelled out (マイナス5, マイナス1,234, マイナス三千): it negates like − does.
  const cell = normalizeText(raw)
    .replace(SPELLED_MINUS, '-')
    .replace(/(?<!\d)\s+|\s+(?!\d)/g, '');
  const plain = parseTableNumber(cell, notes);
  if (plain) return plain;
  const m = CELL.exec(cell);
  if (!m) return null;
  const [, sign, body = '', unit, percent, marks = ''] = m;
  // A percentage of 5万 or 5人% is no quantity a table writes.
  if (percent && (unit || /[^\d,.]/.test(body))) return null;
  const parsed = parseNumeral(body);
  const value = parsed ? decimalToNumber(parsed) : null;
  if (value === null) return null;
  const negative = sign !== undefined && sign !== '+';
  // 0 with a minus is "less than half the unit", not a negative quantity; JSON has no -0 either.
  const signed = negative && value !== 0 ? -value : value;
  const result: TableNumber = { value: signed };
  const flags = [...new Set(marks.replace(/[pr]/gi, ''))];
  if (flags.length > 0) result.flags = flags;
  if (unit && unit !== '円') result.counter = unit;
  return result;
}

/** A unit as a table or column heading states it once for bare cells: `(単位：千円)`, `百万円`, `千人`, `%`. */
export interface UnitLabel {
  /** What a bare cell is multiplied by: 1,000 for 千円. */
  multiplier: number;
  /** The unit left after multiplying: `円`, a counter, `%`. */
  unit: string;
}

/**
 * Reads a unit heading. `千円` here means "cells are in thousands of yen", while `parseNumber('千円')` reads the
 * amount 1,000: the same characters, two meanings, told apart by where they stand (a heading or a cell).
 */
export function parseUnitLabel(raw: string): UnitLabel | null {
  const s = normalizeText(raw)
    .replace(/\s+/g, '')
    .replace(/^[([【]?単位[:：]?/, '')
    .replace(/[)\]】]$/, '');
  const m = new RegExp(String.raw`^([${NUMERAL_CHARS}]*)(円|${COUNTER}|%|‰)$`, 'u').exec(s);
  if (!m) return null;
  const [, prefix = '', unit = ''] = m;
  // Digits make it an amount (1,234千円), not a heading.
  if (/[\d,.]/.test(prefix)) return null;
  if (prefix === '') return { multiplier: 1, unit };
  // A heading says 万円 or 億円 with no coefficient, which an amount never does.
  const scale = parseNumeral(/^[万萬億兆]/.test(prefix) ? `一${prefix}` : prefix);
  const multiplier = scale ? decimalToNumber(scale) : null;
  return multiplier !== null && multiplier > 0 && unit !== '%' && unit !== '‰' ? { multiplier, unit } : null;
}
