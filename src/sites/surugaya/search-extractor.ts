// 駿河屋 search results (/search?…): one entry per product card, with 駿河屋's own price and マケプレ offers beside it.
import type { Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { availabilityFromText } from '../../extract/availability.js';
import { primaryOffer } from '../../extract/offers.js';
import type { ListData, ListItemData, OfferData } from '../../extract/page-types.js';
import { all, attrOf, elementText, first, firstText, selectMany, textOf } from '../../extract/selectors.js';
import { decimalToNumber, parseNumeral } from '../../normalize/number.js';
import { parsePrice } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';
import { SURUGAYA, childTags, conditionOf, leadingText, productIdOf, rangeUpperOf, yenOf } from './common.js';

const ID = 'surugaya/search';
const CARDS = '#search_result .item_box .item';

// The page's parts, read in one walk of it; each card's parts in one walk of the card.
const PAGE_PARTS = {
  first: {
    results: '#search_result',
    header: '#search_header',
    headerHit: '#search_header .hit',
    hit: '.hit',
    pageNo: '#pager .this_page',
  },
  all: { cards: CARDS, pagerNext: '#pager li.next a', headNext: 'link[rel="next"]' },
} as const;
const CARD_PARTS = {
  first: { name: '.product-name', box: '.item_price', brand: 'p.brand' },
  all: { titleLinks: '.title a', photoLinks: '.photo_box a', photos: '.photo_box img' },
} as const;

export const surugayaSearchExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'search',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];
    // A result page always has the search header (hit count, sort) and, when anything matched, the card grid.
    const parts = selectMany(doc, PAGE_PARTS);
    if (!parts.first.results && !parts.first.header) {
      throw new KumoError('extraction_failed', `${ID}: no search result list (#search_result, #search_header) found`, {
        body: { fields: ['/items'] },
      });
    }
    const items: ListItemData[] = [];
    parts.all.cards.forEach((card, i) => {
      const item = entryOf(card);
      if (item) items.push(item);
      else warnings.push(`${CARDS}[${i}]: no product name; left out`);
    });

    const data: ListData = { items, next_page: null, total: null, page: null };
    const provenance: Record<string, string> = {
      items:
        `${CARDS} (title: .product-name; price: the new-condition offer if any, else the lowest of .price_teika ` +
        '中古：/新品： and .makeplaTit マケプレ prices; price_range: all of them, a range line ￥a ～ ￥b giving both ends; ' +
        '定価 lines are never a price; a time sale: on_sale, list_price from .price_normal .strike, sale_label from ' +
        '.timesales .timesaleTit, served only when true)',
    };
    // The pager's 次のページ link, else the head's <link rel="next"> (the page writes both).
    const pagerNext = attrOf(parts.all.pagerNext, 'href');
    const headNext = attrOf(parts.all.headNext, 'href');
    const next = [pagerNext, headNext].find((u) => u && /^https?:\/\//.test(u));
    if (next) {
      data.next_page = next;
      provenance.next_page = next === pagerNext ? 'selector:#pager li.next a' : 'link:rel=next';
    } else provenance.next_page = 'constant:null (no 次のページ link)';
    const hit = elementText(parts.first.headerHit) ?? elementText(parts.first.hit);
    const total = hit ? countOf(/([0-9,]+)\s*件中/.exec(hit)?.[1] ?? /([0-9,]+)\s*件/.exec(hit)?.[1]) : null;
    if (total !== null) {
      data.total = total;
      provenance.total = 'selector:.hit (該当件数:N件中)';
    } else provenance.total = 'constant:null (no hit count)';
    const pageNo = countOf(elementText(parts.first.pageNo));
    if (pageNo !== null && pageNo >= 1) {
      data.page = pageNo;
      provenance.page = 'selector:#pager .this_page';
    } else provenance.page = 'constant:null (no pager)';
    return { data, provenance, warnings };
  },
});

interface Candidate {
  offer: OfferData;
  own: boolean;
  shippingText: string | null;
  /** The upper end when the line is a range (several grades of 駿河屋's own). */
  upper?: number | null;
}

/**
 * A card's prices: 駿河屋's own (`中古：￥160 税込`, `新品：…`, or 品切れ) and the cheapest マケプレ offer under
 * 以下からもご購入頂けます. The entry's price follows the item rule (new-condition first, else the lowest);
 * price_range spans them when they differ. 駿河屋 marks its prices 税込; a マケプレ price is on the same 税込 basis.
 */
function entryOf(card: Element): ListItemData | null {
  const own = selectMany(card, CARD_PARTS);
  const title = elementText(own.first.name) ?? elementText(own.all.titleLinks[0] ?? null);
  if (!title) return null;
  const item: ListItemData = { title };
  const href = attrOf(own.all.titleLinks, 'href') ?? attrOf(own.all.photoLinks, 'href');
  if (href && /^https?:\/\//.test(href)) item.url = href;
  const candidates: Candidate[] = [];
  const box = own.first.box;
  const shippingText = box
    ? (childTags(box, 'p')
        .map((p) => textOf(p))
        .find((t) => /送料/.test(t)) ?? null)
    : null;
  // A time sale writes its price line without the 中古：/新品： label: the condition is in the struck line before it
  // (p.price_normal 中古通常価格 ¥440), the sale's name in p.timesales .timesaleTit. Paired in page order.
  const normals = box ? childTags(box, 'p').filter((p) => hasClass(p, 'price_normal')) : [];
  const saleName = box ? firstText(box, '.timesales .timesaleTit') : null;
  let unlabelled = 0;
  for (const line of box ? all(box, 'p.price_teika') : []) {
    const text = textOf(line);
    if (/定価/.test(text)) continue;
    const price = parsePrice(text);
    if (price.amount === null) continue;
    const labelled = /^\s*([^:：￥¥\d]+?)\s*[:：]/.exec(normalizeText(text));
    const normal = labelled ? undefined : normals[unlabelled++];
    const words = labelled?.[1] ?? (normal ? leadingText(normal).replace(/通常価格.*$/, '') : '');
    const offer: OfferData = {
      condition: conditionOf(words),
      price: price.amount,
      price_tax: price.tax === 'unknown' ? 'included' : price.tax,
      on_sale: false,
    };
    const label = normalizeText(words);
    if (label) offer.condition_text = label;
    const before = normal ? yenOf(first(normal, '.strike')) : null;
    if (before && before.amount > price.amount) {
      offer.on_sale = true;
      offer.list_price = before.amount;
      if (saleName) offer.sale_label = saleName;
    }
    candidates.push({ own: true, shippingText, offer, upper: rangeUpperOf(text) });
  }
  for (const mp of box ? all(box, '.makeplaTit') : []) {
    const price = parsePrice(firstText(mp, '.text-red') ?? '');
    if (price.amount === null) continue;
    const note = firstText(mp, '.mgnL-3 a') ?? '';
    const words = /(新品|中古)/.exec(note)?.[1] ?? '';
    const offer: OfferData = {
      condition: conditionOf(words),
      price: price.amount,
      price_tax: price.tax === 'unknown' ? 'included' : price.tax,
      on_sale: false,
    };
    const text = normalizeText(note.replace(/^[(（]|[)）]$/g, ''));
    if (text) offer.condition_text = `マケプレ ${text}`;
    candidates.push({ own: false, shippingText: null, offer });
  }

  const primary = primaryOffer(candidates.map((c) => c.offer));
  const stockLine = box
    ? childTags(box, 'p').find((p) => /(?:^|\s)price(?:\s|$)/.test(p.attribs.class ?? ''))
    : undefined;
  const soldOut = stockLine ? availabilityFromText(textOf(stockLine)) : null;
  if (primary) {
    const chosen = candidates[primary.index]!;
    item.price = chosen.offer.price;
    item.currency = 'JPY';
    item.price_tax = chosen.offer.price_tax;
    if (chosen.offer.condition !== 'unknown') item.condition = chosen.offer.condition;
    if (chosen.offer.condition_text) item.condition_text = chosen.offer.condition_text;
    if (chosen.offer.on_sale) {
      item.on_sale = true;
      if (chosen.offer.list_price !== undefined) item.list_price = chosen.offer.list_price;
      if (chosen.offer.sale_label) item.sale_label = chosen.offer.sale_label;
    }
    const prices = candidates.flatMap((c) => [c.offer.price, c.upper ?? c.offer.price]);
    const min = Math.min(...prices);
    const max = Math.max(...prices);
    if (min !== max) item.price_range = { min, max };
    if (chosen.own) {
      item.shop = SURUGAYA;
      if (chosen.shippingText) {
        const terms = parseShippingTerms(chosen.shippingText);
        item.shipping = terms.shipping;
        if (terms.fee !== null) item.shipping_fee = terms.fee;
        if (terms.freeThreshold !== null) item.free_shipping_threshold = terms.freeThreshold;
      }
    }
  } else if (soldOut) {
    item.availability = soldOut.availability;
    item.availability_text = soldOut.text;
  }
  const brand = elementText(own.first.brand);
  const brandName = brand ? normalizeText(brand.replace(/^\[|\]$/g, '')) : '';
  if (brandName) item.brand = brandName;
  const sku = productIdOf(item.url);
  if (sku) item.sku = sku;
  const image = attrOf(own.all.photos, 'src');
  if (image && /^https?:\/\//.test(image)) item.images = [image];
  return item;
}

function hasClass(el: Element, name: string): boolean {
  return (el.attribs.class ?? '').split(/\s+/).includes(name);
}

function countOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const value = parseNumeral(text.replace(/,/g, '').trim());
  const n = value ? decimalToNumber(value) : null;
  return n !== null && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
