// メルカリ item pages from the items/get API answer: the listing's own fields only, never the people around it.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import type { ItemData } from '../../extract/page-types.js';
import { parseShipping } from '../../normalize/price.js';
import { normalizeText } from '../../normalize/text.js';
import { yen } from '../../normalize/yen.js';
import { isMercariItemId, requestedItemId } from './item-url.js';

const ID = 'mercari/item';

// Personal data (DESIGN: not extracted): the answer also carries `seller` (name, photo, ratings, SMS check date),
// `buyer`, `comments` (with their authors) and the free-text `description`, which sellers fill with addresses,
// names and phone numbers. None of them is read here, not even as a fallback, and no detail quotes any value.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const t = normalizeText(value);
  return t === '' ? null : t;
}

// The listing states the recordings show: items/get's `on_sale` and `sold_out`, `trading` (bought, being shipped: not
// buyable; in the seller-listing request's status filter `on_sale,trading,sold_out`), and the search API's enum
// spelling of the same (`ITEM_STATUS_ON_SALE` …). Any other state is left out with a warning rather than guessed.
const STATUS: ReadonlyMap<string, NonNullable<ItemData['availability']>> = new Map([
  ['on_sale', 'in_stock'],
  ['trading', 'out_of_stock'],
  ['sold_out', 'out_of_stock'],
]);

// 価格なし出品: a listing without a price, on which buyers make offers. The search API marks it `isNoPrice: true` and
// fills price with 9999999, Mercari's highest price (take-kun/mercapi cassette test_search_no_price_item, 2024); the
// item answer spells its fields in snake_case. That number is a placeholder, never a price.
const NO_PRICE_PLACEHOLDER = 9_999_999;

/** True when the item says it has no price, or carries the placeholder without saying it is a real price. */
function isNoPriceListing(item: Json, amount: number | undefined): boolean {
  const flag = item.is_no_price ?? item.isNoPrice;
  if (flag === true || flag === 'yes' || flag === 'true') return true;
  return amount === NO_PRICE_PLACEHOLDER && flag !== false && flag !== 'no' && flag !== 'false';
}

// Mercari's fixed condition list (its facet ids 1–6): only 1 is new; 未使用に近い (2) is a used item by its own words.
const NEW_CONDITION = /^新品/;

/** An error answer instead of an item: `{result: "error", errors: [{code, message}]}` or a bare `{code|error}`. */
function isErrorBody(body: Json): boolean {
  if ('result' in body && (typeof body.result !== 'string' || body.result.toUpperCase() !== 'OK')) return true;
  return 'errors' in body || 'error' in body || ('code' in body && !('data' in body));
}

export const mercariItemExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'item',
  input: 'json',
  reads: "the item API's JSON",
  extract(page): Extraction {
    const body = page.json;
    if (!isObject(body)) throw new KumoError('extraction_failed', `${ID}: the API answer is not a JSON object`);
    if (isErrorBody(body)) {
      throw new KumoError('extraction_failed', `${ID}: the item API answered with an error instead of an item`, {
        body: { fields: ['/result'] },
      });
    }
    const item = body.data;
    if (!isObject(item)) {
      throw new KumoError('extraction_failed', `${ID}: the API answer has no item (data)`, {
        body: { fields: ['/data'] },
      });
    }
    // The answer must be the item the page URL names: another item's data is never served under this URL.
    const asked = requestedItemId(page.url);
    if (asked !== null && item.id !== undefined && item.id !== asked) {
      throw new KumoError('extraction_failed', `${ID}: the API answered for another item than the page URL names`, {
        body: { fields: ['/sku'] },
      });
    }
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    set('title', text(item.name), 'json:$.data.name');
    // items/get gives the price as an integer, the search API the same amount as a string ("23000"): both are read by
    // the shared whole-yen rule, and the provenance says which it was.
    const price = yen(item.price);
    if (isNoPriceListing(item, price ?? undefined)) {
      throw new KumoError('extraction_failed', `${ID}: the listing has no price (a no-price listing takes offers)`, {
        body: { fields: ['/price'] },
      });
    }
    set('price', price, typeof item.price === 'string' ? 'json:$.data.price (numeric string)' : 'json:$.data.price');

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) => `${ID}: no ${missing.join(' and ')} in the item (data.name, data.price)`,
    );
    // An auction (include_auction=true adds auction_info): data.price is the current bid, the amount the page
    // shows, and highest_bid has always equalled it in the recordings (items/get and the search API alike). The
    // price may still rise, which the buyer is told; a disagreement is reported, not resolved by guessing.
    const auction = isObject(item.auction_info) ? item.auction_info : null;
    if (auction) {
      provenance.price += ' (an auction: the current bid)';
      warnings.push('price: an auction listing; the price is the current bid and may rise until the auction ends');
      const bid = yen(auction.highest_bid);
      if (bid !== null && bid > 0 && bid !== data.price) {
        warnings.push('price: data.auction_info.highest_bid disagrees with data.price; serving data.price');
      }
    }
    data.currency = 'JPY';
    provenance.currency = 'constant:JPY (jp.mercari.com sells in yen only)';
    // The price is what the buyer pays: the item page prints it as ¥8,000 (税込), and the API amount is that number.
    data.price_tax = 'included';
    provenance.price_tax = 'constant:included (jp.mercari.com shows the item price as 税込)';

    const payer = isObject(item.shipping_payer) ? item.shipping_payer : null;
    const payerCode = typeof payer?.code === 'string' ? payer.code.toLowerCase() : null;
    // seller = 送料込み(出品者負担): the price includes delivery; buyer = 着払い(購入者負担): the carrier's fee is
    // paid on delivery, its amount unknown here (shipping_class.fee is what the seller's label costs, not the buyer's).
    if (payerCode === 'seller') set('shipping', 'included', 'json:$.data.shipping_payer.code');
    else if (payerCode === 'buyer') set('shipping', 'extra', 'json:$.data.shipping_payer.code');
    const payerName = text(payer?.name);
    const byName = payerName ? parseShipping(payerName) : 'unknown';
    if (byName !== 'unknown') set('shipping', byName, 'json:$.data.shipping_payer.name');

    const status = text(item.status);
    const statusKey = status?.replace(/^ITEM_STATUS_/i, '').toLowerCase();
    const availability = statusKey ? STATUS.get(statusKey) : undefined;
    if (status && availability) {
      set('availability', availability, 'json:$.data.status');
      set('availability_text', status, 'json:$.data.status');
    } else if (status) {
      warnings.push('availability: the item status is not one this extractor knows; left out');
    }

    const condition = isObject(item.item_condition) ? item.item_condition : null;
    const conditionText = text(condition?.name);
    if (conditionText) {
      set('condition', NEW_CONDITION.test(conditionText) ? 'new' : 'used', 'json:$.data.item_condition.name');
      set('condition_text', conditionText, 'json:$.data.item_condition.name');
    }

    const brand = isObject(item.item_brand) ? item.item_brand : null;
    set('brand', text(brand?.name), 'json:$.data.item_brand.name');

    // A shop, only for Mercari Shops listings (a business, marked by the API): a private seller's name is never a
    // shop. The shop object's `name` is its internal id in the Shops API; the name people see is its display name.
    if (item.is_shop_item === 'yes' || item.is_shop_item === true) {
      const shop = isObject(item.shop) ? item.shop : null;
      set('shop', text(shop?.display_name), 'json:$.data.shop.display_name');
      set('shop', text(shop?.displayName), 'json:$.data.shop.displayName');
    }

    const id = isMercariItemId(item.id) ? item.id : null;
    set('sku', id, 'json:$.data.id');
    set('canonical_url', id ? `https://jp.mercari.com/item/${id}` : null, 'json:$.data.id (jp.mercari.com/item/<id>)');
    if (!id) warnings.push('sku: the item id is missing or not m<digits>; no sku or canonical_url');

    const photos = Array.isArray(item.photos)
      ? item.photos.filter((p): p is string => typeof p === 'string' && /^https:\/\/[^\s]+$/.test(p))
      : [];
    set('images', photos.length > 0 ? photos : null, 'json:$.data.photos');

    return { data, provenance, warnings };
  },
});
