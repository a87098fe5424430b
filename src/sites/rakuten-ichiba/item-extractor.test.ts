// 楽天市場 item extractor beyond the golden pages: URL shapes, fallbacks between sources, disagreements, failures.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { rakutenIchibaItemExtractor } from './item-extractor.js';
import { rakutenIchiba } from './site.js';

const URL_ = 'https://item.rakuten.co.jp/kumo-denki/kt-100-w/';
const extract = (html: string) =>
  rakutenIchibaItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: URL_,
      input: 'html',
    }),
  );
const appData = (info: Record<string, unknown>) =>
  `<script type="application/json" id="item-page-app-data">${JSON.stringify({ api: { data: { itemInfoSku: info } }, shop: { shopName: 'くも電機' } })}</script>`;
const name = '<div id="item-name-area"><span class="normal_reserve_item_name"><b>テスト商品</b></span></div>';

describe('rakuten_ichiba URLs', () => {
  const matches = (path: string) => rakutenIchiba.pageTypes[0]!.matches(new URL(`https://item.rakuten.co.jp${path}`));
  it('matches /<shop>/<item code>/ only', () => {
    for (const path of [
      '/book/13770163/',
      '/girls-web/belta-folate-regular_3980/',
      '/kumo-denki/KT-100',
      '/f332135-akaiwa/57650569/',
    ])
      expect(matches(path), path).toBe(true);
    for (const path of ['/', '/book/', '/Book/123/', '/book/123/review/', '/-x/123/', '/book/_x/'])
      expect(matches(path), path).toBe(false);
  });
});

describe('rakuten_ichiba/item', () => {
  it('reads the app data alone: the lowest SKU price, 税込, and the range', () => {
    const r = extract(
      appData({
        title: '商品<br>セット',
        sku: [{ taxIncludedPrice: 2000 }, { taxIncludedPrice: 1500 }],
      }),
    );
    validateExtraction('item', r);
    expect(r.data).toMatchObject({
      title: '商品 セット',
      price: 1500,
      price_tax: 'included',
      price_range: { min: 1500, max: 2000 },
      shop: 'くも電機',
    });
    expect(r.provenance.price).toBe('json:item-page-app-data.api.data.itemInfoSku.sku[].taxIncludedPrice');
  });

  it('prices only the SKUs offered to buyers: a hidden SKU counts for neither price, range nor JAN', () => {
    const r = extract(
      appData({
        sku: [
          { variantId: 'a', taxIncludedPrice: 1480, articleNumber: { value: '4912345678904' } },
          { variantId: 'b', taxIncludedPrice: 1480, articleNumber: { value: '4912345678904' } },
          { variantId: 'old', hidden: true, taxIncludedPrice: 980, articleNumber: { value: '4912345678911' } },
        ],
      }) + name,
    );
    validateExtraction('item', r);
    expect(r.data).toMatchObject({ price: 1480, jan: '4912345678904' });
    expect(r.data.price_range).toBeUndefined();
  });

  it('calls an item sold out from variantMappedInventories only when every offered SKU has 0 and none back-orders', () => {
    const stock = (info: Record<string, unknown>, inventories: unknown[]) =>
      extract(
        appData({
          sku: [
            { variantId: 'a', taxIncludedPrice: 1000 },
            { variantId: 'b', taxIncludedPrice: 1200 },
            { variantId: 'h', hidden: true, taxIncludedPrice: 900 },
          ],
          ...info,
          purchaseInfo: { variantMappedInventories: inventories, sku: [] },
        }) + name,
      ).data.availability;
    const zero = [
      { sku: 'a', quantity: 0 },
      { sku: 'b', quantity: '0' },
      { sku: 'h', quantity: 40 },
    ];
    expect(stock({}, zero)).toBe('out_of_stock');
    expect(
      stock({}, [
        { sku: 'a', quantity: 0 },
        { sku: 'b', quantity: 3 },
      ]),
    ).toBeUndefined();
    // A SKU without a count row is not known to be sold out.
    expect(stock({}, [{ sku: 'a', quantity: 0 }])).toBeUndefined();
    expect(stock({ unlimitedInventoryFlag: true }, zero)).toBeUndefined();
    expect(stock({}, [])).toBeUndefined();
    const backOrdered = extract(
      appData({
        sku: [{ variantId: 'a', taxIncludedPrice: 1000, backOrderFlag: true }],
        purchaseInfo: { variantMappedInventories: [{ sku: 'a', quantity: 0 }] },
      }) + name,
    );
    expect(backOrdered.data.availability).toBeUndefined();
    // The buy box's own words still come first.
    const worded = extract(
      appData({
        sku: [{ variantId: 'a', taxIncludedPrice: 1000 }],
        purchaseInfo: { variantMappedInventories: [{ sku: 'a', quantity: 0 }] },
      }) +
        name +
        '<div id="rakutenLimitedId_aroundCart"><span>お取り寄せ</span></div>',
    );
    expect(worded.data).toMatchObject({ availability: 'backorder', availability_text: 'お取り寄せ' });
  });

  it('serves the displayed price and warns when data-price alone disagrees', () => {
    const r = extract(
      `${appData({ sku: [{ taxIncludedPrice: 3980 }] })}${name}<div id="itemPrice">3,980円 (税込)</div><div id="priceCalculationConfig" data-price="4400"></div>`,
    );
    expect(r.data).toMatchObject({ price: 3980, price_tax: 'included' });
    expect(r.warnings).toEqual([
      '#priceCalculationConfig[data-price] (4400) disagrees with the displayed price; serving the displayed price',
    ]);
  });

  it('serves data-price and the app data when they agree with each other against the displayed reading', () => {
    const r = extract(
      `${appData({ sku: [{ taxIncludedPrice: 4400 }] })}${name}<div id="itemPrice">3,980円 (税込)</div><div id="priceCalculationConfig" data-price="4400"></div>`,
    );
    expect(r.data).toMatchObject({ price: 4400, price_tax: 'included' });
    expect(r.provenance.price).toBe(
      'selector:#priceCalculationConfig[data-price] (= json:item-page-app-data.api.data.itemInfoSku.sku[].taxIncludedPrice)',
    );
    expect(r.warnings).toEqual([
      'the displayed price (3980) disagrees with #priceCalculationConfig[data-price] and json:item-page-app-data.api.data.itemInfoSku.sku[].taxIncludedPrice, which agree; serving them',
    ]);
  });

  describe('price area clauses quoting another amount', () => {
    // The area's text alone (no data-price, no app data), so that only the clause cuts can keep the price right.
    const shown = (area: string) => extract(`${name}<div id="itemPrice">${area}</div>`).data;
    it.each([
      ['a coupon price after the price', '3,980円 (税込) 送料無料 クーポン利用で 3,580円 (税込)'],
      ['a coupon price before the price', '<div>クーポン利用で 3,580円 (税込)</div><div>3,980円 (税込)</div>'],
      [
        'a coupon price in its own block',
        '<div><span>3,980</span>円 (税込)</div><div><span>クーポン使用後</span> <span>￥3,580</span></div>',
      ],
      ['a coupon price named after it', '3,980円 (税込) 3,580円(税込) クーポン利用時'],
      ['the lowest offer (最安)', '3,980円 (税込) 最安 3,580円 (税込)'],
      ['a multi-pack price', '3,980円 (税込) 2個セット 7,560円 (税込)'],
      ['a bulk price', '3,980円 (税込) まとめ買いで 1個 3,500円'],
      ['a unit price', '3,980円 (税込) 4個入り 1個あたり 995円'],
      ['a unit price named after it', '3,980円 (税込) (995円/1個あたり)'],
    ])('never serves %s', (_label, area) => {
      expect(shown(area)).toMatchObject({ price: 3980, price_tax: 'included' });
    });
    it('keeps a coupon discount banner from touching the price', () => {
      expect(shown('500円OFFクーポン配布中 3,980円 (税込)')).toMatchObject({ price: 3980 });
    });
    it('fails rather than serve an amount that appears only after a coupon word', () => {
      expect(() => shown('クーポン利用で 3,580円 (税込)')).toThrow(KumoError);
    });
  });

  it('claims 税込 for the app data price only when payment.taxIncluded is true', () => {
    const tax = (payment: unknown) =>
      extract(
        appData({
          payment,
          purchaseInfo: { purchaseBySellType: { normalPurchase: { price: { minPrice: 3619, maxPrice: 3619 } } } },
        }) + name,
      );
    expect(tax({ taxIncluded: false }).data.price_tax).toBe('unknown');
    expect(tax({}).data.price_tax).toBe('unknown');
    const included = tax({ taxIncluded: true });
    expect(included.data).toMatchObject({ price: 3619, price_tax: 'included' });
    expect(included.provenance.price_tax).toBe('json:item-page-app-data.api.data.itemInfoSku.payment.taxIncluded');
  });

  it('uses data-price when the price area is missing, and <title> for the name and shop', () => {
    const r = extract(
      '<title>【楽天市場】タイトルだけの商品：くもショップ</title><div id="priceCalculationConfig" data-price="1,200"></div>',
    );
    expect(r.data).toMatchObject({
      title: 'タイトルだけの商品',
      shop: 'くもショップ',
      price: 1200,
      price_tax: 'unknown',
    });
  });

  it('never takes a 通常価格 for the price, nor a list price below the price', () => {
    const r = extract(`${name}<div id="itemPrice">通常価格 1,000円 1,980円 (税込)</div>`);
    expect(r.data.price).toBe(1980);
    expect(r.data.list_price).toBeUndefined();
  });

  it.each([
    [1980, 2500],
    [9800, 12000],
  ])('never takes a discount from 通常価格 as the list price (price %i, discount %i)', (yen, off) => {
    const y = (n: number) => n.toLocaleString('en-US');
    for (const phrase of [`通常価格より${y(off)}円OFF`, `当店通常価格から${y(off)}円お得`]) {
      const r = extract(`${name}<div id="itemPrice">${y(yen)}円 (税込) ${phrase}</div>`);
      expect(r.data.price, phrase).toBe(yen);
      expect(r.data.list_price, phrase).toBeUndefined();
      expect(r.data.on_sale, phrase).toBeUndefined();
    }
  });

  it('falls back to the JSON stock state when the buy box says nothing', () => {
    const r = extract(
      `${appData({ sku: [{ taxIncludedPrice: 100 }], purchaseInfo: { sku: [{ newPurchaseSku: { stockCondition: 'sold-out' } }] } })}${name}`,
    );
    expect(r.data.availability).toBe('out_of_stock');
    expect(r.data.availability_text).toBeUndefined();
  });

  it('fails naming the missing fields, never quoting the page', () => {
    try {
      extract('<div id="itemPrice">1,000円</div>');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/title']);
    }
  });

  it('refuses JSON input', () => {
    expect(() => rakutenIchibaItemExtractor.extract({ kind: 'json', url: URL_, charset: 'utf-8', json: {} })).toThrow(
      KumoError,
    );
  });
});

describe('rakuten_ichiba/item legacy parts', () => {
  it('reads .price2 and its .tax_postage spans even outside the cart table', () => {
    const r = extract(
      '<span class="item_name"><b>旧型ページの商品</b></span><p><span class="price2">1,980円</span><span class="tax_postage"> (税込 2,178 円)</span><span class="tax_postage"> 送料別</span></p>',
    );
    expect(r.data).toMatchObject({ title: '旧型ページの商品', price: 2178, price_tax: 'included', shipping: 'extra' });
    expect(r.provenance.price).toBe('selector:.price2 (parent)');
  });
});
