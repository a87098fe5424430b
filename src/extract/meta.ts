// Page-level metadata: OpenGraph, the `product:` price namespace, canonical link and <title>.
import type { HtmlPage } from '../normalize/page.js';
import { normalizeText } from '../normalize/text.js';
import { attrOf, elementText, selectMany } from './selectors.js';

export interface PageMeta {
  title: string | null;
  ogTitle: string | null;
  ogSiteName: string | null;
  ogType: string | null;
  ogUrl: string | null;
  /** Every og:image in order (og:image:url and og:image:secure_url count as og:image). */
  ogImages: string[];
  description: string | null;
  /** `product:price:amount` (or the older `og:price:amount`) as written; parse it with its currency. */
  priceAmount: string | null;
  priceCurrency: string | null;
  availability: string | null;
  canonical: string | null;
}

// One walk of the page for every <meta>, <title> and canonical <link>: each was a scan of the whole document.
const PARTS = {
  first: { headTitle: 'head > title', title: 'title' },
  all: { metas: 'meta[content]', canonicals: 'link[rel~="canonical" i][href]' },
} as const;

export function readMeta(page: HtmlPage): PageMeta {
  const found = selectMany(page.document, PARTS);
  const byKey = new Map<string, string[]>();
  for (const el of found.all.metas) {
    // OpenGraph is `property`, but many templates write `name`; both are read.
    const key = (el.attribs.property ?? el.attribs.name ?? el.attribs.itemprop ?? '').trim().toLowerCase();
    const content = el.attribs.content?.trim();
    if (!key || !content) continue;
    const list = byKey.get(key) ?? [];
    list.push(content);
    byKey.set(key, list);
  }
  const get = (...keys: string[]) => {
    for (const key of keys) {
      const value = byKey.get(key)?.[0];
      if (value) return value;
    }
    return null;
  };
  const text = (value: string | null) => (value === null ? null : normalizeText(value) || null);
  const images = [
    ...(byKey.get('og:image') ?? []),
    ...(byKey.get('og:image:url') ?? []),
    ...(byKey.get('og:image:secure_url') ?? []),
  ];
  return {
    title: elementText(found.first.headTitle) ?? elementText(found.first.title),
    ogTitle: text(get('og:title')),
    ogSiteName: text(get('og:site_name')),
    ogType: get('og:type'),
    ogUrl: get('og:url'),
    ogImages: [...new Set(images.map((u) => absolute(u, page.url)).filter((u): u is string => u !== null))],
    description: text(get('og:description', 'description')),
    priceAmount: get('product:price:amount', 'og:price:amount'),
    priceCurrency: get('product:price:currency', 'og:price:currency'),
    availability: get('product:availability', 'og:availability'),
    canonical: absolute(attrOf(found.all.canonicals, 'href'), page.url),
  };
}

// meta content is not rewritten by normalization (it is not a link attribute), so resolve here.
function absolute(value: string | null, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** `商品名｜ショップ名` → `商品名`, only when the tail is one of the given shop names: never guesses at a split. */
export function titleWithoutSiteName(title: string | null, siteNames: readonly (string | null)[]): string | null {
  if (!title) return null;
  for (const name of siteNames) {
    if (!name) continue;
    const m = new RegExp(`^(.+?)\\s*(?:｜|\\||-|–|—|:)\\s*${escapeRegExp(normalizeText(name))}\\s*$`).exec(title);
    if (m?.[1]) return m[1];
  }
  return title;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
