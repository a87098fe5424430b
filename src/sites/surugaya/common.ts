// 駿河屋 (www.suruga-ya.jp) parts shared by its item, offers and search extractors: prices, conditions, sellers, postage.
import { isTag, isText, type Element } from 'domhandler';
import { textOf } from '../../extract/selectors.js';
import type { OfferData } from '../../extract/page-types.js';
import { parsePrice, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';

/** The site's own name: the seller of every offer that names no shop of its marketplace (マケプレ). */
export const SURUGAYA = '駿河屋';

/** `/product/detail/<id>` and `/product/other/<id>`: ids are digits (128049960) or letters and digits (G4404338). */
export const PRODUCT_ID = /^\/product\/(?:detail|other)\/([A-Za-z0-9]+)\/?$/;

export function productIdOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return PRODUCT_ID.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

export interface Yen {
  amount: number;
  tax: TaxStatus;
}

/** One price element (`2,800円 (税込)`, `￥160`); null when it holds no yen amount. */
export function yenOf(el: Element | null): Yen | null {
  if (!el) return null;
  const parsed = parsePrice(textOf(el));
  return parsed.amount === null ? null : { amount: parsed.amount, tax: parsed.tax };
}

/**
 * The condition a label starts with: 新品 / 中古 (the site's own words for every grade: `中古ランクB`,
 * `中古 箱・ジャケット・ケース不備(中)`, `新品`). 予約 (preorder) is of a new product.
 */
export function conditionOf(label: string): OfferData['condition'] {
  if (/^\s*(?:新品|予約)/.test(label)) return 'new';
  if (/^\s*中古/.test(label)) return 'used';
  return 'unknown';
}

/** `/shop/<id>` links name a marketplace shop (a business: its name is the shop sign, not a private person). */
export function shopLink(el: Element | null): { name: string; url: string } | null {
  if (!el) return null;
  const href = el.attribs.href ?? '';
  if (!/\/shop\/\d+\/?(?:[?#]|$)/.test(href)) return null;
  const name = textOf(el);
  return name ? { name, url: href } : null;
}

export interface Postage {
  shipping: NonNullable<OfferData['shipping']>;
  fee?: number;
  threshold?: number;
  /** The terms as written, for provenance and tests. */
  text: string;
}

export const POSTAGE_ROWS = '.campaign_price';

/**
 * A shop's postage terms as the offers list writes them: `.campaign_price` rows of (order total bracket, postage),
 * e.g. `999円未満 440円` / `999円以上 送料無料`. A fee is served only when one paid bracket with one amount is
 * written (`300~1,500円` depends on the region, and several paid brackets on the order total): never computed. `rows`
 * are an offer's POSTAGE_ROWS, found in the same walk as its other parts.
 */
export function postageOf(rows: readonly Element[]): Postage | null {
  if (rows.length === 0) return null;
  const text = rows.map((r) => textOf(r)).join(' ');
  const terms = parseShippingTerms(text);
  const paid = rows.filter((r) => !/送料無料|無料/.test(textOf(r)));
  const ranged = paid.some((r) => /\d\s*[~-]\s*[\d,]+\s*円/.test(normalizeText(textOf(r))));
  const postage: Postage = { shipping: terms.shipping, text };
  if (terms.fee !== null && paid.length === 1 && !ranged) postage.fee = terms.fee;
  if (terms.freeThreshold !== null) postage.threshold = terms.freeThreshold;
  return postage;
}

/**
 * The upper end of a range the site writes in one price (`中古：￥3,440 ～ ￥4,300 税込`: 駿河屋 sells several grades);
 * null when the text is a single price or an open-ended from-price (`1,280円～`).
 */
export function rangeUpperOf(text: string): number | null {
  const lower = parsePrice(text);
  if (!lower.range || lower.amount === null) return null;
  const parts = normalizeText(text).split(/[~〜～]/);
  if (parts.length < 2) return null;
  const upper = parsePrice(parts[parts.length - 1]!).amount;
  return upper !== null && upper > lower.amount ? upper : null;
}

/** The element's own text before its first child element (`中古 USBケーブル欠品 ※タイムセール<br>…`), normalized. */
export function leadingText(el: Element): string {
  let out = '';
  for (const child of el.children) {
    if (isText(child)) out += child.data;
    else if (isTag(child)) break;
  }
  return normalizeText(out);
}

/** Direct children with this tag name (a card's own lines, not those of a hidden panel inside it). */
export function childTags(el: Element, name: string): Element[] {
  return el.children.filter((c): c is Element => isTag(c) && c.name === name);
}
