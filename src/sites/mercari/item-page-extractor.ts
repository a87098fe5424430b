// メルカリ item pages as the web app renders them (browser route): the listing's own fields from its data-testid marks.
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import type { ItemData } from '../../extract/page-types.js';
import { first, firstText } from '../../extract/selectors.js';
import type { Element, ParentNode } from 'domhandler';
import { parsePrice, parseShipping } from '../../normalize/price.js';
import { mercariItemId } from './item-url.js';

const ID = 'mercari/item_rendered';

// The web app marks the parts of an item page with data-testid attributes (`name`, `price`, `checkout-button`, and
// the 商品の情報 table's rows by their Japanese labels: `商品の状態`, `配送料の負担` …). These selectors are written to
// that known structure; the fixtures that prove them are modelled on it, not recorded (see their meta notes).
// Personal data is never read: the seller block (`seller-link`), the description and the comments are not touched.
const SELECTORS = {
  title: '[data-testid="name"] h1',
  titleLoose: '[data-testid="name"]',
  price: '[data-testid="price"]',
  checkout: '[data-testid="checkout-button"]',
  condition: '[data-testid="商品の状態"]',
  shippingPayer: '[data-testid="配送料の負担"]',
  brand: '[data-testid="ブランド"]',
} as const;

const NEW_CONDITION = /^新品/;
// The buy button's words: 購入手続きへ while on sale; 売り切れました once sold (the app keeps the page up).
const SOLD = /売り切れ/;
const BUYABLE = /購入手続き/;

export const mercariItemPageExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'item',
  input: 'html',
  reads: 'a rendered HTML page',
  extract(page): Extraction {
    const root = page.document;
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    set('title', firstText(root, SELECTORS.title), `selector:${SELECTORS.title}`);
    set('title', firstText(root, SELECTORS.titleLoose), `selector:${SELECTORS.titleLoose}`);
    // The price and the buy button are read in the item's own block (the nearest one around its name that holds a
    // price): a sticky bar or a recommendation carousel repeating the price marks elsewhere is not this listing.
    const item = itemBlock(root);
    const priceText = firstText(item, SELECTORS.price);
    const parsed = priceText ? parsePrice(priceText) : null;
    if (parsed?.range) warnings.push('price: the price element shows a range; left out');
    else set('price', parsed?.amount, `selector:${SELECTORS.price}`);
    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) => `${ID}: no ${missing.join(' and ')} on the rendered page (data-testid name, price)`,
    );
    data.currency = 'JPY';
    provenance.currency = 'constant:JPY (jp.mercari.com sells in yen only)';
    data.price_tax = 'included';
    provenance.price_tax = 'constant:included (jp.mercari.com shows the item price as 税込)';

    const shipping = firstText(root, SELECTORS.shippingPayer);
    if (shipping) {
      // 送料込み(出品者負担) is in the price; 着払い(購入者負担) is paid on delivery, its amount not shown.
      const kind = /出品者負担|送料込/.test(shipping) ? 'included' : /購入者負担|着払/.test(shipping) ? 'extra' : null;
      set(
        'shipping',
        kind ?? (parseShipping(shipping) === 'unknown' ? null : parseShipping(shipping)),
        `selector:${SELECTORS.shippingPayer}`,
      );
    }

    const button = firstText(item, SELECTORS.checkout);
    if (button && SOLD.test(button)) set('availability', 'out_of_stock', `selector:${SELECTORS.checkout}`);
    else if (button && BUYABLE.test(button)) set('availability', 'in_stock', `selector:${SELECTORS.checkout}`);
    else warnings.push('availability: no buy button this extractor knows; left out');

    const condition = firstText(root, SELECTORS.condition);
    if (condition) {
      set('condition', NEW_CONDITION.test(condition) ? 'new' : 'used', `selector:${SELECTORS.condition}`);
      set('condition_text', condition, `selector:${SELECTORS.condition}`);
    }
    set('brand', firstText(root, SELECTORS.brand), `selector:${SELECTORS.brand}`);

    let id: string | null = null;
    try {
      id = mercariItemId(new URL(page.url));
    } catch {
      id = null;
    }
    set('sku', id, 'url:/item/<id>');
    set('canonical_url', id ? `https://jp.mercari.com/item/${id}` : null, 'url:/item/<id>');
    return { data, provenance, warnings };
  },
});

/** The nearest ancestor of the item's name that also holds a price mark; the whole page when there is no name. */
function itemBlock(root: ParentNode): ParentNode {
  let at: ParentNode | null = first(root, SELECTORS.titleLoose);
  while (at && at !== root) {
    if (first(at, SELECTORS.price)) return at;
    at = (at as Element).parent;
  }
  return root;
}
