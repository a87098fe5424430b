// ヨドバシ.com item extractor beyond the golden pages: URL shapes, stock phrases, source precedence, failure detail.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { yodobashiItemExtractor } from './item-extractor.js';
import { yodobashi } from './site.js';

const URL_ = 'https://www.yodobashi.com/product/100000001007581234/';
const extract = (html: string, url = URL_) =>
  yodobashiItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: url,
      input: 'html',
    }),
  );

const h1 = '<h1 id="products_maintitle" class="pName"><span itemprop="name">テスト商品 [ブラック]</span></h1>';
const price = (yen: string, label = '<span class="fs12">（税込）</span>') =>
  `<div class="pDetailPrice"><dl><dt>販売価格</dt><dd><span id="js_scl_unitPrice" class="productPrice">${yen}</span>${label}</dd></dl></div>`;
const stock = (words: string) =>
  `<div id="js_buyBoxMain"><ul><li><div class="salesInfo"><p>${words}</p></div></li></ul></div>`;
const tile =
  '<div class="js_productBox productListTile"><div class="pInfo"><ul><li><span class="productPrice">￥1,480</span></li><li><span class="goldPoint orange">148 ゴールドポイント（10％還元）</span></li></ul></div></div>';

describe('yodobashi site', () => {
  const item = yodobashi.pageTypes.find((p) => p.pageType === 'item')!;
  it.each([
    ['https://www.yodobashi.com/product/100000001006328319/', true],
    ['https://www.yodobashi.com/product/200000000100177517/index.html', true],
    ['https://www.yodobashi.com/product/100000001006328319', true],
    ['https://www.yodobashi.com/product-detail/100000001006345135/', true],
    ['https://www.yodobashi.com/product/100000001006328319/?gad_source=1', true],
    ['https://www.yodobashi.com/category/22052/', false],
    ['https://www.yodobashi.com/product/12345/', false],
    ['https://www.yodobashi.com/ec/product/stock/100000001007452601/', false],
    ['https://www.yodobashi.com/?word=ipad', false],
  ])('%s → item %s', (url, expected) => {
    expect(item.matches(new URL(url))).toBe(expected);
  });
});

describe('yodobashi/item', () => {
  it('reads the price block, the points line and the buy box', () => {
    const r = extract(
      `${h1}${price('￥12,800')}<p><span class="point js_ppPoint">1,280 ゴールドポイント（10％還元）</span></p>${stock('在庫あり')}${tile}`,
    );
    expect(r.data).toMatchObject({
      title: 'テスト商品 [ブラック]',
      price: 12800,
      price_tax: 'included',
      points: 1280,
      points_rate: 10,
      availability: 'in_stock',
      availability_text: '在庫あり',
      sku: '100000001007581234',
    });
    expect(r.provenance).toMatchObject({ price: 'selector:#js_scl_unitPrice', points: 'selector:.js_ppPoint' });
    expect(() => validateExtraction('item', r)).not.toThrow();
  });

  it('takes no points from a recommended product tile', () => {
    const r = extract(
      `${h1}${price('￥3,280')}<div class="js_productBox"><span class="orange js_ppPoint">33 ゴールドポイント（1％還元）</span></div>`,
    );
    expect(r.data.points).toBeUndefined();
    expect(r.data.points_rate).toBeUndefined();
  });

  it('reads 通常価格 as a sale and メーカー希望小売価格 as a list price only', () => {
    const sale = extract(
      `${h1}<div class="pDetailPrice"><dl><dt>通常価格</dt><dd>￥3,630（税込）</dd></dl><dl><dt>販売価格</dt><dd><span id="js_scl_unitPrice">￥2,980</span><span>（税込）</span></dd></dl></div>`,
    );
    expect(sale.data).toMatchObject({ price: 2980, list_price: 3630, on_sale: true });
    const maker = extract(
      `${h1}<div class="pDetailPrice"><dl><dt>メーカー希望小売価格</dt><dd>￥3,630（税込）</dd></dl><dl><dt>販売価格</dt><dd><span id="js_scl_unitPrice">￥2,980</span><span>（税込）</span></dd></dl></div>`,
    );
    expect(maker.data).toMatchObject({ price: 2980, list_price: 3630 });
    expect(maker.data.on_sale).toBeUndefined();
  });

  it('leaves the tax basis unknown when the page writes none', () => {
    const r = extract(`${h1}${price('￥12,800', '')}`);
    expect(r.data).toMatchObject({ price: 12800, price_tax: 'unknown' });
    expect(r.provenance.price_tax).toBeUndefined();
  });

  it.each([
    ['予定数の販売を終了しました', 'out_of_stock'],
    ['販売休止中です', 'out_of_stock'],
    ['販売を終了しました', 'discontinued'],
    ['在庫残少　ご注文はお早めに！', 'limited'],
    ['お取り寄せ', 'backorder'],
    ['予約受付中', 'preorder'],
  ])('maps the stock words %s to %s', (words, availability) => {
    expect(extract(`${h1}${price('￥3,280')}${stock(words)}`).data.availability).toBe(availability);
  });

  it('serves the displayed price over a disagreeing JSON-LD offer, with a warning', () => {
    const r = extract(
      `<script type="application/ld+json">{"@type":"Product","name":"テスト商品 [ブラック]","offers":{"price":"13800","priceCurrency":"JPY"}}</script>${h1}${price('￥12,800')}`,
    );
    expect(r.data.price).toBe(12800);
    expect(r.provenance.price).toBe('selector:#js_scl_unitPrice');
    expect(r.warnings[0]).toMatch(/json-ld:offers\.price \(13800\) disagrees/);
  });

  it('falls back to a JSON-LD price only when no price is displayed', () => {
    const r = extract(
      `<script type="application/ld+json">{"@type":"Product","name":"テスト商品","offers":{"price":"4980","priceCurrency":"JPY","priceSpecification":{"price":4980,"valueAddedTaxIncluded":true}}}</script>`,
    );
    expect(r.data).toMatchObject({ title: 'テスト商品', price: 4980, price_tax: 'included' });
    expect(r.provenance.price).toBe('json-ld:offers.price');
  });

  it('reads schema.org microdata when there is no JSON-LD, the displayed price still deciding', () => {
    const r = extract(
      `<div itemscope itemtype="https://schema.org/Product">${h1}<span itemprop="brand">テストメーカー</span><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="13800"><meta itemprop="priceCurrency" content="JPY"></div></div>${price('￥12,800')}`,
    );
    expect(r.data).toMatchObject({ title: 'テスト商品 [ブラック]', price: 12800, brand: 'テストメーカー' });
    expect(r.provenance).toMatchObject({ title: 'microdata:name', brand: 'microdata:brand' });
    expect(r.warnings[0]).toMatch(/microdata:offers\.price \(13800\) disagrees/);
  });

  it('takes the name from og:title without the shop framing when the h1 is missing', () => {
    const r = extract(
      `<meta property="og:title" content="ヨドバシ.com - テスト商品 [ホワイト] 通販【全品無料配達】">${price('￥980')}`,
    );
    expect(r.data.title).toBe('テスト商品 [ホワイト]');
    expect(r.provenance.title).toBe('meta:og:title');
  });

  it('claims free shipping only when the buy box says so', () => {
    expect(extract(`${h1}${price('￥980')}${stock('在庫あり')}`).data.shipping).toBeUndefined();
    const free = extract(
      `${h1}${price('￥980')}<div id="js_buyBoxMain"><div class="salesInfo"><p>在庫あり</p></div><p>全品無料配達</p></div>`,
    );
    expect(free.data.shipping).toBe('free');
    const excluded = extract(
      `${h1}${price('￥980')}<div id="js_buyBoxMain"><div class="salesInfo"><p>在庫あり</p></div><p>無料配達対象外</p></div>`,
    );
    expect(excluded.data.shipping).toBeUndefined();
  });

  it('reads the points rate line under either spelling of its id', () => {
    for (const id of ['js_scl_pointRate', 'js_scl_pointrate']) {
      const r = extract(`${h1}${price('￥10,000')}<p><span id="${id}">10％（1,000ポイント）</span></p>${tile}`);
      expect(r.data).toMatchObject({ points: 1000, points_rate: 10 });
      expect(r.provenance.points).toBe(`selector:#${id}`);
    }
  });

  it('reads the stock words of layouts without the buy box id, never those of product tiles', () => {
    const tileStock =
      '<div class="srcResultItem_block js_productBox"><ul><li><span class="productPrice">￥1,980</span></li>' +
      '<li><span class="stockInfo"><span class="red">お取り寄せ</span></span></li></ul></div>';
    const reserved = extract(
      `${tileStock}${h1}${price('￥3,520')}<div class="buyBox"><div class="salesInfo"><span id="salesInfoTxt" class="blue">ただいま予約受付中！</span></div></div>`,
    );
    expect(reserved.data).toMatchObject({ availability: 'preorder', availability_text: 'ただいま予約受付中!' });
    const bare = extract(
      `${tileStock}${h1}${price('￥3,520')}<p><span class="stockInfo"><span class="green">在庫あり</span></span></p>`,
    );
    expect(bare.data).toMatchObject({ availability: 'in_stock', availability_text: '在庫あり' });
    expect(bare.provenance.availability).toBe('selector:.stockInfo');
    const none = extract(`${tileStock}${h1}${price('￥3,520')}`);
    expect(none.data.availability).toBeUndefined();
  });

  it('fails without a displayed price, ignoring the prices of recommended products, and names no page content', () => {
    try {
      extract(`${h1}${stock('販売休止中です')}${tile}`);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KumoError);
      expect((error as KumoError).code).toBe('extraction_failed');
      expect((error as KumoError).message).not.toMatch(/テスト商品|1,480/);
      expect((error as KumoError).extras.body).toEqual({ fields: ['/price'] });
    }
  });
});

describe('yodobashi price table (issue 19)', () => {
  const yen = (n: number) => n.toLocaleString('en-US');
  const page = (list: number, price: number, phrase: string, points: string, makerAbove = '') =>
    `<html><body>${makerAbove}<h1 id="products_maintitle" class="pName"><span itemprop="name">MX-100 [テスト家電]</span></h1>` +
    `<table><tbody><tr><th>参考価格：</th><td><span>￥${yen(list)}</span></td></tr>` +
    `<tr><th>販売価格(税込)：</th><td><span id="js_scl_unitPrice">￥${yen(price)}</span>\n <span>${phrase}</span></td></tr>` +
    `<tr><th>ポイント：</th><td>${points}</td></tr></tbody></table></body></html>`;

  it.each([
    [6980, 2780],
    [39600, 33000],
    [1298000, 1198000],
  ])('list_price is the 参考価格 row (%i), never the discount beside price %i', (list, price) => {
    for (const phrase of [
      `（参考価格より￥${yen(list - price)}の値引き）`,
      `（参考価格から${yen(list - price)}円お得）`,
      `（${yen(list - price)}円OFF）`,
    ]) {
      const { data, provenance } = extract(page(list, price, phrase, ''));
      expect(data.price, phrase).toBe(price);
      expect(data.list_price, phrase).toBe(list);
      expect(data.price_tax).toBe('included');
      expect(provenance.list_price).toContain('参考価格');
    }
  });

  it('reads points whose amount and rate sit in separate elements', () => {
    for (const [html, amount, rate] of [
      ['<span id="js_scl_pointValue">278</span>ポイント<span id="js_scl_pointrate">（10％還元）</span>', 278, 10],
      ['<span id="js_scl_pointValue">1,066</span>\n（10％還元）', 1066, null],
      ['<span id="js_scl_pointrate">（1％還元）</span><span id="js_scl_pointValue">33ポイント</span>', 33, 1],
    ] as const) {
      const { data } = extract(page(6980, 3300, '', html));
      expect(data.points, html).toBe(amount);
      expect(data.points_rate ?? null, html).toBe(rate);
    }
  });

  it('puts the maker shown above the name first, unless the name starts with it', () => {
    const above = '<p id="js_makerTD"><a href="/m/">テストメーカー</a></p>';
    expect(extract(page(6980, 2780, '', '', above)).data.title).toBe('テストメーカー MX-100 [テスト家電]');
    expect(extract(page(6980, 2780, '', '')).data.title).toBe('MX-100 [テスト家電]');
    const inH1 = page(6980, 2780, '', '').replace('<span itemprop', '<span>テストメーカー</span><span itemprop');
    expect(extract(inH1).data.title).toBe('テストメーカー MX-100 [テスト家電]');
    const named = page(6980, 2780, '', '', above).replace('MX-100', 'テストメーカー MX-100');
    expect(extract(named).data.title).toBe('テストメーカー MX-100 [テスト家電]');
    // A maker line below the h1 is not the one shown above the name.
    const below = page(6980, 2780, '', '').replace('</h1>', `</h1>${above}`);
    expect(extract(below).data.title).toBe('MX-100 [テスト家電]');
  });
});
