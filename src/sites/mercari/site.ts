// メルカリ (jp.mercari.com): item pages `/item/m<digits>`, served through the item API the web app itself calls.
import { KumoError } from '../../errors.js';
import type { ApiRequest, Site } from '../site.js';
import { createDpopProof } from './dpop.js';
import { mercariItemExtractor } from './item-extractor.js';
import { mercariItemPageExtractor } from './item-page-extractor.js';
import { MERCARI_API_HOST, MERCARI_WEB_HOST, mercariItemId } from './item-url.js';

/**
 * The request the web app makes for an item page: `GET https://api.mercari.jp/items/get?id=<id>&include_auction=true` with
 * `X-Platform: web` and a fresh DPoP proof bound to that exact URL and method.
 */
export function mercariItemRequest(pageUrl: URL): ApiRequest {
  const id = mercariItemId(pageUrl);
  if (!id) throw new KumoError('page_not_supported', 'mercari/item: the URL is not a /item/m<digits> page');
  const url = new URL(`https://${MERCARI_API_HOST}/items/get`);
  url.searchParams.set('id', id);
  // The web app asks for the auction part too (2026 recordings): without it an auction's price cannot be told from
  // a fixed one.
  url.searchParams.set('include_auction', 'true');
  return {
    url,
    // A fresh proof for every request sent, bound to the URL it goes to (RFC 9449 §4.2 wants htu without the query;
    // the web app and mercapi send the full URL, and so do we).
    headers: (target) => ({ 'X-Platform': 'web', DPoP: createDpopProof({ url: target.href, method: 'GET' }) }),
  };
}

export const mercari: Site = {
  id: 'mercari',
  name: 'メルカリ',
  kind: 'commerce',
  hosts: [MERCARI_WEB_HOST],
  schemes: ['https:'],
  route: 'api',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 3_600,
    reason: 'Listings sell within minutes; an hour-old answer is often a sold item (next-capabilities §4.4: 1 h)',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern:
        '/item/m<digits> (also /en/item/…, /zh-TW/item/…), via api.mercari.jp/items/get?id=…&include_auction=true',
      matches: (url) => mercariItemId(url) !== null,
      api: { hosts: [MERCARI_API_HOST], request: mercariItemRequest },
      review: {
        reason:
          'Mercari listings are mostly by private persons: the item API answers with the seller’s and buyer’s ' +
          'profiles, comments and free-text descriptions (never extracted, but fetched), and Mercari’s terms ' +
          'restrict automated collection; served only to accounts an operator approved',
      },
      extractor: mercariItemExtractor,
      // render_js: true renders the web app itself, which builds the page from the same API in the browser.
      browser: {
        extractor: mercariItemPageExtractor,
        // The app's script and style CDN, its image CDN (images are never loaded) and the API it calls.
        subresourceHosts: ['web-jp-assets.mercdn.net', 'static.mercdn.net', MERCARI_API_HOST],
        readySelector: '[data-testid="price"]',
        coverage: 'beta',
        verifiedBy:
          'modelled rendered pages only (the web app’s data-testid structure: name, price, checkout-button, the ' +
          '商品の状態/配送料の負担/ブランド rows), on sale and sold; no recorded rendering exists, so beta at most',
      },
      contentTypes: ['application/json'],
      coverage: 'stable',
      verifiedBy:
        'recorded API response: mercari/mercapi_test_item.response.json (items/get m12871737078, 2022-09); ' +
        'run unseen: 4 more items/get answers of take-kun/mercapi (m70888717210, m77200069010, m94786104879, ' +
        'the not-found error) and its 2026 auction answer; modelled responses in the same shape for new/buyer-paid, ' +
        'Mercari Shops, string price, an auction with bids, a no-price listing and an error body',
    },
  ],
  secretQueryParams: [],
};
