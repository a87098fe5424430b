// NETSEA item lists (search, supplier and category results): the `.showcaseType01` cards of `.showcaseWrap`.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { availabilityFromText } from '../../extract/availability.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { ListData, ListItemData } from '../../extract/page-types.js';
import { elementText, first, selectMany, textOf } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { normalizeText } from '../../normalize/text.js';
import type { HtmlPage } from '../../normalize/page.js';
import { parsePrice, type ParsedPrice } from '../../normalize/price.js';

const ID = 'netsea/search';
// The results area is there on every list page, also when nothing matched; the cards sit in `.showcaseWrap`.
const RESULTS = '#searchResultsArea, .showcaseWrap';
const CARDS = '.showcaseWrap .showcaseType01';
const ITEM_PATH = /^\/shop\/(\d+)\/([^/]+)\/?$/;
const SUPPLIER_PATH = /^\/shop\/\d+\/?$/;
// Badges NETSEA prints inside the item link before the name (`NEW`, …): not part of the name.
const TITLE_BADGE = /\blabelType\d+\b/;

// The page's parts, read in one walk of it; each card's parts in one walk of the card.
const PAGE_PARTS = {
  first: {
    results: RESULTS,
    status: '.paginationTxt',
    current: '.paginationNav li.current',
    next: '.paginationNav li.next a[href]',
    heading: 'h1.supplierHd',
  },
  all: { cards: CARDS },
} as const;
const CARD_PARTS = {
  first: {
    linkWithHref: '.showcaseHd a[href]',
    link: '.showcaseHd a',
    box: '.priceBox',
    retail: '.retailPrice',
    balloon: '.discountPop .discountBalloon',
    brand: '.showcaseBrandName',
    supplierLink: '.showcaseSupName a[href]',
    supplierButton: 'a.showcaseSupInfoBtn[href]',
    supplierName: '.showcaseSupName',
    supplierInfoName: '.showcaseSupInfoName',
    soldOut: '.showcaseItemsImgBlock.ItemsSoldout',
    notice: '.exclamNoticeMsg',
    image: 'img.itemsThum',
  },
} as const;

export const netseaSearchExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'search',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];
    const parts = selectMany(doc, PAGE_PARTS);
    if (!parts.first.results) {
      throw new KumoError('extraction_failed', `${ID}: no item list (#searchResultsArea, .showcaseWrap) on the page`, {
        body: { fields: ['/items'] },
      });
    }
    const items: ListItemData[] = [];
    let untitled = 0;
    for (const card of parts.all.cards) {
      const item = cardItem(card, page);
      if (item) items.push(item);
      else untitled++;
    }
    if (untitled > 0) warnings.push(`${untitled} cards without an item name were left out`);

    // `1から60件／全9,487件中`
    const status = elementText(parts.first.status);
    const total = status ? /全\s*([\d,]+)\s*件/.exec(status)?.[1] : undefined;
    // The page counts results but holds no item card we know (another card template, e.g. the account pages'
    // `.showcaseType03`): an empty list would be a wrong answer, not an empty result.
    if (items.length === 0 && untitled === 0 && total && Number(total.replace(/,/g, '')) > 0) {
      throw new KumoError('extraction_failed', `${ID}: the page counts results but no item card was read`, {
        body: { fields: ['/items'] },
      });
    }
    const current = elementText(parts.first.current);
    const data: ListData = {
      items,
      next_page: absolute(parts.first.next?.attribs.href, page.url),
      total: total ? Number(total.replace(/,/g, '')) : status && /^0件/.test(status) ? 0 : null,
      page: current && /^\d+$/.test(current) ? Number(current) : null,
    };
    const provenance: Record<string, string> = {
      items: `selector:${CARDS}`,
      next_page: 'selector:.paginationNav li.next a',
      total: 'selector:.paginationTxt',
      page: 'selector:.paginationNav li.current',
    };
    // A supplier's list is headed by the supplier (a company: NETSEA suppliers are businesses).
    const heading = parts.first.heading;
    const title = heading ? textOf(heading) : '';
    if (title !== '') {
      data.title = title;
      provenance.title = 'selector:h1.supplierHd';
    }
    return { data, provenance, warnings };
  },
});

function cardItem(card: Element, page: HtmlPage): ListItemData | null {
  const own = selectMany(card, CARD_PARTS).first;
  const link = own.linkWithHref ?? own.link;
  const title = link ? titleOf(link) : '';
  if (title === '') return null;
  const item: ListItemData = { title };

  const href = absolute(link?.attribs.href, page.url);
  const path = href ? ITEM_PATH.exec(new URL(href).pathname) : null;
  if (href) {
    // The query only carries search tracking (cx_search, fw tokens); the path names the item.
    const url = new URL(href);
    if (path) url.search = '';
    item.url = url.href;
  }

  // Wholesale price: `.afterPrice` is the sale price when the supplier discounts, `.price` otherwise (struck beside
  // it during a sale). A box without a yen amount is a price withheld (logged out, or shown only after 取引申請).
  const box = own.box;
  const sale = box ? priceIn(first(box, '.afterPrice')) : null;
  const regular = box ? priceIn(first(box, '.price')) : null;
  const shown = sale ?? regular;
  if (shown?.amount != null) {
    item.price = shown.amount;
    item.currency = 'JPY';
    item.price_tax = shown.tax;
    if (shown.tax === 'excluded') item.price_excluding_tax = shown.amount;
    else if (shown.price_excluding_tax !== undefined) item.price_excluding_tax = shown.price_excluding_tax;
    // メーカー希望小売価格 only on the same tax basis and per the same unit as the price (NETSEA writes both 税抜,
    // `/点`; a wholesale price per `/セット` is not comparable with a retail price per piece).
    const retailEl = own.retail;
    const retail = priceIn(retailEl);
    const shownEl = first(box!, sale ? '.afterPrice' : '.price');
    if (retail?.amount != null && retail.tax === shown.tax && unitOf(retailEl) === unitOf(shownEl))
      item.list_price = retail.amount;
    if (sale?.amount != null) {
      item.on_sale = true;
      // The card's discount balloon (`45%OFF中（あと1日！）`) sits above the price box; its tooltip (終了日時) is
      // not part of the label.
      const label = elementText(own.balloon) ?? elementText(first(box!, '.discountRate'));
      if (label) item.sale_label = label;
    }
  }

  const brand = elementText(own.brand);
  if (brand) item.brand = brand;
  // Supplier lists name the supplier in `.showcaseSupName` (linked to its company page); search lists print a
  // `.showcaseSupInfoBtn` button to the supplier's own list with the name in `.showcaseSupInfoName`.
  const supplier = own.supplierLink ?? own.supplierButton;
  const shop = elementText(own.supplierName) ?? elementText(own.supplierInfoName);
  if (shop) item.shop = shop;
  const shopUrl = absolute(supplier?.attribs.href, page.url);
  if (shopUrl) {
    // The button carries the search's filters (`?disc_flg=Y&searched=Y`): the supplier is its path.
    const url = new URL(shopUrl);
    if (SUPPLIER_PATH.test(url.pathname)) url.search = '';
    item.shop_url = url.href;
  }
  // The last path part is the supplier's product code; suppliers often use the JAN for it.
  const code = path?.[2] ? decodeURIComponent(path[2]) : null;
  if (code) {
    item.sku = code;
    const jan = parseJan(code);
    if (jan && jan === code) item.jan = jan;
  }
  // A sold-out card marks its image block (`showcaseItemsImgBlock ItemsSoldout`, the slot every card's class list
  // leaves open); the words, when the card prints them, are its notice (品切れになりました).
  if (own.soldOut) {
    const words = elementText(own.notice);
    item.availability = (words ? availabilityFromText(words)?.availability : undefined) ?? 'out_of_stock';
    if (words) item.availability_text = words;
  }
  const img = own.image;
  const image = absolute(img?.attribs['data-src'] ?? img?.attribs.src, page.url);
  if (image) item.images = [image];
  return item;
}

/** The item link's text without the badge spans before the name. */
function titleOf(link: Element): string {
  let out = '';
  const walk = (node: AnyNode) => {
    if (isText(node)) out += node.data;
    else if (isTag(node)) {
      if (node !== link && TITLE_BADGE.test(node.attribs.class ?? '')) return;
      if (node.name === 'br') out += ' ';
      node.children.forEach(walk);
    }
  };
  walk(link);
  return normalizeText(out);
}

function priceIn(el: Element | null): ParsedPrice | null {
  if (!el) return null;
  const text = textOf(el);
  // Only a yen amount is a price: withheld prices are sentences (会員登録…), and counts (1点から) are not money.
  if (!/[円¥]/.test(text)) return null;
  const price = parsePrice(text);
  return price.amount === null ? null : price;
}

/** The unit a NETSEA price is per (`30,556円/点(税抜)` → 点), null when none is written. */
function unitOf(el: Element | null): string | null {
  if (!el) return null;
  return /\/\s*([^\s(（]+)/.exec(textOf(el))?.[1] ?? null;
}

function absolute(value: string | undefined, base: string): string | null {
  const href = value?.trim();
  if (!href || href.startsWith('javascript:')) return null;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
