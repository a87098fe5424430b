// ヨドバシ.com item pages: the server-rendered price block and buy box (#js_scl_*, #js_buyBoxMain), JSON-LD when present.
import { isTag, type Element } from 'domhandler';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { requireFields, startDraft } from '../../extract/draft.js';
import { listPriceIn, listPriceInRows, type ListPrice } from '../../extract/reference-price.js';
import { decidePrice } from '../../extract/shown-price.js';
import { readStructuredProduct, structuredPrice } from '../../extract/structured-product.js';
import { availabilityFromText, availabilityOf, type StockWords } from '../../extract/availability.js';
import { readMeta } from '../../extract/meta.js';
import type { ItemData } from '../../extract/page-types.js';
import { all, allTexts, elementText, first, firstAttr, firstText, textOf, type Root } from '../../extract/selectors.js';
import { parseJan } from '../../normalize/identifiers.js';
import { parsePoints, type ParsedPoints } from '../../normalize/points.js';
import { parsePrice, taxMarkerOf, type TaxStatus } from '../../normalize/price.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'yodobashi/item';
const SITE_NAME = 'ヨドバシ.com';

// The selling price: #js_scl_unitPrice (span.productPrice, "￥139,800") is what every public scraper of the site
// reads; #js_scl_salesPrice is the id the same block uses on sale pages.
const PRICE_SELECTORS = ['#js_scl_unitPrice', '#js_scl_salesPrice'] as const;
// Points: "13,980 ゴールドポイント（10％還元）" in span.js_ppPoint, or "10％（1,000ポイント）" in #js_scl_pointrate; a
// current public checker reads #js_scl_pointRate first (ids are case-sensitive, both spellings are read).
const POINT_SELECTORS = ['#js_scl_pointRate', '#js_scl_pointrate', '#js_scl_pointValue', '.js_ppPoint'] as const;
// Stock words sit in the buy box's .salesInfo (在庫あり, 販売休止中です, 販売を終了しました …); older layouts write them
// in span#salesInfoTxt (ただいま予約受付中！) or span.stockInfo > span.green|red (在庫あり, お取り寄せ) without the buy box
// id. Product tiles reuse .stockInfo, so the bare classes are read outside tiles only.
const STOCK_SELECTORS = [
  '#js_buyBoxMain .salesInfo',
  '#salesInfoTxt',
  '#js_buyBoxMain .stockInfo',
  '.salesInfo',
  '.stockInfo',
] as const;
const LIST_LABELS = /(メーカー希望小売価格|希望小売価格|通常価格|参考価格)/;

export const yodobashiItemExtractor = defineExtractor({
  id: ID,
  version: 3,
  pageType: 'item',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const { data, provenance, warnings, set } = startDraft<ItemData>(page);

    const { product, sd, offer } = readStructuredProduct(page, warnings);
    const meta = readMeta(page);

    set('title', clean(product?.name), `${sd}:name`);
    // The h1 holds the name in span[itemprop=name]; the maker shown above it (a span before the name, or the maker
    // line #js_makerTD before the h1) is part of the product's name as the site titles it (`<title>`: `ソニー …`).
    const named = titleWithMaker(doc);
    set('title', named?.title, named?.source ?? '');
    set('title', firstText(doc, '#products_maintitle'), 'selector:#products_maintitle');
    set('title', titleFromHead(meta.ogTitle), 'meta:og:title');

    // Price: the displayed amount decides; JSON-LD (absent on today's pages) only confirms it or stands in for it.
    const shown = displayedPrice(doc);
    const decided = decidePrice(shown, structuredPrice(offer, sd), warnings);
    set('price', decided?.amount, decided?.source ?? '');

    requireFields<ItemData>(
      data,
      ['title', 'price'],
      (missing) =>
        `${ID}: no ${missing.join(' and ')} found (json-ld, microdata, #products_maintitle, #js_scl_unitPrice, og: meta)`,
    );
    data.currency = 'JPY';
    provenance.currency = `constant:JPY (${provenance.price ?? 'price'})`;
    data.price_tax = decided!.tax;
    if (decided!.taxSource) provenance.price_tax = decided!.taxSource;
    set('price_excluding_tax', shown?.excluding, shown?.source ?? '');

    const list = shown ? listPriceNear(shown.element) : null;
    if (shown && list && data.price !== undefined && list.amount > data.price) {
      set('list_price', list.amount, `${shown.source} block (${list.label})`);
      // 通常価格 is the shop's own usual price: a lower price beside it is a sale. A maker's 希望小売価格 is not.
      if (list.label === '通常価格') set('on_sale', true, `${shown.source} block (通常価格)`);
    }

    // The amount and the rate may sit in different elements (`<span id="js_scl_pointValue">198</span>ポイント` and
    // `<span id="js_scl_pointrate">（10％還元）</span>`): each is read from the first element that states it.
    for (const selector of POINT_SELECTORS) {
      const text = ownText(doc, selector);
      if (!text) continue;
      const points = pointsOf(selector, text);
      if (data.points === undefined) set('points', points.amount, `selector:${selector}`);
      if (data.points_rate === undefined) set('points_rate', points.rate, `selector:${selector}`);
      if (data.points !== undefined && data.points_rate !== undefined) break;
    }

    const buyBox = firstText(doc, '#js_buyBoxMain');
    if (buyBox && /(?:送料無料|無料配達|配達料金\s*[:：]?\s*無料)(?!対象外|の対象外|不可)/.test(buyBox)) {
      set('shipping', 'free', 'selector:#js_buyBoxMain (送料無料 / 無料配達)');
    }

    for (const selector of STOCK_SELECTORS) {
      const stock = stockWords(blockText(ownElement(doc, selector)));
      if (!stock) continue;
      set('availability', stock.availability, `selector:${selector}`);
      set('availability_text', stock.text, `selector:${selector}`);
      break;
    }
    set('availability', availabilityOf(offer?.availability), `${sd}:offers.availability`);

    set('brand', clean(product?.brand), `${sd}:brand`);
    set('brand', firstText(doc, '#js_makerTD a') ?? firstText(doc, '#js_makerTD'), 'selector:#js_makerTD');
    set('shop', clean(offer?.seller), `${sd}:offers.seller.name`);
    set('shop', meta.ogSiteName, 'meta:og:site_name');
    set('jan', product?.gtin ? parseJan(product.gtin) : null, `${sd}:gtin`);
    set('sku', clean(product?.sku), `${sd}:sku`);
    set('sku', productNumber(page.url), 'url:/product/<number>/');

    const mainImage = firstAttr(doc, '#mainImg', 'src') ?? firstAttr(doc, '#mainImg img', 'src');
    const images = meta.ogImages.length > 0 ? meta.ogImages : (product?.images ?? []);
    const imageSource = meta.ogImages.length > 0 ? 'meta:og:image' : `${sd}:image`;
    set('images', images.length > 0 ? images : null, imageSource);
    set('images', absolute(mainImage, page.url), 'selector:#mainImg');
    set('canonical_url', meta.canonical, 'link:canonical');
    set('canonical_url', meta.ogUrl, 'meta:og:url');

    return { data, provenance, warnings };
  },
});

interface ShownPrice {
  amount: number;
  tax: TaxStatus;
  taxSource: string;
  excluding: number | null;
  source: string;
  element: Element;
}

/**
 * The price element's own amount; its tax basis from its own text, else from the label written right after it
 * in the same block (`￥12,800` `（税込）`), never from a rate.
 */
function displayedPrice(doc: Root): ShownPrice | null {
  for (const selector of PRICE_SELECTORS) {
    const element = first(doc, selector);
    if (!element) continue;
    const parsed = parsePrice(textOf(element));
    if (parsed.amount === null) continue;
    const source = `selector:${selector}`;
    if (parsed.tax !== 'unknown') {
      return {
        amount: parsed.amount,
        tax: parsed.tax,
        taxSource: source,
        excluding: parsed.price_excluding_tax ?? null,
        source,
        element,
      };
    }
    const label = labelAfter(element);
    const after = label ? taxMarkerOf(label) : 'unknown';
    // The price table's row heading (`<th>販売価格(税込)：</th>`) states the basis when nothing after the price does.
    const heading = after === 'unknown' ? rowHeading(element) : null;
    const tax = after !== 'unknown' ? after : heading ? taxMarkerOf(heading) : 'unknown';
    return {
      amount: parsed.amount,
      tax,
      taxSource: tax === 'unknown' ? '' : after !== 'unknown' ? `${source} + label` : `${source} + row heading`,
      excluding: null,
      source,
      element,
    };
  }
  return null;
}

/** Text of the siblings that follow the price element up to the next amount (its tax label). */
function labelAfter(element: Element): string | null {
  let text = '';
  for (let node = element.next; node; node = node.next) {
    const t = textOf(node);
    if (/\d/.test(t)) break;
    text += t;
  }
  return text.trim() || null;
}

/** The heading cell (th/dt) of the row that holds the price, when the price sits in a td/dd. */
function rowHeading(element: Element): string | null {
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    if (node.name !== 'td' && node.name !== 'dd') continue;
    let prev = node.prev;
    while (prev && !isTag(prev)) prev = prev.prev;
    return prev && isTag(prev) && (prev.name === 'th' || prev.name === 'dt') ? textOf(prev) : null;
  }
  return null;
}

/**
 * A labelled comparison price (メーカー希望小売価格, 通常価格, 参考価格 …) in the block that holds the selling price,
 * by the shared reference-price rule: its own labelled row first (`<tr><th>参考価格：</th><td>￥6,480</td></tr>`),
 * else a labelled clause; `（参考価格より￥4,500の値引き）` beside the price is a discount and never read.
 */
function listPriceNear(priceElement: Element): ListPrice | null {
  let block: Element | null = priceElement.parent as Element | null;
  for (let depth = 0; block && depth < 3; depth++, block = block.parent as Element | null) {
    const found = listPriceInRows(block, LIST_LABELS) ?? listPriceIn(textOf(block), LIST_LABELS);
    if (found) return found;
  }
  return null;
}

/**
 * The shared points parser, with the site's words: "ゴールドポイント" is its name for its points, and
 * #js_scl_pointValue holds the bare amount (`198`, `1,066`) with ポイント written outside it.
 */
function pointsOf(selector: string, text: string): ParsedPoints {
  const points = parsePoints(text.replace(/ゴールドポイント/g, 'ポイント'));
  if (points.amount !== null || selector !== '#js_scl_pointValue') return points;
  const bare = /^([0-9][0-9,]*)$/.exec(text.trim());
  return bare ? { ...points, amount: Number(bare[1]!.replace(/,/g, '')) } : points;
}

/**
 * The shared stock words, with two of the site's own phrases first: 予定数の販売を終了しました is a sold-out limited
 * run (not a discontinued product) and 販売休止中です a suspension of sale; neither promises stock.
 */
function stockWords(text: string | null): StockWords | null {
  if (!text) return null;
  const words = normalizeText(text);
  if (/予定数の販売を終了/.test(words)) return { availability: 'out_of_stock', text: words };
  if (/販売休止/.test(words)) return { availability: 'out_of_stock', text: words };
  return availabilityFromText(words);
}

/**
 * The first match outside product tiles: carousels of other products (.js_productBox, .srcResultItem_block) reuse
 * the points classes of the product's own block.
 */
function ownText(doc: Root, selector: string): string | null {
  for (const element of all(doc, selector)) {
    const text = inTile(element) ? '' : textOf(element);
    if (text !== '') return text;
  }
  return null;
}

/** The first match outside product tiles. */
function ownElement(doc: Root, selector: string): Element | null {
  return all(doc, selector).find((element) => !inTile(element)) ?? null;
}

function inTile(element: Element): boolean {
  for (let node = element.parent; node && isTag(node); node = node.parent) {
    const classes = ` ${node.attribs.class ?? ''} `;
    if (classes.includes(' js_productBox ') || classes.includes(' srcResultItem_block ')) return true;
  }
  return false;
}

/** An element's text with its paragraphs kept apart (`予約受付中` `2026年12月11日発売予定`). */
function blockText(element: Element | null): string | null {
  if (!element) return null;
  const paragraphs = allTexts(element, 'p');
  const text = paragraphs.length > 0 ? paragraphs.join(' ') : textOf(element);
  return text === '' ? null : text;
}

/**
 * `span[itemprop=name]` with the maker shown above it put first, as the site's own titles write it (`ソニー SONY
 * WH-1000XM5 …`), unless the name already starts with it. The maker is the h1's text before the name, else the
 * maker line (#js_makerTD) when it stands before the h1; a maker line elsewhere on the page is not "above" it.
 */
function titleWithMaker(doc: Root): { title: string; source: string } | null {
  const h1 = first(doc, '#products_maintitle');
  const nameEl = h1 ? first(h1, '[itemprop="name"]') : null;
  const name = elementText(nameEl);
  if (!h1 || !nameEl || !name) return null;
  const plain = 'selector:#products_maintitle [itemprop=name]';
  let maker: string | null = null;
  let makerSource = '';
  for (let node = nameEl.prev; node; node = node.prev) {
    const t = textOf(node);
    if (t) {
      maker = normalizeText(`${t} ${maker ?? ''}`);
      makerSource = 'selector:#products_maintitle (text before [itemprop=name])';
    }
  }
  if (!maker) {
    const [firstOfTwo] = all(doc, '#js_makerTD, #products_maintitle');
    const line = firstOfTwo && firstOfTwo !== h1 ? (firstText(firstOfTwo, 'a') ?? textOf(firstOfTwo)) : '';
    if (line) {
      maker = line;
      makerSource = 'selector:#js_makerTD (above the h1)';
    }
  }
  const squash = (t: string) => t.replace(/\s+/g, '');
  if (!maker || squash(name).startsWith(squash(maker))) return { title: name, source: plain };
  return { title: `${maker} ${name}`, source: `${makerSource} + ${plain}` };
}

/** og:title is `ヨドバシ.com - <name> 通販【全品無料配達】`-style: the name without the shop's framing. */
function titleFromHead(title: string | null): string | null {
  if (!title) return null;
  const name = title
    .replace(/^ヨドバシ\.com\s*-\s*/, '')
    .replace(/\s*(?:通販)?\s*【[^】]*】\s*$/, '')
    .replace(/\s*[|｜]\s*ヨドバシ\.com\s*$/, '')
    .trim();
  return name === '' || name === SITE_NAME ? null : name;
}

function productNumber(url: string): string | null {
  try {
    return /^\/product(?:-detail)?\/(\d{12,20})\//.exec(new URL(url).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

function absolute(value: string | null, base: string): string[] | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? [url.href] : null;
  } catch {
    return null;
  }
}

function clean(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = normalizeText(value);
  return text === '' ? null : text;
}
