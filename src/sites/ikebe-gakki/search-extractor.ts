// イケベ楽器店 search and category list pages (futureshop `.fs-c-productList`): one entry per listed product.
import { KumoError } from '../../errors.js';
import { availabilityFromText } from '../../extract/availability.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { readFutureshopList, type FutureshopListItem } from '../../extract/futureshop.js';
import type { ListData, ListItemData } from '../../extract/page-types.js';

const ID = 'ikebe_gakki/search';
// The futureshop product URL code ends the item link; イケベ's codes are all digits and equal its 商品番号.
const PRODUCT_CODE = /\/c\/(?:[A-Za-z0-9_-]+\/)+(\d+)\/?$/;

export const ikebeSearchExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'search',
  input: 'html',
  extract(page): Extraction {
    const warnings = [...(page.warnings ?? [])];
    const list = readFutureshopList(page);
    if (!list.found) {
      throw new KumoError('extraction_failed', `${ID}: no product list (futureshop .fs-c-productList) on the page`, {
        body: { fields: ['/items'] },
      });
    }
    const items: ListItemData[] = [];
    let untitled = 0;
    for (const entry of list.items) {
      const item = listItem(entry);
      if (item) items.push(item);
      else untitled++;
    }
    if (untitled > 0) warnings.push(`${untitled} list entries without a product name were left out`);

    const data: ListData = { items, next_page: list.nextHref, total: list.total, page: list.page };
    const provenance: Record<string, string> = {
      items: 'selector:.fs-c-productList__list .fs-c-productListItem',
      next_page: 'selector:.fs-c-pagination__item--next',
      total: 'selector:.fs-c-listControl__status__total',
      page: 'selector:.fs-c-pagination__item.is-active',
    };
    if (list.heading) {
      data.title = list.heading;
      provenance.title = 'selector:.fs-c-breadcrumb__listItem:last-child';
    }
    return { data, provenance, warnings };
  },
});

function listItem(entry: FutureshopListItem): ListItemData | null {
  if (!entry.name) return null;
  const item: ListItemData = { title: entry.name };
  if (entry.href) item.url = entry.href;

  // Same reading as the item page: the 消費税込 addon is the price when shown, the unlabelled main amount beside
  // it is the 税抜 one (the shop's CSS prints （税抜） after it).
  const selling = entry.selling;
  if (selling?.included != null) {
    Object.assign(item, { price: selling.included, currency: 'JPY', price_tax: 'included' });
    if (selling.excluded != null) item.price_excluding_tax = selling.excluded;
  } else if (selling?.excluded != null) {
    Object.assign(item, {
      price: selling.excluded,
      currency: 'JPY',
      price_tax: 'excluded',
      price_excluding_tax: selling.excluded,
    });
  } else if (selling?.unmarked != null) {
    Object.assign(item, { price: selling.unmarked, currency: 'JPY', price_tax: 'unknown' });
  }
  // メーカー希望小売価格 only on the price's own tax basis: a 税抜 list price beside a 税込 price is not comparable.
  const listed = entry.listed;
  const listPrice =
    item.price_tax === 'excluded'
      ? (listed?.excluded ?? listed?.unmarked)
      : item.price_tax === 'included'
        ? (listed?.included ?? listed?.unmarked)
        : null;
  if (listPrice != null) item.list_price = listPrice;
  if (entry.points !== null) item.points = entry.points;

  if (entry.stock) {
    const words = availabilityFromText(entry.stock.text);
    // The notice part itself says which state it is; its words (イケベ writes `SOLD`) need not be stock words.
    item.availability = words?.availability ?? (entry.stock.kind === 'out' ? 'out_of_stock' : 'limited');
    if (entry.stock.text) item.availability_text = entry.stock.text;
  }
  // イケベ puts the maker in the catch copy and writes "unknown" when there is none (as on item pages).
  if (entry.catchCopy && !/^unknown$/i.test(entry.catchCopy)) item.brand = entry.catchCopy;
  const code = entry.href ? PRODUCT_CODE.exec(new URL(entry.href).pathname)?.[1] : undefined;
  if (code) item.sku = code;
  if (entry.image) item.images = [entry.image];
  return item;
}
