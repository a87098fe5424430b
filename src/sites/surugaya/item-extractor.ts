// 駿河屋 item pages (/product/detail/<id>): the grades on sale (新品/中古 radios and その他の状態 links) as offers.
import type { Element } from 'domhandler';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { availabilityFromText, availabilityOf } from '../../extract/availability.js';
import { findProduct, parseJsonLd } from '../../extract/json-ld.js';
import { readMeta } from '../../extract/meta.js';
import { primaryOffer, primaryOfferSource } from '../../extract/offers.js';
import type { ItemData, OfferData } from '../../extract/page-types.js';
import { all, elementText, first, selectMany, textOf, type Selection } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { normalizeText } from '../../normalize/text.js';
import { SURUGAYA, conditionOf, leadingText, productIdOf, shopLink, yenOf } from './common.js';

const ID = 'surugaya/item';
const GRADES = 'selector:.price_group .item-price .form-check';
const BRANCHES = 'selector:.other-branch a.branch-info';

// The page's parts besides its <meta> (readMeta walks for those), read in one walk rather than a scan each.
const PARTS = {
  first: { title: '#item_title', saleName: '.flash_sale .flash_sale_title', waitButton: '.waitbtn' },
  all: {
    grades: '.price_group .item-price .form-check',
    branches: '.other-branch a.branch-info',
    shopLinks: 'a[href*="/shop/"]',
    tenpo: '#cart input[name="tenpo_cd"]',
  },
} as const;
type Parts = Selection<keyof typeof PARTS.first, keyof typeof PARTS.all>;

export const surugayaItemExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    // Marketplace pages write `"offers": ,` (an empty value) into their Product block; read the rest of it.
    const blocks = page.jsonLd.map((b) => b.replace(/("offers"\s*:\s*)(?=[,}])/g, '$1[]'));
    const jsonLd = parseJsonLd(blocks);
    warnings.push(...jsonLd.warnings);
    const product = findProduct(jsonLd.nodes);
    const meta = readMeta(page);
    const parts = selectMany(doc, PARTS);

    // The heading carries the category prefix (`アニメDVD<U+3000>もののけ姫`); JSON-LD's name lacks it, og:title wraps it.
    set('title', elementText(parts.first.title), 'selector:#item_title');
    set('title', product?.name ? normalizeText(product.name) || null : null, 'json-ld:name');

    const seller = sellerOf(parts);
    const stateNote = stateNoteOf(data.title);
    const offers: OfferData[] = [];
    const sources: string[] = [];

    // Grades sold here: one radio per grade, each label `中古 <grade>` with its price (a struck price-old beside a
    // time-sale price). A time sale is announced once per page (.flash_sale_title) for the struck prices.
    const saleName = elementText(parts.first.saleName);
    for (const grade of parts.all.grades) {
      const label = first(grade, 'label');
      if (!label) continue;
      const price = yenOf(first(label, '.price-buy')) ?? yenOf(first(label, '.price-sale'));
      if (!price) continue;
      const words = normalizeText(label.attribs['data-label'] ?? leadingText(label));
      const old = yenOf(first(label, '.price-old'));
      const offer: OfferData = {
        condition: conditionOf(words),
        price: price.amount,
        price_tax: price.tax,
        on_sale: old !== null && old.amount > price.amount,
      };
      const conditionText = [words, stateNote].filter(Boolean).join(' ');
      if (conditionText) offer.condition_text = conditionText;
      if (offer.on_sale) {
        offer.list_price = old!.amount;
        if (saleName) offer.sale_label = saleName;
      }
      addSeller(offer, seller);
      const stock = stockOf(label);
      if (stock) Object.assign(offer, stock);
      offers.push(offer);
      sources.push(GRADES);
    }

    // その他の状態を選ぶ: the same product in other grades (branch_number), each its own page; `※タイムセール`
    // marks a sale, a struck .price-default the price before it.
    for (const branch of parts.all.branches) {
      const price = yenOf(first(branch, '.price-sale')) ?? yenOf(first(branch, '.price-buy'));
      if (!price) continue;
      const raw = leadingText(branch);
      const timeSale = /※\s*(タイムセール)/.exec(raw);
      const words = normalizeText(raw.replace(/※\s*タイムセール/, ''));
      const before = yenOf(first(branch, '.price-default'));
      const offer: OfferData = {
        condition: conditionOf(words),
        price: price.amount,
        price_tax: price.tax,
        on_sale: Boolean(timeSale) || (before !== null && before.amount > price.amount),
      };
      if (words) offer.condition_text = words;
      if (before && before.amount > price.amount) offer.list_price = before.amount;
      if (timeSale) offer.sale_label = timeSale[1]!;
      addSeller(offer, seller);
      const href = branch.attribs.href;
      if (href && /^https?:\/\//.test(href)) offer.url = href;
      offers.push(offer);
      sources.push(BRANCHES);
    }

    const primary = primaryOffer(offers);
    const offerAt = (i: number) => `${sources[i]}[${sources.slice(0, i).filter((s) => s === sources[i]).length}]`;
    const ldPrices = (product?.offers ?? []).map((o) => o.price).filter((p): p is number => p !== null);
    if (primary) {
      const source =
        offers.length > 1 ? primaryOfferSource(primary, 'offers') + ` from ${offerAt(primary.index)}` : offerAt(0);
      set('price', primary.offer.price, source);
      set('price_tax', primary.offer.price_tax, `${offerAt(primary.index)} (its 税込 mark)`);
      // JSON-LD carries the price before a time sale: what the buyer is shown wins.
      const shown = new Set(offers.map((o) => o.price));
      const stale = ldPrices.filter((p) => !shown.has(p));
      if (stale.length > 0) {
        warnings.push(
          `json-ld:offers.price (${stale.join(', ')}) disagrees with the displayed 税込 prices; serving the displayed prices`,
        );
      }
    } else if (ldPrices.length > 0) {
      // Nothing displayed (a sold-out page keeps no price part): the structured price is all the page states.
      set('price', Math.min(...ldPrices), 'json-ld:offers.price (no displayed price)');
      set('price_tax', 'unknown', 'json-ld:offers (no tax statement)');
    }

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) => `${ID}: no ${missing.join(' and ')} found (#item_title, grade prices, その他の状態 links, json-ld)`,
    );
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price})`;

    if (primary) {
      const p = primary.offer;
      const from = offerAt(primary.index);
      set('list_price', p.list_price, `${from} .price-old/.price-default (struck pre-sale price)`);
      set('on_sale', p.on_sale, from);
      set('sale_label', p.sale_label, p.sale_label === saleName ? 'selector:.flash_sale_title' : from);
      set('condition', p.condition, from);
      set('condition_text', p.condition_text, from);
      set('availability', p.availability, from);
      set('availability_text', p.availability_text, from);
      if (offers.length > 1) set('offers', offers, `${GRADES} + ${BRANCHES}`);
    }
    const stockWords = availabilityFromText(elementText(parts.first.waitButton));
    set('availability', stockWords?.availability, 'selector:.waitbtn');
    set('availability_text', stockWords?.text, 'selector:.waitbtn');
    const ldAvailability = product?.offers.map((o) => availabilityOf(o.availability)).find((a) => a !== null);
    set('availability', ldAvailability, 'json-ld:offers.availability');

    set('shop', seller?.name, seller?.source ?? '');
    set('shop_url', seller?.url, seller?.source ?? '');
    set('brand', product?.brand ? normalizeText(product.brand) || null : null, 'json-ld:brand.name');
    set('jan', product?.gtin ? parseJan(product.gtin) : null, 'json-ld:gtin13');
    if (product?.gtin && !data.jan) warnings.push('jan: json-ld gtin fails its check digit; left out');
    const id = productIdOf(meta.canonical) ?? productIdOf(page.url);
    set('sku', id, meta.canonical && productIdOf(meta.canonical) ? 'link:canonical (product id)' : 'url (product id)');
    const images = meta.ogImages.length > 0 ? meta.ogImages : (product?.images ?? []);
    set('images', images.length > 0 ? images : null, meta.ogImages.length > 0 ? 'meta:og:image' : 'json-ld:image');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

interface Seller {
  name: string;
  url?: string;
  source: string;
}

/**
 * `この商品は、<a href="/shop/400438">…</a>が販売、発送します。` names a marketplace shop; without it the cart's
 * tenpo_cd is empty and the product is sold by 駿河屋 itself.
 */
function sellerOf(parts: Parts): Seller | null {
  for (const a of parts.all.shopLinks) {
    const parent = a.parent as Element | null;
    if (!parent || !/が販売、?発送します/.test(textOf(parent))) continue;
    const shop = shopLink(a);
    if (shop) return { ...shop, source: 'selector:a[href*="/shop/"] (この商品は、…が販売、発送します)' };
  }
  const tenpo = parts.all.tenpo[0];
  if (tenpo && (tenpo.attribs.value ?? '').trim() === '') {
    return { name: SURUGAYA, source: 'selector:#cart input[name=tenpo_cd] (empty: sold by 駿河屋 itself)' };
  }
  return null;
}

function addSeller(offer: OfferData, seller: Seller | null): void {
  if (!seller) return;
  offer.seller = seller.name;
  if (seller.url) offer.seller_url = seller.url;
}

/** `(状態：外箱欠品)` at the end of a marketplace title: the state of this copy, kept with the condition words. */
function stateNoteOf(title: string | undefined): string | null {
  const m = title ? /[(（](状態\s*[:：][^)）]+)[)）]\s*$/.exec(title) : null;
  return m ? normalizeText(m[1]!) : null;
}

/** A grade's stock tag (`在庫数：1`, 品切れ …): the site's own words, mapped onto the closed set. */
function stockOf(label: Element): Pick<OfferData, 'availability' | 'availability_text'> | null {
  for (const tag of all(label, '.tag_product')) {
    const text = textOf(tag);
    const words = availabilityFromText(text);
    if (words) return { availability: words.availability, availability_text: words.text };
    const count = /在庫数\s*[:：]\s*(\d+)/.exec(text);
    if (count) return { availability: Number(count[1]) > 0 ? 'in_stock' : 'out_of_stock', availability_text: text };
  }
  return null;
}
