// Whole-yen amounts: one rule for values of structured data and one for amounts written as numerals, shared by sites.
import { decimalToNumber, parseNumeral } from './number.js';

export interface YenRules {
  /**
   * What a 0 means. `amount` (the default): a price of 0 yen (a free item, no shipping fee). `absent`: the source
   * writes 0 where it has no price (Rakuten's app data), so 0 is no amount at all.
   */
  zero?: 'amount' | 'absent';
}

// Digits, or digits grouped by thousands commas (`1,980`); never `1,98`, a sign, a point or an exponent.
const DIGITS = /^(?:\d+|\d{1,3}(?:,\d{3})+)$/;

/**
 * A whole-yen amount from a value of structured data (a JSON answer, JSON-LD, an attribute): a safe non-negative
 * integer, or a string of the same digits, thousands commas and surrounding spaces allowed (`"23000"`, `" 1,980 "`,
 * the same amount the search API writes as a string where items/get gives a number). Anything else is not an amount
 * and gives null: a fraction, a negative, `1e3`, a currency mark or a word is never rounded, cut or guessed.
 */
export function yen(value: unknown, rules: YenRules = {}): number | null {
  let n: number | null = null;
  if (typeof value === 'number') n = Number.isSafeInteger(value) && value >= 0 ? value : null;
  else if (typeof value === 'string') {
    const digits = value.trim();
    n = DIGITS.test(digits) ? Number(digits.replaceAll(',', '')) : null;
    if (n !== null && !Number.isSafeInteger(n)) n = null;
  }
  if (n === 0 && rules.zero === 'absent') return null;
  return n;
}

/**
 * A whole-yen amount written as a numeral in running text (`3,980`, `1.5万`, `一万二千`), as a caller's regular
 * expression captured it, currency marks and 円 left outside. A numeral that is not a whole number of yen
 * (`1.5`) or does not read as one number gives null.
 */
export function yenOfNumeral(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = parseNumeral(text.replace(/,/g, ''));
  const n = value ? decimalToNumber(value) : null;
  return n !== null && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
