// The futureshop platform's product-detail and product-list parts (`.fs-c-*` system parts), shared by every shop on it.
import { isTag, type Element } from 'domhandler';
import type { HtmlPage } from '../normalize/page.js';
import { parsePrice, taxMarkerOf, type TaxStatus } from '../normalize/price.js';
import { all, elementText, first, firstText, selectMany, textOf } from './selectors.js';

/** One price row read with its labels: which amount the page marks 税込, which 税抜, which neither. */
export interface PriceReading {
  included: number | null;
  excluded: number | null;
  unmarked: number | null;
}

export interface FutureshopProduct {
  name: string | null;
  /** The catch copy printed before the name (shops use it for the maker, a series, a slogan …). */
  catchCopy: string | null;
  /** 商品番号 */
  productNumber: string | null;
  selling: PriceReading | null;
  listed: PriceReading | null;
  points: number | null;
  postage: string | null;
  outOfStock: boolean;
  images: string[];
}

// Detail-page parts only: list items (`.fs-c-productListItem`) and recommendation blocks reuse the same classes.
const DETAIL = '.fs-c-productPrices--productDetail';

// The detail page's parts, read in one walk of the page rather than one scan each.
const PRODUCT_PARTS = {
  first: {
    prices: DETAIL,
    name: '.fs-c-productNameHeading__name',
    catchCopy: '.fs-c-productNameHeading__copy',
    productNumber: '.fs-c-productNumber__number',
    points: '.fs-c-productPointDisplay__quantity',
    postage: '.fs-c-productPostage',
    outOfStock: '.fs-c-productNotice--outOfStock',
  },
  all: {
    images:
      '.fs-c-productCarouselMainImage__image img[src], .fs-c-productMainImage__image img[src], .fs-c-productImage__image[src]',
  },
} as const;

export function readFutureshopProduct(page: HtmlPage): FutureshopProduct {
  const doc = page.document;
  const parts = selectMany(doc, PRODUCT_PARTS);
  // Without the wrapper (some layouts drop it), rows are taken from the page, list items excepted.
  const prices = parts.first.prices ?? firstOutsideLists(doc, '.fs-c-productPrices');
  const row = (modifier: string) =>
    prices
      ? first(prices, `.fs-c-productPrice--${modifier}`)
      : firstOutsideLists(doc, `.fs-c-productPrice--${modifier}`);
  return {
    name: elementText(parts.first.name),
    catchCopy: elementText(parts.first.catchCopy),
    productNumber: elementText(parts.first.productNumber),
    selling: readRow(row('selling')),
    listed: readRow(row('listed')),
    points: integerOf(elementText(parts.first.points)),
    postage: elementText(parts.first.postage),
    outOfStock: parts.first.outOfStock !== null,
    images: [
      ...new Set(
        parts.all.images
          .filter((img) => !insideList(img))
          .map((img) => img.attribs.src ?? '')
          .filter((src) => /^https?:\/\//.test(src)),
      ),
    ],
  };
}

/**
 * A futureshop price row is `__main` (label + amount) and optionally `__addon` (label + amount, or a label alone
 * that qualifies the main amount). Shops set to 税抜 display show the 本体 amount as main and the 税込 amount
 * in the addon; when the addon is marked 税込 and larger, the unmarked main amount is the 税抜 one.
 */
function readRow(row: Element | null): PriceReading | null {
  if (!row) return null;
  const mainEl = first(row, '.fs-c-productPrice__main');
  const addonEl = first(row, '.fs-c-productPrice__addon');
  const main = amountOf(mainEl ? first(mainEl, '.fs-c-price') : null);
  const addon = amountOf(addonEl ? first(addonEl, '.fs-c-price') : null);
  let mainTax: TaxStatus = taxMarkerOf(firstText(row, '.fs-c-productPrice__main__label') ?? '');
  const addonLabel = addonEl ? (firstText(addonEl, '.fs-c-productPrice__addon__label') ?? textOf(addonEl)) : '';
  const addonTax = taxMarkerOf(addonLabel);
  if (addon === null && mainTax === 'unknown') mainTax = addonTax;
  if (addon !== null && main !== null && mainTax === 'unknown') {
    if (addonTax === 'included' && main < addon) mainTax = 'excluded';
    else if (addonTax === 'excluded' && main > addon) mainTax = 'included';
  }
  const reading: PriceReading = { included: null, excluded: null, unmarked: null };
  const put = (amount: number | null, tax: TaxStatus) => {
    if (amount === null) return;
    const key = tax === 'included' ? 'included' : tax === 'excluded' ? 'excluded' : 'unmarked';
    reading[key] ??= amount;
  };
  put(main, mainTax);
  if (addon !== null) put(addon, addonTax);
  return reading.included === null && reading.excluded === null && reading.unmarked === null ? null : reading;
}

function amountOf(el: Element | null): number | null {
  if (!el) return null;
  return parsePrice(textOf(el)).amount;
}

function integerOf(text: string | null): number | null {
  if (!text) return null;
  const digits = text.replace(/,/g, '');
  return /^\d+$/.test(digits) ? Number(digits) : null;
}

function insideList(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (isTag(p) && /\bfs-c-productListItem\b/.test(p.attribs.class ?? '')) return true;
  }
  return false;
}

function firstOutsideLists(doc: HtmlPage['document'], selector: string): Element | null {
  return all(doc, selector).find((el) => !insideList(el)) ?? null;
}

/** One entry of a futureshop product list (`.fs-c-productList__list` > `.fs-c-productListItem`). */
export interface FutureshopListItem {
  name: string | null;
  catchCopy: string | null;
  /** The product link as the normalized page has it (absolute). */
  href: string | null;
  selling: PriceReading | null;
  listed: PriceReading | null;
  points: number | null;
  /** The stock notice the list shows (`__outOfStock` / `__lowInStock`), with its own words. */
  stock: { kind: 'out' | 'low'; text: string | null } | null;
  image: string | null;
  /** The one-line description part (shops put sale names there). */
  description: string | null;
}

export interface FutureshopList {
  /** False when the page has no product-list part at all (not a list page). */
  found: boolean;
  items: FutureshopListItem[];
  /** `N件中` of the list control. */
  total: number | null;
  /** The active pagination item. */
  page: number | null;
  nextHref: string | null;
  /** The last breadcrumb item: what the list is of (`新品 商品一覧`, a category name). */
  heading: string | null;
}

// The search/category result parts. Recommendation carousels (`.fs-c-productListCarousel`) reuse
// `.fs-c-productListItem` but are never inside `.fs-c-productList__list`.
const LIST = '.fs-c-productList';
const LIST_ITEMS = '.fs-c-productList__list .fs-c-productListItem';
// Lazy-loading shops put the real image in a data attribute and a placeholder in src.
const LAZY_ATTRS = ['data-layzr', 'data-lazy', 'data-src', 'data-original'] as const;

// The list page's parts outside the items, read in one walk of the page.
const LIST_PARTS = {
  first: {
    list: LIST,
    listList: '.fs-c-productList__list',
    total: '.fs-c-listControl__status__total',
    activePage: '.fs-c-pagination .fs-c-pagination__item.is-active',
    next: '.fs-c-pagination a.fs-c-pagination__item--next[href]',
  },
  all: { items: LIST_ITEMS, crumbs: '.fs-c-breadcrumb__listItem' },
} as const;

// An item's parts, read in one walk of the item (an item is small, but a list page has dozens).
const ITEM_PARTS = {
  first: {
    prices: '.fs-c-productPrices',
    out: '.fs-c-productListItem__outOfStock',
    low: '.fs-c-productListItem__lowInStock',
    name: '.fs-c-productName__name',
    catchCopy: '.fs-c-productName__copy',
    nameLink: '.fs-c-productName a[href]',
    imageLink: '.fs-c-productImage a[href]',
    points: '.fs-c-productPointDisplay__quantity',
    image: 'img.fs-c-productImage__image, .fs-c-productImage img',
    description: '.fs-c-productListItem__productDescription',
  },
} as const;

export function readFutureshopList(page: HtmlPage): FutureshopList {
  const parts = selectMany(page.document, LIST_PARTS);
  const container = parts.first.list ?? parts.first.listList;
  if (!container) return { found: false, items: [], total: null, page: null, nextHref: null, heading: null };
  const items = parts.all.items.map((item): FutureshopListItem => {
    const own = selectMany(item, ITEM_PARTS).first;
    const prices = own.prices;
    const out = own.out;
    const low = out ? null : own.low;
    const notice = out ?? low;
    const noticeText = notice ? textOf(notice) : '';
    return {
      name: elementText(own.name),
      catchCopy: elementText(own.catchCopy),
      href: linkOf(own.nameLink ?? own.imageLink, page.url),
      selling: prices ? readRow(first(prices, '.fs-c-productPrice--selling')) : null,
      listed: prices ? readRow(first(prices, '.fs-c-productPrice--listed')) : null,
      points: integerOf(elementText(own.points)),
      stock: notice ? { kind: out ? 'out' : 'low', text: noticeText === '' ? null : noticeText } : null,
      image: imageOf(own.image, page.url),
      description: elementText(own.description),
    };
  });
  const totalText = elementText(parts.first.total);
  const crumbs = parts.all.crumbs;
  const lastCrumb = crumbs[crumbs.length - 1];
  return {
    found: true,
    items,
    total: totalText ? integerOf(totalText.replace(/件.*$/, '').trim()) : null,
    page: integerOf(elementText(parts.first.activePage)),
    nextHref: linkOf(parts.first.next, page.url),
    heading: lastCrumb ? textOf(lastCrumb) || null : null,
  };
}

function linkOf(el: Element | null, base: string): string | null {
  return absoluteUrl(el?.attribs.href, base);
}

function absoluteUrl(value: string | undefined, base: string): string | null {
  const href = value?.trim();
  if (!href) return null;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function imageOf(img: Element | null, base: string): string | null {
  if (!img) return null;
  const lazy = LAZY_ATTRS.map((name) => img.attribs[name]).find((v) => v?.trim());
  return absoluteUrl(lazy ?? img.attribs.src, base);
}
