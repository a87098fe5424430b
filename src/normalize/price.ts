// Japanese price strings → whole yen with the tax status the string itself states (research §0 rules 1–4, §1).
import { COUNTER, NUMERAL_CHARS, joinSplitGroups, parseNumeral } from './number.js';
import { normalizeText } from './text.js';

export type TaxStatus = 'included' | 'excluded' | 'unknown';

export interface ParsedPrice {
  amount: number | null;
  currency: 'JPY';
  tax: TaxStatus;
  range?: true;
  /** The 税抜 amount the string states beside a tax-included `amount` (総額表示); absent when not written. */
  price_excluding_tax?: number;
}

type Role = 'price' | 'comparison' | 'tax_amount' | 'ignored';

interface Token {
  start: number;
  end: number;
  value: number;
  /** Written with ¥ or 円: money for sure. A bare number only counts when the string has no money at all. */
  money: boolean;
  /** The multiplier word it ended with (万/億/兆), shared by the lower end of `2980~3480万円`. */
  unit: bigint | null;
  tax: TaxStatus;
  role: Role;
}

// A yen amount: optional ¥, a numeral in Arabic, kanji or mixed notation (`1億2000万`, `12.8万`, `2千`, `二千五百`),
// then optional 円. Spaces only beside a unit word, so that two separate numbers are never joined into one.
const UNIT_CHARS = '十拾百佰陌千仟阡万萬億兆';
const AMOUNT = new RegExp(
  String.raw`(¥\s*)?([${NUMERAL_CHARS}](?:[${NUMERAL_CHARS}]|\s(?=[${UNIT_CHARS}])|(?<=[${UNIT_CHARS}])\s)*)(\s*円)?`,
  'gu',
);
const BIG_UNIT_VALUE: Readonly<Record<string, bigint>> = {
  兆: 10n ** 12n,
  億: 10n ** 8n,
  万: 10n ** 4n,
  萬: 10n ** 4n,
};

// Words that make a whole string "no price" (rule 3) even when nothing numeric remains to look at.
const NOT_A_PRICE = /オープン価格|価格未定|お問い?合わ?せ|価格なし|sold ?out|売り?切れ|在庫切れ|売約済|成約済/i;
const BROKEN_SEPARATOR = /\d\s+[,.]\s*\d|\d[,.]\s+\d/;
// Words that make any amount beside them an asking point rather than the price (応相談, ASK, 価格交渉可): the
// buyer is told the price is not fixed, so reporting the number as the price would be a wrong value. 相談 and
// お問い合わせ count as words of their own or after 価格/金額 (not 無料相談, not 送料はお問い合わせ).
const NEGOTIABLE = new RegExp(
  [
    String.raw`[応要]相談|相談[可に応]|応談|要問い?合わ?せ|交渉(?:可|OK|歓迎|あり|します)`,
    // 価格/金額/値段 then, within a few words, 相談/交渉/問い合わせ (価格は電話でお問い合わせください), unless refused.
    String.raw`(?:価格|金額|値段)[^\d¥円]{0,8}?(?:相談|交渉|問い?合わ?せ)(?![^\d¥円]{0,3}(?:不可|NG|お断り|できません))`,
    String.raw`(?:^|[\s(\[/・、,])(?:ご)?相談(?:ください|下さい)?(?=$|[\s)\]/・、,])`,
    String.raw`(?:^|[\s(\[/・、,])お?問い?合わ?せ(?:ください|下さい)?(?=$|[\s)\]/・、,])`,
    String.raw`\bASK\b|\bPrice on (?:request|application)\b|\bPOA\b`,
  ].join('|'),
  'i',
);
// What follows an amount and makes it something other than the item's price (rule 3).
const POINTS_AFTER = /^\s*(?:ポイント|pt\b|pts?\b|p\b|ポイ)/i;
const COUPON_AFTER = /^\s*(?:off|オフ|引き?|割引|値引|クーポン)/i;
// Units that mark a bare number as a count, date or percentage rather than money.
// Counters (助数詞) are the same list parseNumber reports: `3点セット`, `2冊`, `100株` are counts, never yen.
const NOT_MONEY_AFTER = new RegExp(
  String.raw`^\s*(?:%|‰|倍|年|月|日|時|分|秒|号|位|等|cm|mm|m\b|kg|g\b|ml|l\b|gb|mb|w\b|v\b|${COUNTER})`,
  'i',
);
// Another currency's amount is no yen amount, whatever its digits (`US$19.80`, `1,980元`, `€1.980`); 元値 is a word.
const FOREIGN_BEFORE = /(?:(?:US|C|A|HK|NT|S)?\$|[€£₩₹]|\b(?:USD|EUR|GBP|CNY|RMB|KRW)|人民元)\s*$/i;
const FOREIGN_AFTER =
  /^\s*(?:ドル|ユーロ|ポンド|ウォン|人民元|元(?![値々])|\b(?:USD|EUR|GBP|CNY|RMB|KRW|dollars?|euros?)\b)/i;
// A signed amount (`-500円`, `¥-500`, `△500円`, `マイナス500円`) is a discount or a refund, never the price; a dash
// after digits or 円 is a range (`1,000-2,000円`).
const NEGATIVE_BEFORE = /(?:^|[^\d\s円])\s*(?:[-△▲]|マイナス)\s*¥?\s*$/;
// A price per piece beside the pack's price (`1,980円(1個あたり990円)`) is not the item's price. (`30,556円/点` is:
// a shop's price per unit it sells in.)
const PER_UNIT_BEFORE = /(?:あたり|当たり|当り)\s*[:：]?\s*¥?\s*$/;
// An upper bound (`1万円まで`, `5,000円以下`, `~1万円`) says what the price is not above, never what it is.
const UPPER_BOUND_AFTER = /^\s*(?:まで|以下|以内|未満)/;
const SHIPPING_BEFORE = /送料(?:全国)?(?:一律|別途)?\s*[:：]?\s*$/;
// The tax itself: `うち税1,000円`, `消費税額等1,000円`, and a bare 税 opening its clause (`、税100円`, `(税100円)`,
// `+税100円`). Never 税込/税抜, whose 込/抜 stands between 税 and the amount.
const TAX_AMOUNT_BEFORE =
  /(?:(?:うち|内)(?:消費)?税(?:額)?等?|消費税(?:額)?等?|税額|(?:^|[\s(+、,:：円])税)\s*[:：]?\s*(?:相当額)?\s*$/;
const COMPARISON_BEFORE =
  /(?:定価|通常価格|当店通常価格|メーカー希望小売価格|希望小売価格|参考小売価格|参考価格|元値|旧価格)[^0-9¥]*$/;
const INCLUDED = /税込|税込み|内税|総額/;
const EXCLUDED = /税抜|税抜き|税別|外税|本体|\+\s*税|\+\s*消費税/;

function parseAmount(body: string): { value: number; unit: bigint | null } | null {
  const compact = body.replace(/\s+/g, '');
  const parsed = parseNumeral(compact);
  if (!parsed) return null;
  // Fractional yen cannot be charged; round half up like most shop systems (12.8万 is exact either way).
  const denominator = 10n ** BigInt(parsed.exp);
  const value = Number((parsed.units * 2n + denominator) / (denominator * 2n));
  const last = /([万萬億兆])[^万萬億兆]*$/.exec(compact)?.[1];
  return Number.isSafeInteger(value) ? { value, unit: last ? (BIG_UNIT_VALUE[last] ?? null) : null } : null;
}

// `14.800円` is a thousands separator written with a period (§1.1); `12.8万円` is a decimal point.
function periodAsThousands(s: string): string {
  return s.replace(/(\d)\.(\d{3})(?=\s*円)(?![\d])/g, (all, a: string, b: string, offset: number, whole: string) => {
    const before = whole.slice(Math.max(0, offset - 12), offset);
    return /[万億兆]/.test(before) ? all : `${a},${b}`;
  });
}

function markersIn(text: string): TaxStatus | null {
  if (INCLUDED.test(text)) return 'included';
  if (EXCLUDED.test(text)) return 'excluded';
  return null;
}

interface Tokens {
  tokens: Token[];
  /** A ¥/円 amount whose numeral is malformed (`1千1000円`): the string has no price we can stand behind. */
  malformed: boolean;
}

function tokenize(s: string): Tokens {
  const tokens: Token[] = [];
  let malformed = false;
  for (const m of s.matchAll(AMOUNT)) {
    const [all, yen = '', raw = '', en = ''] = m;
    // A sentence's comma or full stop after the digits is not part of them.
    const body = raw.replace(/[,.\s]+$/, '');
    const money = yen !== '' || en !== '';
    // Kanji numerals count only as a written amount (二千五百円, 千円); in words (一律, 十勝, 数千円) they are not.
    if (!/^\d/.test(body) && (!money || /[数何幾]$/.test(s.slice(0, m.index)))) continue;
    if (!/[\d〇零一二三四五六七八九壱弐弍参十拾百佰陌千仟阡]/.test(body)) continue;
    const parsed = parseAmount(body);
    if (!parsed) {
      if (money) malformed = true;
      continue;
    }
    const start = m.index;
    const end = body.length === raw.length || en !== '' ? start + all.length : start + yen.length + body.length;
    tokens.push({ start, end, value: parsed.value, unit: parsed.unit, money, tax: 'unknown', role: 'price' });
  }
  return { tokens, malformed };
}

/**
 * Parses one price string. The amount is integer yen (the lower bound of a range or "from" price); `tax` is what
 * the string says, never inferred from a rate. Points, coupons, shipping and non-prices give `amount: null`.
 */
export function parsePrice(input: string): ParsedPrice {
  const unknown: ParsedPrice = { amount: null, currency: 'JPY', tax: 'unknown' };
  // Legacy Shift_JIS 0x5C decodes to a backslash but meant ¥ (§1.1): only in front of digits.
  const joined = joinSplitGroups(normalizeText(input));
  // Digit groups split by whitespace with no comma (`¥1 198 000`) are one number or two, and whitespace beside a
  // comma or point that is no thousands group (`¥1 ,23`, `1. 5万円`) breaks a number apart: no amount we can stand
  // behind.
  if (joined === null || BROKEN_SEPARATOR.test(joined) || splitApart(joined) || NEGOTIABLE.test(joined)) return unknown;
  const s = periodAsThousands(joined.replace(/\\(?=\s*\d)/g, '¥'));
  const lexed = tokenize(s);
  if (lexed.malformed) return unknown;
  let tokens = lexed.tokens;

  for (const [i, t] of tokens.entries()) {
    const before = s.slice(tokens[i - 1]?.end ?? 0, t.start);
    const after = s.slice(t.end, tokens[i + 1]?.start ?? s.length);
    if (POINTS_AFTER.test(after) || COUPON_AFTER.test(after)) t.role = 'ignored';
    else if (FOREIGN_BEFORE.test(before) || FOREIGN_AFTER.test(after)) t.role = 'ignored';
    else if (NEGATIVE_BEFORE.test(s.slice(0, t.start))) t.role = 'ignored';
    else if (PER_UNIT_BEFORE.test(lastClause(before))) t.role = 'ignored';
    else if (UPPER_BOUND_AFTER.test(after) || (i === 0 && /^[^\d]*~\s*¥?\s*$/.test(before))) t.role = 'ignored';
    else if (!t.money && NOT_MONEY_AFTER.test(after)) t.role = 'ignored';
    else if (SHIPPING_BEFORE.test(lastClause(before))) t.role = 'ignored';
    else if (TAX_AMOUNT_BEFORE.test(lastClause(before))) t.role = 'tax_amount';
    else if (COMPARISON_BEFORE.test(lastClause(before))) t.role = 'comparison';
  }

  // A marker in the gap between two amounts labels the next one when it ends the gap (`(税込11,000円)`) and
  // the previous one otherwise (`11,000円(税込) …`). Before the first amount and after the last, there is no
  // other owner.
  for (const [i, t] of tokens.entries()) {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const before = s.slice(prev?.end ?? 0, t.start);
    const after = s.slice(t.end, next?.start ?? s.length);
    const prefix = prev ? labelAtEnd(before) : before;
    const suffix = next ? after.slice(0, after.length - labelAtEnd(after).length) : after;
    t.tax = markersIn(prefix) ?? markersIn(suffix) ?? 'unknown';
  }

  const anyMoney = tokens.some((t) => t.money && t.role !== 'ignored');
  if (anyMoney) {
    // With ¥/円 amounts present, bare numbers are counts, dates or ranks; they only survive as a range's lower end.
    tokens = tokens.filter((t, i) => t.money || isRangeStart(s, tokens, i));
  }
  const tax = tokens.filter((t) => t.role === 'tax_amount');
  let candidates = tokens.filter((t) => t.role === 'price' || t.role === 'comparison');
  if (candidates.length === 0 || (NOT_A_PRICE.test(s) && candidates.every((t) => !t.money))) return unknown;

  // Rule 4: a comparison price (定価, 通常価格 …) only wins when it is the only price.
  if (candidates.some((t) => t.role === 'price')) candidates = candidates.filter((t) => t.role === 'price');

  // Ranges: `1,280円~1,580円`, `2980~3480万円`, or a from-price `1,280円~` / `1,000円から`.
  const first = candidates[0];
  if (!first) return unknown;
  const firstIndex = tokens.indexOf(first);
  const next = tokens[firstIndex + 1];
  const gap = s.slice(first.end, next?.start ?? s.length);
  if (next && candidates.includes(next) && /^\s*[~-]\s*$/.test(gap)) {
    const lower = !first.unit && next.unit && !first.money ? first.value * Number(next.unit) : first.value;
    const tax = first.tax !== 'unknown' ? first.tax : next.tax;
    return { amount: lower, currency: 'JPY', tax, range: true };
  }
  if (candidates.length === 1 && /^\s*(?:~|から|より|以上)/.test(gap)) {
    return { amount: first.value, currency: 'JPY', tax: first.tax, range: true };
  }

  // Rule 2: an amount marked 税込 anywhere wins.
  const excluded = candidates.filter((t) => t.tax === 'excluded');
  const included = candidates.findLast((t) => t.tax === 'included');
  if (included) return withExcluding(included, excluded, candidates);

  // 総額表示 written as `11,000円(税抜価格10,000円)` or `11,000円(うち税1,000円)`: the unmarked total includes tax.
  const unmarked = candidates.filter((t) => t.tax === 'unknown');
  const onlyUnmarked = unmarked.length === 1 ? unmarked[0] : undefined;
  if (onlyUnmarked && excluded.length > 0 && excluded.every((t) => t.value < onlyUnmarked.value)) {
    return withExcluding(onlyUnmarked, excluded, candidates);
  }
  if (onlyUnmarked && tax.length > 0 && candidates.length === 1) {
    return { amount: onlyUnmarked.value, currency: 'JPY', tax: 'included' };
  }

  // Otherwise the later of several prices is the selling price (a struck-out usual price comes first).
  const chosen = candidates[candidates.length - 1] ?? first;
  return { amount: chosen.value, currency: 'JPY', tax: chosen.tax };
}

// The tax-included total, with the 税抜 amount the string states beside it (never computed from a rate). Of several
// 税抜 amounts, the one written nearest the total is its own (`通常 … 税抜 / セール 1,100円(税抜1,000円)`).
function withExcluding(total: Token, excluded: Token[], order: Token[]): ParsedPrice {
  const at = order.indexOf(total);
  const own = excluded
    .filter((t) => t.value < total.value)
    .sort((a, b) => Math.abs(order.indexOf(a) - at) - Math.abs(order.indexOf(b) - at))[0];
  const price: ParsedPrice = { amount: total.value, currency: 'JPY', tax: 'included' };
  if (own) price.price_excluding_tax = own.value;
  return price;
}

// The part of the gap before an amount that belongs to it as a label: from the last clause break on.
function lastClause(before: string): string {
  const cut = Math.max(
    before.lastIndexOf('、'),
    before.lastIndexOf('/'),
    before.lastIndexOf('。'),
    before.lastIndexOf(')'),
  );
  return cut >= 0 ? before.slice(cut + 1) : before;
}

// The tail of a gap that reads as a label for the amount after it: a marker word then only label filler.
function labelAtEnd(gap: string): string {
  const m = /(?:税込|税込み|税抜|税抜き|税別|本体|内税|外税|総額)[価格販売:\s¥]*$/.exec(gap);
  return m ? gap.slice(m.index) : '';
}

// Two digit runs that only whitespace parts may be one number whose text nodes were joined with a space (`¥12 800`,
// `2 1,980円`, `39,7 55,682円`): which it is cannot be told, so the string has no amount. A first run that ends in a
// whole comma group (`¥12,800 10%OFF`) is complete by its own shape (a continuation would have been joined as a
// thousands group), and a run that opens a date or time (`1 12/25`, `1 10:00`) is no amount.
function splitApart(s: string): boolean {
  for (const m of s.matchAll(/(?<![\d,.])([\d,.]*\d)\s+(\d[\d,.]*)(?![\d,.])/g)) {
    const [, left = '', right = ''] = m;
    if (/^\d{1,3}(?:,\d{3})+$/.test(left)) continue;
    const after = s.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (/^\d{1,2}$/.test(right) && /^(?::\d|\/\d)/.test(after)) continue;
    if (/^\d{4}$/.test(right) && /^(?:\/\d|年)/.test(after)) continue;
    return true;
  }
  return false;
}

function isRangeStart(s: string, tokens: Token[], i: number): boolean {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (!t || !next || !next.money) return false;
  return /^\s*[~-]\s*$/.test(s.slice(t.end, next.start));
}

/** The tax status a label states on its own (`消費税込`, `(税抜)`, `本体価格`), for prices split across markup. */
export function taxMarkerOf(label: string): TaxStatus {
  return markersIn(normalizeText(label)) ?? 'unknown';
}

export type Shipping = 'free' | 'included' | 'extra' | 'unknown';

/** Shipping words of §1.3: 送料無料 / 送料込 / 送料別; a conditional offer is not a promise, so it is unknown. */
export function parseShipping(text: string): Shipping {
  const s = normalizeText(text);
  if (/条件付|以上(?:で|ご購入で)?送料無料|以上無料/.test(s)) return 'unknown';
  if (/送料無料|送料0円|送料込み?で?無料|free shipping/i.test(s)) return 'free';
  if (/送料込|送料込み|送料を含む/.test(s)) return 'included';
  if (/送料別|別途送料|送料別途|\+送料|着払い/.test(s)) return 'extra';
  return 'unknown';
}
