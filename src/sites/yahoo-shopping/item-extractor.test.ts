// Yahoo!ショッピング item extractor behaviour beyond the golden data: source order, disagreements, URL shapes.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { yahooShoppingItemExtractor } from './item-extractor.js';
import { yahooShopping } from './site.js';

const URL_ = 'https://store.shopping.yahoo.co.jp/test-store/test-item.html';
const extract = (html: string) =>
  yahooShoppingItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(
        `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`,
      ),
      headers: { 'content-type': 'text/html' },
      finalUrl: URL_,
      input: 'html',
    }),
  );
const state = (item: Record<string, unknown>, where: 'sp' | 'direct' = 'sp') =>
  `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
    props: { pageProps: where === 'sp' ? { sp: { item } } : { item } },
  })}</script>`;
const shown = (inner: string) => `<div class="styles_priceWrap__x1"><p itemprop="price">${inner}</p></div>`;
const jsonLd = (product: Record<string, unknown>) =>
  `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', ...product })}</script>`;

describe('yahoo_shopping/item', () => {
  it('takes the title from the page state, and the displayed price that the state confirms', () => {
    const r = extract(state({ name: 'テスト商品', applicablePrice: 2200, price: 2200 }) + shown('2,200円（税込）'));
    validateExtraction('item', r);
    expect(r.data).toMatchObject({ title: 'テスト商品', price: 2200, price_tax: 'included' });
    expect(r.provenance.title).toBe('state:__NEXT_DATA__:props.pageProps.sp.item.name');
    expect(r.provenance.price).toBe(
      'selector:[itemprop="price"] (state:__NEXT_DATA__:props.pageProps.sp.item.applicablePrice agrees)',
    );
    expect(r.warnings).toEqual([]);
  });

  it('reads the item at props.pageProps.item as well', () => {
    const r = extract(state({ name: 'テスト商品', price: 1500 }, 'direct'));
    expect(r.data).toMatchObject({ title: 'テスト商品', price: 1500, price_tax: 'unknown' });
    expect(r.provenance.price).toBe('state:__NEXT_DATA__:props.pageProps.item.price');
  });

  it('serves the displayed price and warns when the state disagrees', () => {
    const r = extract(state({ name: 'テスト商品', applicablePrice: 3000 }) + shown('2,980円（税込）'));
    expect(r.data.price).toBe(2980);
    expect(r.provenance.price).toBe('selector:[itemprop="price"]');
    expect(r.warnings.some((w) => w.includes('applicablePrice (3000) disagrees'))).toBe(true);
  });

  it('treats a higher state price beside applicablePrice as the usual price of a sale', () => {
    const r = extract(state({ name: 'テスト商品', applicablePrice: 800, price: 1000 }));
    expect(r.data).toMatchObject({ price: 800, list_price: 1000, on_sale: true });
  });

  it('never takes 通常価格 as the price, nor a lower one as a list price', () => {
    const r = extract(
      state({ name: 'テスト商品' }) +
        '<div><p>通常価格 <span>3,000円</span></p><p itemprop="price">3,300円</p><span>（税込）</span></div>',
    );
    expect(r.data.price).toBe(3300);
    expect(r.data.list_price).toBeUndefined();
    expect(r.data.on_sale).toBeUndefined();
  });

  it.each([
    [1980, 2500],
    [3300, 4000],
  ])('never takes a discount from 通常価格 as the list price (price %i, discount %i)', (yen, off) => {
    const y = (n: number) => n.toLocaleString('en-US');
    for (const phrase of [`通常価格より${y(off)}円お得`, `通常販売価格から${y(off)}円値引き`]) {
      const r = extract(
        state({ name: 'テスト商品' }) +
          `<div><p itemprop="price">${y(yen)}円</p><span>（税込）</span><p>${phrase}</p></div>`,
      );
      expect(r.data.price, phrase).toBe(yen);
      expect(r.data.list_price, phrase).toBeUndefined();
    }
  });

  it('keeps the price element’s amount when its block shows a coupon price too', () => {
    const r = extract(
      state({ name: 'x' }) +
        '<div><p itemprop="price">4,000円</p><span>（税込）</span><p>クーポン利用で 3,600円</p></div>',
    );
    expect(r.data).toMatchObject({ price: 4000, price_tax: 'included' });
  });

  it('reads the visible price element, not an invisible meta itemprop', () => {
    const r = extract(
      state({ name: 'x' }) +
        '<div><meta itemprop="price" content="1"><p>ほかの表示 9,999円</p></div>' +
        '<div><p itemprop="price">2,500円</p><span>（税込）</span></div>',
    );
    expect(r.data).toMatchObject({ price: 2500, price_tax: 'included' });
  });

  it('falls back to JSON-LD and reports a JSON-LD price that differs from the served one', () => {
    const r = extract(jsonLd({ name: 'LD商品', offers: { price: '1000', priceCurrency: 'JPY' } }));
    expect(r.data).toMatchObject({ title: 'LD商品', price: 1000 });
    expect(r.provenance.price).toBe('json-ld:offers.price');
    const r2 = extract(state({ name: 'x', applicablePrice: 1100 }) + jsonLd({ offers: { price: '1000' } }));
    expect(r2.warnings).toContain('json-ld:offers.price (1000) disagrees with the served price');
  });

  it('takes the stock from the page words, and the state when the page has none', () => {
    const soldOut = extract(state({ name: 'x', price: 500, stock: { isSoldOut: true } }) + '<button>売り切れ</button>');
    expect(soldOut.data).toMatchObject({ availability: 'out_of_stock', availability_text: '売り切れ' });
    const quiet = extract(state({ name: 'x', price: 500, stock: { quantity: 0 } }));
    expect(quiet.data.availability).toBe('out_of_stock');
    expect(quiet.data.availability_text).toBeUndefined();
    expect(quiet.provenance.availability).toBe('state:__NEXT_DATA__:props.pageProps.sp.item.stock');
    const mixed = extract(
      state({ name: 'x', price: 500, stock: { isSoldOut: true } }) + '<button>カートに入れる</button>',
    );
    expect(mixed.data.availability).toBe('in_stock');
    expect(mixed.warnings.some((w) => w.includes('stock disagrees'))).toBe(true);
  });

  it('gives a price range only when variant prices differ', () => {
    const table = (prices: number[]) => ({
      firstOption: { name: 'サイズ', choiceList: prices.map((p, i) => ({ choiceName: `S${i}`, price: p })) },
    });
    expect(extract(state({ name: 'x', price: 100, stockTableOneAxis: table([100, 150]) })).data.price_range).toEqual({
      min: 100,
      max: 150,
    });
    expect(
      extract(state({ name: 'x', price: 100, stockTableOneAxis: table([100, 100]) })).data.price_range,
    ).toBeUndefined();
  });

  it('reads points rate and amount, and shipping terms with a threshold', () => {
    const r = extract(
      state({ name: 'x', price: 5000 }) +
        '<div><span class="styles_pointRatio__abc12">10%獲得</span><span>（454ポイント）</span></div>' +
        '<div class="styles_shipping__def34">送料 660円（5,000円以上で送料無料）</div>',
    );
    expect(r.data).toMatchObject({
      points_rate: 10,
      points: 454,
      shipping: 'extra',
      shipping_fee: 660,
      free_shipping_threshold: 5000,
    });
  });

  it('leaves out a JAN that fails its check digit, with a warning', () => {
    const r = extract(
      state({ name: 'x', price: 100 }) + '<table><tr><th>JANコード</th><td>4901234567890</td></tr></table>',
    );
    expect(r.data.jan).toBeUndefined();
    expect(r.warnings).toContain('jan: the page shows a JAN that fails its check digit; left out');
  });

  it('cuts the store and site from og:title when nothing else names the item', () => {
    const r = extract(
      '<meta property="og:title" content="商品A - ストアB - 通販 - Yahoo!ショッピング"><meta property="product:price:amount" content="900">',
    );
    expect(r.data).toMatchObject({ title: '商品A', price: 900 });
  });

  it('fails naming the missing fields, never quoting the page', () => {
    try {
      extract(state({ name: '秘密の商品名' }) + '<p class="styles_price__a1">1,000円</p>');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/price']);
      expect((e as KumoError).message).not.toContain('秘密');
    }
  });

  describe('the current template without page state or microdata', () => {
    const name = (type: string | null, text: string) =>
      `<div class="styles_itemName__a1">${type ? `<p class="styles_itemType__b2">${type}</p>` : ''}<p class="styles_name__c3">${text}</p></div>`;
    const wrap = (inner: string) => `<div class="styles_priceWrap__d4"><p class="styles_price__e5">${inner}</p></div>`;
    const carousel = '<section><p class="styles_price__e5">990円</p><button>カートに入れる</button></section>';

    it('reads the price inside the price wrapper, never a carousel price that comes first', () => {
      const r = extract(carousel + name(null, 'DOM商品') + wrap('3,300円（税込）'));
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ title: 'DOM商品', price: 3300, price_tax: 'included' });
      expect(r.provenance.price).toBe('selector:[class*="styles_priceWrap__"] [class*="styles_price__"]');
    });

    it('labels used and new items from the item type beside the name', () => {
      const used = extract(name('中古', 'レンズ') + wrap('1,000円'));
      expect(used.data).toMatchObject({ condition: 'used', condition_text: '中古' });
      const fresh = extract(name('新品', 'レンズ') + wrap('1,000円'));
      expect(fresh.data).toMatchObject({ condition: 'new', condition_text: '新品' });
      const none = extract(name(null, 'レンズ') + wrap('1,000円'));
      expect(none.data.condition).toBeUndefined();
    });

    it('takes the granted amount of points, not a campaign line of the points block', () => {
      const points =
        '<div><span class="styles_pointRatio__f6">10%獲得</span><ul><li>ストア +5倍（500ポイント）</li></ul>' +
        '<span class="styles_pointAmount__g7">（1,000ポイント）</span></div>';
      const r = extract(name(null, 'X') + wrap('10,000円') + points);
      expect(r.data).toMatchObject({ points_rate: 10, points: 1000 });
    });

    it('takes <title> only when it is an item page title of the site', () => {
      const head = (t: string) => `<title>${t}</title>`;
      const ok = extract(head('テスト品 - テスト店 - 通販 - Yahoo!ショッピング') + wrap('500円'));
      expect(ok.data.title).toBe('テスト品');
      expect(() => extract(head('エラー') + wrap('500円'))).toThrow(KumoError);
    });
  });

  describe('the older store template (mdItemName, mdItemPrice#prcdsp)', () => {
    const page = (extra = '') =>
      '<div class="mdItemName"><p class="elCatchCopy">キャッチ</p><p class="elName">旧テンプレ商品</p></div>' +
      '<div class="mdReviewSummary"><span class="elReviewValue">4.5</span><span class="elReviewCount">（1,024件）</span></div>' +
      '<div class="mdItemPrice" id="prcdsp"><p class="elPriceName">通常価格（税込）</p><div class="elPriceArea"><div><p>' +
      '<span class="elPriceNumber" itemprop="price">1,980</span><span>円</span></p></div></div></div>' +
      extra;

    it('reads name, price with the tax of its label (not a list price), and the review summary', () => {
      const r = extract(page());
      validateExtraction('item', r);
      expect(r.data).toMatchObject({
        title: '旧テンプレ商品',
        price: 1980,
        price_tax: 'included',
        rating: 4.5,
        review_count: 1024,
      });
      expect(r.data.list_price).toBeUndefined();
      expect(r.data.on_sale).toBeUndefined();
      expect(r.provenance.price_tax).toMatch(/price module's label/);
    });

    it('reads a 税抜 label as excluded', () => {
      const r = extract(page().replace('通常価格（税込）', '価格（税抜）'));
      expect(r.data.price_tax).toBe('excluded');
    });

    it('reads the JAN of an elRowTitle / elRowData row and the store box', () => {
      const r = extract(
        page(
          '<ul><li><div class="elRowTitle"><p>JANコード/ISBNコード</p></div><div class="elRowData"><p>4901234567894</p></div></li></ul>' +
            '<div id="strinfmj"><div class="elMain"><p><a href="/s/">テスト店</a></p></div></div>',
        ),
      );
      expect(r.data).toMatchObject({ jan: '4901234567894', shop: 'テスト店' });
    });
  });

  it('skips a carousel price marked up like the item price when it comes first and the state names another', () => {
    const carousel = '<ul><li><p itemprop="price">1,480円</p></li></ul>';
    const r = extract(carousel + state({ name: 'X', applicablePrice: 2980 }) + shown('2,980円（税込）'));
    expect(r.data).toMatchObject({ price: 2980, price_tax: 'included' });
    expect(r.warnings).toEqual([]);
  });

  describe('the item block: prices of other items never count', () => {
    const info = (inner: string) =>
      `<div class="styles_itemInfo__a1"><div class="styles_itemName__b2"><p class="styles_name__c3">本品</p></div>${inner}</div>`;
    const wrap = (inner: string, attrs = '') =>
      `<div class="styles_priceWrap__d4"><p class="styles_price__e5"${attrs}>${inner}</p></div>`;

    it('skips a tile linking to another item, but not a link to this page itself', () => {
      const tile = `<div><a href="/other-store/other-item.html">${wrap('990円')}</a></div>`;
      const r = extract(tile + info(wrap('1,500円（税込）')));
      expect(r.data).toMatchObject({ price: 1500, price_tax: 'included' });
      const self = extract(tile + info(`<a href="/test-store/test-item.html">${wrap('1,500円')}</a>`));
      expect(self.data.price).toBe(1500);
    });

    it('skips recommendation and ranking modules even without links', () => {
      const ranking = `<div class="styles_ranking__f6">${wrap('990円', ' itemprop="price"')}</div>`;
      const r = extract(ranking + info(wrap('1,500円')));
      expect(r.data.price).toBe(1500);
      const old = `<div class="mdRecommend"><p itemprop="price">990円</p></div>`;
      expect(extract(old + info(wrap('1,500円'))).data.price).toBe(1500);
    });

    it('fails rather than serve a price outside the item block when nothing structured names one', () => {
      const outside = '<div><p itemprop="price">990円</p></div>';
      expect(() => extract(outside + info('<p>この商品は現在お取り扱いしておりません。</p>'))).toThrow(KumoError);
    });

    it('serves the state and JSON-LD price when they agree and no block price matches, with a warning', () => {
      const structured = state({ name: '本品', applicablePrice: 3980 }) + jsonLd({ offers: { price: '3980' } });
      const tile = `<section class="styles_recommend__g7"><a href="/s/x.html">${wrap('2,480円')}</a></section>`;
      const renamed = extract(structured + info('<p class="styles_salePrice__h8">3,980円</p>') + tile);
      expect(renamed.data.price).toBe(3980);
      expect(renamed.provenance.price).toBe('state:__NEXT_DATA__:props.pageProps.sp.item.applicablePrice');
      expect(renamed.warnings.some((w) => w.includes('other items on the page ignored'))).toBe(true);
      const other = extract(structured + info(wrap('2,980円')));
      expect(other.data.price).toBe(3980);
      expect(other.warnings.some((w) => w.includes('displayed price (2980) disagrees'))).toBe(true);
    });

    it('ignores the stock words of another item’s tile', () => {
      const tile = '<section class="styles_recommend__g7"><button>売り切れ</button></section>';
      const r = extract(state({ name: '本品', applicablePrice: 500, stock: { quantity: 3 } }) + tile + info(''));
      expect(r.data.availability).toBe('in_stock');
      expect(r.data.availability_text).toBeUndefined();
    });
  });

  describe('the item block: every DOM field is the item’s own', () => {
    const info = (inner: string) =>
      `<div class="styles_itemInfo__a1"><div class="styles_itemName__b2"><p class="styles_name__c3">本品</p></div>` +
      `<div class="styles_priceWrap__d4"><p class="styles_price__e5">2,980円（税込）</p></div>${inner}</div>`;
    const terms = (rate: string, shipping: string) =>
      `<p><span class="styles_pointRatio__f6">${rate}</span></p><p class="styles_shipping__g7">${shipping}</p>`;

    it('takes points and shipping from the item block, not from a carousel or a link to another item before it', () => {
      const carousel = `<section class="styles_carousel__h8">${terms('+10%獲得', '送料無料')}</section>`;
      const linked = `<div><a href="/other-store/other-item.html">${terms('+20%獲得', '送料無料')}</a></div>`;
      for (const before of [carousel, linked]) {
        const r = extract(before + info(terms('1%獲得', '送料 660円（5,000円以上で送料無料）')));
        expect(r.data).toMatchObject({
          points_rate: 1,
          shipping: 'extra',
          shipping_fee: 660,
          free_shipping_threshold: 5000,
        });
      }
    });

    it('leaves points and shipping out when only another item’s tile states them', () => {
      const carousel = `<section class="styles_carousel__h8"><a href="/s/x.html">${terms('+10%獲得', '送料無料')}</a></section>`;
      const r = extract(carousel + info(''));
      expect(r.data.points_rate).toBeUndefined();
      expect(r.data.shipping).toBeUndefined();
    });

    it('prefers the block’s terms over a match elsewhere on the page, which serves only when the block has none', () => {
      const elsewhere = `<div class="styles_banner__i9">${terms('5%獲得', '送料無料')}</div>`;
      expect(extract(elsewhere + info(terms('1%獲得', '送料 660円'))).data).toMatchObject({
        points_rate: 1,
        shipping_fee: 660,
      });
      expect(extract(elsewhere + info('')).data).toMatchObject({ points_rate: 5, shipping: 'free' });
    });

    it('never takes the name, item type, brand or review summary of another item’s tile', () => {
      const tile =
        '<div class="mdRecommend"><div class="styles_itemName__b2"><p class="styles_itemType__x1">中古</p>' +
        '<p class="styles_name__c3">他の商品</p></div><div class="mdItemBrand"><p class="elBrand"><a>他ブランド</a></p></div>' +
        '<div class="mdReviewSummary"><span class="elReviewValue">1.5</span><span class="elReviewCount">（3件）</span></div></div>';
      const r = extract(tile + info(''));
      expect(r.data.title).toBe('本品');
      expect(r.data.condition).toBeUndefined();
      expect(r.data.brand).toBeUndefined();
      expect(r.data.rating).toBeUndefined();
      expect(r.data.review_count).toBeUndefined();
    });

    it('reads the item’s spec rows below the block, never a JAN row inside another item’s tile', () => {
      const tile = '<section class="styles_ranking__j1"><dl><dt>JANコード</dt><dd>4512345678906</dd></dl></section>';
      const spec = '<table><tr><th>JANコード</th><td>4901234567894</td></tr></table>';
      expect(extract(tile + info('') + spec).data.jan).toBe('4901234567894');
      expect(extract(tile + info('')).data.jan).toBeUndefined();
    });
  });

  describe('the state keys of current pages (props.pageProps.item and its variants)', () => {
    const next = (pageProps: Record<string, unknown>) =>
      `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps } })}</script>`;

    it("reads the item from react-query's dehydratedState as well", () => {
      const item = { name: '脱水品', applicablePrice: 1200, regularPrice: 1500 };
      const r = extract(
        next({ dehydratedState: { queries: [{ state: { data: {} } }, { state: { data: { itemData: { item } } } }] } }),
      );
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ title: '脱水品', price: 1200, list_price: 1500, on_sale: true });
      expect(r.provenance.price).toBe(
        'state:__NEXT_DATA__:props.pageProps.dehydratedState.queries[1].state.data.itemData.item.applicablePrice',
      );
    });

    it('labels used and pre-order items, drops ブランド登録なし, and builds images from ids', () => {
      const r = extract(
        next({
          seller: { id: 'my-store' },
          item: {
            name: 'X',
            applicablePrice: 500,
            brandName: 'ブランド登録なし',
            isUsed: true,
            usedConditionText: '目立った傷や汚れなし',
            isPreOrder: true,
            images: { mainImage: { id: 'my-store_x', type: 'Item' }, detailImageList: [{ id: 'x2.jpg', type: 'Lib' }] },
          },
        }),
      );
      expect(r.data).toMatchObject({
        condition: 'used',
        condition_text: '目立った傷や汚れなし',
        availability: 'preorder',
        images: ['https://item-shopping.c.yimg.jp/i/n/my-store_x', 'https://shopping.c.yimg.jp/lib/my-store/x2.jpg'],
      });
      expect(r.data.brand).toBeUndefined();
    });

    it('reads SKU stock given as isAvailable', () => {
      const sku = (a: boolean) => ({ price: null, stock: { isAvailable: a } });
      const none = extract(
        next({ item: { name: 'X', applicablePrice: 500, individualItemList: [sku(false), sku(false)] } }),
      );
      expect(none.data.availability).toBe('out_of_stock');
      const some = extract(
        next({ item: { name: 'X', applicablePrice: 500, individualItemList: [sku(false), sku(true)] } }),
      );
      expect(some.data.availability).toBe('in_stock');
    });

    it('cuts the store and site from og:title in both of its forms', () => {
      const og = (t: string) => `<meta property="og:title" content="${t}">`;
      const price = '<div class="styles_priceWrap__a"><p class="styles_price__b">800円</p></div>';
      expect(extract(og('商品 A : ストアB - 通販 - Yahoo!ショッピング') + price).data.title).toBe('商品 A');
      expect(extract(og('商品 A - ストアB - 通販 - Yahoo!ショッピング') + price).data.title).toBe('商品 A');
    });
  });

  describe('state prices written as objects and twins', () => {
    it('reads variant prices given as {applicablePrice, immediatePrice}, never their digits run together', () => {
      const list = [
        { price: { applicablePrice: 990, immediatePrice: 890 } },
        { price: { applicablePrice: 1290, immediatePrice: 1160 } },
      ];
      const r = extract(state({ name: 'SKU品', applicablePrice: 990, individualItemList: list }));
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ price: 990, price_range: { min: 990, max: 1290 } });
      expect(r.provenance.price_range).toMatch(/individualItemList/);
    });

    it('reads the option-table choices written as objects too', () => {
      const choiceList = [{ price: { applicablePrice: 1000 } }, { price: { applicablePrice: 1500 } }];
      const r = extract(
        state({ name: 'X', applicablePrice: 1000, stockTableOneAxis: { firstOption: { choiceList } } }),
      );
      expect(r.data.price_range).toEqual({ min: 1000, max: 1500 });
    });

    it('takes the tax status from the 税抜 twin of applicablePrice when the page shows no label', () => {
      const r = extract(state({ name: 'X', applicablePrice: 1100, taxExcludedApplicablePrice: 1000 }));
      expect(r.data).toMatchObject({ price: 1100, price_tax: 'included', price_excluding_tax: 1000 });
      const odd = extract(state({ name: 'X', applicablePrice: 1100, taxExcludedApplicablePrice: 1100 }));
      expect(odd.data.price_tax).toBe('unknown');
      expect(odd.data.price_excluding_tax).toBeUndefined();
    });
  });

  it("refuses a category page (same URL shape) whose only prices are listed items'", () => {
    const listing =
      '<meta property="og:title" content="カテゴリ - 店 - 通販 - Yahoo!ショッピング">' +
      '<ul><li><p class="elName">商品1</p><p class="elPrice"><span class="elPriceNumber">1,000</span>円</p></li></ul>';
    try {
      extract(listing);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).extras.body?.fields).toEqual(['/price']);
      expect((e as KumoError).message).not.toContain('カテゴリ');
    }
    // The same listing inside an item page (its state names the item) does not make it a category page.
    const r = extract(listing + state({ name: '本物', applicablePrice: 2000 }));
    expect(r.data).toMatchObject({ title: '本物', price: 2000 });
  });

  it('matches item URLs, not the store’s own pages', () => {
    const item = yahooShopping.pageTypes[0]!;
    const ok = ['/sample-kitchen/bottle-500.html', '/a1-store/RS-3P_M.html', '/store/4901234567894.html'];
    const no = [
      '/sample-kitchen/info.html',
      '/sample-kitchen/guide.html',
      '/Sample/item.html',
      '/store/item',
      '/store/a/b.html',
    ];
    for (const p of ok) expect(item.matches(new URL(`https://store.shopping.yahoo.co.jp${p}`)), p).toBe(true);
    for (const p of no) expect(item.matches(new URL(`https://store.shopping.yahoo.co.jp${p}`)), p).toBe(false);
  });
});
