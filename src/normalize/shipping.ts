// Shipping wording → the kind (free / included / extra / unknown) with the fee and the free-shipping threshold the
// text states; amounts are never computed, and a threshold is reported, not applied to the item's price.
import { parseShipping, type Shipping } from './price.js';
import { normalizeText } from './text.js';
import { yenOfNumeral as yen } from './yen.js';

export interface ShippingTerms {
  shipping: Shipping;
  /** The fee the buyer pays on top (送料 440円, + ¥1,598 shipping); null when none is written. */
  fee: number | null;
  /** Free at or above this order total (3,980円以上送料無料, 999円以上 送料無料); null when none is written. */
  freeThreshold: number | null;
}

const YEN = String.raw`[¥￥]?\s*([0-9][0-9,]*|[0-9]*\.?[0-9]+万)\s*円?`;
// `3,980円以上(で|ご購入で|のご注文で)送料無料`, `999円以上 送料無料`, `¥5,000以上は送料無料`
const THRESHOLD = new RegExp(`${YEN}\\s*(?:\\(税込\\))?\\s*以上[^0-9¥￥]{0,14}?(?:送料(?:無料|0円)|無料)`);
// `送料 440円`, `送料：¥550`, `送料別 ¥550`, `送料全国一律 880円`, `999円未満 440円` (a fee below a threshold)
// An amount followed by 以上/未満 is a threshold, not the fee (`送料別 3,980円以上送料無料`).
const FEE_AFTER_WORD = new RegExp(
  `送料(?:全国)?(?:一律)?(?:別途?)?\\s*[:：]?\\s*(?:全国一律)?\\s*${YEN}(?![0-9,]|\\s*円?\\s*(?:\\(税込\\))?\\s*(?:以上|未満))`,
);
const FEE_BELOW_THRESHOLD = new RegExp(`${YEN}\\s*未満\\s*[:：]?\\s*${YEN}`);
// Amazon's English interface: `+ ￥1,598 shipping`, `¥1,598 delivery`
const FEE_ENGLISH = new RegExp(`\\+?\\s*${YEN}\\s*(?:shipping|delivery|(?:配)?送料)(?!無料)`, 'i');

/** Reads one shipping statement (a product page's 送料 line, a shop's postage note). */
export function parseShippingTerms(text: string): ShippingTerms {
  const s = normalizeText(text).replace(/\s+/g, ' ');
  const threshold = THRESHOLD.exec(s);
  const freeThreshold = threshold ? yen(threshold[1]) : null;
  let fee: number | null = null;
  const below = FEE_BELOW_THRESHOLD.exec(s);
  if (below) fee = yen(below[2]);
  if (fee === null) {
    const word = FEE_AFTER_WORD.exec(s);
    if (word && !/無料|込/.test(s.slice(word.index, word.index + word[0].length))) fee = yen(word[1]);
  }
  if (fee === null) {
    const english = FEE_ENGLISH.exec(s);
    if (english) fee = yen(english[1]);
  }
  let shipping = parseShipping(s);
  if (freeThreshold !== null) shipping = 'extra';
  else if (fee !== null && fee > 0 && shipping === 'unknown') shipping = 'extra';
  else if (fee === 0) shipping = 'free';
  if (/free (?:shipping|delivery)/i.test(s) && freeThreshold === null && fee === null) shipping = 'free';
  return { shipping, fee: fee !== null && fee > 0 ? fee : null, freeThreshold };
}
