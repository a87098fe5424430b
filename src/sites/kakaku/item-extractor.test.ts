// 価格.com item extractor behaviour beyond the golden data: 最安価格 against the shop list, rows, stock marks, URLs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { kakakuItemExtractor } from './item-extractor.js';
import { kakaku } from './site.js';

const URL_ = 'https://kakaku.com/item/K0000000001/';
const normalize = (body: Uint8Array, contentType = 'text/html') =>
  normalizePage({ body, headers: { 'content-type': contentType }, finalUrl: URL_, input: 'html' });
const extract = (html: string) =>
  kakakuItemExtractor.extract(
    normalize(
      new TextEncoder().encode(`<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`),
    ),
  );

const title = '<div id="titleBox"><div class="boxL"><h2 itemprop="name">テスト製品 X</h2></div></div>';
const lowest = (price: string) =>
  `<div id="priceBox"><p><span class="priceTxt">最安価格(税込)：</span><span class="priceTxt">${price}</span></p></div>`;
const row = (price: string, shop: string | null, cells = '') =>
  `<tr><td><p class="p-PTPrice_price">${price}</p></td>${cells}<td>${
    shop
      ? `<p class="p-PTShopData_name"><a class="p-PTShopData_name_link" href="https://kakaku.com/shop/9/">${shop}</a></p>`
      : ''
  }<div class="p-PTShop_btn"><a class="p-PTShopData_name_link" href="https://c.kakaku.com/forwarder/x">売り場へ</a></div></td></tr>`;
const table = (rows: string[], heading = '<tr><th>価格(税込)</th><th>ショップ</th></tr>') =>
  `<table class="p-priceTable">${heading}${rows.join('')}</table>`;

describe('kakaku/item', () => {
  it('serves 最安価格 with the shop list as new-condition offers', () => {
    const r = extract(title + lowest('¥1,000') + table([row('¥1,000', 'A店'), row('¥1,200', 'B店')]));
    validateExtraction('item', r);
    expect(r.data).toMatchObject({ title: 'テスト製品 X', price: 1000, price_tax: 'included', shop: 'A店' });
    expect(r.data.offers).toEqual([
      {
        condition: 'new',
        price: 1000,
        price_tax: 'included',
        seller: 'A店',
        on_sale: false,
        seller_url: 'https://kakaku.com/shop/9/',
      },
      {
        condition: 'new',
        price: 1200,
        price_tax: 'included',
        seller: 'B店',
        on_sale: false,
        seller_url: 'https://kakaku.com/shop/9/',
      },
    ]);
    expect(r.data.price_range).toEqual({ min: 1000, max: 1200 });
    expect(r.warnings).toEqual([]);
  });

  it('keeps 最安価格 and warns when the shop list on the page starts higher', () => {
    const r = extract(title + lowest('¥900') + table([row('¥1,000', 'A店')]));
    expect(r.data.price).toBe(900);
    expect(r.data.shop).toBeUndefined();
    expect(r.warnings[0]).toMatch(/differs from 最安価格/);
  });

  it('reads only the first amount of the price box as 最安価格', () => {
    const r = extract(
      title +
        '<div id="priceBox"><span class="priceTxt">最安価格(税込)：</span><span class="priceTxt">¥5,000</span>' +
        '<span class="priceTxt">中古最安価格(税込)：</span><span class="priceTxt">¥3,000</span></div>',
    );
    expect(r.data).toMatchObject({ price: 5000, price_tax: 'included' });
  });

  it('counts the shops the page says sell it, not the rows it lists', () => {
    const box = (count: string) =>
      `<div id="priceBox"><p><span class="priceTxt">最安価格(税込)：</span><span class="priceTxt">¥1,000</span></p><p>価格帯：¥1,000～¥1,200 (${count})</p></div>`;
    const r = extract(title + box('1,234店舗') + table([row('¥1,000', 'A店'), row('¥1,200', 'B店')]));
    expect(r.data.offer_count).toBe(1234);
    expect(r.provenance.offer_count).toContain('#priceBox');
    const none = extract(title + lowest('¥1,000') + table([row('¥1,000', 'A店'), row('¥1,200', 'B店')]));
    expect(none.data.offer_count).toBeUndefined();
  });

  it('takes the cheapest offer when the page has no 最安価格 line, and says so', () => {
    const r = extract(title + table([row('¥1,500', 'A店'), row('¥1,100', 'B店')]));
    expect(r.data).toMatchObject({ price: 1100, shop: 'B店', price_tax: 'included' });
    expect(r.provenance.price).toBe('offers[1] (the new-condition offer)');
  });

  it('skips rows without a shop or a price and ignores prices outside the table', () => {
    const r = extract(
      title +
        lowest('¥2,000') +
        table([row('¥1,500', null), row('価格情報なし', 'X店'), row('¥2,000', 'C店')]) +
        '<div class="p-relatedItem"><p class="p-relatedItem_price">¥500</p></div>',
    );
    expect((r.data.offers as unknown[]).length).toBe(1);
    expect(r.data.price).toBe(2000);
  });

  it('reads stock marks and words, and shipping cells', () => {
    const cells = (ship: string, stock: string) =>
      `<td class="p-priceTable_col-shipping"><button class="p-PTShipping_btn">${ship}</button></td><td><p class="p-PTStock">${stock}</p></td>`;
    const r = extract(
      title +
        table([
          row('¥100', 'A', cells('無料', '○')),
          row('¥110', 'B', cells('¥550', '△')),
          row('¥120', 'C', cells('別途', '×')),
          row('¥130', 'D', cells('-', '入荷予定')),
        ]),
    );
    const offers = r.data.offers as Record<string, unknown>[];
    expect(offers.map((o) => [o.shipping, o.shipping_fee, o.availability, o.availability_text])).toEqual([
      ['free', undefined, 'in_stock', '○'],
      ['extra', 550, 'limited', '△'],
      ['extra', undefined, 'out_of_stock', '×'],
      [undefined, undefined, 'backorder', '入荷予定'],
    ]);
  });

  it('marks list prices by the table heading, and a row label beats it', () => {
    const r = extract(
      title +
        table(
          [
            row('¥1,000', 'A'),
            `${row('¥2,000', 'B').replace('</p></td>', '</p><p class="p-PTPrice_sub">(税抜)</p></td>')}`,
          ],
          '<tr><th>価格</th></tr>',
        ),
    );
    const offers = r.data.offers as Record<string, unknown>[];
    expect(offers.map((o) => o.price_tax)).toEqual(['unknown', 'excluded']);
  });

  it('reads 価格帯 as written, rating and review count, maker', () => {
    const r = extract(
      title.replace('</div></div>', '</div><ul><li class="makerLabel"><a href="/m">メーカーA</a></li></ul></div>') +
        '<div id="priceBox"><span class="priceTxt">最安価格(税込)：</span><span class="priceTxt">¥3,000</span><p>価格帯：¥3,000～¥4,500 (12店舗)</p></div>' +
        '<div><span itemprop="ratingValue">3.9</span>（<span itemprop="reviewCount">2,345</span>人）</div>',
    );
    expect(r.data).toMatchObject({
      price: 3000,
      price_range: { min: 3000, max: 4500 },
      rating: 3.9,
      review_count: 2345,
      brand: 'メーカーA',
    });
  });

  it('falls back to JSON-LD for the name, maker and JAN when the page parts are missing', () => {
    const r = extract(
      '<script type="application/ld+json">{"@type":"Product","name":"LD製品","brand":{"name":"LDメーカー"},"gtin13":"4901234567894"}</script>' +
        lowest('¥700'),
    );
    expect(r.data).toMatchObject({ title: 'LD製品', brand: 'LDメーカー', jan: '4901234567894', price: 700 });
    expect(r.provenance).toMatchObject({ title: 'json-ld:name', brand: 'json-ld:brand', jan: 'json-ld:gtin13' });
  });

  it('fails naming the missing fields when no price is registered', () => {
    try {
      extract(title + '<div id="priceBox"><p class="priceTxt">価格情報の登録がありません</p></div>');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/price']);
    }
  });

  describe('the used lowest price (p.usedPrice span.usedPriceTxt)', () => {
    const usedLine = (price: string) =>
      `<p class="usedPrice">中古価格(税込)：<span class="usedPriceTxt">${price}</span></p>`;
    const box = (inner: string) => `<div id="productAll"><div id="productInfoBox">${inner}</div></div>`;

    it('is one more offer, used and without a seller; a cheaper used price never replaces 最安価格', () => {
      const r = extract(
        title +
          box(lowest('¥5,000').replace('</div>', `${usedLine('¥3,000')}</div>`)) +
          table([row('¥5,000', 'A店'), row('¥6,000', 'B店')]),
      );
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ price: 5000, shop: 'A店', price_range: { min: 5000, max: 6000 } });
      expect(r.data.condition).toBeUndefined();
      expect((r.data.offers as Record<string, unknown>[]).at(-1)).toEqual({
        condition: 'used',
        condition_text: '中古',
        price: 3000,
        price_tax: 'included',
        on_sale: false,
      });
    });

    it('prices a page that has only used goods (no 最安価格, no shop list) as used', () => {
      const r = extract(
        title +
          box(`<div id="priceBox"><p class="priceTxt">価格情報の登録がありません</p>${usedLine('¥23,800')}</div>`),
      );
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ price: 23800, price_tax: 'included', condition: 'used', condition_text: '中古' });
      expect(r.data.shop).toBeUndefined();
      expect(r.provenance.price).toBe('offers[0] (the only offer)');
    });

    it('prefers a new shop over a cheaper used price when there is no 最安価格 line', () => {
      const r = extract(title + box(`<div id="priceBox">${usedLine('¥800')}</div>`) + table([row('¥1,000', 'A店')]));
      expect(r.data).toMatchObject({ price: 1000, shop: 'A店' });
      expect(r.data.condition).toBeUndefined();
      expect(r.provenance.price).toBe('offers[0] (the new-condition offer)');
    });

    it('ignores a used line without an amount', () => {
      const r = extract(title + lowest('¥700') + box(usedLine('-')));
      expect(r.data.offers).toBeUndefined();
    });
  });

  describe("the phone categories' shop table (p.fontPrice, td.shopname)", () => {
    const phoneRow = (price: string, ship: string, stock: string, shop: string) =>
      `<tr><td>1</td><td><p class="fontPrice"><a href="https://c.kakaku.com/forwarder/forward.aspx?ShopCD=1">${price}</a></p></td>` +
      `<td>${ship}</td><td>${stock}</td><td class="shopname"><a href="https://kakaku.com/shop/1/">${shop}</a></td></tr>`;

    it('reads its rows as offers, with 有/無 stock and the tax of its own heading', () => {
      const r = extract(
        title +
          `<table><tr><th>価格(税込)</th></tr>${phoneRow('¥50,000', '無料', '有', 'A店')}${phoneRow('¥52,000', '¥770', '無', 'B店')}</table>`,
      );
      validateExtraction('item', r);
      expect(r.data).toMatchObject({ price: 50000, price_tax: 'included', shop: 'A店', availability: 'in_stock' });
      const offers = r.data.offers as Record<string, unknown>[];
      expect(offers.map((o) => [o.seller, o.availability, o.seller_url])).toEqual([
        ['A店', 'in_stock', 'https://kakaku.com/shop/1/'],
        ['B店', 'out_of_stock', 'https://kakaku.com/shop/1/'],
      ]);
    });

    it('never reads a 無料 shipping cell as 無 (out of stock)', () => {
      const r = extract(title + `<table><tr><th>価格</th></tr>${phoneRow('¥50,000', '無料', '-', 'A店')}</table>`);
      const offer = (r.data.offers as Record<string, unknown>[])[0]!;
      expect(offer.availability).toBeUndefined();
      expect(offer.price_tax).toBe('unknown');
    });
  });

  it('decodes the Shift_JIS page it is served', () => {
    const file = fileURLToPath(new URL('./fixtures/modelled-shop-list.html', import.meta.url));
    const page = normalize(new Uint8Array(readFileSync(file)), 'text/html; charset=Shift_JIS');
    expect(page.charset).toBe('shift_jis');
    const r = kakakuItemExtractor.extract(page);
    expect(r.data).toMatchObject({ title: 'WH-SAMPLE1 (B) [ブラック]', price: 41800 });
  });

  it('matches the main item page only, and is under review', () => {
    const item = kakaku.pageTypes[0]!;
    for (const p of ['/item/K0001314464/', '/item/J0000037910/', '/item/K0001314464'])
      expect(item.matches(new URL(`https://kakaku.com${p}?lid=pc_ksearch_kakakuitem`)), p).toBe(true);
    for (const p of ['/item/K0001314464/spec/', '/item/K000131446/', '/item/k0001314464/', '/bbs/K0001314464/'])
      expect(item.matches(new URL(`https://kakaku.com${p}`)), p).toBe(false);
    expect(item.review?.reason).toMatch(/restricts reuse/);
  });
});

describe('the older (2017) template (issue 19)', () => {
  const yen = (n: number) => n.toLocaleString('en-US');
  const page = (opts: { shown?: string; low?: number; count?: number; description?: string }) =>
    `${opts.description === undefined ? '' : `<meta name="description" content="${opts.description}">`}` +
    `<div id="productAll" itemscope itemtype="http://schema.org/Product">${title}<div id="itmBoxMax">` +
    `<div itemprop="offers" itemscope itemtype="http://schema.org/AggregateOffer">` +
    (opts.low === undefined ? '' : `<meta itemprop="lowPrice" content="${opts.low}">`) +
    (opts.count === undefined ? '' : `<meta itemprop="offerCount" content="${opts.count}">`) +
    `<p>最安価格(税込)：</p>${opts.shown ?? ''}</div></div></div>` +
    '<div id="side">最安価格(税込)：¥1,000</div>';

  it.each([19800, 34980, 1198000])('reads 最安価格 %i from the product box, split or not', (n) => {
    const [head, tail] = [yen(n).slice(0, 2), yen(n).slice(2)];
    for (const shown of [`<p>¥${yen(n)}</p>`, `<p><a>¥<span>${head}</span>\n ${tail}</a></p>`]) {
      const { data, provenance } = extract(page({ shown, low: n, count: 12 }));
      expect(data.price, shown).toBe(n);
      expect(data.price_tax).toBe('included');
      expect(provenance.price).toBe('selector:#itmBoxMax (最安価格) (microdata:offers.lowPrice agrees)');
      expect(data.offer_count).toBe(12);
    }
  });

  it('serves the shown 最安価格 over microdata that disagrees, with a warning', () => {
    const { data, warnings } = extract(page({ shown: '<p>¥34,980</p>', low: 36800 }));
    expect(data.price).toBe(34980);
    expect(warnings.join(' ')).toContain('microdata:offers.lowPrice (36800) disagrees');
  });

  it('stands in with microdata lowPrice, then the description meta, when nothing is shown', () => {
    const fromMicrodata = extract(page({ low: 21800, count: 7, description: '最安価格(税込)：¥22,000' }));
    expect(fromMicrodata.data.price).toBe(21800);
    expect(fromMicrodata.data.price_tax).toBe('unknown');
    expect(fromMicrodata.provenance.price).toBe('microdata:offers.lowPrice');
    expect(fromMicrodata.data.offer_count).toBe(7);
    const fromMeta = extract(page({ description: 'テスト製品 Xの価格比較。最安価格(税込)：¥22,000 (9店舗)' }));
    expect(fromMeta.data.price).toBe(22000);
    expect(fromMeta.data.price_tax).toBe('included');
    expect(fromMeta.provenance.price).toBe('meta:description (最安価格)');
  });

  it('reads no price from a description that states none', () => {
    expect(() => extract(page({ description: 'テスト製品 Xの価格比較' }))).toThrow(KumoError);
  });
});
