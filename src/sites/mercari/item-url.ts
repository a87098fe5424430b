// メルカリ item ids in page URLs and API URLs, shared by the site's routing and its extractor.

// The web app's item URLs: `/item/m12871737078`, with the language prefix of its English and 繁體中文 versions
// (`/en/item/…`, `/zh-TW/item/…`, both seen in other projects' links). The id is `m` and digits; Mercari Shops
// products (`/shops/product/<base58 id>`) are another page served by another API and are not matched.
const ITEM_PATH = /^(?:\/(?:en|zh-TW))?\/item\/(m\d+)\/?$/;
const ITEM_ID = /^m\d+$/;

export const MERCARI_WEB_HOST = 'jp.mercari.com';
export const MERCARI_API_HOST = 'api.mercari.jp';

/** The item id of an item page URL, or null. */
export function mercariItemId(url: URL): string | null {
  return ITEM_PATH.exec(url.pathname)?.[1] ?? null;
}

/** The item a fetched URL asked for: the page URL's id, or the `id` of an items/get URL; null when neither. */
export function requestedItemId(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.hostname === MERCARI_API_HOST) {
    const id = url.searchParams.get('id');
    return id !== null && ITEM_ID.test(id) ? id : null;
  }
  return url.hostname === MERCARI_WEB_HOST ? mercariItemId(url) : null;
}

export function isMercariItemId(value: unknown): value is string {
  return typeof value === 'string' && ITEM_ID.test(value);
}
