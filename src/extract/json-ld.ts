// schema.org Product/Offer from a page's JSON-LD blocks: the most reliable source where a shop emits it.

export type JsonObject = { [key: string]: unknown };

export interface JsonLdOffer {
  /** Whole yen when the currency is JPY (or unstated) and the value is numeric; never guessed from text. */
  price: number | null;
  currency: string | null;
  /** schema.org availability reduced to its term: `InStock`, `OutOfStock`, `PreOrder` … */
  availability: string | null;
  /** From PriceSpecification.valueAddedTaxIncluded; null when the page does not say. */
  taxIncluded: boolean | null;
  seller: string | null;
  /** AggregateOffer: lowPrice is `price`, highPrice kept here. */
  highPrice: number | null;
  aggregate: boolean;
}

export interface JsonLdProduct {
  name: string | null;
  brand: string | null;
  sku: string | null;
  /** gtin13, else gtin, gtin12 (UPC), gtin8, gtin14: as written, digits only. */
  gtin: string | null;
  images: string[];
  url: string | null;
  offers: JsonLdOffer[];
}

const MAX_NODES = 2000;
const MAX_DEPTH = 32;
const PRODUCT_TYPES = new Set(['Product', 'IndividualProduct', 'ProductModel', 'ProductGroup', 'SomeProducts']);

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses blocks leniently: real pages carry `//` comments, trailing commas and raw control characters in
 * strings (extruct's corpus has all three). A block that still fails is skipped with a warning, never fatal:
 * other sources may carry the fields.
 */
export function parseJsonLd(blocks: readonly string[]): { nodes: JsonObject[]; warnings: string[] } {
  const nodes: JsonObject[] = [];
  const warnings: string[] = [];
  blocks.forEach((block, i) => {
    let value: unknown;
    try {
      value = JSON.parse(block);
    } catch {
      try {
        value = JSON.parse(repairJson(block));
      } catch {
        warnings.push(`json-ld: block ${i + 1} is not valid JSON, skipped`);
        return;
      }
    }
    collectNodes(value, nodes);
  });
  return { nodes, warnings };
}

/** Every object in the blocks, flattened through arrays, `@graph` and nesting (bounded). */
function collectNodes(root: unknown, out: JsonObject[]): void {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (stack.length > 0 && out.length < MAX_NODES) {
    const { value, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1 });
    } else if (isObject(value)) {
      out.push(value);
      const children = Object.values(value);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i], depth: depth + 1 });
    }
  }
}

/** `Product`, `http://schema.org/Product`, `schema:Product` all name the same type. */
export function typesOf(node: JsonObject): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/:#]/, ''));
}

/** The first Product in document order, with its offers read. */
export function findProduct(nodes: readonly JsonObject[]): JsonLdProduct | null {
  const node = nodes.find((n) => typesOf(n).some((t) => PRODUCT_TYPES.has(t)));
  if (!node) return null;
  return {
    name: text(node.name),
    brand: nameOf(node.brand) ?? nameOf(node.manufacturer),
    sku: text(node.sku),
    gtin: gtinOf(node),
    images: imagesOf(node.image),
    url: text(node.url),
    offers: offersOf(node.offers),
  };
}

function offersOf(value: unknown): JsonLdOffer[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const offers: JsonLdOffer[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const aggregate = typesOf(item).includes('AggregateOffer');
    const spec = firstObject(item.priceSpecification);
    const currency = text(item.priceCurrency) ?? text(spec?.priceCurrency);
    const yen = currency === null || currency.toUpperCase() === 'JPY';
    const price = aggregate
      ? (amount(item.lowPrice) ?? amount(item.price))
      : (amount(item.price) ?? amount(spec?.price) ?? amount(spec?.minPrice));
    const offer: JsonLdOffer = {
      price: yen ? price : null,
      currency,
      availability: text(item.availability)?.replace(/^.*[/:#]/, '') ?? null,
      taxIncluded:
        typeof spec?.valueAddedTaxIncluded === 'boolean'
          ? spec.valueAddedTaxIncluded
          : booleanText(spec?.valueAddedTaxIncluded),
      seller: nameOf(item.seller) ?? nameOf(item.offeredBy),
      highPrice: aggregate && yen ? amount(item.highPrice) : null,
      aggregate,
    };
    offers.push(offer);
    // An AggregateOffer may list its member offers; they are offers too.
    if (aggregate && item.offers !== undefined) offers.push(...offersOf(item.offers).filter((o) => !o.aggregate));
  }
  return offers;
}

/** schema.org says price is a number or a string with `.` as decimal point and no symbols; pages add commas. */
function amount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.trim().replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned));
}

function booleanText(value: unknown): boolean | null {
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  return null;
}

function firstObject(value: unknown): JsonObject | null {
  if (Array.isArray(value)) return value.find(isObject) ?? null;
  return isObject(value) ? value : null;
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return text(value);
  const obj = firstObject(value);
  return obj ? text(obj.name) : null;
}

function gtinOf(node: JsonObject): string | null {
  for (const key of ['gtin13', 'gtin', 'gtin12', 'gtin8', 'gtin14', 'ean']) {
    const value = node[key];
    const s = typeof value === 'number' ? String(value) : text(value);
    if (s && /^\d{8,14}$/.test(s.replace(/[\s-]/g, ''))) return s.replace(/[\s-]/g, '');
  }
  return null;
}

function imagesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const urls: string[] = [];
  for (const item of list) {
    const url =
      typeof item === 'string' ? text(item) : isObject(item) ? (text(item.contentUrl) ?? text(item.url)) : null;
    if (url) urls.push(url);
  }
  return urls;
}

/** A string value with HTML character references decoded: templates HTML-escape values they put in JSON-LD
 * (ikebe's image URL reads `?t&#x3D;2023…`), and browsers never decode script text, so the entity is literal. */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const decoded = decodeCharacterReferences(value).trim();
  return decoded === '' ? null : decoded;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeCharacterReferences(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g,
    (all, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED[name] ?? all;
      const code = dec !== undefined ? Number(dec) : Number.parseInt(hex ?? '', 16);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
    },
  );
}

/** Drops comments and trailing commas outside strings and escapes raw control characters inside them. */
export function repairJson(source: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (inString) {
      if (c === '\\') {
        out += c + (source[i + 1] ?? '');
        i++;
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (c.charCodeAt(0) < 0x20) {
        out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      } else {
        out += c;
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 1;
    } else if (
      c === ',' &&
      /^\s*[}\]]/.test(source.slice(i + 1, i + 200).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ''))
    ) {
      // a trailing comma: dropped
    } else {
      out += c;
    }
  }
  return out;
}
