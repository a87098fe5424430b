// Yahoo!ショッピング item pages: the Next.js page state first, then JSON-LD, meta and the displayed price, field by field.
import { isTag } from 'domhandler';
import { KumoError } from '../../errors.js';
import { availabilityFromText, availabilityOf, type Availability } from '../../extract/availability.js';
import { readEmbeddedState } from '../../extract/embedded-state.js';
import type { Extraction, Extractor } from '../../extract/extractor.js';
import { arr, int, obj, str, type JsonObject } from '../../extract/json-path.js';
import { findProduct, parseJsonLd, typesOf, type JsonLdProduct } from '../../extract/json-ld.js';
import { readMeta } from '../../extract/meta.js';
import type { ItemData } from '../../extract/page-types.js';
import { all, first, firstText, textOf } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import type { HtmlPage, NormalizedPage } from '../../normalize/page.js';
import { parsePoints } from '../../normalize/points.js';
import { parsePrice, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'yahoo_shopping/item';
const STATE = 'state:__NEXT_DATA__';

// The buyer-facing price: the page's microdata `itemprop="price"` (read by public scrapers of the current template)
// and the older template's `.elPrice .elPriceNumber`. Their parent holds the tax label and the 通常価格 line.
const PRICE_SELECTORS = ['[itemprop="price"]', '.elPrice .elPriceNumber'] as const;
// Next.js CSS-module names keep their stem and change the hash per build (`styles_pointRatio__EepZ3`).
const POINT_SELECTOR = '[class*="styles_pointRatio__"], .elGetRateText';
const SHIPPING_SELECTOR = '[class*="styles_shipping__"], [class*="styles_postage__"], .elPostage';
const JAN_LABEL = /^(?:JAN|JANコード|JAN\/ISBN|JANコード\/ISBNコード)$/i;

type Draft = Partial<ItemData>;

export const yahooShoppingItemExtractor: Extractor = {
  id: ID,
  version: 1,
  pageType: 'item',
  input: 'html',
  extract(page: NormalizedPage): Extraction {
    if (page.kind !== 'html') throw new KumoError('extraction_failed', `${ID} reads HTML pages`);
    const warnings = [...(page.warnings ?? [])];
    const provenance: Record<string, string> = {};
    const data: Draft = {};
    const set = <K extends keyof ItemData>(field: K, value: ItemData[K] | null | undefined, source: string) => {
      if (value === null || value === undefined || data[field] !== undefined) return;
      data[field] = value;
      provenance[field] = source;
    };

    const { item, path } = stateItem(page);
    const jsonLd = parseJsonLd(page.jsonLd);
    warnings.push(...jsonLd.warnings);
    const product = findProduct(jsonLd.nodes);
    const productNode = jsonLd.nodes.find((n) => typesOf(n).includes('Product')) ?? null;
    const offer = product?.offers.find((o) => o.price !== null) ?? product?.offers[0];
    const meta = readMeta(page);

    // Title: the state's item name, then JSON-LD, then og:title (which carries the store and site name after it).
    set('title', text(str(item?.name)), `${STATE}:${path}.name`);
    set('title', text(product?.name), 'json-ld:name');
    set('title', ogTitle(meta.ogTitle), 'meta:og:title');

    // Price: what the buyer is shown wins; the state's applicablePrice (the price applied to the order, the sale
    // price during a sale) and JSON-LD confirm it, and a disagreement is reported.
    const shown = displayedPrice(page);
    const statePrice = yen(item?.applicablePrice) ?? yen(item?.price);
    const stateSource = `${STATE}:${path}.${yen(item?.applicablePrice) !== null ? 'applicablePrice' : 'price'}`;
    const metaPrice =
      meta.priceAmount && (meta.priceCurrency ?? 'JPY').toUpperCase() === 'JPY' ? meta.priceAmount : null;
    const structured =
      statePrice !== null
        ? { amount: statePrice, source: stateSource }
        : offer?.price != null
          ? { amount: offer.price, source: 'json-ld:offers.price' }
          : metaPrice && parsePrice(metaPrice).amount !== null
            ? { amount: parsePrice(metaPrice).amount!, source: 'meta:product:price:amount' }
            : null;
    let tax: TaxStatus = 'unknown';
    let taxSource = '';
    if (shown?.amount != null) {
      if (structured && structured.amount !== shown.amount) {
        warnings.push(
          `${structured.source} (${structured.amount}) disagrees with the displayed price; serving the displayed price`,
        );
      }
      set('price', shown.amount, structured?.amount === shown.amount ? structured.source : shown.source);
      tax = shown.tax;
      taxSource = shown.source;
      set('price_excluding_tax', shown.excluding, shown.source);
    } else if (structured) {
      set('price', structured.amount, structured.source);
      if (offer?.taxIncluded != null && offer.price === structured.amount) {
        tax = offer.taxIncluded ? 'included' : 'excluded';
        taxSource = 'json-ld:offers.priceSpecification.valueAddedTaxIncluded';
      }
    }

    const missing = (['title', 'price'] as const).filter((f) => data[f] === undefined);
    if (missing.length > 0) {
      throw new KumoError(
        'extraction_failed',
        `${ID}: no ${missing.join(' and ')} found (__NEXT_DATA__ item, json-ld, og:/product: meta, displayed price)`,
        { body: { fields: missing.map((f) => `/${f}`) } },
      );
    }
    // JSON-LD is the weakest price source here; when it disagrees with what is served, say so (a 税抜 figure, a
    // stale pre-sale price).
    if (
      offer?.price != null &&
      !offer.aggregate &&
      offer.price !== data.price &&
      provenance.price !== 'json-ld:offers.price'
    )
      warnings.push(`json-ld:offers.price (${offer.price}) disagrees with the served price`);
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    data.price_tax = tax;
    if (taxSource) provenance.price_tax = taxSource;

    // 通常価格 beside the selling price: only a higher usual price is a list price, and only then is it a sale.
    const usual = shown?.usual ?? null;
    const stateUsual = yen(item?.price);
    if (usual !== null && usual > data.price!) {
      set('list_price', usual, `${shown!.source} (通常価格)`);
    } else if (stateUsual !== null && yen(item?.applicablePrice) !== null && stateUsual > data.price!) {
      set('list_price', stateUsual, `${STATE}:${path}.price`);
    }
    if (data.list_price !== undefined) set('on_sale', true, provenance.list_price!);

    // Points: the `n%獲得` rate and, when written, the amount in ポイント.
    const pointText = firstText(page.document, POINT_SELECTOR);
    if (pointText) {
      const pointEl = first(page.document, POINT_SELECTOR)!;
      const around = pointEl.parent ? textOf(pointEl.parent) : pointText;
      const points = parsePoints(around);
      const rate = parsePoints(pointText).rate ?? points.rate;
      set('points_rate', rate, `selector:${POINT_SELECTOR}`);
      set('points', points.amount, `selector:${POINT_SELECTOR} (its parent)`);
    }

    const shippingText = firstText(page.document, SHIPPING_SELECTOR);
    if (shippingText) {
      const terms = parseShippingTerms(shippingText);
      const source = `selector:${SHIPPING_SELECTOR}`;
      set('shipping', terms.shipping, source);
      set('shipping_fee', terms.fee, source);
      set('free_shipping_threshold', terms.freeThreshold, source);
    }

    // Stock: the page's own words (the cart button's label) win; the state's stock and JSON-LD back them up.
    const words = stockWords(page);
    const variants = variantsOf(item);
    const stateStock = stockOf(item, variants);
    if (words) {
      set('availability', words.availability, 'selector:button (stock words)');
      set('availability_text', words.text, 'selector:button (stock words)');
      if (
        stateStock &&
        stateStock !== words.availability &&
        !(words.availability === 'limited' && stateStock === 'in_stock')
      )
        warnings.push(`${STATE}:${path}.stock disagrees with the stock words shown; serving the words shown`);
    }
    set('availability', stateStock, `${STATE}:${path}.stock`);
    set('availability', availabilityOf(offer?.availability), 'json-ld:offers.availability');

    // Variants priced differently (stockTableOneAxis / stockTableTwoAxis choices): their range.
    const prices = variants.map((v) => v.price).filter((p): p is number => p !== null);
    if (prices.length > 1 && Math.min(...prices) < Math.max(...prices)) {
      set(
        'price_range',
        { min: Math.min(...prices), max: Math.max(...prices) },
        `${STATE}:${path}.stockTable*.choiceList[].price`,
      );
    } else if (offer?.aggregate && offer.price !== null && offer.highPrice !== null && offer.highPrice > offer.price) {
      set('price_range', { min: offer.price, max: offer.highPrice }, 'json-ld:offers.lowPrice/highPrice');
    }

    set('brand', text(product?.brand), 'json-ld:brand');
    set('shop', text(offer?.seller), 'json-ld:offers.seller.name');

    set('jan', product?.gtin ? parseJan(product.gtin) : null, 'json-ld:gtin13');
    const janText = labelledValue(page, JAN_LABEL);
    set('jan', janText ? parseJan(janText) : null, 'selector:th/dt JANコード');
    if (janText && !data.jan) warnings.push('jan: the page shows a JAN that fails its check digit; left out');
    set('sku', text(product?.sku), 'json-ld:sku');

    const rating = ratingOf(productNode);
    set('review_count', rating.count, 'json-ld:aggregateRating.reviewCount');
    set('rating', rating.value, 'json-ld:aggregateRating.ratingValue');

    const stateImages = imagesOf(item);
    set('images', stateImages.length > 0 ? stateImages : null, `${STATE}:${path}.images.list[].src`);
    set('images', product && product.images.length > 0 ? absoluteAll(product, page) : null, 'json-ld:image');
    set('images', meta.ogImages.length > 0 ? meta.ogImages : null, 'meta:og:image');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
};

/** The item object of the page state: `props.pageProps.sp.item` (current), `pageProps.item`, `initialState.item`. */
function stateItem(page: HtmlPage): { item: JsonObject | null; path: string } {
  const props = obj(obj(obj(readEmbeddedState(page, { id: '__NEXT_DATA__' }))?.props)?.pageProps);
  const candidates: [unknown, string][] = [
    [obj(props?.sp)?.item, 'props.pageProps.sp.item'],
    [props?.item, 'props.pageProps.item'],
    [obj(props?.initialState)?.item, 'props.pageProps.initialState.item'],
  ];
  for (const [value, path] of candidates) {
    const item = obj(value);
    if (item && Object.keys(item).length > 0) return { item, path };
  }
  return { item: null, path: 'props.pageProps.sp.item' };
}

interface Shown {
  amount: number | null;
  tax: TaxStatus;
  excluding: number | null;
  usual: number | null;
  source: string;
}

/** The displayed price block: the price element's container, read as the buyer reads it (税込/税抜, 通常価格). */
function displayedPrice(page: HtmlPage): Shown | null {
  for (const selector of PRICE_SELECTORS) {
    // A `<meta itemprop="price">` carries no visible text: the first match the buyer can read is the one.
    const el = all(page.document, selector).find((e) => textOf(e) !== '');
    if (!el) continue;
    const own = textOf(el);
    const block = el.parent && isTag(el.parent) ? textOf(el.parent) : own;
    // The usual price is its own clause (`通常価格 4,980円`); the selling price is the block without it.
    const usualClause = /(?:通常価格|通常販売価格)[^円]*円/.exec(block)?.[0] ?? null;
    const selling = parsePrice(usualClause ? block.replace(usualClause, ' ') : block);
    const alone = parsePrice(own);
    // The price element's own amount is the price; the block only adds its tax label or the 税込 total of a 税抜
    // amount. Other amounts in the block (クーポン利用で …円) never replace it.
    const agrees = selling.amount !== null && selling.amount === alone.amount;
    const totalOfExcluded =
      alone.tax === 'excluded' && selling.tax === 'included' && selling.price_excluding_tax === alone.amount;
    const chosen = alone.amount === null || agrees || totalOfExcluded ? selling : alone;
    if (chosen.amount === null) continue;
    return {
      amount: chosen.amount,
      tax: chosen.tax,
      excluding: chosen.price_excluding_tax ?? null,
      usual: usualClause ? parsePrice(usualClause).amount : null,
      source: `selector:${selector}`,
    };
  }
  return null;
}

/** Labels of the buy area: `カートに入れる`, `在庫切れ`, `売り切れ`, `入荷お知らせ` …; the first button that states stock. */
function stockWords(page: HtmlPage): { availability: Availability; text: string } | null {
  for (const el of all(page.document, 'button')) {
    const words = availabilityFromText(textOf(el));
    if (words) return words;
  }
  return null;
}

interface Variant {
  price: number | null;
  quantity: number | null;
}

/** Choices of `stockTableOneAxis` (firstOption.choiceList) or `stockTableTwoAxis` (… .secondOption.choiceList). */
function variantsOf(item: JsonObject | null): Variant[] {
  const out: Variant[] = [];
  const choice = (c: JsonObject) => out.push({ price: yen(c.price), quantity: int(obj(c.stock)?.quantity) });
  const two = obj(item?.stockTableTwoAxis);
  if (two) {
    for (const first of arr(obj(two.firstOption)?.choiceList))
      for (const second of arr(obj(obj(first)?.secondOption)?.choiceList)) if (obj(second)) choice(obj(second)!);
    return out;
  }
  for (const c of arr(obj(obj(item?.stockTableOneAxis)?.firstOption)?.choiceList)) if (obj(c)) choice(obj(c)!);
  return out;
}

function stockOf(item: JsonObject | null, variants: Variant[]): Availability | null {
  const stock = obj(item?.stock);
  if (stock?.isSoldOut === true) return 'out_of_stock';
  const quantities = variants.map((v) => v.quantity).filter((q): q is number => q !== null);
  if (quantities.length > 0) return quantities.some((q) => q > 0) ? 'in_stock' : 'out_of_stock';
  const quantity = int(stock?.quantity);
  if (quantity !== null) return quantity > 0 ? 'in_stock' : 'out_of_stock';
  return null;
}

function imagesOf(item: JsonObject | null): string[] {
  const urls = arr(obj(item?.images)?.list)
    .map((i) => str(obj(i)?.src))
    .filter((u): u is string => u !== null && /^https?:\/\//.test(u));
  return [...new Set(urls)];
}

function absoluteAll(product: JsonLdProduct, page: HtmlPage): string[] | null {
  const urls = product.images
    .map((u) => {
      try {
        const url = new URL(u, page.url);
        return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
      } catch {
        return null;
      }
    })
    .filter((u): u is string => u !== null);
  return urls.length > 0 ? urls : null;
}

function ratingOf(node: JsonObject | null): { value: number | null; count: number | null } {
  const rating = obj(node?.aggregateRating);
  const value = Number(str(rating?.ratingValue));
  const count = int(rating?.reviewCount) ?? int(rating?.ratingCount);
  return {
    value: rating && Number.isFinite(value) && value >= 0 && value <= 5 ? value : null,
    count: count !== null && count >= 0 ? count : null,
  };
}

/** The value beside a `th`/`dt` label in the item's spec table (`JANコード` → `4901234567894`). */
export function labelledValue(page: HtmlPage, label: RegExp): string | null {
  for (const el of all(page.document, 'th, dt')) {
    if (!label.test(textOf(el))) continue;
    let next = el.next;
    while (next && !isTag(next)) next = next.next;
    if (next) {
      const value = textOf(next);
      if (value) return value;
    }
  }
  return null;
}

// og:title reads `商品名 - ストア名 - 通販 - Yahoo!ショッピング`; only that site suffix is cut, the store with it.
function ogTitle(title: string | null): string | null {
  if (!title) return null;
  const m = /^(.+?)\s+-\s+[^-]+?\s+-\s+通販\s+-\s+Yahoo!ショッピング$/.exec(title);
  return m?.[1] ?? title.replace(/\s+-\s+Yahoo!ショッピング$/, '');
}

function yen(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function text(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = normalizeText(value);
  return t === '' ? null : t;
}
