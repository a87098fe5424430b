// Amazon.co.jp product detail pages: no JSON-LD Product, so every field comes from Amazon's feature blocks in the DOM.
import { availabilityFromText } from '../../extract/availability.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { readMeta } from '../../extract/meta.js';
import { primaryOffer, primaryOfferSource } from '../../extract/offers.js';
import type { ItemData, OfferData } from '../../extract/page-types.js';
import { all, first, firstText, textOf, type Root } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { parseIsbn } from '../../normalize/ids.js';
import type { HtmlPage } from '../../normalize/page.js';
import { parsePoints } from '../../normalize/points.js';
import { parsePrice } from '../../normalize/price.js';
import { parseShippingTerms } from '../../normalize/shipping.js';
import { normalizeText } from '../../normalize/text.js';
import type { Element } from 'domhandler';

const ID = 'amazon_jp/item';
const ASIN = /^[A-Z0-9]{10}$/;

/**
 * Amazon.co.jp shows every price to consumers tax-included (総額表示, required since April 2021; before that the site
 * already showed 税込 prices). The price blocks rarely say 税込 themselves, so the basis is this site rule.
 */
const TAX_RULE = 'site rule: Amazon.co.jp shows tax-included prices (総額表示)';

// The price the buy box charges, by layout generation: current apex/corePrice blocks first, then the 2019–2022
// #priceblock_* table (deal and sale before "our price", which a deal leaves struck out beside it), then old buy boxes.
// `.a-text-price` is a struck-out comparison price inside the same blocks and never the price to pay.
const PAY_PRICES: readonly string[] = [
  '#corePriceDisplay_desktop_feature_div .priceToPay',
  '#corePriceDisplay_desktop_feature_div .apexPriceToPay',
  '#corePrice_desktop .apexPriceToPay',
  '#corePrice_desktop .priceToPay',
  '#apex_desktop .priceToPay',
  '#apex_desktop .apexPriceToPay',
  '#corePrice_feature_div .a-price:not(.a-text-price)',
  '#priceblock_dealprice',
  '#priceblock_saleprice',
  '#priceblock_ourprice',
  // Books: the buy box header of the format the page sells (the format switcher's selected swatch).
  '#booksHeaderSection #price',
  '#newOfferAccordionRow .header-price',
  '#mediaNoAccordion .header-price',
  '#price_inside_buybox',
  '#newBuyBoxPrice',
  '#buyNewSection .offer-price',
  '#kindle-price',
];
// A variation parent shows the span of its children's prices instead of one price to pay.
const RANGE_PRICES: readonly string[] = [
  '#corePriceDisplay_desktop_feature_div .a-price-range',
  '#corePrice_desktop .a-price-range',
  '#apex_desktop .a-price-range',
  '#corePrice_feature_div .a-price-range',
];
// 参考価格 / 過去価格 / List Price: the comparison price printed beside the price to pay.
const LIST_PRICES: readonly string[] = [
  '#corePriceDisplay_desktop_feature_div .basisPrice .a-offscreen',
  // The 2022 table marks its price to pay with a-text-price too: only the struck one is the comparison price.
  '#corePrice_desktop .a-text-price[data-a-strike="true"] .a-offscreen',
  '#apex_desktop .basisPrice .a-offscreen',
  '#corePrice_feature_div .a-text-price[data-a-strike="true"] .a-offscreen',
  '#price .priceBlockStrikePriceString',
];
const DEAL_BADGES: readonly string[] = [
  '#dealBadge_feature_div',
  '#dealBadgeSupportingText',
  '#priceblock_dealprice_lbl',
];
const POINTS: readonly string[] = [
  '#points_feature_div',
  '#pointsInsideBuyBox_feature_div',
  '#apex_desktop .loyalty-points',
  '#corePriceDisplay_desktop_feature_div .loyalty-points',
  // Kindle buy box (獲得ポイント beside the Kindle 価格), then the selected format swatch's own points.
  '#Ebooks-desktop-KINDLE_ALC-prices-loyaltyPoints',
  '#tmmSwatches .swatchElement.selected .slot-buyingPoints',
  '#tmmSwatches .a-button-selected .slot-buyingPoints',
];
// The format switcher of books (単行本 / Kindle版 / 文庫 …): every swatch carries its own format's price, and only the
// selected one is the format this page sells; the others are other ASINs and never this page's price.
const SELECTED_SWATCH_PRICES: readonly string[] = [
  '#tmmSwatches .swatchElement.selected .slot-price',
  '#tmmSwatches .a-button-selected .slot-price',
];
// 定期おトク便 (Subscribe & Save): a subscription-only price in its own buy-box row beside the one-time purchase row.
const SUBSCRIPTION_ROWS: readonly string[] = ['#snsAccordionRowMiddle', '#snsAccordionRow', '#snsBuyBox'];
const ONE_TIME_PRICES: readonly string[] = [
  '[id^="newAccordionRow"] .apexPriceToPay',
  '[id^="newAccordionRow"] .priceToPay',
  '[id^="newAccordionRow"] .a-price:not(.a-text-price)',
];
// The used offer the buy box offers beside the new one (accordion buy box; older separate used section).
// Books name their accordion rows newOfferAccordionRow / usedOfferAccordionRow / rentOfferAccordionRow instead.
const USED_OFFERS: readonly string[] = [
  '#usedAccordionRow',
  '#usedOfferAccordionRow',
  '#usedBuySection',
  '#usedOnlyBuybox',
];
// The link to all other offers with their lowest price ("新品＆中古品 (5) ￥3,100 から", "New & Used (15) from
// ¥28,800"), and the box shown instead of a buy box when no offer qualifies as the featured one.
const OTHER_OFFERS: readonly string[] = [
  '#fod-cx-box',
  '#olpLinkWidget_feature_div .olp-text-box',
  '#olpLinkWidget_feature_div',
  '#olp_feature_div',
];

// How the other-offers summary names its offers: `新品＆中古品 (5)`, `New & Used (15)`, `(3 件の新品の出品)`,
// `(12 new offers)`; the words are kept as the offer's condition_text.
const CONDITION_WORDS: readonly RegExp[] = [
  /(?:新品\s*[&＆]\s*中古品|新品|中古品|コレクター商品|new\s*&\s*used|used\s*&\s*new|new|used)\s*\(\s*\d+\s*\)/i,
  /\(\s*\d+\s*件の[^)]*?出品\s*\)/,
  /\(\s*\d+\s+(?:new|used|used\s*&\s*new|new\s*&\s*used)\s+offers?\s*\)/i,
];

export const amazonJpItemExtractor = defineExtractor({
  id: ID,
  version: 3,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    set('title', firstText(doc, '#productTitle'), 'selector:#productTitle');
    set('title', firstText(doc, '#ebooksProductTitle'), 'selector:#ebooksProductTitle');

    // The buy box's own offer: its price, deal, seller.
    let found = firstPrice(doc, PAY_PRICES, true) ?? swatchPrice(doc);
    // A subscription price is paid only by subscribers: with a 定期おトク便 row, the one-time purchase row's price is
    // the price, whatever the centre column shows for the row selected by default.
    if (SUBSCRIPTION_ROWS.some((selector) => first(doc, selector) !== null)) {
      const oneTime = firstPrice(doc, ONE_TIME_PRICES, true);
      if (oneTime && found && oneTime.amount !== found.amount) {
        warnings.push(`price: ${found.source} differs from the one-time purchase row; the one-time price is served`);
      }
      if (oneTime) found = oneTime;
      warnings.push('price: the subscribe-and-save (定期おトク便) price is a subscription price and is left out');
    }
    const pay = found;
    const range = pay ? null : priceRange(doc);
    const deal = dealLabel(doc);
    const seller = soldBy(doc);
    const availability = stockWords(doc);
    const points = pointsOf(doc);
    // A fee quoted for delivery to another country (the page was seen from abroad) is not Amazon.co.jp's shipping.
    const abroad = deliversAbroad(doc);
    const shipping = abroad ? null : shippingOf(doc);
    if (abroad && shippingOf(doc)) warnings.push('shipping: the page quotes delivery to another country; left out');
    const listPrice = firstPrice(doc, LIST_PRICES, true);

    const offers: { offer: OfferData; source: string }[] = [];
    // A buy box that offers only a used copy (no new-condition row) sells that used copy at the price shown.
    const usedOnly =
      first(doc, '#usedOnlyBuybox') !== null ||
      (first(doc, '#buyBoxAccordion #usedAccordionRow') !== null && first(doc, '[id^="newAccordionRow"]') === null);
    if (pay) {
      const offer: OfferData = {
        condition: usedOnly ? 'used' : 'new',
        price: pay.amount,
        price_tax: 'included',
        on_sale: deal !== null,
      };
      if (deal) offer.sale_label = deal.label;
      if (seller) offer.seller = seller.name;
      if (listPrice && listPrice.amount > pay.amount) offer.list_price = listPrice.amount;
      offers.push({ offer, source: pay.source });
    }
    const used = usedOnly && pay ? null : usedOffer(doc);
    if (used) offers.push(used);
    const others = otherOffers(doc);
    if (others) offers.push(others);

    // A variation parent's range is its own price; other offers listed there belong to no one variation.
    if (!pay && range) offers.length = 0;
    const primary = primaryOffer(offers.map((o) => o.offer));
    if (primary) {
      const chosen = offers[primary.index]!;
      // With the buy box's price alone, that is the price; otherwise the contract's choice among the page's offers.
      const source = !pay
        ? `${chosen.source} (no buy-box price: the other offers' lowest price)`
        : offers.length === 1
          ? chosen.source
          : `${primaryOfferSource(primary, 'offers')} from ${chosen.source}`;
      set('price', primary.offer.price, source);
    } else if (range) {
      set('price', range.min, `${range.source} (lowest of the variation prices)`);
      set('price_range', { min: range.min, max: range.max }, range.source);
    }

    // Amazon withholds some prices from the product page (shown only once the item is in the cart): say so, in
    // structure words, rather than leave the reader to guess at a layout change.
    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) =>
        `${ID}: no ${missing.join(' and ')} found (#productTitle; corePrice/apex/priceblock price, other offers)${missing.includes('price') ? whyNoPrice(doc) : ''}`,
    );
    data.currency = 'JPY';
    provenance.currency = 'site rule: Amazon.co.jp sells in yen';
    data.price_tax = 'included';
    provenance.price_tax = TAX_RULE;

    const buyBoxIsPrimary = pay !== null && primary?.index === 0;
    if (buyBoxIsPrimary) {
      if (listPrice && listPrice.amount > pay.amount) set('list_price', listPrice.amount, listPrice.source);
      if (deal) {
        set('on_sale', true, deal.source);
        set('sale_label', deal.label, deal.source);
      }
      if (points) {
        set('points', points.amount, points.source);
        set('points_rate', points.rate, points.source);
      }
      if (shipping) {
        set('shipping', shipping.terms.shipping, shipping.source);
        set('shipping_fee', shipping.terms.fee, shipping.source);
        set('free_shipping_threshold', shipping.terms.freeThreshold, shipping.source);
      }
      set('shop', seller?.name, seller?.source ?? '');
    }
    if (primary && (!buyBoxIsPrimary || usedOnly)) {
      set('condition', primary.offer.condition, provenance.price!);
      set('condition_text', primary.offer.condition_text, provenance.price!);
    }
    if (offers.length > 1 || (offers.length === 1 && !pay)) {
      data.offers = offers.map((o) => o.offer);
      provenance.offers = offers.map((o) => o.source).join(' + ');
    }
    // The other-offers summary counts the sellers offering it (`新品＆中古品 (15)`); its lowest is in offers[].
    const counted = others?.offer.condition_text ? countOf(others.offer.condition_text) : null;
    if (others && !(!pay && range)) set('offer_count', counted, `${others.source} (the count it names)`);
    if (pay && listPrice && listPrice.amount <= pay.amount) {
      warnings.push('list_price: the comparison price is not above the price to pay; left out');
    }

    if (availability) {
      set('availability', availability.availability, availability.source);
      set('availability_text', availability.text, availability.source);
    }

    set('brand', brandOf(doc), 'selector:#bylineInfo');
    set('brand', overviewValue(doc, 'po-brand'), 'selector:#productOverview_feature_div .po-brand');

    const review = firstText(doc, '#acrCustomerReviewText');
    set('review_count', review ? countOf(review) : null, 'selector:#acrCustomerReviewText');
    set('rating', ratingOf(doc), 'selector:#acrPopover');

    const meta = readMeta(page);
    const asin = asinOf(page, meta.canonical);
    if (asin) set('sku', asin.value, asin.source);
    // Amazon rarely prints a JAN; when a details row does, its check digit must hold.
    const jan = detailValue(doc, /^(?:JAN|JANコード|EAN)$/i);
    set('jan', jan ? parseJan(jan.value) : null, jan?.source ?? '');
    if (jan && !data.jan) warnings.push('jan: the details show a JAN that fails its check digit; left out');
    const isbn = detailValue(doc, /^ISBN-13$/i);
    set('isbn', isbn ? parseIsbn(isbn.value) : null, isbn?.source ?? '');

    const images = imagesOf(doc);
    set('images', images ? [images.url] : null, images?.source ?? '');
    set('canonical_url', meta.canonical, 'link:canonical');

    return { data, provenance, warnings };
  },
});

// The accordion buy box repeats its feature blocks (price, delivery, seller) inside the used-condition row, a book's
// rental row and the 定期おトク便 (subscribe-and-save) row; those belong to the used offer, the rental or the
// subscription and never to the buy box's own (new, one-time) offer.
const USED_ROW_ID =
  /^(?:usedAccordionRow|apex_desktop_usedAccordionRow|usedOfferAccordionRow|rentOfferAccordionRow|usedBuySection|usedOnlyBuybox|snsAccordionRow|snsBuyBox|reinvent_price_desktop_snsAccordionRow|sns-base-price)/;
function inUsedRow(el: Element): boolean {
  for (let node: Element | null = el; node; node = node.parent as Element | null) {
    if (node.attribs && USED_ROW_ID.test(node.attribs.id ?? '')) return true;
  }
  return false;
}
function buyBoxOnes(root: Root, selector: string): Element[] {
  return all(root, selector).filter((el) => !inUsedRow(el));
}
function buyBoxText(root: Root, selector: string): string | null {
  for (const el of buyBoxOnes(root, selector)) {
    const text = textOf(el);
    if (text) return text;
  }
  return null;
}

interface Found {
  amount: number;
  source: string;
}

/** The yen amount an Amazon price element shows: its screen-reader text, else the visible symbol and whole part. */
function amountIn(el: Element): number | null {
  const offscreen = all(el, '.a-offscreen')
    .map(textOf)
    .find((t) => t !== '');
  const whole = first(el, '.a-price-whole');
  const text = offscreen ?? (whole ? `￥${textOf(whole)}` : textOf(el));
  const parsed = parsePrice(text);
  return parsed.range ? null : parsed.amount;
}

function firstPrice(root: Root, selectors: readonly string[], buyBoxOnly = false): Found | null {
  for (const selector of selectors) {
    for (const el of buyBoxOnly ? buyBoxOnes(root, selector) : all(root, selector)) {
      const amount = amountIn(el);
      if (amount !== null && amount > 0) return { amount, source: `selector:${selector}` };
    }
  }
  return null;
}

/** Why a page shows no price, in structure words (never the page's own text), for the failure detail. */
function whyNoPrice(root: Root): string {
  if (firstText(root, '#priceNotAvailable_feature_div') !== null) {
    return '; the page withholds its price until the item is in the cart (#priceNotAvailable_feature_div)';
  }
  // A variation parent without a price range prices nothing until a size or colour is chosen: the child ASIN's page
  // (/dp/<child ASIN>, or the parent with ?th=1&psc=1) carries the price.
  if (first(root, '#partialStateBuybox, #partialStateBuyBox_feature_div .a-box') !== null) {
    return '; the page is a variation parent that prices only a chosen variation (#partialStateBuybox)';
  }
  if (first(root, '#outOfStock') !== null)
    return '; the page states the item unavailable and lists no other offer (#outOfStock)';
  return '';
}

/** The selected format swatch's price, when the buy box shows none (a price "から"/"より"/"from" is a lowest-of-offers). */
function swatchPrice(root: Root): Found | null {
  for (const selector of SELECTED_SWATCH_PRICES) {
    for (const el of all(root, selector)) {
      if (/から|より|\bfrom\b/i.test(textOf(el))) continue;
      const amount = amountIn(el);
      if (amount !== null && amount > 0) return { amount, source: `selector:${selector} (selected format)` };
    }
  }
  return null;
}

function priceRange(root: Root): { min: number; max: number; source: string } | null {
  for (const selector of RANGE_PRICES) {
    const el = first(root, selector);
    if (!el) continue;
    const amounts = all(el, '.a-price')
      .map(amountIn)
      .filter((a): a is number => a !== null);
    if (amounts.length >= 2)
      return { min: Math.min(...amounts), max: Math.max(...amounts), source: `selector:${selector}` };
  }
  // The old price table wrote a range as one text, `￥1,980 - ￥3,480`.
  const old = firstText(root, '#priceblock_ourprice');
  const parts = old?.split(/\s+[-–～~]\s+/);
  if (parts?.length === 2) {
    const [min, max] = parts.map((p) => parsePrice(p).amount);
    if (min != null && max != null && min <= max) return { min, max, source: 'selector:#priceblock_ourprice' };
  }
  return null;
}

function dealLabel(root: Root): { label: string; source: string } | null {
  for (const selector of DEAL_BADGES) {
    // The badge's first line is its name; a countdown or claimed-percentage line may follow it.
    const text = (firstText(root, `${selector} span`) ?? firstText(root, selector))?.replace(/[:：]\s*$/, '');
    if (text && /セール|deal|特価|sale/i.test(text)) return { label: text, source: `selector:${selector}` };
  }
  return null;
}

/** The seller of the buy box offer (a business trading on Amazon; Amazon.co.jp itself for its own offers). */
function soldBy(root: Root): { name: string; source: string } | null {
  // Current offer-display rows: 出荷元 (fulfiller) and 販売元 (merchant) in separate features.
  const merchant =
    buyBoxText(root, '#merchantInfoFeature_feature_div .offer-display-feature-text-message') ??
    buyBoxText(root, '[offer-display-feature-name="desktop-merchant-info"] .offer-display-feature-text-message') ??
    buyBoxText(root, '#sellerProfileTriggerId');
  if (merchant) return { name: merchant, source: 'selector:#merchantInfoFeature_feature_div' };
  // 2021–2022 tabular buy box: a label cell and a value cell both carry tabular-attribute-name 販売元 / Sold by; the
  // value is the one whose text is not the label itself.
  for (const el of buyBoxOnes(root, '#tabular-buybox .tabular-buybox-text[tabular-attribute-name]')) {
    const label = normalizeText(el.attribs['tabular-attribute-name']!);
    if (!/^(?:販売元|sold by)$/i.test(label)) continue;
    const name = textOf(el);
    if (name && name.replace(/[:：\s]+$/, '').toLowerCase() !== label.toLowerCase()) {
      return { name, source: 'selector:#tabular-buybox [tabular-attribute-name=販売元]' };
    }
  }
  // Older one-line statement in #merchant-info, in either interface language.
  const line = firstText(root, '#merchant-info');
  if (!line) return null;
  const patterns = [
    /ships from and sold by\s+(.+?)\.?$/i,
    /^sold by\s+(.+?)\s+and\s+(?:fulfilled|ships?)\b/i,
    /この商品は、?\s*(.+?)\s*が販売(?:、|し)/,
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(line)?.[1]?.trim();
    if (name) return { name, source: 'selector:#merchant-info' };
  }
  return null;
}

function stockWords(
  root: Root,
): { availability: NonNullable<ItemData['availability']>; text: string; source: string } | null {
  const status =
    buyBoxText(
      root,
      '#availability .a-size-medium, #availability .a-color-success, #availability .a-color-price, #availability .a-color-state',
    ) ??
    firstText(root, '#outOfStock .a-color-price') ??
    buyBoxText(root, '#availability');
  // 「この商品は現在お取り扱いできません。」 is Amazon's Japanese for "Currently unavailable", which the shared words map to
  // out of stock.
  const words =
    availabilityFromText(status) ??
    (status && /現在お取り扱いできません/.test(status)
      ? { availability: 'out_of_stock' as const, text: normalizeText(status) }
      : null);
  return words ? { ...words, source: 'selector:#availability' } : null;
}

function pointsOf(root: Root): { amount: number | null; rate: number | null; source: string } | null {
  for (const selector of POINTS) {
    const text = firstText(root, selector);
    const parsed = text ? parsePoints(text) : null;
    if (parsed?.amount != null) return { ...parsed, source: `selector:${selector}` };
  }
  // The old price table has a row labelled ポイント / Amazon Points.
  for (const row of all(root, '#price tr')) {
    const cells = all(row, 'td');
    if (cells.length < 2 || !/ポイント|points/i.test(textOf(cells[0]!))) continue;
    const parsed = parsePoints(textOf(cells[1]!));
    if (parsed.amount !== null) return { ...parsed, source: 'selector:#price tr (Points)' };
  }
  return null;
}

/**
 * The header's delivery location (`Deliver to Taiwan`, `お届け先 台湾`): true when it names a place outside Japan. A
 * Japanese address (〒, a postcode, 都道府県), 日本/Japan, or no chosen address (`お届け先を選択`) is not abroad.
 */
function deliversAbroad(root: Root): boolean {
  const where =
    firstText(root, '#glow-ingress-line2') ?? firstText(root, '#contextualIngressPtLabel_deliveryShortLine');
  if (!where) return false;
  return !/〒|\d{3}-?\d{4}|日本|japan|[都道府県]|選択|更新|住所|select|update|address|location/i.test(where);
}

function shippingOf(root: Root): { terms: ReturnType<typeof parseShippingTerms>; source: string } | null {
  // Current delivery block: the primary delivery message carries its price as data ("無料", "FREE", "￥350").
  const primary = buyBoxOnes(root, '#mir-layout-DELIVERY_BLOCK [data-csa-c-content-id="DEXUnifiedCXPDM"]')[0];
  const price = primary?.attribs['data-csa-c-delivery-price']?.trim();
  if (primary && price) {
    const condition = normalizeText(primary.attribs['data-csa-c-delivery-condition'] ?? '');
    const source = 'selector:#mir-layout-DELIVERY_BLOCK [data-csa-c-delivery-price]';
    if (/無料|free/i.test(price)) {
      if (!condition) return { terms: { shipping: 'free', fee: null, freeThreshold: null }, source };
      // Free only on orders above an amount: a condition, not a promise for this item alone.
      const threshold = parsePrice(condition).amount;
      return { terms: { shipping: 'unknown', fee: null, freeThreshold: threshold }, source };
    }
    const fee = parsePrice(price).amount;
    if (fee !== null && fee > 0) return { terms: { shipping: 'extra', fee, freeThreshold: null }, source };
  }
  // The old price table printed the fee beside the price (`+ ￥1,598 shipping`, `+ 配送料 ￥350`).
  const line = firstText(root, '#price-shipping-message') ?? firstText(root, '#ourprice_shippingmessage');
  if (line) {
    const terms = parseShippingTerms(line.replace(/配送料/g, '送料').replace(/配送無料/g, '送料無料'));
    if (terms.shipping !== 'unknown' || terms.fee !== null)
      return { terms, source: 'selector:#price-shipping-message' };
  }
  return null;
}

function usedOffer(root: Root): { offer: OfferData; source: string } | null {
  for (const selector of USED_OFFERS) {
    const el = first(root, selector);
    if (!el) continue;
    const found = firstPrice(el, ['.header-price', '.a-price:not(.a-text-price)', '.offer-price', '.a-color-price']);
    if (!found) continue;
    const offer: OfferData = { condition: 'used', price: found.amount, price_tax: 'included', on_sale: false };
    const words =
      /中古品(?:\s*[-－]\s*(?:ほぼ新品|非常に良い|良い|可))?|used(?:\s*-\s*(?:like new|very good|good|acceptable))?/i.exec(
        textOf(el),
      );
    if (words) offer.condition_text = words[0];
    return { offer, source: `selector:${selector}` };
  }
  return null;
}

/** The summary of all other offers: its lowest price, and a condition only when the summary names one. */
function otherOffers(root: Root): { offer: OfferData; source: string } | null {
  for (const selector of OTHER_OFFERS) {
    const el = first(root, selector);
    if (!el) continue;
    const text = textOf(el);
    const found = firstPrice(el, ['.a-price:not(.a-text-price)']);
    // The first amount is the lowest offer's price; a shipping fee may follow it (`￥1,200 + ￥350 配送料`).
    const firstYen = /[¥￥]\s*[0-9][0-9,]*/.exec(text)?.[0];
    const amount = found?.amount ?? (firstYen ? parsePrice(firstYen).amount : null);
    if (amount === null || amount <= 0) continue;
    const isNew = /新品|\bnew\b/i.test(text);
    const isUsed = /中古|\bused\b/i.test(text);
    const offer: OfferData = {
      condition: isNew && isUsed ? 'unknown' : isNew ? 'new' : isUsed ? 'used' : 'unknown',
      price: amount,
      price_tax: 'included',
      on_sale: false,
    };
    const label = CONDITION_WORDS.map((pattern) => pattern.exec(text)?.[0]).find((words) => words !== undefined);
    if (label) offer.condition_text = label;
    return { offer, source: `selector:${selector}` };
  }
  return null;
}

function brandOf(root: Root): string | null {
  const text = firstText(root, '#bylineInfo');
  if (!text) return null;
  // Books put their authors here: only the brand wordings count.
  const patterns = [
    /^(?:brand|ブランド|品牌)\s*[:：]\s*(.+)$/i,
    /^visit the\s+(.+?)\s+store$/i,
    /^(.+?)\s*の?ストアを(?:表示|見る|訪問)/,
    /^(.+?)\s*ストアにアクセス/,
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(text)?.[1]?.trim();
    if (name) return name;
  }
  return null;
}

function overviewValue(root: Root, rowClass: string): string | null {
  return firstText(root, `#productOverview_feature_div tr.${rowClass} td.a-span9`);
}

/** A value of the product-details lists (detail bullets, or the 登録情報 / technical tables), by its label. */
function detailValue(root: Root, label: RegExp): { value: string; source: string } | null {
  for (const li of all(root, '#detailBullets_feature_div li')) {
    const bold = first(li, '.a-text-bold');
    if (!bold) continue;
    const name = textOf(bold)
      .replace(/[\s:：\u200e\u200f]+$/u, '')
      .trim();
    if (!label.test(name)) continue;
    const value = textOf(li).slice(textOf(bold).length).trim();
    if (value) return { value, source: `selector:#detailBullets_feature_div (${name})` };
  }
  for (const section of ['#productDetails_techSpec_section_1', '#productDetails_detailBullets_sections1']) {
    for (const row of all(root, `${section} tr`)) {
      const th = first(row, 'th');
      const td = first(row, 'td');
      if (!th || !td || !label.test(textOf(th))) continue;
      const value = textOf(td);
      if (value) return { value, source: `selector:${section} (${textOf(th)})` };
    }
  }
  return null;
}

function asinOf(page: HtmlPage, canonical: string | null): { value: string; source: string } | null {
  const fromDetails = detailValue(page.document, /^ASIN$/i);
  if (fromDetails && ASIN.test(fromDetails.value)) return fromDetails;
  const input = first(page.document, 'input#ASIN[value]')?.attribs.value?.trim();
  if (input && ASIN.test(input)) return { value: input, source: 'selector:input#ASIN' };
  const fromCanonical = canonical ? /\/dp\/([A-Z0-9]{10})(?:[/?]|$)/.exec(new URL(canonical).pathname)?.[1] : null;
  if (fromCanonical) return { value: fromCanonical, source: 'link:canonical (/dp/ASIN)' };
  return null;
}

function countOf(text: string): number | null {
  const m = /([0-9][0-9,]*)/.exec(normalizeText(text));
  const n = m ? Number(m[1]!.replace(/,/g, '')) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** `5つ星のうち4.6` (Japanese puts the scale first) or `4.6 out of 5 stars`. */
function ratingOf(root: Root): number | null {
  const el = first(root, '#acrPopover');
  if (!el) return null;
  for (const text of [el.attribs.title ?? '', firstText(el, '.a-icon-alt') ?? '']) {
    const s = normalizeText(text);
    const m = /5つ星のうち\s*([0-9](?:\.[0-9])?)/.exec(s) ?? /([0-9](?:\.[0-9])?)\s*out of 5/i.exec(s);
    const value = m ? Number(m[1]) : NaN;
    if (value >= 0 && value <= 5) return value;
  }
  return null;
}

const area = (size: unknown) =>
  Array.isArray(size) && typeof size[0] === 'number' && typeof size[1] === 'number' ? size[0] * size[1] : 0;

/** The main product image at its largest: data-old-hires, else the widest of data-a-dynamic-image, else src. */
function imagesOf(root: Root): { url: string; source: string } | null {
  // Books show their cover as #imgBlkFront, Kindle pages as #ebooksImgBlkFront.
  const found = ['#landingImage', '#imgBlkFront', '#ebooksImgBlkFront', '#imgTagWrapperId img']
    .map((selector) => ({ selector, img: first(root, selector) }))
    .find((candidate) => candidate.img !== null);
  if (!found?.img) return null;
  const { selector, img } = found;
  const hires = img.attribs['data-old-hires']?.trim();
  if (hires && /^https?:\/\//.test(hires)) return { url: hires, source: `selector:${selector}[data-old-hires]` };
  const dynamic = img.attribs['data-a-dynamic-image'];
  if (dynamic) {
    try {
      const sizes = JSON.parse(dynamic) as Record<string, [number, number]>;
      const widest = Object.entries(sizes)
        .filter(([url]) => /^https?:\/\//.test(url))
        .sort((a, b) => area(b[1]) - area(a[1]))[0];
      if (widest) return { url: widest[0], source: `selector:${selector}[data-a-dynamic-image]` };
    } catch {
      // A broken attribute leaves the plain src.
    }
  }
  const src = img.attribs.src?.trim();
  if (src && /^https?:\/\//.test(src)) return { url: src, source: `selector:${selector}[src]` };
  return null;
}
