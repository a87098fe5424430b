// Product identifiers: JAN (GTIN-13 / GTIN-8) checked by their check digit (research §6.1).
import { normalizeText } from './text.js';

function checkDigitOk(digits: string): boolean {
  // GS1: weights 3,1,3,1… from the digit left of the check digit.
  let sum = 0;
  for (let i = digits.length - 2, w = 3; i >= 0; i--, w = w === 3 ? 1 : 3) sum += Number(digits[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** Bare JAN digits when valid (a 12-digit UPC-A is padded to 13), else null: a wrong id is worse than none. */
export function parseJan(input: string): string | null {
  const digits = normalizeText(input)
    .replace(/^(?:JAN|EAN|GTIN)(?:コード)?\s*[:：]?\s*/i, '')
    .replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const candidate = digits.length === 12 ? `0${digits}` : digits;
  if (candidate.length !== 13 && candidate.length !== 8) return null;
  return checkDigitOk(candidate) ? candidate : null;
}
