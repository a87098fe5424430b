// イケベ楽器店 (www.ikebe-gakki.com): a futureshop shop; item pages are `/c/<group path>/<numeric product code>`.
import type { Site } from '../site.js';
import { ikebeItemExtractor } from './item-extractor.js';

// futureshop product URLs are /c/<main group>/…/<product URL code> (its canonical rule); イケベ's product codes
// are all digits and its group codes (c-, kb, kb01, kb011427 …) never are. Seen on the recorded page's canonical
// link and on the 40 item links of its search page.
const ITEM_PATH = /^\/c\/(?:[A-Za-z0-9_-]+\/)+\d+\/?$/;

export const ikebeGakki: Site = {
  id: 'ikebe_gakki',
  name: 'イケベ楽器店',
  kind: 'commerce',
  hosts: ['www.ikebe-gakki.com'],
  schemes: ['https:'],
  route: 'http',
  politeness: { maxInFlight: 1, minIntervalMs: 1000 },
  pageTypes: [
    {
      pageType: 'item',
      urlPattern: '/c/<groups…>/<numeric code>',
      matches: (url) => ITEM_PATH.test(url.pathname),
      extractor: ikebeItemExtractor,
      contentTypes: ['text/html', 'application/xhtml+xml'],
      coverage: 'stable',
      verifiedBy: 'recorded page: ikebe-gakki/product.html (2023-02); modelled variants for fallbacks and failure',
    },
  ],
  secretQueryParams: [],
};
