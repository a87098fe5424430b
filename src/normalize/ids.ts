// Japanese identifiers → §0 rule 7 shapes: JAN, ISBN, 法人番号, postal code, phone (research §6).
import { parseJan } from './identifiers.js';
import { normalizeText } from './text.js';

export type IdType = 'jan' | 'isbn' | 'corporate_number' | 'postal_code' | 'phone';
export const idTypes: readonly IdType[] = ['jan', 'isbn', 'corporate_number', 'postal_code', 'phone'];

export interface ParsedId {
  valid: boolean;
  /** Invalid ids give null: a wrong id is worse than none. */
  normalized: string | null;
  idType: IdType;
}

function eanCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

/** ISBN-13 digits; an ISBN-10 is converted (978 + stem + a new EAN check digit) so one form is returned. */
export function parseIsbn(input: string): string | null {
  const s = normalizeText(input)
    .replace(/^ISBN(?:-?1[03])?\s*[:：]?\s*/i, '')
    .replace(/[\s-]/g, '')
    .toUpperCase();
  if (/^97[89]\d{10}$/.test(s)) return eanCheckDigit(s.slice(0, 12)) === Number(s[12]) ? s : null;
  if (!/^\d{9}[\dX]$/.test(s)) return null;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (s[i] === 'X' ? 10 : Number(s[i])) * (10 - i);
  if (sum % 11 !== 0) return null;
  const stem = `978${s.slice(0, 9)}`;
  return `${stem}${eanCheckDigit(stem)}`;
}

/** 法人番号: leading check digit = 9 − (Σ Pn·Qn mod 9), Pn counted from the least significant digit (§6.3). */
export function parseCorporateNumber(input: string): string | null {
  const s = normalizeText(input)
    .replace(/^法人番号\s*[:：]?\s*/, '')
    .replace(/[\s-]/g, '');
  if (!/^[1-9]\d{12}$/.test(s)) return null;
  const base = s.slice(1);
  let sum = 0;
  for (let n = 1; n <= 12; n++) sum += Number(base[12 - n]) * (n % 2 === 1 ? 1 : 2);
  return 9 - (sum % 9) === Number(s[0]) ? s : null;
}

/** 〒123-4567, 1234567, full-width or ー-separated → `NNN-NNNN`; syntax only (existence needs KEN_ALL). */
export function parsePostalCode(input: string): string | null {
  const s = normalizeText(input)
    .replace(/^(?:〒|郵便番号\s*[:：]?)\s*/, '')
    .trim();
  const m = /^(\d{3})-?(\d{4})$/.exec(s);
  return m ? `${m[1]}-${m[2]}` : null;
}

// Number lengths by prefix (§6.4), the longer prefixes first (0800 is toll-free, 080 mobile). Checked against
// libphonenumber's JP metadata (python-phonenumbers region_JP.py @4920fee, Apache-2.0): mobile [7-9]0[1-9]+7,
// IP 50[1-9]+7, M2M/pager 20+8 (020-XXXX-XXXX, 11 digits with the 0), toll-free 120+6 and 800+7, premium
// 990+6, navi-dial 570+6. A 0A0 prefix not listed (010 is the international prefix; 030, 040 and 0X0-0 are
// unassigned) is no number. 020 follows 総務省 (below). 060 follows research §6.4 (11-digit mobile from 2026-07); libphonenumber still lists
// the old 10-digit 060 personal-number range, which never went into service.
const PHONE_LENGTHS: readonly (readonly [RegExp, number | null])[] = [
  [/^0120/, 10],
  [/^0800/, 11],
  [/^0570/, 10],
  [/^0990/, 10],
  [/^0[5789]0[1-9]/, 11],
  // 020 per 総務省 (soumu.go.jp tel_number/m2m): M2M numbers 0201-0203 and 0205-0209 and pagers 0204 have 11
  // digits; 0200 is the 14-digit M2M range created 2019-12-25 (0200 + 10 digits), so an 11-digit 0200… is no number.
  [/^0200/, 14],
  [/^020[1-9]/, 11],
  [/^060[1-9]/, 11],
  [/^0\d0/, null],
  [/^0[1-9]/, 10],
];

/** Japanese phone number → E.164 `+81…` (leading 0 dropped); labels, parentheses and separators ignored. */
export function parsePhone(input: string): string | null {
  let s = normalizeText(input)
    .replace(/^(?:TEL|電話(?:番号)?|Tel|tel|FAX)\s*[:：.]?\s*/i, '')
    .replace(/[\s().-]/g, '');
  if (s.startsWith('+81')) s = `0${s.slice(3).replace(/^0/, '')}`;
  if (!/^0\d+$/.test(s)) return null;
  const rule = PHONE_LENGTHS.find(([prefix]) => prefix.test(s));
  if (!rule || rule[1] === null || s.length !== rule[1]) return null;
  return `+81${s.slice(1)}`;
}

export function parseId(idType: IdType, input: string): ParsedId {
  const parsers: Record<IdType, (s: string) => string | null> = {
    jan: parseJan,
    isbn: parseIsbn,
    corporate_number: parseCorporateNumber,
    postal_code: parsePostalCode,
    phone: parsePhone,
  };
  const normalized = parsers[idType](input);
  return { valid: normalized !== null, normalized, idType };
}
