// 楽天市場 (item.rakuten.co.jp): a shop's item page, `/<shop>/<item code>/`.
import type { Site } from '../site.js';
import { rakutenIchibaItemExtractor } from './item-extractor.js';

// Shop URL names are lower-case letters, digits and hyphens (`book`, `kumo-denki`, `f332135-akaiwa`); the item's
// 商品管理番号 adds upper case and underscores (`belta-folate-regular_3980`, `10000123`).
const ITEM_PATH = /^\/[a-z0-9][a-z0-9-]*\/[A-Za-z0-9][A-Za-z0-9_-]*\/?$/;

export const rakutenIchiba: Site = {
  id: 'rakuten_ichiba',
  name: '楽天市場',
  kind: 'commerce',
  hosts: ['item.rakuten.co.jp'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 2000 },
  cacheLimit: {
    seconds: 86_400,
    reason:
      '楽天 allows caching prices and availability for 24 hours (楽天ウェブサービス FAQ as developers quote it, next-capabilities §4.4): the terms’ cap',
  },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/<shop>/<item code>/',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: rakutenIchibaItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'beta',
      verifiedBy:
        'modelled pages only (no real item page is available; a 2026 search of other projects found parsers and synthetic pages only): today’s template with #item-page-app-data (both roots, hidden SKUs, variantMappedInventories), and one legacy EUC-JP table page',
    },
  ],
  secretQueryParams: [],
};
