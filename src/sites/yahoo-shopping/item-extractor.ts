// Yahoo!ショッピング item pages: the Next.js page state first, then JSON-LD, meta and the displayed price, field by field.
import { is } from 'css-select';
import { isTag, type Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { availabilityFromText, availabilityOf, type Availability } from '../../extract/availability.js';
import { readEmbeddedState } from '../../extract/embedded-state.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { arr, int, obj, str, type JsonObject } from '../../extract/json-path.js';
import { findProduct, parseJsonLd, typesOf, type JsonLdProduct } from '../../extract/json-ld.js';
import { readMeta } from '../../extract/meta.js';
import type { ItemData } from '../../extract/page-types.js';
import { all, textOf } from '../../extract/selectors.js';
import { listPriceIn } from '../../extract/reference-price.js';
import { decidePrice } from '../../extract/shown-price.js';
import { parseJan } from '../../normalize/identifiers.js';
import type { HtmlPage } from '../../normalize/page.js';
import { parsePoints } from '../../normalize/points.js';
import { parsePrice, taxMarkerOf, type TaxStatus } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { yen } from '../../normalize/yen.js';
import { textOrNull } from '../../extract/text-or-null.js';

const ID = 'yahoo_shopping/item';
const STATE = 'state:__NEXT_DATA__';

// The buyer-facing price: the page's microdata `itemprop="price"` (read by public scrapers of the current template)
// and the older template's `.elPrice .elPriceNumber`. Their parent holds the tax label and the 通常価格 line.
// The current template without microdata keeps the price in `styles_priceWrap__… > styles_price__…` (the same
// `styles_price__` class is reused by recommendation carousels, hence the wrapper); the older template's price module
// is `#prcdsp.mdItemPrice` (`.elPriceName` 通常価格（税込） above `span.elPriceNumber`).
const PRICE_SELECTORS = [
  '[itemprop="price"]',
  '[class*="styles_priceWrap__"] [class*="styles_price__"]',
  '.mdItemPrice .elPriceNumber',
  '.elPrice .elPriceNumber',
] as const;
const WEAK_PRICE_SELECTOR = '.elPrice .elPriceNumber';
// The item's own area of the current template (name, price, points, cart); its class stem outlives a CSS-module rebuild.
const ITEM_INFO = '[class*="styles_itemInfo__"]';
// Parts of an item page that show other items (the current template's `styles_recommend__…`, the older template's
// `mdRecommend`, ranking and carousel modules): their prices and cart buttons are never this item's.
const OTHER_ITEMS = /recommend|rcmd|ranking|carousel/i;
// Item page paths of the site (`/<store>/<item>.html`, PayPayモール's `/store/<store>/item/<item>`, `/products/<id>`):
// a price inside a link to another of them is that item's tile.
const ITEM_LINK_HOST = /(?:^|\.)yahoo\.co\.jp$/;
const ITEM_LINK_PATH = /^\/[^/]+\/[^/]+\.html$|^\/store\/[^/]+\/item\/|^\/products\//;
// The container of one price and its labels; its label (`通常価格（税込）`) states the tax when the price itself does not.
const PRICE_MODULE = '.mdItemPrice, .elPriceWrap, .mdLemItemPrice, [class*="styles_priceWrap__"]';
const PRICE_LABEL = '.elPriceName, .elPriceTitle, [class*="styles_taxLabel__"], [class*="styles_priceLabel__"]';
// The item's name in the DOM: the current template's `styles_itemName__… > p.styles_name__…` (read by a public
// selenium scraper), the older template's `.mdItemName .elName`.
const NAME_SELECTORS = ['[class*="styles_itemName__"] [class*="styles_name__"]', '.mdItemName .elName'] as const;
// 新品 / 中古 beside the name (`styles_itemType__…`, read by the same scraper).
const ITEM_TYPE = '[class*="styles_itemName__"] [class*="styles_itemType__"]';
// Next.js CSS-module names keep their stem and change the hash per build (`styles_pointRatio__EepZ3`).
const POINT_SELECTOR = '[class*="styles_pointRatio__"], .elGetRateText';
// The granted amount when the page writes it on its own; the points block may also list campaign lines (ストア+4倍).
const POINT_AMOUNT = '[class*="styles_pointAmount__"]';
const SHIPPING_SELECTOR =
  '[class*="styles_shipping__"], [class*="styles_postage__"], .mdItemPrice .elPostageFree, .mdItemPrice .elPostage, .elPostage';
// brandName values that mean no brand was registered.
const NO_BRAND = /^(?:ブランド登録(?:なし|無し)|ノーブランド(?:品)?)$/;
const JAN_LABEL = /^(?:JAN|JANコード|JAN\/ISBN|JANコード\/ISBNコード)$/i;

export const yahooShoppingItemExtractor = defineExtractor({
  id: ID,
  version: 5,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    const { item, path, seller } = stateItem(page);
    const jsonLd = parseJsonLd(page.jsonLd);
    warnings.push(...jsonLd.warnings);
    const product = findProduct(jsonLd.nodes);
    const productNode = jsonLd.nodes.find((n) => typesOf(n).includes('Product')) ?? null;
    const offer = product?.offers.find((o) => o.price !== null) ?? product?.offers[0];
    const meta = readMeta(page);
    // Every DOM read below is scoped like the price: never another item's tile, the item block's match first.
    const scope = pageScope(page, [page.url, meta.canonical, meta.ogUrl]);

    // Title: the state's item name, then JSON-LD, then og:title (which carries the store and site name after it).
    set('title', textOrNull(str(item?.name)), `${STATE}:${path}.name`);
    set('title', textOrNull(product?.name), 'json-ld:name');
    for (const selector of NAME_SELECTORS)
      set('title', textOrNull(ownText(page, scope, selector)), `selector:${selector}`);
    set('title', ogTitle(meta.ogTitle), 'meta:og:title');
    // <title> only when it is the item page's own (`… - 通販 - Yahoo!ショッピング`), never an error or interstitial title.
    set('title', meta.title && /Yahoo!ショッピング$/.test(meta.title) ? ogTitle(meta.title) : null, 'title');

    // Price: what the buyer is shown in the item block wins; the state's applicablePrice (the price applied to the
    // order, the sale price during a sale) and JSON-LD confirm it, and a disagreement is reported. Prices of other
    // items (recommendation and ranking tiles, links to other items) and prices outside the item block never count.
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
    const displayed = displayedPrice(page, scope, structured?.amount ?? null);
    // The state and JSON-LD are written apart; when they agree and nothing the item block shows matches them, the
    // block's figure is some other amount (a renamed price module leaves only a coupon or set price), not the price.
    const corroborated = statePrice !== null && offer?.price === statePrice && !offer.aggregate;
    const shown = displayed && (displayed.amount === structured?.amount || !corroborated) ? displayed : null;
    if (displayed && !shown)
      warnings.push(
        `the displayed price (${displayed.amount}) disagrees with ${stateSource} and json-ld:offers.price, which agree; serving them`,
      );
    else if (!displayed && corroborated && scope.foreign > 0)
      warnings.push(
        `no price shown in the item block matches ${stateSource} and json-ld:offers.price; serving them (prices of other items on the page ignored)`,
      );
    // JSON-LD's tax statement speaks for the structured price only when that price is JSON-LD's own amount.
    const ldTax =
      offer?.taxIncluded != null && offer.price === structured?.amount
        ? { included: offer.taxIncluded, source: 'json-ld:offers.priceSpecification.valueAddedTaxIncluded' }
        : null;
    const decided = decidePrice(shown, structured && { ...structured, tax: ldTax }, warnings);
    set('price', decided?.amount, decided?.source ?? '');
    if (shown) set('price_excluding_tax', shown.excluding, shown.source);
    let tax: TaxStatus = decided?.tax ?? 'unknown';
    let taxSource = decided?.taxSource ?? '';

    // A store's category pages share the item URL shape (`/<store>/<page>.html`) and list items with prices; without
    // any part that only an item page has, a price shown there is some listed item's, not this page's.
    const itemPage =
      item !== null ||
      productNode !== null ||
      metaPrice !== null ||
      NAME_SELECTORS.some((selector) => ownFirst(page, scope, selector) !== null) ||
      ownFirst(page, scope, `.mdItemPrice, #prcdsp, .mdCartSummary, ${PRICE_MODULE}`) !== null;
    if (!itemPage) {
      throw new KumoError(
        'extraction_failed',
        `${ID}: not an item page (no __NEXT_DATA__ item, Product json-ld, product: meta, item name or price module); a store's category page has the same URL shape`,
        { body: { fields: ['/price'] } },
      );
    }
    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) =>
        `${ID}: no ${missing.join(' and ')} found (__NEXT_DATA__ item, json-ld, item name, og:/product: meta, displayed price)`,
    );
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
    // The state writes the applied price twice: `applicablePrice` (税込) and `taxExcludedApplicablePrice` (税抜), as a
    // production scraper of these pages records. A smaller 税抜 twin proves the served price is tax-included.
    const stateExcluded = yen(item?.taxExcludedApplicablePrice);
    const stateApplied = yen(item?.applicablePrice);
    if (stateExcluded !== null && stateApplied === data.price && stateExcluded < stateApplied) {
      if (tax === 'unknown') {
        tax = 'included';
        taxSource = `${STATE}:${path}.applicablePrice (beside taxExcludedApplicablePrice)`;
      }
      if (tax === 'included') set('price_excluding_tax', stateExcluded, `${STATE}:${path}.taxExcludedApplicablePrice`);
    }
    data.price_tax = tax;
    provenance.price_tax = taxSource || `${provenance.price} (no tax statement)`;

    // 通常価格 beside the selling price: only a higher usual price is a list price, and only then is it a sale.
    const usual = shown?.usual ?? null;
    // The state's usual price: `regularPrice` beside applicablePrice (which carries the sale price), else `price`.
    const usualKey = yen(item?.regularPrice) !== null ? 'regularPrice' : 'price';
    const stateUsual = yen(item?.[usualKey]);
    if (usual !== null && usual > data.price!) {
      set('list_price', usual, `${shown!.source} (通常価格)`);
    } else if (stateUsual !== null && yen(item?.applicablePrice) !== null && stateUsual > data.price!) {
      set('list_price', stateUsual, `${STATE}:${path}.${usualKey}`);
    }
    if (data.list_price !== undefined) set('on_sale', true, provenance.list_price!);

    // Points: the `n%獲得` rate and, when written, the amount in ポイント.
    const pointEl = ownFirst(page, scope, POINT_SELECTOR);
    const pointText = pointEl ? textOf(pointEl) : '';
    if (pointEl && pointText) {
      const around = pointEl.parent ? textOf(pointEl.parent) : pointText;
      const points = parsePoints(around);
      const rate = parsePoints(pointText).rate ?? points.rate;
      set('points_rate', rate, `selector:${POINT_SELECTOR}`);
      const amountText = ownText(page, scope, POINT_AMOUNT);
      set('points', amountText ? parsePoints(amountText).amount : null, `selector:${POINT_AMOUNT}`);
      set('points', points.amount, `selector:${POINT_SELECTOR} (its parent)`);
    }

    const shippingText = ownText(page, scope, SHIPPING_SELECTOR);
    if (shippingText) {
      const terms = parseShippingTerms(shippingText);
      const source = `selector:${SHIPPING_SELECTOR}`;
      set('shipping', terms.shipping, source);
      set('shipping_fee', terms.fee, source);
      set('free_shipping_threshold', terms.freeThreshold, source);
    }

    // Stock: the page's own words (the cart button's label) win; the state's stock and JSON-LD back them up.
    const words = stockWords(page, scope);
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
    set('availability', item?.isPreOrder === true ? 'preorder' : null, `${STATE}:${path}.isPreOrder`);
    set('availability', stateStock, `${STATE}:${path}.stock`);
    set('availability', availabilityOf(offer?.availability), 'json-ld:offers.availability');

    // Variants priced differently (stockTableOneAxis / stockTableTwoAxis choices): their range.
    const prices = variants.map((v) => v.price).filter((p): p is number => p !== null);
    if (prices.length > 1 && Math.min(...prices) < Math.max(...prices)) {
      set(
        'price_range',
        { min: Math.min(...prices), max: Math.max(...prices) },
        `${STATE}:${path}.${item?.stockTableOneAxis || item?.stockTableTwoAxis ? 'stockTable*.choiceList' : 'individualItemList'}[].price`,
      );
    } else if (offer?.aggregate && offer.price !== null && offer.highPrice !== null && offer.highPrice > offer.price) {
      set('price_range', { min: offer.price, max: offer.highPrice }, 'json-ld:offers.lowPrice/highPrice');
    }

    // `brandName` says ブランド登録なし (or the like) when the store registered none: that is no brand.
    const brandName = textOrNull(str(item?.brandName));
    set('brand', brandName && !NO_BRAND.test(brandName) ? brandName : null, `${STATE}:${path}.brandName`);
    set('brand', textOrNull(product?.brand), 'json-ld:brand');
    // The older template's brand line (`div.mdItemBrand p.elBrand a`, read by a public scrapy spider).
    set('brand', textOrNull(ownText(page, scope, '.mdItemBrand .elBrand a')), 'selector:.mdItemBrand .elBrand a');
    set('shop', textOrNull(offer?.seller), 'json-ld:offers.seller.name');
    // The older template's store box (`#strinfmj .elMain p a`, read by a public cheerio scraper): a store, not a person.
    set('shop', textOrNull(ownText(page, scope, '#strinfmj .elMain a')), 'selector:#strinfmj .elMain a');

    const stateJan = str(item?.janCode);
    set('jan', stateJan ? parseJan(stateJan) : null, `${STATE}:${path}.janCode`);
    set('jan', product?.gtin ? parseJan(product.gtin) : null, 'json-ld:gtin13');
    const janText = labelledValue(page, JAN_LABEL, scope);
    set('jan', janText ? parseJan(janText) : null, 'selector:th/dt/.elRowTitle JANコード');
    if (janText && !data.jan) warnings.push('jan: the page shows a JAN that fails its check digit; left out');
    set('sku', textOrNull(product?.sku), 'json-ld:sku');
    set('sku', textOrNull(str(item?.sellerManagedItemId)), `${STATE}:${path}.sellerManagedItemId`);

    const rating = ratingOf(productNode);
    set('review_count', rating.count, 'json-ld:aggregateRating.reviewCount');
    set('rating', rating.value, 'json-ld:aggregateRating.ratingValue');
    // The older template's review summary: `span.elReviewValue` 4.83 and `span.elReviewCount` （64件）.
    const domRating = Number(ownText(page, scope, '.mdReviewSummary .elReviewValue') ?? NaN);
    set(
      'rating',
      Number.isFinite(domRating) && domRating >= 0 && domRating <= 5 ? domRating : null,
      'selector:.elReviewValue',
    );
    const domCount = /^[(（]?\s*([0-9][0-9,]*)\s*件/.exec(
      ownText(page, scope, '.mdReviewSummary .elReviewCount') ?? '',
    );
    set('review_count', domCount ? Number(domCount[1]!.replace(/,/g, '')) : null, 'selector:.elReviewCount');

    // 中古 / 新品 as the page labels the item (Yahoo stores also sell used goods), else the state's isUsed flag.
    if (item?.isUsed === true) {
      set('condition', 'used', `${STATE}:${path}.isUsed`);
      set('condition_text', textOrNull(str(item.usedConditionText)) ?? '中古', `${STATE}:${path}.usedConditionText`);
    }
    const itemType = textOrNull(ownText(page, scope, ITEM_TYPE));
    const condition = itemType ? conditionOf(itemType) : null;
    if (condition) {
      set('condition', condition, `selector:${ITEM_TYPE}`);
      set('condition_text', itemType, `selector:${ITEM_TYPE}`);
    }

    const stateImages = imagesOf(item, seller ?? storeOf(page.url));
    set(
      'images',
      stateImages.length > 0 ? stateImages : null,
      `${STATE}:${path}.images (list[].src, or mainImage/detailImageList/itemImageList ids)`,
    );
    set('images', product && product.images.length > 0 ? absoluteAll(product, page) : null, 'json-ld:image');
    set('images', meta.ogImages.length > 0 ? meta.ogImages : null, 'meta:og:image');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

/**
 * The item object of the page state: `props.pageProps.item` (what a production scraper of these pages reads),
 * `props.pageProps.sp.item`, `initialState.item`, or react-query's `dehydratedState.queries[].state.data.itemData.item`
 * (some stores' pages, per the same scraper).
 */
function stateItem(page: HtmlPage): { item: JsonObject | null; path: string; seller: string | null } {
  const props = obj(obj(obj(readEmbeddedState(page, { id: '__NEXT_DATA__' }))?.props)?.pageProps);
  const seller = str(obj(props?.seller)?.id);
  const queries = arr(obj(props?.dehydratedState)?.queries);
  const dehydrated = queries.findIndex((q) => obj(obj(obj(obj(q)?.state)?.data)?.itemData)?.item);
  const candidates: [unknown, string][] = [
    [obj(props?.sp)?.item, 'props.pageProps.sp.item'],
    [props?.item, 'props.pageProps.item'],
    [obj(props?.initialState)?.item, 'props.pageProps.initialState.item'],
    [
      dehydrated >= 0 ? obj(obj(obj(obj(queries[dehydrated])?.state)?.data)?.itemData)?.item : null,
      `props.pageProps.dehydratedState.queries[${dehydrated}].state.data.itemData.item`,
    ],
  ];
  for (const [value, path] of candidates) {
    const item = obj(value);
    if (item && Object.keys(item).length > 0) return { item, path, seller };
  }
  return { item: null, path: 'props.pageProps.sp.item', seller };
}

interface Shown {
  amount: number;
  tax: TaxStatus;
  excluding: number | null;
  usual: number | null;
  source: string;
  taxSource: string;
}

/** Where this item's own prices are: its block, its own URLs, and how many price elements belong to other items. */
interface Scope {
  base: string;
  own: Set<string>;
  blocks: Element[];
  /** Whether the page names the item in its DOM (an item block exists); without it the page minus other items counts. */
  known: boolean;
  foreign: number;
}

/**
 * The item block: the current template's item info area, and the nearest ancestor of the item's name that holds a
 * price element of this item (the older template's price column). Price elements outside it are never served.
 */
function pageScope(page: HtmlPage, urls: (string | null)[]): Scope {
  const own = new Set(urls.map((u) => itemKey(u, page.url)).filter((k): k is string => k !== null));
  const scope: Scope = { base: page.url, own, blocks: [], known: false, foreign: 0 };
  const candidates = priceElements(page).filter((el) => {
    if (textOf(el) === '') return false;
    const other = aboutOtherItem(el, scope);
    if (other) scope.foreign++;
    return !other;
  });
  scope.blocks = all(page.document, ITEM_INFO).filter((el) => !aboutOtherItem(el, scope));
  const name = [...NAME_SELECTORS, `${ITEM_INFO} [class*="styles_name__"]`, 'h1']
    .flatMap((selector) => all(page.document, selector))
    .find((el) => !aboutOtherItem(el, scope) && textOf(el) !== '');
  if (name) {
    for (let node = name.parent; node && isTag(node); node = node.parent) {
      if (candidates.some((c) => contains(node, c))) {
        scope.blocks.push(node);
        break;
      }
      // The item info area is the whole item block: a price above it is some other module's.
      if (is(node, ITEM_INFO)) break;
    }
  }
  scope.known = name !== undefined || scope.blocks.length > 0;
  return scope;
}

/**
 * This item's matches of `selector`: never one inside another item's tile (a recommendation, ranking or carousel
 * module, a link to another item), and those inside the item block before the rest of the page, so a module placed
 * before the block cannot lend the item its points, shipping, stock words or spec rows.
 */
function ownAll(page: HtmlPage, scope: Scope, selector: string): Element[] {
  const mine = all(page.document, selector).filter((el) => !aboutOtherItem(el, scope));
  const inBlock = (el: Element) => scope.blocks.some((b) => contains(b, el));
  return [...mine.filter(inBlock), ...mine.filter((el) => !inBlock(el))];
}

function ownFirst(page: HtmlPage, scope: Scope, selector: string): Element | null {
  return ownAll(page, scope, selector)[0] ?? null;
}

/** The text of this item's first non-empty match of `selector`. */
function ownText(page: HtmlPage, scope: Scope, selector: string): string | null {
  for (const el of ownAll(page, scope, selector)) {
    const t = textOf(el);
    if (t !== '') return t;
  }
  return null;
}

function priceElements(page: HtmlPage): Element[] {
  return [...new Set(PRICE_SELECTORS.flatMap((selector) => all(page.document, selector)))];
}

/** Inside a recommendation/ranking module, or inside a link to another item page. */
function aboutOtherItem(el: Element, scope: Pick<Scope, 'base' | 'own'>): boolean {
  for (let node: Element | null = el; node; node = node.parent && isTag(node.parent) ? node.parent : null) {
    if (OTHER_ITEMS.test(`${node.attribs.class ?? ''} ${node.attribs.id ?? ''}`)) return true;
    if (node.name === 'a' && node.attribs.href) {
      const key = itemKey(node.attribs.href, scope.base);
      if (key !== null && !scope.own.has(key) && isItemLink(key)) return true;
    }
  }
  return false;
}

/** `host/path` of a URL (resolved against `base`), for comparing item links with this page's own URLs. */
function itemKey(url: string | null, base: string): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, base);
    return `${u.hostname}${u.pathname}`;
  } catch {
    return null;
  }
}

function isItemLink(key: string): boolean {
  const slash = key.indexOf('/');
  return ITEM_LINK_HOST.test(key.slice(0, slash)) && ITEM_LINK_PATH.test(key.slice(slash));
}

function contains(ancestor: Element, el: Element): boolean {
  for (let node: Element | null = el; node; node = node.parent && isTag(node.parent) ? node.parent : null)
    if (node === ancestor) return true;
  return false;
}

/**
 * The displayed price block: the price element's container, read as the buyer reads it (税込/税抜, 通常価格). Only
 * this item's price elements count (never a recommendation or ranking tile, nor a link to another item); one that
 * states the structured price wins, else the first one inside the item block, else none.
 */
function displayedPrice(page: HtmlPage, scope: Scope, expected: number | null): Shown | null {
  // Each selector's matches the buyer can read (a `<meta itemprop="price">` has no text), strongest selector first.
  const found = PRICE_SELECTORS.flatMap((selector) =>
    all(page.document, selector)
      .filter((e) => textOf(e) !== '' && !aboutOtherItem(e, scope))
      .map((e) => ({ el: e, shown: shownOf(e, selector) }))
      .filter((x): x is { el: Element; shown: Shown } => x.shown !== null),
  );
  // A page whose DOM does not name the item has no block to scope to: its price elements minus other items' count.
  const inBlock = (el: Element) => !scope.known || scope.blocks.some((b) => contains(b, el));
  const ordered = [...found.filter((x) => inBlock(x.el)), ...found.filter((x) => !inBlock(x.el))];
  const agreeing = expected !== null ? ordered.find((x) => x.shown.amount === expected) : undefined;
  if (agreeing) return agreeing.shown;
  // Otherwise the first of the item block's price modules. The older template's generic `.elPrice .elPriceNumber` is
  // also the price of listed items (category pages, recommendations), so it counts only when nothing structured names
  // a price.
  return (
    found.find((x) => inBlock(x.el) && (expected === null || x.shown.source !== `selector:${WEAK_PRICE_SELECTOR}`))
      ?.shown ?? null
  );
}

// The usual-price labels of a price block (the selling price is the block without their clause).
const USUAL_LABELS = /(通常販売価格|通常価格)/;

/** One price element read with its block: the amount, its tax label, the 税抜 figure and a 通常価格 clause. */
function shownOf(el: Element, selector: string): Shown | null {
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
  if (chosen.amount === null) return null;
  return {
    amount: chosen.amount,
    tax: chosen.tax !== 'unknown' ? chosen.tax : moduleTax(el),
    taxSource:
      chosen.tax !== 'unknown' || moduleTax(el) === 'unknown'
        ? `selector:${selector}`
        : `selector:${selector} (its price module's label: ${PRICE_LABEL})`,
    excluding: chosen.price_excluding_tax ?? null,
    // The shared reference-price rule: `通常価格より500円お得` states a discount, never the usual price.
    usual: usualClause ? (listPriceIn(usualClause, USUAL_LABELS)?.amount ?? null) : null,
    source: `selector:${selector}`,
  };
}

/** The tax label of the price module around `el` (`<p class="elPriceName">通常価格（税込）</p>` above the amount). */
function moduleTax(el: Element): TaxStatus {
  for (let node = el.parent; node && isTag(node); node = node.parent) {
    if (!is(node, PRICE_MODULE)) continue;
    const labels = all(node, PRICE_LABEL).map((l) => textOf(l));
    return taxMarkerOf(labels.join(' '));
  }
  return 'unknown';
}

/** `中古` / `新品` / `未使用` labels to the closed condition set. */
function conditionOf(label: string): NonNullable<ItemData['condition']> | null {
  if (/未使用|新古/.test(label)) return 'used';
  if (/中古|ユーズド|USED/i.test(label)) return 'used';
  if (/新品|NEW/i.test(label)) return 'new';
  return null;
}

/** Labels of the buy area: `カートに入れる`, `在庫切れ`, `売り切れ`, `入荷お知らせ` …; the first button that states stock. */
function stockWords(page: HtmlPage, scope: Scope): { availability: Availability; text: string } | null {
  for (const el of ownAll(page, scope, 'button')) {
    const words = availabilityFromText(textOf(el));
    if (words) return words;
  }
  return null;
}

interface Variant {
  price: number | null;
  quantity: number | null;
}

/** The store id of an item URL (`/<store>/<item>.html`), for the store's image library. */
function storeOf(url: string): string | null {
  try {
    return /^\/([\w-]+)\/[^/]+\.html$/.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Choices of `stockTableOneAxis` (firstOption.choiceList) or `stockTableTwoAxis` (… .secondOption.choiceList), else the
 * SKUs of `individualItemList`. A choice's `price` is a number or an object `{applicablePrice, immediatePrice}`: only
 * its applicablePrice is a price (never the digits of the object run together).
 */
function variantsOf(item: JsonObject | null): Variant[] {
  const out: Variant[] = [];
  const choice = (c: JsonObject) =>
    out.push({ price: yen(c.price) ?? yen(obj(c.price)?.applicablePrice), quantity: int(obj(c.stock)?.quantity) });
  const two = obj(item?.stockTableTwoAxis);
  if (two) {
    for (const first of arr(obj(two.firstOption)?.choiceList))
      for (const second of arr(obj(obj(first)?.secondOption)?.choiceList)) if (obj(second)) choice(obj(second)!);
    return out;
  }
  for (const c of arr(obj(obj(item?.stockTableOneAxis)?.firstOption)?.choiceList)) if (obj(c)) choice(obj(c)!);
  if (out.length > 0) return out;
  for (const c of arr(item?.individualItemList)) if (obj(c)) choice(obj(c)!);
  return out;
}

function stockOf(item: JsonObject | null, variants: Variant[]): Availability | null {
  const stock = obj(item?.stock);
  if (stock?.isSoldOut === true || stock?.isAvailable === false) return 'out_of_stock';
  // individualItemList SKUs say stock.isAvailable rather than a quantity.
  const skus = arr(item?.individualItemList).map((c) => obj(obj(c)?.stock)?.isAvailable);
  if (skus.some((a) => typeof a === 'boolean') && variants.every((v) => v.quantity === null))
    return skus.some((a) => a === true) ? 'in_stock' : 'out_of_stock';
  const quantities = variants.map((v) => v.quantity).filter((q): q is number => q !== null);
  if (quantities.length > 0) return quantities.some((q) => q > 0) ? 'in_stock' : 'out_of_stock';
  const quantity = int(stock?.quantity);
  if (quantity !== null) return quantity > 0 ? 'in_stock' : 'out_of_stock';
  return null;
}

/**
 * Image URLs of the state: `images.list[].src`, or image ids (`images.mainImage`, `detailImageList[]`, `itemImageList[]`
 * with `{id, type}`) that the site serves at `item-shopping.c.yimg.jp/i/n/<id>` (type Item) or
 * `shopping.c.yimg.jp/lib/<seller>/<id>` (type Lib), as a production scraper of these pages builds them.
 */
function imagesOf(item: JsonObject | null, seller: string | null): string[] {
  const images = obj(item?.images);
  const urls = arr(images?.list).map((i) => str(obj(i)?.src));
  const byId = (node: unknown): string | null => {
    const id = str(obj(node)?.id)?.trim();
    if (!id || !/^[\w.-]+$/.test(id)) return null;
    if ((str(obj(node)?.type) ?? '').toLowerCase() === 'lib')
      return seller && /^[\w-]+$/.test(seller) ? `https://shopping.c.yimg.jp/lib/${seller}/${id}` : null;
    return `https://item-shopping.c.yimg.jp/i/n/${id}`;
  };
  urls.push(byId(images?.mainImage));
  for (const key of ['detailImageList', 'itemImageList']) for (const node of arr(images?.[key])) urls.push(byId(node));
  return [...new Set(urls.filter((u): u is string => u !== null && /^https?:\/\//.test(u)))];
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

/** The value beside a `th`/`dt` label of the spec table, or the older template's `div.elRowTitle` + `div.elRowData` row. */
export function labelledValue(page: HtmlPage, label: RegExp, scope?: Scope): string | null {
  const labels = scope ? ownAll(page, scope, 'th, dt, .elRowTitle') : all(page.document, 'th, dt, .elRowTitle');
  for (const el of labels) {
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

// og:title reads `商品名 - ストア名 - 通販 - Yahoo!ショッピング` or, on current pages (per a production scraper of them),
// `商品名 : ストア名 - 通販 - Yahoo!ショッピング`; the site suffix is cut with the store before it.
function ogTitle(title: string | null): string | null {
  if (!title) return null;
  const colon = /^(.+)\s+:\s+[^:]+?\s+-\s+通販\s+-\s+Yahoo!ショッピング$/.exec(title);
  if (colon) return colon[1]!;
  const m = /^(.+?)\s+-\s+[^-]+?\s+-\s+通販\s+-\s+Yahoo!ショッピング$/.exec(title);
  return m?.[1] ?? title.replace(/\s+-\s+Yahoo!ショッピング$/, '');
}
