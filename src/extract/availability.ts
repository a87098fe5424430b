// Stock states from schema.org terms and OpenGraph product:availability values, onto the item schema's enum.

export type Availability = 'in_stock' | 'out_of_stock' | 'preorder' | 'backorder' | 'limited' | 'discontinued';

const terms: Readonly<Record<string, Availability>> = {
  instock: 'in_stock',
  instoreonly: 'in_stock',
  onlineonly: 'in_stock',
  limitedavailability: 'limited',
  outofstock: 'out_of_stock',
  soldout: 'out_of_stock',
  oos: 'out_of_stock',
  preorder: 'preorder',
  presale: 'preorder',
  backorder: 'backorder',
  availablefororder: 'backorder',
  discontinued: 'discontinued',
};

/** `http://schema.org/InStock`, `InStock`, `in stock`, `out of stock` …; null for anything else. */
export function availabilityOf(value: string | null | undefined): Availability | null {
  if (!value) return null;
  const term = value
    .replace(/^.*[/:#]/, '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
  return terms[term] ?? null;
}

/** The page's own stock words mapped onto the closed set, the words kept beside it (`availability_text`). */
export interface StockWords {
  availability: Availability;
  text: string;
}

// Order matters: 予約 before 在庫 (予約受付中 (在庫なし)), 残少 before 在庫あり (在庫残少 is still in stock, but few).
const WORDS: readonly [RegExp, Availability][] = [
  [/販売(?:を)?終了|生産終了|取扱(?:い)?終了|廃盤|販売中止|no longer available|discontinued/i, 'discontinued'],
  [/予約(?:受付|受け付け|商品|販売|注文)|ご予約|発売前|pre-?order/i, 'preorder'],
  [
    // Sold, whichever word the shop uses: 売り切れ/売切/品切/在庫切れ, 完売, and 売約済み/成約済み/販売済み for one-off
    // items (used goods, cars, property) that a buyer has already taken; 在庫 with ×/✕/無 mirrors 在庫○.
    // Each not when it names a future (売り切れ次第終了, 完売間近: still on sale).
    /(?:[売品]り?切(?:れ|(?!れ))|在庫切れ|完売)(?!次第|間近|寸前|御免)|在庫(?:が)?な[しい]|在庫無し|在庫\s*[:：]?\s*[×✕✖無]|売約済|成約済|販売済|sold ?out|ソールドアウト|^\s*sold\s*$|out of stock|currently unavailable|入荷待ち/i,
    'out_of_stock',
  ],
  [
    /(?:[売品]り?切れ?|在庫切れ|完売)(?:間近|寸前)|在庫(?:残り)?(?:僅少|残少|わずか|少)|残りわずか|残り僅か|残り\s*\d+\s*(?:点|個|枚|本|台)|only \d+ left/i,
    'limited',
  ],
  [
    /お?取り?寄せ|取寄|入荷予定|\d+\s*(?:日|週間)(?:程度|前後)?で(?:出荷|発送)|メーカー(?:お)?取り?寄せ|backorder|usually ships/i,
    'backorder',
  ],
  [
    /在庫(?:あり|有り?|がございます)|在庫\s*[:：]?\s*[○◯〇有]|即日(?:出荷|発送)|当日(?:出荷|発送)|in stock|販売中|購入(?:手続き)?へ|カートに入れる/i,
    'in_stock',
  ],
];

/** Null when the text states none of the known stock words. */
export function availabilityFromText(text: string | null | undefined): StockWords | null {
  if (!text) return null;
  const words = text.replace(/\s+/g, ' ').trim();
  if (words === '') return null;
  for (const [pattern, availability] of WORDS) if (pattern.test(words)) return { availability, text: words };
  return null;
}
