// Amazon.co.jp item extractor and URL patterns beyond the golden data: layouts, labels in both languages, decoys.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { SiteRegistry } from '../registry.js';
import { amazonJpItemExtractor } from './item-extractor.js';
import { isAmazonJpItemPath } from './site.js';

const URL_ = 'https://www.amazon.co.jp/dp/B0TESTTEST';
const extract = (html: string, url = URL_) =>
  amazonJpItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: url,
      input: 'html',
    }),
  );

const title = '<span id="productTitle"> テスト商品 </span>';
const price = (amount: string, extra = '') =>
  `<div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay ${extra}"><span class="a-offscreen">${amount}</span><span aria-hidden="true"><span class="a-price-symbol">￥</span><span class="a-price-whole">${amount.replace(/[￥¥]/, '')}</span></span></span></div>`;

describe('amazon_jp URL patterns', () => {
  const yes = [
    '/dp/B07WXL5YPW',
    '/dp/B07WXL5YPW/',
    '/dp/B07WXL5YPW/ref=sr_1_4',
    '/gp/product/B07WXL5YPW',
    '/gp/product/B07WXL5YPW/ref=ppx_yo_dt_b_asin_title_o00_s00',
    '/-/en/dp/B07WXL5YPW',
    '/-/ja/dp/4873117526',
    '/-/zh/dp/400339481X/ref=sr_1_1',
    '/Nintendo-Switch-%E6%9C%AC%E4%BD%93/dp/B07WXL5YPW/ref=sr_1_4',
    '/-/en/Nintendo-Switch/dp/B07WXL5YPW',
  ];
  const no = [
    '/',
    '/dp/B07WXL5YP',
    '/dp/b07wxl5ypw',
    '/dp/B07WXL5YPW/extra/path',
    '/s',
    '/product-reviews/B07WXL5YPW',
    '/gp/offer-listing/B07WXL5YPW',
    '/-/fr/dp/B07WXL5YPW',
    '/a/b/dp/B07WXL5YPW',
    // The mobile detail page is another template (no desktop buy box ids): not modelled, so not claimed.
    '/gp/aw/d/B07WXL5YPW',
    '/gp/aw/d/B07WXL5YPW/ref=ox_sc_act_image_1',
  ];
  it.each(yes)('matches %s', (path) => expect(isAmazonJpItemPath(path)).toBe(true));
  it.each(no)('does not match %s', (path) => expect(isAmazonJpItemPath(path)).toBe(false));

  it('resolves only www.amazon.co.jp and marks the item page type for review', () => {
    const registry = new SiteRegistry(undefined, { record: null });
    const site = registry.resolveHost('www.amazon.co.jp');
    expect(site?.id).toBe('amazon_jp');
    const url = new URL('https://www.amazon.co.jp/-/en/dp/B07WXL5YPW/ref=sr_1_4?th=1');
    expect(registry.pageTypeFor(site!, url, 'auto')?.pageType).toBe('item');
    expect(registry.resolveHost('amazon.co.jp')).toBeNull();
    const entry = site!.pageTypes[0]!;
    expect(entry.review?.reason).toMatch(/Conditions of Use/);
  });
});

describe('amazon_jp/item', () => {
  it.skipIf(!corpusAvailable())('gives the MANIFEST values of the real 2022 page', () => {
    const html = readFileSync(corpusPath('amazon-jp/amazon_jp_B07WXL5YPW.html'), 'utf8');
    const r = extract(html, 'https://www.amazon.co.jp/-/en/dp/B07WXL5YPW/ref=sr_1_4?th=1');
    validateExtraction('item', r);
    expect(r.data).toMatchObject({
      title: 'Nintendo Switch 本体 (ニンテンドースイッチ) Joy-Con(L) ネオンブルー/(R) ネオンレッド',
      price: 32970,
      price_tax: 'included',
      shop: 'Amazon.co.jp',
      availability: 'in_stock',
      points: 330,
    });
    expect(r.provenance.price).toContain('#priceblock_ourprice');
    // Seen from Taiwan: `+ ￥1,598 shipping` is international delivery, not Amazon.co.jp's shipping.
    expect(r.data.shipping).toBeUndefined();
    expect(r.data.shipping_fee).toBeUndefined();
    expect(r.warnings).toContain('shipping: the page quotes delivery to another country; left out');
  });

  it('serves the shipping fee when the header names a Japanese address or none', () => {
    const line = '<div id="price-shipping-message">+ ￥550 shipping</div>';
    const price =
      '<div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">￥2,980</span></span></div>';
    for (const where of ['〒100-0001', '東京都千代田区', 'お届け先を選択', '']) {
      const r = extract(`<span id="glow-ingress-line2">${where}</span>${title}${price}${line}`);
      expect(r.data, where).toMatchObject({ shipping: 'extra', shipping_fee: 550 });
    }
    const abroad = extract(`<span id="glow-ingress-line2">United States</span>${title}${price}${line}`);
    expect(abroad.data.shipping_fee).toBeUndefined();
  });

  it('reads the current Japanese layout and ignores coupons, carousels and the struck list price', () => {
    const r = extract(
      `${title}<div id="dealBadge_feature_div"><span>タイムセール</span></div>
       <div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">￥2,980</span></span>
       <span class="basisPrice">参考価格: <span class="a-price a-text-price"><span class="a-offscreen">￥3,980</span></span></span></div>
       <div id="promoPriceBlockMessage_feature_div">￥500 OFF クーポン</div>
       <ol class="a-carousel"><li><span class="a-price priceToPay"><span class="a-offscreen">￥100</span></span></li></ol>`,
    );
    validateExtraction('item', r);
    expect(r.data).toMatchObject({ price: 2980, list_price: 3980, on_sale: true, sale_label: 'タイムセール' });
  });

  it('prefers the deal price of the old price table over the struck "our price"', () => {
    const r = extract(
      `${title}<div id="price"><table><tr><td>参考価格:</td><td><span class="priceBlockStrikePriceString">￥4,400</span></td></tr>
       <tr><td id="priceblock_dealprice_lbl">タイムセール価格:</td><td><span id="priceblock_dealprice">￥3,300</span></td></tr>
       <tr><td>ポイント:</td><td><span class="a-color-price">33ポイント(1%)</span></td></tr></table></div>`,
    );
    expect(r.data).toMatchObject({ price: 3300, list_price: 4400, on_sale: true, sale_label: 'タイムセール価格' });
    expect(r.data).toMatchObject({ points: 33, points_rate: 1 });
  });

  it('reads the 2022 corePrice table, whose price to pay is marked a-text-price like the struck list price', () => {
    const r = extract(
      `${title}<div id="corePrice_desktop"><table>
       <tr><td>参考価格:</td><td><span class="a-price a-text-price a-size-base" data-a-strike="true"><span class="a-offscreen">￥3,980</span></span></td></tr>
       <tr><td>価格:</td><td><span class="a-price a-text-price a-size-medium apexPriceToPay"><span class="a-offscreen">￥2,980</span></span></td></tr>
       </table></div>`,
    );
    expect(r.data).toMatchObject({ price: 2980, list_price: 3980 });
    expect(r.warnings).toEqual([]);
  });

  it('reads the other-offers summary’s first amount, not a delivery fee after it, and applies the contract’s choice', () => {
    const r = extract(
      `${title}${price('￥1,500')}<div id="olpLinkWidget_feature_div"><div class="olp-text-box"><span>新品 (3) </span>
       <span class="a-color-base">￥1,200</span><span> から + ￥350 配送料</span></div></div>`,
    );
    expect(r.data.offers).toEqual([
      { condition: 'new', price: 1500, price_tax: 'included', on_sale: false },
      { condition: 'new', price: 1200, price_tax: 'included', on_sale: false, condition_text: '新品 (3)' },
    ]);
    expect(r.data.price).toBe(1200);
    expect(r.provenance.price).toMatch(/^offers\[1\] \(the new-condition offer\)/);
  });

  it('never takes the used row’s price, delivery or seller for the new buy-box offer', () => {
    const r = extract(
      `${title}<div id="buyBoxAccordion">
       <div id="usedAccordionRow"><div id="corePrice_feature_div"><span class="a-price"><span class="a-offscreen">￥1,000</span></span></div>
         <div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="￥350"></span></div>
         <div id="merchantInfoFeature_feature_div"><span class="offer-display-feature-text-message">中古ショップ</span></div>
         <span class="a-text-bold">中古品 - 良い</span></div>
       <div id="newAccordionRow_0"><div id="corePrice_feature_div"><span class="a-price"><span class="a-offscreen">￥2,000</span></span></div>
         <div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="FREE"></span></div>
         <div id="merchantInfoFeature_feature_div"><span class="offer-display-feature-text-message">Amazon.co.jp</span></div></div>
       </div>`,
    );
    validateExtraction('item', r);
    expect(r.data).toMatchObject({ price: 2000, shop: 'Amazon.co.jp', shipping: 'free' });
    expect(r.data.offers).toEqual([
      { condition: 'new', price: 2000, price_tax: 'included', on_sale: false, seller: 'Amazon.co.jp' },
      { condition: 'used', price: 1000, price_tax: 'included', on_sale: false, condition_text: '中古品 - 良い' },
    ]);
  });

  it('marks a buy box that sells only a used copy as used', () => {
    const r = extract(
      `${title}${price('￥1,500')}<div id="buyBoxAccordion"><div id="usedAccordionRow"><span class="a-text-bold">中古品 - 可</span>
       <span class="a-price"><span class="a-offscreen">￥1,500</span></span></div></div>`,
    );
    expect(r.data).toMatchObject({ price: 1500, condition: 'used' });
    expect(r.data.offers).toBeUndefined();
  });

  it('reads 販売元 from the 2021–2022 tabular buy box and from the Japanese merchant sentence', () => {
    const tabular = extract(
      `${title}${price('￥980')}<div id="tabular-buybox"><span class="tabular-buybox-text" tabular-attribute-name="出荷元">Amazon</span>
       <div class="tabular-buybox-text" tabular-attribute-name="販売元"><span>販売元</span></div>
       <div class="tabular-buybox-text" tabular-attribute-name="販売元"><span class="tabular-buybox-text-message"><a>モデル商会</a></span></div></div>`,
    );
    expect(tabular.data.shop).toBe('モデル商会');
    const sentence = extract(
      `${title}${price('￥980')}<div id="merchant-info">この商品は、モデル商会 が販売し、Amazon.co.jp が発送します。</div>`,
    );
    expect(sentence.data.shop).toBe('モデル商会');
  });

  it('reads the rating after 5つ星のうち, not the 5 of the scale', () => {
    const r = extract(`${title}${price('￥980')}<span id="acrPopover" title="5つ星のうち3.5"></span>`);
    expect(r.data.rating).toBe(3.5);
  });

  it('takes brands only from brand wordings of the byline, never authors', () => {
    expect(extract(`${title}${price('￥980')}<a id="bylineInfo">Visit the Anker Store</a>`).data.brand).toBe('Anker');
    expect(extract(`${title}${price('￥980')}<a id="bylineInfo">Ankerのストアを表示</a>`).data.brand).toBe('Anker');
    expect(
      extract(`${title}${price('￥980')}<div id="bylineInfo"><span class="author">山田 太郎 (著)</span></div>`).data
        .brand,
    ).toBeUndefined();
  });

  it('reports free shipping above an order amount as a condition, not as free', () => {
    const r = extract(
      `${title}${price('￥980')}<div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-content-id="DEXUnifiedCXPDM"
       data-csa-c-delivery-price="無料" data-csa-c-delivery-condition="￥2,000以上の対象商品のご注文で"></span></div>`,
    );
    expect(r.data).toMatchObject({ shipping: 'unknown', free_shipping_threshold: 2000 });
  });

  it('fails naming the fields, never quoting the page, when title or price is missing', () => {
    try {
      extract(
        `${title}<ol class="a-carousel"><span class="a-price"><span class="a-offscreen">￥8,980</span></span></ol>`,
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/price']);
      expect((e as KumoError).message).not.toContain('テスト商品');
    }
    expect(() => extract(price('￥980'))).toThrow(/no title/);
  });

  const swatch = (id: string, amount: string, selected: boolean, points = '') =>
    `<div id="tmm-grid-swatch-${id}" class="swatchElement ${selected ? 'selected' : 'unselected'}"><span class="a-button${selected ? ' a-button-selected' : ''}"><span class="a-button-inner"><a class="a-button-text"><span class="slot-title"><span>${id}</span></span><span class="slot-price"><span class="a-color-price">${amount}</span></span>${points ? `<span class="slot-buyingPoints"><span>${points}</span></span>` : ''}</a></span></span></div>`;

  it('takes a format swatch’s price only for the selected format, and only when the buy box shows none', () => {
    const swatches = (selectedPrice: string) =>
      `<div id="tmmSwatches">${swatch('KINDLE', '￥1,188', false, '119pt')}${swatch('PAPERBACK', selectedPrice, true, '15pt')}${swatch('OTHER', '￥0', false)}</div>`;
    const fromSwatch = extract(`${title}${swatches('￥1,540')}`);
    expect(fromSwatch.data).toMatchObject({ price: 1540, points: 15 });
    expect(fromSwatch.provenance.price).toContain('selected format');
    // The buy box of the page's format wins over its swatch; unselected formats never count.
    const fromBuyBox = extract(
      `${title}${swatches('￥1,540')}<div id="booksHeaderSection"><span id="price" class="header-price">￥1,500</span></div>`,
    );
    expect(fromBuyBox.data.price).toBe(1500);
    // A selected swatch priced "から"/"より" (lowest of several offers) or ￥0 (a reading plan) is no price.
    expect(() => extract(`${title}${swatches('￥980 より')}`)).toThrow(/no price/);
    expect(() => extract(`${title}<div id="tmmSwatches">${swatch('KINDLE', '￥0', true)}</div>`)).toThrow(/no price/);
  });

  it('reads a book’s accordion rows: the new row’s header price, the used row as a used offer, never the rental', () => {
    const row = (id: string, label: string, amount: string, withId: boolean) =>
      `<div id="${id}"><div class="a-accordion-row-a11y"><h5><div id="booksHeaderSection"><span class="a-text-bold">${label}</span>${withId ? `<span id="price" class="a-size-medium a-color-price header-price">${amount}</span>` : `<span class="a-size-medium a-color-price header-price">${amount}</span>`}</div></h5></div></div>`;
    const r = extract(
      `${title}<div id="buyBoxAccordion">${row('rentOfferAccordionRow', 'レンタル', '￥380', true)}${row('usedOfferAccordionRow', '中古品', '￥620', true)}${row('newOfferAccordionRow', '新品', '￥1,540', true)}</div>`,
    );
    expect(r.data.price).toBe(1540);
    expect(r.data.offers).toEqual([
      expect.objectContaining({ condition: 'new', price: 1540 }),
      expect.objectContaining({ condition: 'used', price: 620 }),
    ]);
    const usedOnly = extract(
      `${title}<div id="buyBoxAccordion">${row('usedOfferAccordionRow', '中古品', '￥620', false)}</div>`,
    );
    expect(usedOnly.data).toMatchObject({ price: 620, condition: 'used' });
  });

  it('serves the one-time purchase price, never the 定期おトク便 subscription price, whichever row is selected', () => {
    const sns = `<div id="snsAccordionRowMiddle"><div id="sns-base-price"><span class="a-price"><span class="a-offscreen">￥1,710</span></span></div><div id="availability"><span class="a-color-success">在庫あり。</span></div></div>`;
    const oneTime = `<div id="newAccordionRow_0"><div id="corePrice_feature_div"><span class="a-price apexPriceToPay"><span class="a-offscreen">￥1,900</span></span></div></div>`;
    for (const html of [
      `${title}<div id="buyBoxAccordion">${sns}${oneTime}</div>`,
      `${title}${price('￥1,710')}<div id="buyBoxAccordion">${sns}${oneTime}</div>`,
      `${title}${price('￥1,900')}<div id="buyBoxAccordion">${oneTime}${sns}</div>`,
    ]) {
      const r = extract(html);
      expect(r.data.price).toBe(1900);
      expect(r.data.offers).toBeUndefined();
      expect(r.warnings.join(' ')).toContain('subscribe-and-save');
    }
  });

  it('maps 「現在お取り扱いできません」 to out of stock, keeping the words', () => {
    const r = extract(
      `${title}${price('￥4,280')}<div id="availability"><span class="a-size-medium a-color-price">この商品は現在お取り扱いできません。</span></div>`,
    );
    expect(r.data).toMatchObject({
      availability: 'out_of_stock',
      availability_text: 'この商品は現在お取り扱いできません。',
    });
  });

  it('says the page withholds its price (add to cart to see it), naming the block, not its words', () => {
    try {
      extract(
        `${title}<div id="priceNotAvailable_feature_div"><span>商品の詳細を表示するには、この商品をカートに追加します。</span></div><div id="corePriceDisplay_desktop_feature_div"></div>`,
      );
      expect.unreachable();
    } catch (e) {
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).message).toContain('#priceNotAvailable_feature_div');
      expect((e as KumoError).message).not.toContain('カート');
    }
  });

  it('says why a page has no price in structure words: a variation not chosen, an unavailable item', () => {
    const why = (html: string) => {
      try {
        extract(`${title}${html}`);
      } catch (e) {
        return (e as KumoError).message;
      }
      return 'no error';
    };
    expect(why('<div id="partialStateBuybox"><span>サイズを選択してください</span></div>')).toContain(
      '#partialStateBuybox',
    );
    expect(
      why('<div id="outOfStock"><span class="a-color-price">この商品は現在お取り扱いできません。</span></div>'),
    ).toContain('#outOfStock');
    expect(why('<div id="partialStateBuybox"><span>サイズを選択してください</span></div>')).not.toContain('サイズ');
  });

  it('reads a Kindle price and its points campaign, not Kindle Unlimited’s ￥0 or the paper price', () => {
    const r = extract(
      `${title}<div id="kuBorrow_desktop_feature_div"><span class="a-color-price">￥0</span></div><div id="tmmSwatches">${swatch('PAPERBACK', '￥1,320', false)}</div><span id="kindle-price">￥792</span><div id="Ebooks-desktop-KINDLE_ALC-prices-loyaltyPoints">獲得ポイント: 238pt (30%)</div>`,
    );
    expect(r.data).toMatchObject({ price: 792, points: 238, points_rate: 30 });
  });

  it('reads a price drawn only with its symbol, whole part, decimal mark and fraction (no screen-reader text)', () => {
    const drawn = (whole: string, fraction: string) =>
      `${title}<div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span aria-hidden="true"><span class="a-price-symbol">￥</span><span class="a-price-whole">${whole}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${fraction}</span></span></span></div>`;
    expect(extract(drawn('１,９８０', '')).data.price).toBe(1980);
    expect(extract(drawn('3,480', '')).data.price).toBe(3480);
  });

  it('refuses JSON input', () => {
    expect(() => amazonJpItemExtractor.extract({ kind: 'json', url: URL_, charset: 'utf-8', json: {} })).toThrow(
      KumoError,
    );
  });
});
