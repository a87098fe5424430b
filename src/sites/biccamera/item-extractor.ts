// ビックカメラ.com item pages: JSON-LD Product where present, the displayed price block (.bcs_basicInfo) deciding.
import { isTag, isText, type Element } from 'domhandler';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { listPriceIn } from '../../extract/reference-price.js';
import { decidePrice } from '../../extract/shown-price.js';
import { readStructuredProduct, structuredPrice } from '../../extract/structured-product.js';
import { availabilityFromText, availabilityOf, type StockWords } from '../../extract/availability.js';
import { isObject, typesOf, type JsonLdOffer, type JsonObject } from '../../extract/json-ld.js';
import { readMeta } from '../../extract/meta.js';
import type { ItemData } from '../../extract/page-types.js';
import { all, first, firstText, textOf, type Root } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { parsePoints } from '../../normalize/points.js';
import { parsePrice, taxMarkerOf, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'biccamera/item';
const SITE_NAME = 'ビックカメラ.com';
// The product's own block; recommendation carousels reuse .bcs_title / .bcs_price / .bcs_point inside .bcs_itemBox,
// so every display selector is scoped to the basic-info block, or, on layouts without it, to the detail area
// #bcs_detail (the block public scrapers read the spec rows from) with product tiles left out.
const BASIC = '.bcs_basicInfo';
const DETAIL = '#bcs_detail';
// Product tiles of carousels and lists (.bcs_itemBox, .bcs_boxItem, and as a real 2024 search page has them,
// .bcs_listItem > li.prod_box and the 最近チェックした商品 history .bcs_itemList).
const TILE = /\b(?:bcs_itemBox|bcs_boxItem|bcs_listItem|bcs_itemList|prod_box)\b/;
// Stock labels: .bcs_stock / the sold-out sentence in .bcs_red, and the coloured labels list pages and older item
// pages use (label_green 在庫あり, label_orange お取り寄せ, label_blue 予約受付中, label_gray 完売しました).
const STOCK_CLASSES = [
  '.bcs_stock',
  '.bcs_red',
  '.label_green',
  '.label_orange',
  '.label_blue',
  '.label_gray',
  // The real 2024 list tiles write the delivery line's stock words in .bcs_zaiko (入荷次第出荷).
  '.bcs_zaiko',
] as const;
// Price labels that name the selling price's channel or campaign (ネット限定価格, タイムセール価格 …).
const SALE_LABEL = /(ネット限定価格|タイムセール(?:価格)?|期間限定価格|特価)/;
const LIST_LABELS = /(メーカー希望小売価格|希望小売価格|通常価格|参考価格)/;

export const biccameraItemExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    const { product, sd, offer, nodes } = readStructuredProduct(page, warnings);
    const meta = readMeta(page);
    const scope = productScope(doc);
    const basic = scope?.element ?? null;
    const where = scope?.selector ?? BASIC;

    set('title', clean(product?.name), `${sd}:name`);
    set('title', basic ? firstText(basic, 'h1') : null, `selector:${where} h1`);
    set('title', firstText(doc, 'h1.bcs_title'), 'selector:h1.bcs_title');
    set('title', titleFromHead(meta.ogTitle), 'meta:og:title');

    // Price: what the buyer is shown wins; JSON-LD confirms it, or stands in only when nothing is displayed.
    const shown = displayedPrice(doc, scope);
    const decided = decidePrice(shown, structuredPrice(offer, sd), warnings);
    set('price', decided?.amount, decided?.source ?? '');

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) =>
        `${ID}: no ${missing.join(' and ')} found (json-ld, microdata, ${BASIC} or ${DETAIL} h1 and price, og: meta)`,
    );
    const price = data.price!;
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    data.price_tax = decided!.tax;
    if (decided!.taxSource) provenance.price_tax = decided!.taxSource;
    set('price_excluding_tax', shown?.excluding, shown?.source ?? '');

    // The shared reference-price rule: a discount phrase (通常価格より3,000円お得) is never the list price.
    const list = basic ? listPriceIn(ownText(basic), LIST_LABELS) : null;
    if (list && list.amount > price) {
      set('list_price', list.amount, `selector:${where} (${list.label})`);
      // 通常価格 is the shop's own usual price, so a lower price beside it is a sale; a maker's price is not.
      if (list.label === '通常価格') {
        set('on_sale', true, `selector:${where} (通常価格)`);
        // The price's own label says which sale it is (ネット限定価格 …).
        set('sale_label', shown?.label, `${shown?.source ?? ''} (label)`);
      }
    }

    const range = priceRange(doc, offer, price, sd);
    set('price_range', range?.range, range?.source ?? '');

    const pointEl = basic ? ownFirst(basic, '.bcs_point') : null;
    const pointText = pointEl ? textOf(pointEl) : null;
    if (pointText) {
      const points = parsePoints(pointText);
      set('points', points.amount, `selector:${where} .bcs_point`);
      set('points_rate', points.rate, `selector:${where} .bcs_point`);
    }

    const shippingLine = basic ? deepestWith(basic, /送料/) : null;
    if (shippingLine) {
      const terms = parseShippingTerms(shippingLine);
      const source = `selector:${where} (送料 line)`;
      if (terms.shipping !== 'unknown' || terms.fee !== null || terms.freeThreshold !== null) {
        set('shipping', terms.shipping, source);
        set('shipping_fee', terms.fee, source);
        set('free_shipping_threshold', terms.freeThreshold, source);
      }
    }

    for (const selector of basic ? STOCK_CLASSES : []) {
      const el = ownFirst(basic!, selector);
      const stock = stockWords(el ? textOf(el) : null);
      if (!stock) continue;
      set('availability', stock.availability, `selector:${where} ${selector}`);
      set('availability_text', stock.text, `selector:${where} ${selector}`);
      break;
    }
    set('availability', availabilityOf(offer?.availability), `${sd}:offers.availability`);

    const spec = specTable(doc);
    set('brand', clean(product?.brand), `${sd}:brand`);
    // The site writes makers as `エレコム｜ELECOM`: the Japanese name is the maker, the Latin one its brand mark.
    const makerEl = basic ? ownFirst(basic, '.bcs_maker') : null;
    set('brand', makerName(makerEl ? textOf(makerEl) : null), `selector:${where} .bcs_maker`);
    set('brand', makerName(spec.get('メーカー') ?? spec.get('メーカー名') ?? null), 'selector:spec table (メーカー)');
    set('shop', clean(offer?.seller), `${sd}:offers.seller.name`);
    set('shop', meta.ogSiteName, 'meta:og:site_name');

    set('jan', product?.gtin ? parseJan(product.gtin) : null, `${sd}:gtin13`);
    const janText = spec.get('JANコード') ?? spec.get('JAN');
    set('jan', janText ? parseJan(janText) : null, 'selector:spec table (JANコード)');
    // Set products write a sentence (セット商品のためなし) where the code would be: only a number can fail its check.
    if (janText && !data.jan && /\d{8,}/.test(janText.replace(/[\s-]/g, ''))) {
      warnings.push('jan: the page shows a JAN that fails its check digit; left out');
    }
    set('sku', clean(product?.sku), `${sd}:sku`);
    set('sku', itemNumber(page.url), 'url:/bc/item/<number>/');

    const rating = aggregateRating(nodes);
    set('rating', rating?.rating, 'json-ld:aggregateRating.ratingValue');
    set('review_count', rating?.count, 'json-ld:aggregateRating.reviewCount');

    const images = product?.images.length ? product.images : meta.ogImages;
    set('images', images.length > 0 ? images : null, product?.images.length ? `${sd}:image` : 'meta:og:image');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

interface ShownPrice {
  amount: number;
  tax: TaxStatus;
  taxSource: string;
  excluding: number | null;
  source: string;
  /** The sale or channel label written in the price element (ネット限定価格 …). */
  label: string | null;
}

interface Scope {
  element: Element;
  selector: string;
}

/** The product's own block: .bcs_basicInfo, else the detail area #bcs_detail (older layouts). */
function productScope(doc: Root): Scope | null {
  const basic = first(doc, BASIC);
  if (basic) return { element: basic, selector: BASIC };
  const detail = first(doc, DETAIL);
  return detail ? { element: detail, selector: DETAIL } : null;
}

/**
 * The price element's text (`12,800円（税込）`, or `11,637円（税抜） 12,800円（税込）`) through parsePrice: #PRICE,
 * else the scope's .bcs_price, else the scope's `.tax_cell` list (`<li>ネット限定価格</li><li>39,800円（税込）</li>`,
 * the 税込 line, as public scrapers read it).
 */
function displayedPrice(doc: Root, scope: Scope | null): ShownPrice | null {
  const candidates: [string, Element[]][] = [['#PRICE', all(doc, '#PRICE')]];
  if (scope) {
    candidates.push([`${scope.selector} .bcs_price`, ownAll(scope.element, '.bcs_price')]);
    const cells = ownAll(scope.element, '.tax_cell li').filter((li) => /\d/.test(textOf(li)));
    const included = cells.find((li) => taxMarkerOf(textOf(li)) === 'included');
    const cell = included ?? cells[cells.length - 1];
    if (cell) candidates.push([`${scope.selector} .tax_cell li`, [cell]]);
  }
  for (const [selector, elements] of candidates) {
    // A usual or maker's price written in its own .bcs_price element is a comparison, never the selling price.
    const element = elements.find((el) => !LIST_LABELS.test(textOf(el)));
    if (!element) continue;
    const parsed = parsePrice(textOf(element));
    if (parsed.amount === null) continue;
    const source = `selector:${selector}`;
    let tax = parsed.tax;
    let taxSource = tax === 'unknown' ? '' : source;
    if (tax === 'unknown') {
      const label = labelAfter(element);
      tax = label ? taxMarkerOf(label) : 'unknown';
      if (tax !== 'unknown') taxSource = `${source} + label`;
    }
    const container = element.parent && isTag(element.parent) ? element.parent : element;
    const label = SALE_LABEL.exec(textOf(element))?.[1] ?? SALE_LABEL.exec(textOf(container))?.[1] ?? null;
    return { amount: parsed.amount, tax, taxSource, excluding: parsed.price_excluding_tax ?? null, source, label };
  }
  return null;
}

function inTile(el: Element, root: Element): boolean {
  for (let p = el.parent; p && p !== root && isTag(p); p = p.parent) {
    if (TILE.test(p.attribs.class ?? '')) return true;
  }
  return false;
}

/** Matches under the product's block, product tiles left out. */
function ownAll(root: Element, selector: string): Element[] {
  return all(root, selector).filter((el) => !inTile(el, root));
}

function ownFirst(root: Element, selector: string): Element | null {
  return ownAll(root, selector).find((el) => textOf(el) !== '') ?? null;
}

/** The block's text without the product tiles it may hold. */
function ownText(root: Element): string {
  const parts: string[] = [];
  const visit = (node: Element) => {
    for (const child of node.children) {
      if (isTag(child)) {
        if (TILE.test(child.attribs.class ?? '')) continue;
        visit(child);
      } else if (isText(child)) parts.push(child.data);
    }
  };
  visit(root);
  return normalizeText(parts.join(''));
}

/** Text of the siblings that follow the price element up to the next amount (a separate tax label). */
function labelAfter(element: Element): string | null {
  let text = '';
  for (let node = element.next; node; node = node.next) {
    const t = textOf(node);
    if (/\d/.test(t)) break;
    text += t;
  }
  return text.trim() || null;
}

/** Colour/size variants: JSON-LD AggregateOffer low–high, else the prices listed in the variation box. */
function priceRange(
  doc: Root,
  offer: JsonLdOffer | undefined,
  price: number,
  sd: string,
): { range: { min: number; max: number }; source: string } | null {
  if (offer?.aggregate && offer.price !== null && offer.highPrice !== null && offer.highPrice > offer.price) {
    return { range: { min: offer.price, max: offer.highPrice }, source: `${sd}:offers.lowPrice/highPrice` };
  }
  const amounts = all(doc, '.bcs_variation .bcs_price')
    .map((el) => parsePrice(textOf(el)).amount)
    .filter((a): a is number => a !== null);
  if (amounts.length === 0) return null;
  const min = Math.min(price, ...amounts);
  const max = Math.max(price, ...amounts);
  return min < max ? { range: { min, max }, source: 'selector:.bcs_variation .bcs_price' } : null;
}

/** The innermost element under `root` whose text matches: the 送料 line itself, not the whole block around it. */
function deepestWith(root: Element, pattern: RegExp): string | null {
  let found: Element | null = null;
  const visit = (el: Element): void => {
    if (!pattern.test(textOf(el))) return;
    found = el;
    for (const child of el.children) if (isTag(child)) visit(child);
  };
  for (const child of root.children) if (isTag(child)) visit(child);
  if (!found) return null;
  // A lone label (<span>送料</span>) is not the statement: take the line that holds it.
  let line: Element = found;
  if (!/\d|無料|込/.test(textOf(line)) && isTag(line.parent as Element) && line.parent !== root) {
    line = line.parent as Element;
  }
  return textOf(line) || null;
}

/** The spec table's rows (`<th>JANコード</th><td>…</td>`), by label: .bcs_spec, or any table of #bcs_detail. */
function specTable(doc: Root): Map<string, string> {
  const rows = new Map<string, string>();
  for (const row of [...all(doc, '.bcs_spec tr'), ...all(doc, `${DETAIL} tr`)]) {
    const label = firstText(row, 'th');
    const value = firstText(row, 'td');
    if (label && value && !rows.has(label)) rows.set(label, value);
  }
  return rows;
}

/**
 * The shared stock words, with the site's sold-out sentence first: この商品は在庫がなくなりました。 is out of stock
 * (the shared list knows 在庫なし, not 在庫がなくなりました).
 */
function stockWords(text: string | null): StockWords | null {
  if (!text) return null;
  const words = normalizeText(text);
  if (/在庫がなくなりました|在庫切れ/.test(words)) return { availability: 'out_of_stock', text: words };
  // 入荷次第出荷: ships once the goods arrive, an order is taken without stock.
  if (/入荷次第(?:出荷|発送)/.test(words)) return { availability: 'backorder', text: words };
  return availabilityFromText(words);
}

function aggregateRating(nodes: readonly JsonObject[]): { rating: number | null; count: number | null } | null {
  const product = nodes.find((n) => typesOf(n).includes('Product'));
  const agg = product && isObject(product.aggregateRating) ? product.aggregateRating : null;
  if (!agg) return null;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
  const rating = num(agg.ratingValue);
  const count = num(agg.reviewCount ?? agg.ratingCount);
  return {
    rating: Number.isFinite(rating) && rating >= 0 && rating <= 5 ? rating : null,
    count: Number.isSafeInteger(count) && count >= 0 ? count : null,
  };
}

/** `<name> 通販 | ビックカメラ.com` → `<name>`. */
function titleFromHead(title: string | null): string | null {
  if (!title) return null;
  const name = title
    .replace(/\s*[|｜]\s*ビックカメラ\.com\s*$/, '')
    .replace(/\s*(?:の)?通販\s*$/, '')
    .trim();
  return name === '' || name === SITE_NAME ? null : name;
}

function makerName(text: string | null): string | null {
  if (!text) return null;
  // `シャープ｜SHARP（メーカーサイトへ）`: the link caption is not part of the name.
  const name = text
    .replace(/[（(]メーカーサイトへ[）)]/, '')
    .split(/[|｜]/)[0]
    ?.trim();
  return name ? name : null;
}

function itemNumber(url: string): string | null {
  try {
    return /^\/bc\/item\/(\d{4,12})\/?$/.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

function clean(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = normalizeText(value);
  return text === '' ? null : text;
}
