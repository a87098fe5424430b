// 価格.com item pages: the product's lowest price (最安価格) with the shop list (p-priceTable) as offers.
import { isTag, type Element } from 'domhandler';
import { availabilityFromText, type Availability } from '../../extract/availability.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { findProduct, isObject, parseJsonLd, typesOf } from '../../extract/json-ld.js';
import { readMeta } from '../../extract/meta.js';
import { readMicrodata } from '../../extract/microdata.js';
import { primaryOffer, primaryOfferSource } from '../../extract/offers.js';
import type { ItemData, OfferData } from '../../extract/page-types.js';
import { all, allTexts, first, firstAttr, firstText, textOf } from '../../extract/selectors.js';
import { decidePrice, type ShownAmount } from '../../extract/shown-price.js';
import { parseJan } from '../../normalize/identifiers.js';
import type { HtmlPage } from '../../normalize/page.js';
import { parsePrice, taxMarkerOf, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';
import { textOrNull } from '../../extract/text-or-null.js';

const ID = 'kakaku/item';
const TITLE = '#titleBox h2[itemprop="name"]';
const TITLE_BOX = '#titleBox .boxL';
const LOWEST = '#priceBox .priceTxt';
// The older (2017) template's product box: 最安価格 and the shop count without #priceBox.
const OLD_BOX = '#itmBoxMax';
// The shop table of most categories is `table.p-priceTable`; the mobile-phone categories (and the older template) keep
// a plain table whose rows carry `p.fontPrice` and `td.shopname a` (read by public scrapers of phone pages and an old
// iPhone client), with 有/無 in the stock cell.
const ROWS = 'table.p-priceTable tr, tr:has(> td.shopname)';
const OFFERS = 'table.p-priceTable tr (p-PTPrice_price, p-PTShopData_name_link) or tr (p.fontPrice, td.shopname a)';
// 中古価格: the product box states the lowest used price beside 最安価格 (`p.usedPrice span.usedPriceTxt`, read by
// public scrapers of watch and camera pages); the used shops themselves are on a separate page.
const USED = '#productAll .usedPrice, #productInfoBox .usedPrice, #priceBox .usedPrice';
const USED_SOURCE = 'selector:.usedPrice .usedPriceTxt (中古価格)';

export const kakakuItemExtractor = defineExtractor({
  id: ID,
  version: 3,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);
    const doc = page.document;
    const jsonLd = parseJsonLd(page.jsonLd);
    warnings.push(...jsonLd.warnings);
    const product = findProduct(jsonLd.nodes);
    const meta = readMeta(page);

    set('title', textOrNull(firstText(doc, TITLE)), `selector:${TITLE}`);
    set('title', textOrNull(firstText(doc, TITLE_BOX)), `selector:${TITLE_BOX}`);
    set('title', textOrNull(product?.name), 'json-ld:name');

    // The shop list: one offer per row that has a price and a shop. 価格.com's list is of new goods (used ones are a
    // separate page), so every row is a new-condition offer; the used lowest price, when the page states one, is one
    // more offer (condition used, no seller: it is 価格.com's summary of the used shops).
    const shopOffers = offersOf(page, listTax(page));
    const used = usedOffer(page);
    const offers = used ? [...shopOffers, used] : shopOffers;
    const offersSource = used && shopOffers.length > 0 ? `${OFFERS} + ${USED_SOURCE}` : used ? USED_SOURCE : OFFERS;
    if (offers.length > 0) set('offers', offers, offersSource);
    const primary = primaryOffer(offers);

    // 最安価格: the page's own statement of the lowest price over every shop (the list may be cut to a page), in
    // today's #priceBox or in the older template's product box. The AggregateOffer microdata of older pages confirms
    // it or stands in when nothing is shown (DESIGN §1: what the buyer is shown wins over structured data).
    const shownLowest = lowestPrice(page) ?? labelledLowest(page);
    const aggregate = aggregateOffer(page);
    const decided = decidePrice(
      shownLowest,
      aggregate.low === null ? null : { amount: aggregate.low, source: 'microdata:offers.lowPrice' },
      warnings,
    );
    const lowest = decided && (decided.from === 'shown' || !primary) ? decided : null;
    if (lowest) {
      set('price', lowest.amount, lowest.source);
      if (primary && primary.offer.price !== lowest.amount) {
        warnings.push(
          `the lowest price of the shop list (${primary.offer.price}) differs from 最安価格; serving 最安価格`,
        );
      }
    } else if (primary) {
      // No 最安価格 (no new price registered): the cheapest new shop, else the used lowest price.
      set('price', primary.offer.price, primaryOfferSource(primary, 'offers'));
      if (primary.offer.condition === 'used') {
        set('condition', 'used', primaryOfferSource(primary, 'offers'));
        set('condition_text', primary.offer.condition_text, USED_SOURCE);
      }
    }

    // The description meta repeats 最安価格 on older pages: read only when the page shows and marks up no price.
    const described = data.price === undefined ? describedLowest(page) : null;
    if (described) set('price', described.amount, 'meta:description (最安価格)');

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) => `${ID}: no ${missing.join(' and ')} found (#titleBox, #priceBox 最安価格, p-priceTable shop list)`,
    );
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    const tax: TaxStatus = lowest ? lowest.tax : described ? described.tax : (primary?.offer.price_tax ?? 'unknown');
    data.price_tax = tax;
    provenance.price_tax = lowest
      ? (lowest.taxSource ?? lowest.source)
      : described
        ? 'meta:description (最安価格)'
        : `${provenance.price} price_tax`;

    // The shop behind the lowest price, and what that shop states about stock and shipping.
    const atLowest = shopOffers.filter((o) => o.price === data.price);
    const chosen = atLowest[0] ?? null;
    if (chosen) {
      const source = `offers[${offers.indexOf(chosen)}] (the shop at 最安価格)`;
      set('shop', chosen.seller, source);
      set('availability', chosen.availability, source);
      set('availability_text', chosen.availability_text, source);
      set('shipping', chosen.shipping, source);
      set('shipping_fee', chosen.shipping_fee, source);
    }

    const range = priceRange(page);
    if (range) set('price_range', range, 'selector:#priceBox (価格帯)');
    else if (shopOffers.length > 1) {
      // The spread of the new shops only: the used price is another condition, not a variant.
      const prices = shopOffers.map((o) => o.price);
      if (Math.min(...prices) < Math.max(...prices))
        set('price_range', { min: Math.min(...prices), max: Math.max(...prices) }, `${OFFERS} (min and max)`);
    }
    // The shops the page counts (`(41店舗)`); the shop list below may show only some of them.
    set('offer_count', shopCount(page), 'selector:#priceBox (n店舗)');
    set('offer_count', shopCount(page, OLD_BOX), `selector:${OLD_BOX} (n店舗)`);
    set('offer_count', aggregate.count, 'microdata:offers.offerCount');

    const maker = textOrNull(firstText(doc, 'li.makerLabel a')) ?? textOrNull(firstText(doc, 'li.makerLabel'));
    set('brand', maker?.replace(/^メーカー\s*[:：]\s*/, '') || null, 'selector:li.makerLabel');
    set('brand', textOrNull(product?.brand), 'json-ld:brand');

    const janText = labelledValue(page, /^JAN(?:コード)?$/i);
    set('jan', janText ? parseJan(janText) : null, 'selector:th JANコード');
    if (janText && !data.jan) warnings.push('jan: the page shows a JAN that fails its check digit; left out');
    set('jan', product?.gtin ? parseJan(product.gtin) : null, 'json-ld:gtin13');

    // 満足度 and the review count, as the page marks them up (schema.org microdata inside the review box).
    const ratingText = firstText(doc, '[itemprop="ratingValue"]');
    const rating = ratingText ? Number(ratingText) : NaN;
    set('rating', Number.isFinite(rating) && rating >= 0 && rating <= 5 ? rating : null, 'microdata:ratingValue');
    const countText = firstText(doc, '[itemprop="reviewCount"]');
    const count = countText && /^\d[\d,]*$/.test(countText) ? Number(countText.replace(/,/g, '')) : null;
    set('review_count', count, 'microdata:reviewCount');

    const images = all(doc, '#imgBox img')
      .map((img) => img.attribs.src?.trim())
      .filter((u): u is string => !!u && /^https?:\/\//.test(u));
    set('images', images.length > 0 ? [...new Set(images)] : null, 'selector:#imgBox img');
    set('images', meta.ogImages.length > 0 ? meta.ogImages : null, 'meta:og:image');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

/** `最安価格(税込)：` and `¥41,800` are separate `priceTxt` spans; read together they carry the tax label. */
function lowestPrice(page: HtmlPage): ShownAmount | null {
  // Only the first amount and the label before it: later priceTxt spans of the box are other figures.
  const texts = allTexts(page.document, LOWEST);
  const at = texts.findIndex((t) => /\d/.test(t));
  if (at < 0) return null;
  const parsed = parsePrice(texts.slice(0, at + 1).join(' '));
  const source = `selector:${LOWEST} (最安価格)`;
  const taxSource = `selector:${LOWEST}`;
  return parsed.amount === null ? null : { amount: parsed.amount, tax: parsed.tax, source, taxSource };
}

// 最安価格 written as a label and its amount: the older template's product box, the description meta.
const LOWEST_CLAUSE =
  /最安(?:価格|値)\s*(?:[(（]\s*税込\s*[)）])?\s*[:：]?\s*(?:[¥￥\\]\s*[0-9][0-9,]*|[0-9][0-9,]*\s*円)/;

/**
 * The older (2017) template has no #priceBox: its product box writes `最安価格(税込)：¥34,980` in elements of
 * their own. Read from the box's text, so any markup between the label and the amount reads the same.
 */
function labelledLowest(page: HtmlPage): ShownAmount | null {
  const box = first(page.document, OLD_BOX);
  const clause = box ? LOWEST_CLAUSE.exec(textOf(box))?.[0] : undefined;
  const parsed = clause ? parsePrice(clause) : null;
  if (!parsed || parsed.amount === null) return null;
  const source = `selector:${OLD_BOX} (最安価格)`;
  return { amount: parsed.amount, tax: parsed.tax, source, taxSource: source };
}

/** `最安価格(税込)：¥34,980` in `<meta name="description">`: what older pages repeat for search engines. */
function describedLowest(page: HtmlPage): { amount: number; tax: TaxStatus } | null {
  const description = firstAttr(page.document, 'meta[name="description"]', 'content');
  const clause = description ? LOWEST_CLAUSE.exec(normalizeText(description))?.[0] : undefined;
  const parsed = clause ? parsePrice(clause) : null;
  return parsed && parsed.amount !== null ? { amount: parsed.amount, tax: parsed.tax } : null;
}

/** The Product's AggregateOffer microdata (`lowPrice`, `offerCount`): yen only, numbers as schema.org writes them. */
function aggregateOffer(page: HtmlPage): { low: number | null; count: number | null } {
  if (page.jsonLd.length > 0 && findProduct(parseJsonLd(page.jsonLd).nodes)) return { low: null, count: null };
  const nodes = readMicrodata(page.document);
  const product = findProduct(nodes);
  const offer = product?.offers.find((o) => o.aggregate);
  const raw = nodes.find((n) => typesOf(n).some((t) => /Product$/.test(t)))?.offers;
  const rawOffer = Array.isArray(raw) ? raw.find(isObject) : isObject(raw) ? raw : null;
  const countText = typeof rawOffer?.offerCount === 'string' ? rawOffer.offerCount.replace(/,/g, '') : '';
  const count = /^[0-9]+$/.test(countText) ? Number(countText) : null;
  return { low: offer?.price ?? null, count: offer ? count : null };
}

/** `中古価格(税込)：¥19,800` (`p.usedPrice` with `span.usedPriceTxt`): one used-condition offer, without a seller. */
function usedOffer(page: HtmlPage): OfferData | null {
  const box = first(page.document, USED);
  if (!box) return null;
  const amountText = firstText(box, '.usedPriceTxt');
  if (!amountText) return null;
  const amount = parsePrice(amountText);
  if (amount.amount === null) return null;
  // The label before the amount (`中古価格(税込)：`) says what the figure is; the amount alone says nothing.
  const label = parsePrice(textOf(box));
  const tax = amount.tax !== 'unknown' ? amount.tax : label.amount === amount.amount ? label.tax : 'unknown';
  const offer: OfferData = { condition: 'used', price: amount.amount, price_tax: tax, on_sale: false };
  const words = /中古|未使用/.exec(textOf(box));
  if (words) offer.condition_text = words[0];
  const href = firstAttr(box, 'a[href]', 'href');
  if (href) {
    try {
      const url = new URL(href, page.url);
      if (url.protocol === 'https:' || url.protocol === 'http:') offer.url = url.href;
    } catch {
      // a link that is not a URL is left out
    }
  }
  return offer;
}

/** `価格帯：¥41,800～¥59,400 (41店舗)`: both ends as written, never computed. */
function priceRange(page: HtmlPage): { min: number; max: number } | null {
  for (const el of all(page.document, '#priceBox')) {
    const m = /価格帯\s*[:：]?\s*([^~]+?)\s*~\s*([¥\\]?\s*[0-9][0-9,]*\s*円?)/.exec(textOf(el));
    if (!m) continue;
    const min = parsePrice(m[1]!).amount;
    const max = parsePrice(m[2]!).amount;
    if (min !== null && max !== null && min <= max) return { min, max };
  }
  return null;
}

/** `価格帯：… (41店舗)` or `41店舗` in the price box: how many shops the page says sell it. */
function shopCount(page: HtmlPage, box = '#priceBox'): number | null {
  for (const el of all(page.document, box)) {
    const m = /([0-9][0-9,]*)\s*店舗/.exec(textOf(el));
    const n = m ? Number(m[1]!.replace(/,/g, '')) : NaN;
    if (Number.isSafeInteger(n)) return n;
  }
  return null;
}

/** 最安価格's own label, for a shop table whose heading does not say. */
function listTax(page: HtmlPage): TaxStatus {
  return taxMarkerOf(allTexts(page.document, LOWEST).join(' '));
}

/** The heading of the row's own table says what its prices are (`価格(税込)`). */
function tableTax(row: Element, cache: Map<Element, TaxStatus>): TaxStatus {
  let table: Element | null = null;
  for (let node = row.parent; node && isTag(node); node = node.parent) {
    if (node.name === 'table') {
      table = node;
      break;
    }
  }
  if (!table) return 'unknown';
  let tax = cache.get(table);
  if (tax === undefined) {
    tax = taxMarkerOf(allTexts(table, 'th').join(' '));
    cache.set(table, tax);
  }
  return tax;
}

function offersOf(page: HtmlPage, listed: TaxStatus): OfferData[] {
  const offers: OfferData[] = [];
  const headings = new Map<Element, TaxStatus>();
  for (const row of all(page.document, ROWS)) {
    const priceText = firstText(row, '.p-PTPrice_price') ?? firstText(row, 'p.fontPrice');
    // The shop's name is the link inside p-PTShopData_name; the row's shop button reuses the link class.
    const seller =
      textOrNull(firstText(row, '.p-PTShopData_name a.p-PTShopData_name_link')) ??
      textOrNull(firstText(row, '.p-PTShopData_name')) ??
      textOrNull(firstText(row, 'td.shopname a')) ??
      textOrNull(firstText(row, 'td.shopname'));
    if (!priceText || !seller) continue;
    const parsed = parsePrice(priceText);
    if (parsed.amount === null) continue;
    // A row's own label (in the price or the line under it) wins over the list's heading.
    const own = parsed.tax !== 'unknown' ? parsed.tax : taxMarkerOf(firstText(row, '.p-PTPrice_sub') ?? '');
    const heading = tableTax(row, headings);
    const tax = own !== 'unknown' ? own : heading !== 'unknown' ? heading : listed;
    const offer: OfferData = { condition: 'new', price: parsed.amount, price_tax: tax, seller, on_sale: false };
    const shop =
      firstAttr(row, '.p-PTShopData_name a.p-PTShopData_name_link', 'href') ?? firstAttr(row, 'td.shopname a', 'href');
    if (shop && /^https?:\/\//.test(shop)) offer.seller_url = shop;
    const shippingText = firstText(row, '.p-priceTable_col-shipping') ?? firstText(row, '.p-PTShipping_btn');
    if (shippingText) {
      // The column's cell says only `無料`, `¥550` or `別途`: read as the 送料 statement it is.
      const terms = parseShippingTerms(
        /送料/.test(shippingText) ? shippingText : `送料${shippingText.replace(/\s+/g, '')}`,
      );
      if (terms.shipping !== 'unknown') offer.shipping = terms.shipping;
      if (terms.fee !== null) offer.shipping_fee = terms.fee;
      if (terms.freeThreshold !== null) offer.free_shipping_threshold = terms.freeThreshold;
    }
    // The phone table's stock cell has no class of its own: the cell whose whole text is a stock mark or word.
    const stock =
      stockOf(firstText(row, '.p-PTStock')) ??
      all(row, 'td:not(.shopname)')
        .filter(() => first(row, 'td.shopname') !== null)
        .map((td) => textOf(td))
        .filter((t) => t.length <= 6 && !/[0-9¥￥円]/.test(t))
        .map((t) => stockOf(t))
        .find((s) => s !== null) ??
      null;
    if (stock) {
      offer.availability = stock.availability;
      offer.availability_text = stock.text;
    }
    offers.push(offer);
  }
  return offers;
}

// The stock column writes ○ (在庫あり), △ (在庫僅少), × (在庫なし) or words (お取り寄せ, 入荷予定 …).
const STOCK_MARKS: Readonly<Record<string, Availability>> = {
  '○': 'in_stock',
  '◯': 'in_stock',
  〇: 'in_stock',
  '△': 'limited',
  '×': 'out_of_stock',
  '✕': 'out_of_stock',
};
// The phone table's stock cell, only as the cell's whole text (無料 in a shipping cell is not 無).
const STOCK_WORDS: Readonly<Record<string, Availability>> = {
  有: 'in_stock',
  有り: 'in_stock',
  無: 'out_of_stock',
  無し: 'out_of_stock',
};

function stockOf(raw: string | null): { availability: Availability; text: string } | null {
  if (!raw) return null;
  const words = normalizeText(raw);
  const word = STOCK_WORDS[words];
  if (word) return { availability: word, text: words };
  const mark = STOCK_MARKS[words.charAt(0)];
  if (mark) return { availability: mark, text: words };
  return availabilityFromText(words);
}

/** The value beside a `th` label of a spec table (`JANコード` → `4549350701237`). */
function labelledValue(page: HtmlPage, label: RegExp): string | null {
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
