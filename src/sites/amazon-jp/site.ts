// Amazon.co.jp (www.amazon.co.jp): product detail pages `/dp/<ASIN>` in their URL shapes; review-gated by its terms.
import type { Site } from '../site.js';
import { amazonJpItemExtractor } from './item-extractor.js';

// The detail page of one ASIN (10 upper-case letters or digits; ISBN-10s of books are ASINs too), as Amazon links it:
// an optional interface-language prefix (`/-/en/`, `/-/ja/`, `/-/zh/`), an optional title slug, then `/dp/<ASIN>` or
// `/gp/product/<ASIN>`, with at most a `/ref=…` tail (the query string is not part of the path). The mobile detail page
// `/gp/aw/d/<ASIN>` is the same item in another template (none of the desktop buy-box ids); no page of it, real or
// modelled from a public source, is at hand, so it is left unmatched rather than served through the desktop extractor.
const ITEM_PATH = /^(?:\/-\/(?:en|ja|zh))?(?:\/[^/]+)?\/(?:dp|gp\/product)\/[A-Z0-9]{10}(?:\/(?:ref=[^/]*)?)?$/;

/** True for a path of an Amazon.co.jp product detail page (exported for tests). */
export function isAmazonJpItemPath(pathname: string): boolean {
  return ITEM_PATH.test(pathname);
}

export const amazonJp: Site = {
  id: 'amazon_jp',
  name: 'Amazon.co.jp',
  kind: 'commerce',
  // amazon.co.jp without www answers every path with a redirect to www.amazon.co.jp: it serves no product page itself.
  hosts: ['www.amazon.co.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      'Prices and stock move during the day (タイムセール, 在庫切れ); kept at most the 24 h cap of DESIGN §5 (no site terms allow longer), the caller’s max_age_s chooses how fresh',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern:
        '[/-/en|/-/ja|/-/zh][/<title slug>]/dp/<ASIN>[/ref=…] or /gp/product/<ASIN>[/ref=…] (ASIN: 10 of A–Z, 0–9)',
      matches: (url) => isAmazonJpItemPath(url.pathname),
      review: {
        reason:
          'Amazon.co.jp Conditions of Use (利用規約, licence and access to Amazon Services) grant a limited licence ' +
          'that excludes the collection and use of product listings, descriptions and prices and the use of data ' +
          'mining, robots or similar data gathering and extraction tools; served only to accounts an operator ' +
          'approved after reviewing their use',
      },
      extractor: amazonJpItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      // Declared beta although the real page passes: it is one browser-saved 2022 page of the English interface in the
      // #priceblock layout Amazon has since replaced; the current corePrice/offer-display layout and the Japanese
      // labels that a fetch gets today are verified by modelled pages only.
      coverage: 'beta',
      verifiedBy:
        'one real page: amazon-jp/amazon_jp_B07WXL5YPW.html (browser-saved 2022-02, English interface, old ' +
        '#priceblock layout) passes; the current (2024–2026) corePrice/offer-display layout in Japanese is verified ' +
        'by twelve modelled pages only (books with a format switcher, Kindle with points, 定期おトク便, a withheld price among ' +
        'them)',
    },
  ],
  secretQueryParams: [],
};
