// 楽天市場 item pages (item.rakuten.co.jp/<shop>/<item>/): the displayed price area first, then the page's embedded
// app data (#item-page-app-data → itemInfoSku), then structured data; legacy EUC-JP table pages through their spans.
import { isTag, type Element } from 'domhandler';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { listPriceIn } from '../../extract/reference-price.js';
import { readStructuredProduct } from '../../extract/structured-product.js';
import { availabilityFromText } from '../../extract/availability.js';
import { readEmbeddedState } from '../../extract/embedded-state.js';
import { arr, int, obj, str, type JsonObject } from '../../extract/json-path.js';
import { readMeta } from '../../extract/meta.js';
import type { ItemData } from '../../extract/page-types.js';
import { all, first, firstAttr, textOf } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import type { HtmlPage } from '../../normalize/page.js';
import { parsePoints } from '../../normalize/points.js';
import { parsePrice, parseShipping, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';
import { yen as wholeYen } from '../../normalize/yen.js';

// 楽天市場 sells nothing at 0 yen: a 0 in the page's app data (a price field left unset) is no amount.
const yen = (value: unknown): number | null => wholeYen(value, { zero: 'absent' });

const ID = 'rakuten_ichiba/item';

// The page template's parts (the same on every item page of every shop):
/** Item name: today's `#item-name-area .normal_reserve_item_name`, older templates' `.item_name` (both wrap a <b>). */
const NAME = [
  '#item-name-area .normal_reserve_item_name',
  '.normal_reserve_item_name',
  'span.item_name',
  'h1.item_name',
];
/** Displayed price area: today's React `#itemPrice`; legacy pages' cart table holding `.price2` and `.tax_postage`. */
const PRICE_AREA = ['#itemPrice', '#rakutenLimitedId_cart'];
/** The buy box: stock words, point multiplier, postage labels. */
const BUY_BOX = '#rakutenLimitedId_aroundCart';
/** 商品番号 (the shop's own item number). */
const ITEM_NUMBER = ['.normal_reserve_item_number', '.item_number'];

const LIST_PRICE_WORDS = /(?:当店通常価格|通常価格|メーカー希望小売価格|希望小売価格)/;
// A point campaign line (`ポイント10倍`, `36ポイント 1倍`), never a banner like `2,000ポイントゲット` or a cap like
// `最大3,500ポイント還元` (what a campaign could give at most, not what this item earns).
const POINT_LINE = /ポイント|[0-9]\s*倍/;
const POINT_DECOY = /ゲット|プレゼント|エントリー|キャンペーン|カード|最大/;
// Clauses of the price area that quote another amount than the item's price: the price after a coupon (楽天's
// 「クーポン利用で」 banners), the lowest of several offers (最安), a multi-pack or bulk price (2個セット, まとめ買い) and
// a unit price (1個あたり). Each is cut from its word to the first yen amount after it and that amount's 税 label.
// Matched on NFKC text, so full-width digits, ￥ and （） are already ASCII.
const AMOUNT_YEN = String.raw`(?:¥\s*[0-9][0-9,]*|[0-9][0-9,]*\s*円)`;
const TAX_LABEL = String.raw`(?:\s*\(?\s*税(?:込|抜|別)み?\s*\)?)?`;
const PACK = '(?:個|点|本|袋|箱|枚|缶|足|着|組)';
const OTHER_AMOUNT_BEFORE = new RegExp(
  String.raw`(?:クーポン(?:を)?(?:利用|使用|適用)?(?:で|後|時)|最安値?|[0-9]+\s*${PACK}?\s*セット|まとめ買い|[0-9]*\s*(?:${PACK}|g|ml)\s*(?:あたり|当たり))` +
    String.raw`[^円¥]{0,16}?${AMOUNT_YEN}${TAX_LABEL}`,
  'g',
);
// The same said after the amount: `3,580円(税込) クーポン利用時`, `995円/1個あたり`.
const OTHER_AMOUNT_AFTER = new RegExp(
  String.raw`${AMOUNT_YEN}${TAX_LABEL}\s*[(/]?\s*(?:クーポン(?:を)?(?:利用|使用|適用)|1?${PACK}(?:あたり|当たり))`,
  'g',
);

export const rakutenIchibaItemExtractor = defineExtractor({
  id: ID,
  version: 4,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    const doc = page.document;
    const app = readAppData(page);
    const sku = app.info;
    const { product, sd, offer } = readStructuredProduct(page, warnings);
    const meta = readMeta(page);

    // Title: the name the page shows; the app data's title; structured data; <title> without 【楽天市場】 and the shop.
    const nameEl = firstOf(doc, NAME);
    set('title', nameEl ? nonEmpty(textOf(nameEl)) : null, `selector:${NAME.find((s) => first(doc, s))}`);
    set('title', cleanTitle(str(sku?.title)), `json:${app.root}.title`);
    set('title', nonEmpty(normalizeText(product?.name ?? '')), `${sd}:name`);
    set('title', titleFromHead(meta.ogTitle ?? meta.title), meta.ogTitle ? 'meta:og:title' : 'title');

    // Price: what the price area shows, confirmed by data-price and the app data (a warning when one disagrees; both
    // agreeing against it overrule it).
    // Legacy shops that rebuilt the cart table still keep the `.price2` span: its parent is then the price area.
    const listedArea = PRICE_AREA.find((s) => first(doc, s)) ?? null;
    const priceAreaSelector = listedArea ?? (first(doc, '.price2') ? '.price2 (parent)' : null);
    const price2Parent = first(doc, '.price2')?.parent ?? null;
    const priceArea = listedArea ? first(doc, listedArea) : price2Parent && isTag(price2Parent) ? price2Parent : null;
    const shown = priceArea ? shownPrice(priceArea) : null;
    const dataPrice = yen(firstAttr(doc, '#priceCalculationConfig[data-price]', 'data-price'));
    const skuPrices = offeredSkus(sku)
      .map((s) => yen(s.taxIncludedPrice))
      .filter((n): n is number => n !== null);
    const normal = obj(obj(obj(obj(sku?.purchaseInfo)?.purchaseBySellType)?.normalPurchase)?.price);
    const appMin = skuPrices.length > 0 ? Math.min(...skuPrices) : yen(normal?.minPrice);
    const appMax = skuPrices.length > 0 ? Math.max(...skuPrices) : yen(normal?.maxPrice);
    const appSource =
      skuPrices.length > 0
        ? `json:${app.root}.sku[].taxIncludedPrice`
        : `json:${app.root}.purchaseInfo…normalPurchase.price`;
    let tax: TaxStatus = 'unknown';
    let taxSource = '';
    // data-price and the app data agreeing with each other against the displayed reading means the reading took
    // some other amount of the area (a banner the clause cuts did not know): they win, with a warning. A 税抜
    // display is left alone: its 税込 twin is expected to differ.
    const confirmed = dataPrice !== null && dataPrice === appMin ? dataPrice : null;
    if (
      shown?.amount != null &&
      confirmed !== null &&
      shown.tax !== 'excluded' &&
      confirmed !== shown.amount &&
      confirmed !== shown.price_excluding_tax
    ) {
      warnings.push(
        `the displayed price (${shown.amount}) disagrees with #priceCalculationConfig[data-price] and ${appSource}, which agree; serving them`,
      );
      set('price', confirmed, `selector:#priceCalculationConfig[data-price] (= ${appSource})`);
      if (skuPrices.includes(confirmed) || obj(sku?.payment)?.taxIncluded === true) {
        tax = 'included';
        taxSource = skuPrices.includes(confirmed) ? appSource : `json:${app.root}.payment.taxIncluded`;
      }
    } else if (shown?.amount != null) {
      set('price', shown.amount, `selector:${priceAreaSelector}`);
      tax = shown.tax;
      taxSource = `selector:${priceAreaSelector}`;
      set('price_excluding_tax', shown.price_excluding_tax, `selector:${priceAreaSelector}`);
      const others: [string, number | null][] = [
        ['#priceCalculationConfig[data-price]', dataPrice],
        [appSource, appMin],
        [`${sd}:offers.price`, offer?.price ?? null],
      ];
      for (const [source, value] of others) {
        // A 税抜 display is compared with its 税込 twins only when the page wrote the 税込 amount too.
        if (value !== null && value !== shown.amount && value !== shown.price_excluding_tax && tax === 'included') {
          warnings.push(`${source} (${value}) disagrees with the displayed price; serving the displayed price`);
        }
      }
    } else if (dataPrice !== null) {
      set('price', dataPrice, 'selector:#priceCalculationConfig[data-price]');
    } else if (appMin !== null) {
      set('price', appMin, appSource);
      if (skuPrices.length > 0 || obj(sku?.payment)?.taxIncluded === true) {
        tax = 'included';
        taxSource = skuPrices.length > 0 ? appSource : `json:${app.root}.payment.taxIncluded`;
      }
    } else if (offer?.price != null) {
      set('price', offer.price, `${sd}:offers.price`);
      if (offer.taxIncluded !== null) {
        tax = offer.taxIncluded ? 'included' : 'excluded';
        taxSource = `${sd}:offers.priceSpecification.valueAddedTaxIncluded`;
      }
    }
    // Legacy pages (and data-price alone) state the basis beside the amount in `.tax_postage`.
    if (tax === 'unknown' && data.price !== undefined) {
      if (sku && (skuPrices.includes(data.price) || obj(sku.payment)?.taxIncluded === true)) {
        tax = 'included';
        taxSource = skuPrices.includes(data.price) ? appSource : `json:${app.root}.payment.taxIncluded`;
      }
    }

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) =>
        `${ID}: no ${missing.join(' and ')} found (price area, data-price, item-page-app-data, structured data)`,
    );
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    data.price_tax = tax;
    if (taxSource) provenance.price_tax = taxSource;

    // Variants priced differently: the range the app data holds, the price being its lowest (the "from" price).
    if (appMin !== null && appMax !== null && appMin < appMax) {
      set('price_range', { min: appMin, max: appMax }, appSource);
      if (data.price !== appMin && data.price !== shown?.price_excluding_tax) {
        warnings.push('the displayed price is not the lowest variant price of the app data');
      }
    }

    // 通常価格 beside a sale price: a list price only when it is above what the buyer pays.
    // The shared reference-price rule: a discount phrase (通常価格より500円OFF) is never the list price.
    const listed = priceArea ? (listPriceIn(textOf(priceArea), LIST_PRICE_WORDS)?.amount ?? null) : null;
    if (listed !== null && listed > data.price!) {
      set('list_price', listed, `selector:${priceAreaSelector} (通常価格)`);
      set('on_sale', true, `selector:${priceAreaSelector} (通常価格 above the price)`);
    }

    const buyBox = first(doc, BUY_BOX);
    const zones = [priceArea, buyBox].filter((z): z is Element => z !== null);
    readPoints(zones, set);
    readShipping(zones, sku, app.root, set);
    readStock(buyBox, sku, app.root, set);

    // Identifiers: one JAN for the page only (variants with different JANs give none).
    const articleNumbers = new Set(
      offeredSkus(sku)
        .map((s) => str(obj(s.articleNumber)?.value))
        .filter((j): j is string => j !== null),
    );
    if (articleNumbers.size === 1) {
      set('jan', parseJan([...articleNumbers][0]!), `json:${app.root}.sku[].articleNumber.value`);
    }
    set('jan', product?.gtin ? parseJan(product.gtin) : null, `${sd}:gtin`);
    const numberEl = firstOf(doc, ITEM_NUMBER);
    const number = numberEl ? textOf(numberEl).replace(/^商品番号\s*[:：]?\s*/, '') : '';
    set('sku', nonEmpty(number), `selector:${ITEM_NUMBER.find((s) => first(doc, s))}`);
    set('sku', nonEmpty(str(obj(sku?.pcFields)?.itemNumber) ?? ''), `json:${app.root}.pcFields.itemNumber`);

    const shopName = str(obj(app.shop)?.shopName);
    set('shop', shopName ? nonEmpty(normalizeText(shopName)) : null, 'json:item-page-app-data.shop.shopName');
    set('shop', nonEmpty(normalizeText(offer?.seller ?? '')), `${sd}:offers.seller.name`);
    set('shop', shopFromHead(meta.title), 'title (after ：)');
    set('brand', nonEmpty(normalizeText(product?.brand ?? '')), `${sd}:brand`);

    const summary = obj(obj(sku?.itemReviewInfo)?.summary);
    const reviews = int(summary?.itemReviewCount);
    if (reviews !== null && reviews >= 0) {
      set('review_count', reviews, `json:${app.root}.itemReviewInfo.summary.itemReviewCount`);
      const rating = typeof summary?.itemReviewRating === 'number' ? summary.itemReviewRating : NaN;
      // Embedded as float32 (4.699999809265137); no reviews means no rating, not 0.
      if (reviews > 0 && rating > 0 && rating <= 5) {
        set('rating', Math.round(rating * 100) / 100, `json:${app.root}.itemReviewInfo.summary.itemReviewRating`);
      }
    }

    const appImages = arr(obj(sku?.media)?.images)
      .map((im) => str(im) ?? str(obj(im)?.location))
      .filter((u): u is string => u !== null && /^https?:\/\//.test(u));
    if (appImages.length > 0) set('images', [...new Set(appImages)], `json:${app.root}.media.images[].location`);
    if (meta.ogImages.length > 0) set('images', meta.ogImages, 'meta:og:image');
    if (product && product.images.length > 0) set('images', product.images, `${sd}:image`);
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

/** The SKUs a buyer can choose: a `hidden` one is kept by the shop but not offered, so it prices nothing. */
function offeredSkus(info: JsonObject | null): JsonObject[] {
  return arr(info?.sku)
    .map((s) => obj(s))
    .filter((s): s is JsonObject => s !== null && s.hidden !== true);
}

interface AppData {
  info: JsonObject | null;
  shop: unknown;
  /** Where itemInfoSku was found, for provenance. */
  root: string;
}

/** `<script type="application/json" id="item-page-app-data">`: `newApi.itemInfoSku`, or `api.data.itemInfoSku`. */
function readAppData(page: HtmlPage): AppData {
  const root = obj(readEmbeddedState(page, { id: 'item-page-app-data' }));
  const fromNew = obj(obj(root?.newApi)?.itemInfoSku);
  const fromApi = obj(obj(obj(root?.api)?.data)?.itemInfoSku);
  return {
    info: fromNew ?? fromApi,
    shop: root?.shop,
    root: fromNew ? 'item-page-app-data.newApi.itemInfoSku' : 'item-page-app-data.api.data.itemInfoSku',
  };
}

function firstOf(doc: HtmlPage['document'], selectors: readonly string[]): Element | null {
  for (const s of selectors) {
    const el = first(doc, s);
    if (el) return el;
  }
  return null;
}

function nonEmpty(s: string): string | null {
  const t = s.trim();
  return t === '' ? null : t;
}

/** Shops put <br> in item names; the app data keeps them as text. */
function cleanTitle(raw: string | null): string | null {
  if (!raw) return null;
  return nonEmpty(normalizeText(raw.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]+>/g, '')));
}

/** `【楽天市場】NAME：SHOP` → NAME. */
function titleFromHead(raw: string | null): string | null {
  if (!raw) return null;
  const t = normalizeText(raw).replace(/^【楽天市場】\s*/, '');
  const cut = t.lastIndexOf(':');
  return nonEmpty(cut > 0 ? t.slice(0, cut) : t);
}

function shopFromHead(raw: string | null): string | null {
  if (!raw || !/【楽天市場】/.test(raw)) return null;
  const t = normalizeText(raw);
  const cut = t.lastIndexOf(':');
  return cut > 0 ? nonEmpty(t.slice(cut + 1)) : null;
}

/**
 * The selling price the area shows. Legacy pages put the amount in `.price2` and its basis in the `.tax_postage`
 * spans beside it (`(税込 2,178 円)` after a 税抜 amount); today's area writes it as one run of text. The list price
 * (通常価格), shipping threshold, coupon, 最安, multi-pack and unit-price clauses are left out before parsing so that
 * none of their amounts can be taken for the price. (Today's area has no amount element known to be template-wide:
 * its class names are hashed per build, so the area's text is read with those clauses cut.)
 */
function shownPrice(area: Element) {
  const legacy = first(area, '.price2');
  let text: string;
  if (legacy) {
    const parts = [textOf(legacy), ...all(area, '.tax_postage').map(textOf)];
    text = parts.join(' ');
  } else {
    text = textOf(area);
  }
  text = text
    .replace(new RegExp(`${LIST_PRICE_WORDS.source}[^0-9¥￥]{0,12}[¥￥]?\\s*[0-9][0-9,]*\\s*円?`, 'g'), ' ')
    .replace(/[0-9][0-9,]*\s*円以上[^0-9]{0,12}送料無料/g, ' ')
    .replace(OTHER_AMOUNT_BEFORE, ' ')
    .replace(OTHER_AMOUNT_AFTER, ' ');
  const parsed = parsePrice(text);
  return parsed.amount === null ? null : parsed;
}

type Setter = <K extends keyof ItemData>(field: K, value: ItemData[K] | null | undefined, source: string) => void;

/** Innermost short texts of a zone, in document order: the labels a reader sees one by one. */
function labels(zone: Element): string[] {
  const out: string[] = [];
  for (const el of all(zone, '*')) {
    const t = textOf(el);
    if (t === '' || t.length > 60) continue;
    // Keep a label only when no child carries the whole of it (the innermost element that says it).
    if (el.children.some((c) => isTag(c) && textOf(c) === t)) continue;
    out.push(t);
  }
  return out;
}

function readPoints(zones: Element[], set: Setter): void {
  for (const zone of zones) {
    for (const label of labels(zone)) {
      if (!POINT_LINE.test(label) || POINT_DECOY.test(label)) continue;
      const parsed = parsePoints(label);
      if (parsed.rate === null && parsed.amount === null) continue;
      set('points', parsed.amount, `selector:${zoneName(zone)} (ポイント)`);
      set('points_rate', parsed.rate, `selector:${zoneName(zone)} (ポイント…倍)`);
      return;
    }
  }
}

function readShipping(zones: Element[], sku: JsonObject | null, root: string, set: Setter): void {
  for (const zone of zones) {
    for (const label of labels(zone)) {
      if (!/送料/.test(label)) continue;
      const terms = parseShippingTerms(label);
      if (terms.freeThreshold !== null) {
        set('free_shipping_threshold', terms.freeThreshold, `selector:${zoneName(zone)} (円以上送料無料)`);
        continue;
      }
      const kind = parseShipping(label);
      if (kind === 'unknown') continue;
      set('shipping', kind, `selector:${zoneName(zone)} (送料 label)`);
      if (terms.fee !== null) set('shipping_fee', terms.fee, `selector:${zoneName(zone)} (送料 label)`);
    }
  }
  // The app data says per variant whether postage is included.
  const included = arr(sku?.sku).map((s) => obj(obj(s)?.shipping)?.postageIncluded);
  if (included.length > 0 && included.every((v) => v === true)) {
    set('shipping', 'included', `json:${root}.sku[].shipping.postageIncluded`);
  } else if (included.length > 0 && included.every((v) => v === false)) {
    set('shipping', 'extra', `json:${root}.sku[].shipping.postageIncluded`);
  }
}

/** Variant buttons and selects say 売り切れ for one size or colour; that is not the item's stock. */
const CONTROLS = 'button, option, select';

function isOrHasControl(el: Element, zone: Element): boolean {
  if (['button', 'option', 'select'].includes(el.name) || all(el, CONTROLS).length > 0) return true;
  for (let p = el.parent; p && p !== zone; p = p.parent) {
    if (isTag(p) && ['button', 'option', 'select'].includes(p.name)) return true;
  }
  return false;
}

function readStock(buyBox: Element | null, sku: JsonObject | null, root: string, set: Setter): void {
  if (buyBox) {
    const words = all(buyBox, '*')
      .filter((el) => !isOrHasControl(el, buyBox))
      .map((el) => textOf(el))
      .filter((t) => t !== '' && t.length <= 60)
      .map((t) => availabilityFromText(t))
      .filter((w) => w !== null);
    // The most telling words first (a sold-out notice outranks wording beside it), then the shortest: the line
    // that says it, not the table around it.
    const order = ['discontinued', 'out_of_stock', 'preorder', 'limited', 'backorder', 'in_stock'];
    words.sort(
      (a, b) => order.indexOf(a.availability) - order.indexOf(b.availability) || a.text.length - b.text.length,
    );
    const best = words[0];
    if (best) {
      set('availability', best.availability, `selector:${BUY_BOX} (stock words)`);
      set('availability_text', best.text, `selector:${BUY_BOX} (stock words)`);
      return;
    }
  }
  const conditions = arr(obj(sku?.purchaseInfo)?.sku).map((s) => str(obj(obj(s)?.newPurchaseSku)?.stockCondition));
  if (conditions.length > 0 && conditions.every((c) => c === 'sold-out')) {
    set('availability', 'out_of_stock', `json:${root}.purchaseInfo.sku[].newPurchaseSku.stockCondition`);
    return;
  }
  // Today's pages keep the count per SKU in purchaseInfo.variantMappedInventories ({sku: variantId, quantity}) and
  // leave purchaseInfo.sku empty. Nothing left of any offered SKU is sold out, unless the shop sells without a
  // count (unlimitedInventoryFlag) or takes orders to back-order (a SKU's backOrderFlag).
  if (!sku || sku.unlimitedInventoryFlag === true) return;
  const offered = offeredSkus(sku);
  const quantities = new Map<string, number | null>();
  for (const entry of arr(obj(sku.purchaseInfo)?.variantMappedInventories)) {
    const e = obj(entry);
    const id = str(e?.sku);
    if (id !== null) quantities.set(id, int(e?.quantity));
  }
  if (offered.length === 0 || quantities.size === 0) return;
  const counts = offered.map((s) => quantities.get(str(s.variantId) ?? ''));
  const backOrder = offered.some((s) => s.backOrderFlag === true || s.backOrder === true);
  if (!backOrder && counts.every((q) => q === 0)) {
    set('availability', 'out_of_stock', `json:${root}.purchaseInfo.variantMappedInventories[].quantity (all 0)`);
  }
}

function zoneName(zone: Element): string {
  return zone.attribs.id ? `#${zone.attribs.id}` : zone.name;
}
