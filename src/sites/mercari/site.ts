// メルカリ (jp.mercari.com): item pages `/item/m<digits>`, served through the item API the web app itself calls.
import { KumoError } from '../../errors.js';
import type { ApiRequest, Site } from '../site.js';
import { createDpopProof } from './dpop.js';
import { mercariItemExtractor } from './item-extractor.js';

// The web app's item URLs: `/item/m12871737078`, with the language prefix of its English and 繁體中文 versions
// (`/en/item/…`, `/zh-TW/item/…`, both seen in other projects' links). The id is `m` and digits; Mercari Shops
// products (`/shops/product/<base58 id>`) are another page served by another API and are not matched.
const ITEM_PATH = /^(?:\/(?:en|zh-TW))?\/item\/(m\d+)\/?$/;
const API_HOST = 'api.mercari.jp';

/** The item id of an item page URL, or null. */
export function mercariItemId(url: URL): string | null {
  return ITEM_PATH.exec(url.pathname)?.[1] ?? null;
}

/**
 * The request the web app makes for an item page: `GET https://api.mercari.jp/items/get?id=<id>` with
 * `X-Platform: web` and a fresh DPoP proof bound to that exact URL and method.
 */
export function mercariItemRequest(pageUrl: URL): ApiRequest {
  const id = mercariItemId(pageUrl);
  if (!id) throw new KumoError('page_not_supported', 'mercari/item: the URL is not a /item/m<digits> page');
  const url = new URL(`https://${API_HOST}/items/get`);
  url.searchParams.set('id', id);
  return {
    url,
    headers: { 'X-Platform': 'web', DPoP: createDpopProof({ url: url.href, method: 'GET' }) },
  };
}

export const mercari: Site = {
  id: 'mercari',
  name: 'メルカリ',
  kind: 'commerce',
  hosts: ['jp.mercari.com'],
  schemes: ['https:'],
  route: 'api',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/item/m<digits> (also /en/item/…, /zh-TW/item/…), via api.mercari.jp/items/get?id=',
      matches: (url) => mercariItemId(url) !== null,
      api: { hosts: [API_HOST], request: mercariItemRequest },
      review: {
        reason:
          'Mercari listings are mostly by private persons: the item API answers with the seller’s and buyer’s ' +
          'profiles, comments and free-text descriptions (never extracted, but fetched), and Mercari’s terms ' +
          'restrict automated collection; served only to accounts an operator approved',
      },
      extractor: mercariItemExtractor,
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'recorded API response: mercari/mercapi_test_item.response.json (items/get m12871737078, 2022-09); ' +
        'modelled responses in the same shape for new/buyer-paid, Mercari Shops, string price and an error body',
    },
  ],
  secretQueryParams: [],
};
