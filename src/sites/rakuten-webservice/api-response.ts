// 楽天ウェブサービス JSON answers (Ichiba item search and ranking, Product, Books, Kobo) read into list entries.
import { KumoError } from '../../errors.js';
import type { Extraction } from '../../extract/extractor.js';
import { availabilityFromText } from '../../extract/availability.js';
import { arr, int, obj, str, type JsonObject } from '../../extract/json-path.js';
import type { ListData, ListItemData } from '../../extract/page-types.js';
import { parseJan } from '../../normalize/identifiers.js';
import { parseIsbn } from '../../normalize/ids.js';
import type { JsonPage } from '../../normalize/page.js';
import { yen } from '../../normalize/yen.js';
import { credentialValues, decodedName } from '../redact-url.js';
import { jsonText } from '../../extract/text-or-null.js';

/** The caller's credentials: the application id, its 2026 access key, and the affiliate id paid on referrals. */
export const RAKUTEN_SECRET_PARAMS = ['applicationId', 'accessKey', 'affiliateId'] as const;

export type RakutenApi = 'ichiba_item' | 'ichiba_ranking' | 'product' | 'books' | 'kobo';

// The Books family: one API shape (title, itemPrice 税込, availability, postageFlag, isbn or jan) per shelf of
// 楽天ブックス; a price team reads CDs, DVDs, games and software as much as books. BooksGenre/Search, Kobo/GenreSearch,
// IchibaGenre and IchibaTag answer with genre trees, not items, and are left out.
const API_OF: Readonly<Record<string, RakutenApi>> = {
  'IchibaItem/Search': 'ichiba_item',
  'IchibaItem/Ranking': 'ichiba_ranking',
  'Product/Search': 'product',
  'BooksBook/Search': 'books',
  'BooksTotal/Search': 'books',
  'BooksCD/Search': 'books',
  'BooksDVD/Search': 'books',
  'BooksGame/Search': 'books',
  'BooksMagazine/Search': 'books',
  'BooksSoftware/Search': 'books',
  'BooksForeignBook/Search': 'books',
  'Kobo/EbookSearch': 'kobo',
};

// The openapi host (2026 migration) files each API under its own service prefix; the old host has only /services.
const OPENAPI_PREFIX: Readonly<Record<RakutenApi, string>> = {
  ichiba_item: 'ichibams',
  ichiba_ranking: 'ichibaranking',
  product: 'ichibaproduct',
  books: 'services',
  kobo: 'services',
};

const ENDPOINT =
  /^\/(services|ichibams|ichibaranking|ichibaproduct)\/api\/(IchibaItem\/Search|IchibaItem\/Ranking|Product\/Search|Books(?:Book|Total|CD|DVD|Game|Magazine|Software|ForeignBook)\/Search|Kobo\/EbookSearch)\/(\d{8})$/;

/** Which API a request URL calls, or null when it is none of the supported endpoints (or asks for XML/JSONP). */
export function rakutenApiOf(url: URL): RakutenApi | null {
  const m = ENDPOINT.exec(url.pathname);
  if (!m) return null;
  const api = API_OF[m[2]!];
  if (!api) return null;
  const prefix = m[1]!;
  if (url.hostname === 'app.rakuten.co.jp' && prefix !== 'services') return null;
  if (url.hostname === 'openapi.rakuten.co.jp' && prefix !== 'services' && prefix !== OPENAPI_PREFIX[api]) return null;
  // format defaults to json; xml and a JSONP callback are other answers than the JSON we read.
  const format = url.searchParams.get('format');
  if (format !== null && format.toLowerCase() !== 'json') return null;
  if (url.searchParams.has('callback')) return null;
  return api;
}

function fail(id: string, detail: string): never {
  throw new KumoError('extraction_failed', `${id}: ${detail}`);
}

const SECRET_NAMES: ReadonlySet<string> = new Set(RAKUTEN_SECRET_PARAMS.map((n) => n.toLowerCase()));

/** The query's `name=value` pairs split as the redactor splits them (`&` and `;`). */
function queryPairs(url: URL): string[] {
  return url.search
    .slice(1)
    .split(/[&;]/)
    .filter((p) => p !== '');
}

/**
 * The same request for another page, without any credential parameter: the caller's applicationId, accessKey and
 * affiliateId never appear in what we serve. The caller adds their own to follow it.
 */
export function pageUrl(request: URL, page: number): string {
  const kept = queryPairs(request).filter((pair) => {
    const eq = pair.indexOf('=');
    const name = decodedName(eq === -1 ? pair : pair.slice(0, eq));
    return !SECRET_NAMES.has(name) && name !== 'page';
  });
  kept.push(`page=${page}`);
  // Rakuten's API paths carry no `;` parameters: anything after one (a credential written as a path parameter) goes.
  const path = request.pathname.split(';')[0]!;
  return `${request.origin}${path}?${kept.join('&')}`;
}

const HTTP_URL = /^https?:\/\/[^\s]+$/;

function httpUrl(value: unknown): string | null {
  const s = str(value)?.trim() ?? null;
  return s && HTTP_URL.test(s) ? s : null;
}

/**
 * An item or shop page URL without the `rafcid` the 2022+ API appends (`?rafcid=wsc_i_is_<applicationId>`): it names
 * the caller's application, a credential, and is no part of the page's address.
 */
function pageLink(value: unknown): string | null {
  const s = httpUrl(value);
  if (!s || !/[?&]rafcid=/i.test(s)) return s;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return null;
  }
  for (const name of [...url.searchParams.keys()]) if (name.toLowerCase() === 'rafcid') url.searchParams.delete(name);
  return url.href;
}

/** Rakuten's placeholder picture (`noimage_01.gif`) stands for "no image", not for the product. */
function imageUrls(values: unknown[]): string[] {
  const urls = values
    .map((v) => httpUrl(typeof v === 'string' ? v : obj(v)?.imageUrl))
    .filter((u): u is string => u !== null && !/\/noimage[^/]*$/i.test(u.split('?')[0]!));
  return [...new Set(urls)];
}

function ratingOf(entry: JsonObject): { review_count?: number; rating?: number } {
  const count = int(entry.reviewCount);
  if (count === null || count < 0) return {};
  // reviewAverage is 0 (or "0.0") when nobody has reviewed: that is no rating, not a rating of zero.
  const raw = typeof entry.reviewAverage === 'number' ? entry.reviewAverage : Number(str(entry.reviewAverage));
  const rating = count > 0 && Number.isFinite(raw) && raw > 0 && raw <= 5 ? raw : undefined;
  return rating === undefined ? { review_count: count } : { review_count: count, rating };
}

/** Ichiba `availability`: 0 在庫なし, 1 在庫あり (the API's own wording, kept beside the mapped value). */
const ICHIBA_STOCK: Readonly<Record<string, string>> = { '0': '在庫なし', '1': '在庫あり' };
/** Books `availability` codes in the API's documented wording. */
const BOOKS_STOCK: Readonly<Record<string, string>> = {
  '1': '在庫あり',
  '2': '通常3～7日程度で発送',
  '3': '通常3～9日程度で発送',
  '4': 'メーカー取り寄せ',
  '5': '予約受付中',
  '6': 'メーカーに在庫確認',
};

function stock(table: Readonly<Record<string, string>>, code: unknown): Partial<ListItemData> {
  const words = table[str(code) ?? ''];
  const mapped = availabilityFromText(words);
  return mapped ? { availability: mapped.availability, availability_text: words! } : {};
}

function ichibaItem(e: JsonObject, api: RakutenApi): ListItemData | null {
  const title = jsonText(e.itemName);
  if (!title) return null;
  const item: ListItemData = { title };
  const url = pageLink(e.itemUrl);
  if (url) item.url = url;
  const rank = int(e.rank);
  if (api === 'ichiba_ranking' && rank !== null && rank >= 1) item.rank = rank;
  const price = yen(e.itemPrice);
  if (price !== null) {
    item.price = price;
    item.currency = 'JPY';
    // taxFlag: 0 税込, 1 税別.
    const tax = int(e.taxFlag);
    item.price_tax = tax === 0 ? 'included' : tax === 1 ? 'excluded' : 'unknown';
  }
  const range = skuRange(e, price);
  if (range) item.price_range = range;
  const points = int(e.pointRate);
  if (points !== null && points >= 0) item.points_rate = points;
  // postageFlag: 0 送料込 (the price includes delivery, 送料無料 among them), 1 送料別.
  const postage = int(e.postageFlag);
  if (postage === 0) item.shipping = 'included';
  else if (postage === 1) item.shipping = 'extra';
  Object.assign(item, stock(ICHIBA_STOCK, e.availability));
  const shop = jsonText(e.shopName);
  if (shop) item.shop = shop;
  const shopUrl = pageLink(e.shopUrl);
  if (shopUrl) item.shop_url = shopUrl;
  Object.assign(item, ratingOf(e));
  const images = imageUrls(arr(e.mediumImageUrls));
  if (images.length > 0) item.images = images;
  return item;
}

/**
 * Since Rakuten's SKU change (2024) an entry stands for all its variants: itemPriceMin/Max1 span every SKU, 2 the
 * searchable ones, 3 the purchasable ones, and itemPriceBaseField names the tier itemPrice is the minimum of. The
 * range is that tier's (purchasable when unnamed), only when it spans more than one price and holds itemPrice.
 */
function skuRange(e: JsonObject, price: number | null): { min: number; max: number } | null {
  const tier = /^item_price_min([123])$/i.exec(str(e.itemPriceBaseField)?.trim() ?? '')?.[1] ?? '3';
  const min = yen(e[`itemPriceMin${tier}`]);
  const max = yen(e[`itemPriceMax${tier}`]);
  if (min === null || max === null || min <= 0 || min >= max) return null;
  if (price !== null && (price < min || price > max)) return null;
  return { min, max };
}

function productItem(e: JsonObject): ListItemData | null {
  const title = jsonText(e.productName);
  if (!title) return null;
  const item: ListItemData = { title };
  const url = pageLink(e.productUrlPC);
  if (url) item.url = url;
  // A catalogue product is sold by many shops: the price is the lowest new one on sale now, else the lowest on sale
  // (used included); the range spans every listing the API counted (its minPrice..maxPrice).
  const newOnSale = (int(e.usedExcludeSalesItemCount) ?? 0) > 0 ? yen(e.usedExcludeSalesMinPrice) : null;
  const anyOnSale = (int(e.salesItemCount) ?? 0) > 0 ? yen(e.salesMinPrice) : null;
  const price = newOnSale ?? anyOnSale;
  if (price !== null && price > 0) {
    item.price = price;
    item.currency = 'JPY';
    // The Product API does not say whether the shops' prices include tax.
    item.price_tax = 'unknown';
    if (newOnSale !== null) item.condition = 'new';
  }
  const min = yen(e.minPrice);
  const max = yen(e.maxPrice);
  if (min !== null && max !== null && min > 0 && min <= max) item.price_range = { min, max };
  const brand = jsonText(e.brandName);
  if (brand) item.brand = brand;
  const code = str(e.productNo);
  const isbn = code ? parseIsbn(code) : null;
  if (isbn && /^97[89]/.test(code!.replace(/\D/g, ''))) item.isbn = isbn;
  else if (code) {
    const jan = parseJan(code);
    if (jan) item.jan = jan;
  }
  Object.assign(item, ratingOf(e));
  const images = imageUrls([e.mediumImageUrl]);
  if (images.length > 0) item.images = images;
  return item;
}

function booksItem(e: JsonObject, api: RakutenApi): ListItemData | null {
  const title = jsonText(e.title);
  if (!title) return null;
  const item: ListItemData = { title };
  const url = pageLink(e.itemUrl);
  if (url) item.url = url;
  const price = yen(e.itemPrice);
  if (price !== null) {
    item.price = price;
    item.currency = 'JPY';
    // Books and Kobo document itemPrice as the 税込 selling price.
    item.price_tax = 'included';
  }
  if (api === 'books') {
    // postageFlag: 0 送料別, 1 宅配送料無料, 2 送料無料 (コンビニ受取も).
    const postage = int(e.postageFlag);
    if (postage === 0) item.shipping = 'extra';
    else if (postage === 1 || postage === 2) item.shipping = 'free';
    Object.assign(item, stock(BOOKS_STOCK, e.availability));
  }
  item.shop = api === 'kobo' ? '楽天Kobo' : '楽天ブックス';
  const isbn = str(e.isbn) ? parseIsbn(str(e.isbn)!) : null;
  if (isbn) item.isbn = isbn;
  const jan = str(e.jan) ? parseJan(str(e.jan)!) : null;
  if (jan) item.jan = jan;
  Object.assign(item, ratingOf(e));
  const images = imageUrls([e.largeImageUrl ?? e.mediumImageUrl]);
  if (images.length > 0) item.images = images;
  return item;
}

/** The shape decides when the URL does not (an explicit page type on another path). */
function apiFromShape(root: JsonObject): RakutenApi | null {
  if (Array.isArray(root.Products)) return 'product';
  const first = entryOf(arr(root.Items)[0]);
  if (!first) return Array.isArray(root.Items) ? 'ichiba_item' : null;
  if ('itemName' in first) return 'rank' in first ? 'ichiba_ranking' : 'ichiba_item';
  if ('title' in first) return 'koboGenreId' in first ? 'kobo' : 'books';
  return null;
}

/** formatVersion 1 wraps each entry (`{"Item": {…}}`, `{"Product": {…}}`); formatVersion 2 does not. */
function entryOf(value: unknown): JsonObject | null {
  const e = obj(value);
  if (!e) return null;
  return obj(e.Item) ?? obj(e.Product) ?? e;
}

const ITEM_SOURCES: Readonly<Record<RakutenApi, string>> = {
  ichiba_item:
    'json:$.Items[] itemName, itemUrl, itemPrice + taxFlag, itemPriceMin/Max of the itemPriceBaseField tier as price_range, pointRate, postageFlag, availability, shopName, shopUrl, reviewCount, reviewAverage, mediumImageUrls (affiliateUrl never read; the rafcid query, which names the caller’s application, dropped from itemUrl and shopUrl)',
  ichiba_ranking:
    'json:$.Items[] rank, itemName, itemUrl, itemPrice + taxFlag, itemPriceMin/Max of the itemPriceBaseField tier as price_range, pointRate, postageFlag, availability, shopName, shopUrl, reviewCount, reviewAverage, mediumImageUrls (affiliateUrl never read; the rafcid query, which names the caller’s application, dropped from itemUrl and shopUrl)',
  product:
    'json:$.Products[] productName, productUrlPC, usedExcludeSalesMinPrice (new, on sale) else salesMinPrice as price, minPrice..maxPrice as price_range, brandName, productNo, reviewCount, reviewAverage, mediumImageUrl',
  books:
    'json:$.Items[] title, itemUrl, itemPrice (税込), postageFlag, availability, isbn, jan, reviewCount, reviewAverage, largeImageUrl; shop constant 楽天ブックス',
  kobo: 'json:$.Items[] title, itemUrl, itemPrice (税込), reviewCount, reviewAverage, largeImageUrl; shop constant 楽天Kobo',
};

/** Reads any supported 楽天ウェブサービス answer into a list; `id` names the extractor in failures. */
export function readRakutenList(id: string, page: JsonPage): Extraction {
  const root = obj(page.json);
  if (!root) fail(id, 'the answer is not a JSON object');
  // Errors come as {error, error_description} (and {errors: …} on the openapi host): no list, never an empty one.
  // The description is not passed on: it is text the target controls.
  if ('error' in root || 'errors' in root) fail(id, 'the API answered with an error object, not a result');
  const request = new URL(page.url);
  const api = rakutenApiOf(request) ?? apiFromShape(root);
  if (!api) fail(id, 'not an answer of a supported Rakuten API (no Items or Products list)');
  const listKey = api === 'product' ? 'Products' : 'Items';
  // A search nothing matches may come back without the list at all (`{"count": 0, "page": 1, …, "pageCount": 0}`,
  // as rws-ruby-sdk recorded it): the count says it is an empty result. Without that count it is not a list.
  const rawEntries = root[listKey] === undefined && int(root.count) === 0 ? [] : root[listKey];
  if (!Array.isArray(rawEntries)) fail(id, `no ${listKey} list in the answer`);

  const warnings = [...(page.warnings ?? [])];
  let untitled = 0;
  const items: ListItemData[] = [];
  for (const raw of rawEntries) {
    const e = entryOf(raw);
    const item = !e
      ? null
      : api === 'product'
        ? productItem(e)
        : api === 'books' || api === 'kobo'
          ? booksItem(e, api)
          : ichibaItem(e, api);
    if (item) items.push(item);
    else untitled++;
  }
  // Entries none of which carries this API's title field are another API's answer (a GORA course list, a genre
  // tree) requested under this URL: not an empty result.
  if (rawEntries.length > 0 && items.length === 0)
    fail(id, `no entry of the ${listKey} list has the ${api} title field`);
  if (untitled > 0) warnings.push(`${untitled} entr${untitled === 1 ? 'y' : 'ies'} without a title left out`);

  // Eight characters or more: Rakuten's applicationId, accessKey and affiliateId are all far longer.
  const credentials = credentialValues(request, RAKUTEN_SECRET_PARAMS, 8);
  const scrubbed = withoutSecrets(items, credentials);
  if (scrubbed.removed > 0) {
    warnings.push(`${scrubbed.removed} value(s) carrying a caller credential from the request URL left out`);
  }

  const total = int(root.count);
  const pageNo = int(root.page);
  const pageCount = int(root.pageCount);
  const next = pageNo !== null && pageCount !== null && pageNo >= 1 && pageNo < pageCount;
  const nextUrl = next ? pageUrl(request, pageNo + 1) : null;
  const nextLeaks = nextUrl !== null && credentials.some((v) => nextUrl.includes(v));
  if (nextLeaks) warnings.push('next_page would carry a caller credential from the request URL; left out');
  const data: ListData = {
    items: scrubbed.items,
    next_page: nextLeaks ? null : nextUrl,
    total: total !== null && total >= 0 ? total : null,
    page: pageNo !== null && pageNo >= 1 ? pageNo : null,
  };
  const provenance: Record<string, string> = {
    items: ITEM_SOURCES[api],
    next_page: next
      ? 'json:$.page < $.pageCount: the request URL with page+1 and without applicationId/accessKey/affiliateId'
      : 'json:$.page/$.pageCount (no further page)',
    total: 'json:$.count',
    page: 'json:$.page',
  };
  if (api === 'ichiba_ranking') {
    // The ranking answer names neither a hit count nor its page: nothing to page on without guessing.
    provenance.next_page = 'none: the ranking answer states no page count';
    provenance.total = 'none: the ranking answer states no count';
    provenance.page = 'none: the ranking answer states no page';
    const title = jsonText(root.title);
    if (title) {
      data.title = title;
      provenance.title = 'json:$.title';
    }
  }
  return { data, provenance, warnings };
}

/** Leaves out any served value that contains a credential the caller sent (defence beyond never reading them). */
function withoutSecrets(items: ListItemData[], secrets: string[]): { items: ListItemData[]; removed: number } {
  if (secrets.length === 0) return { items, removed: 0 };
  let removed = 0;
  const leaks = (s: string) => secrets.some((secret) => s.includes(secret));
  const out: ListItemData[] = [];
  for (const item of items) {
    if (leaks(item.title)) {
      removed++;
      continue;
    }
    const copy: Record<string, unknown> = { ...item };
    for (const [key, value] of Object.entries(copy)) {
      if (typeof value === 'string' && leaks(value)) {
        delete copy[key];
        removed++;
      } else if (Array.isArray(value)) {
        const kept = value.filter((v) => !(typeof v === 'string' && leaks(v)));
        removed += value.length - kept.length;
        if (kept.length === 0) delete copy[key];
        else copy[key] = kept;
      }
    }
    out.push(copy as unknown as ListItemData);
  }
  return { items: out, removed };
}
