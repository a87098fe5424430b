// 駿河屋 取り扱い店舗一覧 (/product/other/<id>): every offer of one product, from the 全て tab, in page order.
import type { Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { ListData, ListItemData } from '../../extract/page-types.js';
import { attrOf, elementText, first, selectMany } from '../../extract/selectors.js';
import { parsePrice } from '../../normalize/price.js';
import { parseNumeral, decimalToNumber } from '../../normalize/number.js';
import { normalizeText } from '../../normalize/text.js';
import { POSTAGE_ROWS, SURUGAYA, childTags, conditionOf, postageOf, productIdOf, shopLink, yenOf } from './common.js';

const ID = 'surugaya/offers';
const ROWS = '#tbl_all tr.item';
const HEADING_SUFFIX = /\s*の取り?扱い店舗一覧\s*$/;

// The page's parts, read in one walk of it; each offer row's parts in one walk of the row.
const PAGE_PARTS = {
  first: { table: '#tbl_all', heading: 'h1.title_product', total: '.total_all', range: '.price_product' },
  all: { rows: ROWS },
} as const;
const ROW_PARTS = {
  first: {
    link: 'a[href*="/product/detail/"]',
    condition: 'h2.title_product',
    shop: '.space_text_1 a',
  },
  all: {
    addCarts: '.add-cart',
    itemImages: 'img.item-image',
    branchImages: '.images_branch img',
    postage: POSTAGE_ROWS,
  },
} as const;

export const surugayaOffersExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'offers',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];
    const parts = selectMany(doc, PAGE_PARTS);
    if (!parts.first.table) {
      throw new KumoError('extraction_failed', `${ID}: no offers table (#tbl_all) found`, {
        body: { fields: ['/items'] },
      });
    }
    const heading = elementText(parts.first.heading);
    const product = heading ? normalizeText(heading.replace(HEADING_SUFFIX, '')) || null : null;

    const items: ListItemData[] = [];
    parts.all.rows.forEach((row, i) => {
      const item = offerRow(row, product);
      if (item) items.push(item);
      else warnings.push(`${ROWS}[${i}]: no price or no product name; left out`);
    });

    const data: ListData = { items, next_page: null, total: null, page: null };
    const provenance: Record<string, string> = {
      items: `${ROWS} (title: the product of h1.title_product; price: strong.text-red; list_price: .text-line-through; condition: h2.title_product; seller: .space_text_1 a[href*=/shop/], else 駿河屋 when the cart's data-tenpo_cd is empty; postage: .campaign_price; tax: 駿河屋 prices are 税込, its item pages mark them so)`,
      // All offers are on the one page (the tab counts match its rows): there is no next page.
      next_page: 'constant:null (the 全て tab lists every offer)',
    };
    if (product) {
      data.title = product;
      provenance.title = 'selector:h1.title_product (without の取り扱い店舗一覧)';
    }
    const total = countOf(elementText(parts.first.total));
    if (total !== null) {
      data.total = total;
      provenance.total = 'selector:.total_all';
      if (total !== items.length) warnings.push(`total: the 全て tab says ${total}, the page lists ${items.length}`);
    } else provenance.total = 'constant:null (no 全て count)';
    provenance.page = 'constant:null (one page)';
    const range = parsePrice(elementText(parts.first.range) ?? '');
    const bounds = items.map((it) => it.price).filter((p): p is number => p !== undefined);
    if (range.range && bounds.length > 0) {
      data.price_range = { min: Math.min(...bounds), max: Math.max(...bounds) };
      provenance.price_range = 'selector:.price_product (価格：… ~ …), bounds of the listed offers';
      if (data.price_range.min !== range.amount)
        warnings.push('price_range: the page heading and the listed offers disagree');
    }
    return { data, provenance, warnings };
  },
});

function offerRow(row: Element, product: string | null): ListItemData | null {
  // The first cell holds the price (and the struck price before a sale); later cells hold other amounts (postage).
  const priceCell = childTags(row, 'td')[0] ?? row;
  const price = yenOf(first(priceCell, 'strong.text-red'));
  const own = selectMany(row, ROW_PARTS);
  const title = product ?? attrOf(own.all.itemImages, 'alt');
  if (!price || !title) return null;
  const item: ListItemData = {
    title: normalizeText(title),
    price: price.amount,
    currency: 'JPY',
    price_tax: price.tax === 'unknown' ? 'included' : price.tax,
  };
  const link = own.first.link;
  if (link?.attribs.href && /^https?:\/\//.test(link.attribs.href)) item.url = link.attribs.href;
  const conditionText = elementText(own.first.condition);
  if (conditionText) {
    item.condition = conditionOf(conditionText);
    item.condition_text = conditionText;
  }
  const old = yenOf(first(priceCell, '.text-line-through'));
  item.on_sale = old !== null && old.amount > price.amount;
  if (item.on_sale) item.list_price = old!.amount;

  const shop = shopLink(own.first.shop);
  if (shop) {
    item.shop = shop.name;
    item.shop_url = shop.url;
  } else if ((attrOf(own.all.addCarts, 'data-tenpo_cd') ?? '') === '' && own.all.addCarts.length > 0) {
    item.shop = SURUGAYA;
  }
  const postage = postageOf(own.all.postage);
  if (postage) {
    item.shipping = postage.shipping;
    if (postage.fee !== undefined) item.shipping_fee = postage.fee;
    if (postage.threshold !== undefined) item.free_shipping_threshold = postage.threshold;
  }
  const productId = productIdOf(item.url);
  if (productId) item.sku = productId;
  const image = attrOf(own.all.branchImages, 'src');
  if (image && /^https?:\/\//.test(image)) item.images = [image];
  return item;
}

function countOf(text: string | null): number | null {
  if (!text) return null;
  const value = parseNumeral(text.replace(/,/g, ''));
  const n = value ? decimalToNumber(value) : null;
  return n !== null && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
