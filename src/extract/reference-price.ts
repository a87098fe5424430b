// The reference-price rule every site shares: a list price comes from its own labelled row, cell or clause, and an
// amount a discount phrase (値引き, 割引, OFF, お得 …) speaks of is the discount, never the list price.
import { isTag, type Element } from 'domhandler';
import { parsePrice } from '../normalize/price.js';
import { all, textOf } from './selectors.js';

/** The labels of a comparison price shown beside the selling price, longest first so a longer one wins. */
export const LIST_PRICE_LABELS =
  /(メーカー希望小売価格|希望小売価格|当店通常価格|通常販売価格|通常価格|参考価格|参考上代|定価)/g;

// Words that make an amount a discount (a difference from the list price), not a price.
const DISCOUNT = '(?:値引|値下|割引|割り引|(?<![取])引き(?![渡取出換])|OFF|オフ|お得|おトク|お買い得|差額|安く)';
// A label followed by a comparison particle speaks of a difference: 参考価格より￥4,500の値引き, 定価から30%OFF.
const COMPARISON_AFTER_LABEL = /^\s*(?:[(（]?税込[)）]?)?\s*(?:より|から|比|と比べ|に比べ|との差)/;
// Between the label and its amount: the label's own punctuation and tax words, a discount word turns it into one.
const DISCOUNT_BEFORE_AMOUNT = new RegExp(DISCOUNT, 'i');
// Right after the amount (`￥4,500の値引き`, `4,500円OFF`, `4,500円お得`): that amount is the discount. A discount word
// that opens a figure of its own (`値引額 4,500円`, `割引後`, `OFF価格`) speaks of that figure, not of this one.
const DISCOUNT_AFTER_AMOUNT = new RegExp(
  `^\\s*(?:[(（]?税込[)）]?)?\\s*(?:の|も)?\\s*${DISCOUNT}(?!額|率|後|価格|金額)`,
  'i',
);
// The label's first amount: `¥6,480`, `6,480円`, `6,480 円(税込)`; at most a few words between label and amount.
const AMOUNT = /[¥￥\\]\s*[0-9][0-9,]*|[0-9][0-9,]*\s*円/;
const MAX_GAP = 24;

export interface ListPrice {
  amount: number;
  /** The label the page wrote (`参考価格`, `通常価格` …): callers decide what a label means (通常価格 is a sale). */
  label: string;
}

/**
 * True when `text` states an amount as a discount: a discount word before or right after it, or a label compared
 * against (`参考価格より`). Such an amount is never a list price, whatever label it sits beside.
 */
export function isDiscountPhrase(text: string): boolean {
  const amount = AMOUNT.exec(text);
  if (!amount) return new RegExp(DISCOUNT, 'i').test(text);
  const before = text.slice(0, amount.index);
  const after = text.slice(amount.index + amount[0].length);
  const label = new RegExp(LIST_PRICE_LABELS.source).exec(before);
  if (label && COMPARISON_AFTER_LABEL.test(before.slice(label.index + label[0].length))) return true;
  return DISCOUNT_BEFORE_AMOUNT.test(before) || DISCOUNT_AFTER_AMOUNT.test(after);
}

/**
 * The first labelled list price written in `text` (`参考価格：￥6,480`, `通常価格 4,980円(税込)`): each label occurrence
 * in turn, from the label to its first amount; a label compared against (`参考価格より`), a discount word between
 * the label and the amount, or a discount word right after the amount (`￥4,500の値引き`) makes that occurrence a
 * discount, and the next occurrence is read.
 */
export function listPriceIn(text: string, labels: RegExp = LIST_PRICE_LABELS): ListPrice | null {
  const global = new RegExp(labels.source, labels.flags.includes('g') ? labels.flags : `${labels.flags}g`);
  for (const match of text.matchAll(global)) {
    const label = match[1] ?? match[0];
    const rest = text.slice(match.index + match[0].length);
    if (COMPARISON_AFTER_LABEL.test(rest)) continue;
    const amount = AMOUNT.exec(rest);
    if (!amount || amount.index > MAX_GAP) continue;
    const between = rest.slice(0, amount.index);
    // Another figure, label or price word (`オープン価格 販売価格 3,980円`) before the amount: it belongs to that one.
    if (/[0-9]|価格|売価|特価|販売/.test(between) || new RegExp(labels.source).test(between)) continue;
    if (DISCOUNT_BEFORE_AMOUNT.test(between)) continue;
    if (DISCOUNT_AFTER_AMOUNT.test(rest.slice(amount.index + amount[0].length))) continue;
    const parsed = parsePrice(`${label}${between}${amount[0]}`).amount;
    if (parsed !== null) return { amount: parsed, label };
  }
  return null;
}

/**
 * A list price from its own labelled row in `scope`: a `th`/`dt` (or a row's first cell) whose whole text is a list
 * label, read with the cell after it (`<tr><th>参考価格：</th><td>￥6,480</td></tr>`). The row, not the selling
 * price's cell, is where a page states its reference price; a discount phrase in that row is still no list price.
 */
export function listPriceInRows(scope: Element, labels: RegExp = LIST_PRICE_LABELS): ListPrice | null {
  const whole = new RegExp(`^(?:${labels.source})\\s*(?:[(（]税(?:込|抜|別)[)）])?\\s*[:：]?$`);
  for (const cell of all(scope, 'th, dt, td:first-child')) {
    const label = textOf(cell);
    if (!whole.test(label)) continue;
    let value = cell.next;
    while (value && !isTag(value)) value = value.next;
    if (!value) continue;
    const found = listPriceIn(`${label} ${textOf(value)}`, labels);
    if (found) return found;
  }
  return null;
}
