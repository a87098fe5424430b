// ビックカメラ.com item extractor beyond the golden pages: URL shapes, stock words, variants, source precedence.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { biccameraItemExtractor } from './item-extractor.js';
import { biccamera } from './site.js';

const URL_ = 'https://www.biccamera.com/bc/item/3080296/';
const extract = (html: string) =>
  biccameraItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: URL_,
      input: 'html',
    }),
  );

const basic = (inner: string) =>
  `<div class="bcs_basicInfo"><p class="bcs_maker">エレコム｜ELECOM</p><h1 class="bcs_title">テスト商品 ブルー</h1>${inner}</div>`;
const price = (text: string) => `<p class="bcs_price" id="PRICE">${text}</p>`;
const stock = (words: string) => `<p class="bcs_stock"><span class="label_green">${words}</span></p>`;
const ld = (body: object) => `<script type="application/ld+json">${JSON.stringify(body)}</script>`;
const carousel =
  '<div class="bcs_itemBox"><p class="bcs_title"><a class="bcs_item" href="/bc/item/7954932/">別商品</a></p><p class="bcs_price"><span class="val">1,980</span>円（税込）</p><p class="bcs_point">198ポイント（10%還元）</p></div>';

describe('biccamera site', () => {
  const item = biccamera.pageTypes.find((p) => p.pageType === 'item')!;
  it.each([
    ['https://www.biccamera.com/bc/item/3080296/', true],
    ['https://www.biccamera.com/bc/item/14325899', true],
    ['https://www.biccamera.com/bc/item/4305669/?source=googleps&utm_source=pla', true],
    ['https://www.biccamera.com/bc/category/001/300/', false],
    ['https://www.biccamera.com/bc/category/?q=AirPods', false],
    ['https://www.biccamera.com/bc/item/abc/', false],
  ])('%s → item %s', (url, expected) => {
    expect(item.matches(new URL(url))).toBe(expected);
  });
});

describe('biccamera/item', () => {
  it('reads the basic-info block and ignores the carousel', () => {
    const r = extract(
      `${basic(`${price('<span class="val">12,800</span>円<span>（税込）</span>')}<p class="bcs_point"><span class="val">1,280</span>ポイント（10%還元）</p>${stock('在庫あり')}<p>送料無料</p>`)}${carousel}`,
    );
    expect(r.data).toMatchObject({
      title: 'テスト商品 ブルー',
      price: 12800,
      price_tax: 'included',
      points: 1280,
      points_rate: 10,
      shipping: 'free',
      availability: 'in_stock',
      brand: 'エレコム',
      sku: '3080296',
    });
    expect(() => validateExtraction('item', r)).not.toThrow();
  });

  it('takes the 税込 amount when 税抜 is written first', () => {
    const r = extract(basic(price('<span>11,637円（税抜）</span> <span class="val">12,800</span>円（税込）')));
    expect(r.data).toMatchObject({ price: 12800, price_tax: 'included', price_excluding_tax: 11637 });
  });

  it('never takes a usual price written in its own .bcs_price element as the price', () => {
    const r = extract(
      basic('<p class="bcs_price bcs_gray">通常価格 14,800円（税込）</p><p class="bcs_price">12,800円（税込）</p>'),
    );
    expect(r.data).toMatchObject({ price: 12800, list_price: 14800, on_sale: true });
  });

  it('takes no list price from a 通常価格 phrase without an amount in yen', () => {
    const r = extract(basic(`<p class="bcs_campaign">通常価格より20%OFF</p>${price('9,800円（税込）')}`));
    expect(r.data.list_price).toBeUndefined();
    expect(r.data.on_sale).toBeUndefined();
  });

  it.each([
    [9800, 12000],
    [19800, 25000],
    [128000, 150000],
  ])('never takes a discount phrase as the list price (price %i, discount %i)', (yen, off) => {
    const y = (n: number) => n.toLocaleString('en-US');
    for (const phrase of [
      `メーカー希望小売価格より${y(off)}円お得`,
      `通常価格から${y(off)}円引き`,
      `参考価格より¥${y(off)}OFF`,
    ]) {
      const r = extract(basic(`<p class="bcs_campaign">${phrase}</p>${price(`${y(yen)}円（税込）`)}`));
      expect(r.data.price, phrase).toBe(yen);
      expect(r.data.list_price, phrase).toBeUndefined();
      expect(r.data.on_sale, phrase).toBeUndefined();
    }
  });

  it.each([
    ['お取り寄せ（1～3週間）', 'backorder'],
    ['取り寄せ', 'backorder'],
    ['販売終了', 'discontinued'],
    ['予約受付中', 'preorder'],
    ['この商品は在庫がなくなりました。', 'out_of_stock'],
  ])('maps the stock words %s to %s', (words, availability) => {
    expect(extract(basic(`${price('3,280円（税込）')}${stock(words)}`)).data.availability).toBe(availability);
  });

  it('serves the displayed price over a disagreeing JSON-LD offer, with a warning', () => {
    const r = extract(
      `${ld({ '@type': 'Product', name: 'テスト商品 ブルー', offers: { '@type': 'Offer', price: '13800', priceCurrency: 'JPY' } })}${basic(price('12,800円（税込）'))}`,
    );
    expect(r.data.price).toBe(12800);
    expect(r.provenance.price).toBe('selector:#PRICE');
    expect(r.warnings).toEqual([
      'json-ld:offers.price (13800) disagrees with the displayed price; serving the displayed price',
    ]);
  });

  it('gives a price range from a JSON-LD AggregateOffer', () => {
    const r = extract(
      `${ld({ '@type': 'Product', name: 'テスト商品', offers: { '@type': 'AggregateOffer', lowPrice: 9800, highPrice: 12800, priceCurrency: 'JPY' } })}${basic(price('9,800円（税込）'))}`,
    );
    expect(r.data).toMatchObject({ price: 9800, price_range: { min: 9800, max: 12800 } });
    expect(r.provenance.price_range).toBe('json-ld:offers.lowPrice/highPrice');
  });

  it('uses the JSON-LD price when nothing is displayed, with its tax flag', () => {
    const r = extract(
      ld({
        '@type': 'Product',
        name: 'テスト商品',
        offers: { price: 5980, priceCurrency: 'JPY', priceSpecification: { valueAddedTaxIncluded: true } },
      }),
    );
    expect(r.data).toMatchObject({ price: 5980, price_tax: 'included' });
    expect(r.provenance.price).toBe('json-ld:offers.price');
  });

  it('leaves out a JAN that fails its check digit, with a warning', () => {
    const r = extract(
      `${basic(price('980円（税込）'))}<table class="bcs_spec"><tr><th>JANコード</th><td>4549292000001</td></tr></table>`,
    );
    expect(r.data.jan).toBeUndefined();
    expect(r.warnings).toContain('jan: the page shows a JAN that fails its check digit; left out');
  });

  it('reads layouts without the basic-info block from #bcs_detail, product tiles left out', () => {
    const tile =
      '<div class="bcs_boxItem"><ul><li class="prod_box"><p class="bcs_price"><span class="val">5,280</span>円（税込）</p>' +
      '<p class="bcs_point">528ポイント（10%）</p><p><span class="label_gray">完売しました</span></p></li></ul></div>';
    const r = extract(
      `<div id="bcs_detail"><h1>テスト商品 ホワイト</h1>${tile}<ul class="tax_cell"><li>ネット限定価格</li><li>39,800円（税込）</li></ul>` +
        '<p class="bcs_point">3,980ポイント（10%）</p><p><span class="label_orange">お取り寄せ</span></p>' +
        '<table><tr><th>メーカー</th><td>シャープ｜SHARP（メーカーサイトへ）</td></tr></table></div>',
    );
    expect(r.data).toMatchObject({
      title: 'テスト商品 ホワイト',
      price: 39800,
      price_tax: 'included',
      points: 3980,
      availability: 'backorder',
      availability_text: 'お取り寄せ',
      brand: 'シャープ',
    });
    expect(r.provenance.price).toBe('selector:#bcs_detail .tax_cell li');
  });

  it.each([
    ['label_blue', '予約受付中', 'preorder'],
    ['label_gray', '完売しました', 'out_of_stock'],
    ['label_orange', 'お取り寄せ', 'backorder'],
    ['bcs_zaiko', '入荷次第出荷', 'backorder'],
  ])('reads the %s stock label (%s)', (cls, words, availability) => {
    const r = extract(basic(`${price('980円（税込）')}<p><span class="${cls}">${words}</span></p>`));
    expect(r.data).toMatchObject({ availability, availability_text: words });
  });

  it('labels a sale with the label written in the price element, only beside a usual price', () => {
    const sale = extract(
      basic(
        `<p>通常価格：59,978円（税込）</p>${price('<span>ネット限定価格</span> <span class="val">54,978</span>円（税込）')}`,
      ),
    );
    expect(sale.data).toMatchObject({ price: 54978, on_sale: true, sale_label: 'ネット限定価格' });
    const plain = extract(basic(price('<span>ネット限定価格</span> <span class="val">54,978</span>円（税込）')));
    expect(plain.data.sale_label).toBeUndefined();
  });

  it('ignores the list and history tiles of the real list markup (.bcs_listItem li.prod_box, .bcs_itemList)', () => {
    const tiles =
      '<div class="bcs_itemList"><h2>最近チェックした商品</h2><ul><li><p class="bcs_price"><span class="val">1,280円</span></p>' +
      '<p class="bcs_point"><span>12ポイント</span></p></li></ul></div>' +
      '<div class="bcs_listItem"><ul><li class="prod_box"><p class="bcs_price"><span class="val">36,702円</span></p>' +
      '<p class="bcs_nouki"><span class="bcs_zaiko">入荷次第出荷</span></p></li></ul></div>';
    const r = extract(
      `<div id="bcs_detail"><h1>テスト商品</h1>${tiles}<ul class="tax_cell"><li>9,980円（税込）</li></ul></div>`,
    );
    expect(r.data).toMatchObject({ price: 9980, price_tax: 'included' });
    expect(r.data.points).toBeUndefined();
    expect(r.data.availability).toBeUndefined();
  });

  it('gives no check-digit warning when the JAN cell holds a sentence', () => {
    const r = extract(
      `${basic(price('980円（税込）'))}<table class="bcs_spec"><tr><th>JANコード</th><td>セット商品のためなし</td></tr></table>`,
    );
    expect(r.data.jan).toBeUndefined();
    expect(r.warnings).toEqual([]);
  });

  it('fails when only recommended products carry a price, naming fields and no page content', () => {
    try {
      extract(`${basic('<p class="bcs_price">価格未定</p>')}${carousel}`);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KumoError);
      expect((error as KumoError).code).toBe('extraction_failed');
      expect((error as KumoError).message).not.toMatch(/テスト商品|1,980/);
      expect((error as KumoError).extras.body).toEqual({ fields: ['/price'] });
    }
  });
});
