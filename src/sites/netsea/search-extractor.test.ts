// NETSEA lists beyond the golden data: URL routing, the real page's upstream values, sale and withheld prices.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { netseaSearchExtractor } from './search-extractor.js';
import { netsea } from './site.js';

const LIST_URL = 'https://www.netsea.jp/shop/5984';
const extract = (html: string | Uint8Array, url = LIST_URL) => {
  const result = netseaSearchExtractor.extract(
    normalizePage({
      body: typeof html === 'string' ? new TextEncoder().encode(html) : html,
      headers: { 'content-type': 'text/html' },
      finalUrl: url,
      input: 'html',
    }),
  );
  validateExtraction('search', result);
  return result;
};
const kindOf = (url: string) => netsea.pageTypes.find((p) => p.matches(new URL(url)))?.pageType ?? null;

const card = (code: string, prices: string, retail = '') =>
  `<section class="showcaseType01"><div class="showcaseBox">` +
  `<h3 class="showcaseHd"><a href="https://www.netsea.jp/shop/777/${code}?cx_search=new&fw=abc">商品 ${code}</a></h3>` +
  `<div class="priceBlock"><div class="retailPriceArea">${retail}</div><div class="priceBox">${prices}</div></div>` +
  `<div class="showcaseSupInfo"><p class="showcaseSupName"><a href="https://www.netsea.jp/company/777">テスト卸 株式会社</a></p></div>` +
  `</div></section>`;
const results = (cards: string) =>
  `<div id="searchResultsArea"><div class="showcaseWrap gridView">${cards}</div></div>`;
const items = (html: string) => extract(html).data.items as Record<string, unknown>[];

describe('netsea URL patterns', () => {
  it('routes keyword, category and supplier lists to search', () => {
    expect(kindOf('https://www.netsea.jp/search?keyword=%E3%83%99%E3%83%93%E3%83%BC')).toBe('search');
    expect(kindOf('https://www.netsea.jp/search/?facet_price_to=4508&disc_flg=Y&sort=PD&page=3')).toBe('search');
    expect(kindOf('https://www.netsea.jp/search?category_id=80&ex_so=Y&searched=Y')).toBe('search');
    expect(kindOf('https://www.netsea.jp/shop/5984')).toBe('search');
    expect(kindOf('https://www.netsea.jp/shop/5984?ex_so=Y&searched=Y&adm_id=richell')).toBe('search');
  });

  it('leaves item, company and other pages unmatched', () => {
    expect(kindOf('https://www.netsea.jp/shop/5984/4973655937907')).toBeNull();
    expect(kindOf('https://www.netsea.jp/shop/750972/FMP001')).toBeNull();
    expect(kindOf('https://www.netsea.jp/company/5984')).toBeNull();
    expect(kindOf('https://www.netsea.jp/')).toBeNull();
  });
});

describe.skipIf(!corpusAvailable())('netsea/search on the real supplier list', () => {
  const data = (
    corpusAvailable()
      ? extract(readFileSync(corpusPath('netsea/scrape_not_discount_price.html')))
      : { data: { items: [] } }
  ).data as { items: Record<string, unknown>[]; next_page: string; total: number; page: number };

  it('gives the manifest values: 60 items, the 税抜 wholesale price as shown (never tax added), the codes', () => {
    expect(data.items).toHaveLength(60);
    expect(data.items[0]).toMatchObject({
      title: '[直送品]リッチェル コアラクーン 両対面式A型ベビーカー 1カ月頃から36カ月頃 ネイビーブルー',
      price: 30556,
      price_tax: 'excluded',
      list_price: 50000,
      shop: 'カネイシ 株式会社',
      shop_url: 'https://www.netsea.jp/company/5984',
      jan: '4973655937907',
      sku: '4973655937907',
      url: 'https://www.netsea.jp/shop/5984/4973655937907',
    });
    // Upstream derives 6600 = 6000 × 1.1; the page says 6,000円/点(税抜).
    expect(data.items[59]).toMatchObject({
      title: 'カプセル粉づめくん 本体 0号用',
      price: 6000,
      price_tax: 'excluded',
    });
    expect(data).toMatchObject({ total: 9487, page: 1 });
    expect(data.next_page).toBe('https://www.netsea.jp/shop/5984?supplier_id=5984&ex_so=Y&searched=Y&page=2');
  });

  it('gives no list price for オープンプライス cards', () => {
    expect(data.items.filter((i) => i.list_price === undefined)).toHaveLength(16);
  });
});

describe('netsea/search cards', () => {
  it('serves the sale price over the struck usual price', () => {
    const [item] = items(
      results(
        card(
          'A-1',
          '<p class="price">1,000円<span>/点(税抜)</span></p><p class="afterPrice">800円<span>/点(税抜)</span></p>' +
            '<p class="discountTxt"><em class="discountRate">20%OFF中</em></p>',
        ),
      ),
    );
    expect(item).toMatchObject({ price: 800, price_tax: 'excluded', on_sale: true, sale_label: '20%OFF中' });
  });

  it('gives an item without price when the price is withheld', () => {
    const [item] = items(results(card('A-1', '<p class="price">会員登録（無料）で卸価格を表示（1点から購入可）</p>')));
    expect(item).toMatchObject({ title: '商品 A-1', sku: 'A-1' });
    expect(item!.price).toBeUndefined();
    expect(item!.price_tax).toBeUndefined();
  });

  it('keeps a product code that is not a valid JAN as sku only, and drops the tracking query', () => {
    const [item] = items(results(card('4973655937900', '<p class="price">500円<span>/点(税抜)</span></p>')));
    expect(item).toMatchObject({ sku: '4973655937900', url: 'https://www.netsea.jp/shop/777/4973655937900' });
    expect(item!.jan).toBeUndefined();
  });

  it('compares the list price per the same unit only', () => {
    const retail = '<p class="retailPrice">3,000円<span>/点(税抜)</span></p>';
    const [perSet, perPiece] = items(
      results(
        card('S', '<p class="price">1,650円<span>/セット(税抜)</span></p>', retail) +
          card('P', '<p class="price">1,650円<span>/点(税抜)</span></p>', retail),
      ),
    );
    expect(perSet!.list_price).toBeUndefined();
    expect(perPiece!.list_price).toBe(3000);
  });

  it('gives an empty list for a results area without cards', () => {
    const r = extract('<div id="searchResultsArea"><p class="paginationTxt">0件</p></div>');
    expect(r.data).toMatchObject({ items: [], total: 0, next_page: null, page: null });
  });

  it('leaves the badges printed inside the item link out of the title', () => {
    const html = results(card('B-1', '<p class="price">500円<span>/点(税抜)</span></p>')).replace(
      '>商品 B-1<',
      '><span class="labelType04">NEW</span>商品 B-1<',
    );
    expect(items(html)[0]!.title).toBe('商品 B-1');
  });

  it('labels a sale with the card balloon of the search template, not the empty header template', () => {
    const header =
      '<ul class="bookmarkDiscountList"><li><p class="discountTxt"><em class="discountRate"><span class="disc_rate"></span>%OFF中</em></p></li></ul>';
    const balloon =
      '<div class="balloonWrap discountPop"><span class="discountBalloon">10%OFF中（あと9日！）</span>' +
      '<div class="balloonBox"><div class="balloonCont">割引終了日時<br>02/28 00:00</div></div></div>';
    const html =
      header +
      results(
        card(
          'C-1',
          '<p class="price discount">1,000円<span>/点(税抜)</span></p><p class="afterPrice">900円<span>/点(税抜)</span></p>',
        ),
      ).replace('<div class="priceBox">', `${balloon}<div class="priceBox">`);
    expect(items(html)[0]).toMatchObject({ price: 900, on_sale: true, sale_label: '10%OFF中(あと9日!)' });
  });

  it('reads the supplier of the search template from its list button, without the search filters', () => {
    const html = results(card('D-1', '<p class="price">500円<span>/点(税抜)</span></p>')).replace(
      /<div class="showcaseSupInfo">.*?<\/div>/,
      '<p class="showcaseSupInfo"><a href="https://www.netsea.jp/shop/777?disc_flg=Y&amp;searched=Y" ' +
        'class="btnType01 showcaseSupInfoBtn"><span class="showcaseSupInfoName">テスト卸 株式会社</span><br>商品一覧</a></p>',
    );
    expect(items(html)[0]).toMatchObject({ shop: 'テスト卸 株式会社', shop_url: 'https://www.netsea.jp/shop/777' });
  });

  it('marks a card whose image block is marked sold out as out of stock, with its notice words when printed', () => {
    const plain = results(card('E-1', '<p class="price">500円<span>/点(税抜)</span></p>'));
    const soldOut = plain.replace(
      '<div class="showcaseBox">',
      '<div class="showcaseItemsImgBlock  ItemsSoldout "></div><div class="showcaseBox">',
    );
    expect(items(plain)[0]!.availability).toBeUndefined();
    expect(items(soldOut)[0]).toMatchObject({ availability: 'out_of_stock' });
    const worded = soldOut.replace(
      '<div class="priceBlock">',
      '<p class="exclamNoticeMsg">品切れになりました</p><div class="priceBlock">',
    );
    expect(items(worded)[0]).toMatchObject({ availability: 'out_of_stock', availability_text: '品切れになりました' });
  });

  it('fails when the page counts results but holds no card of the list template', () => {
    const html =
      '<div id="searchResultsArea"><p class="paginationTxt">1から40件／全900件中</p>' +
      '<section class="showcaseType03"><h3 class="showcaseHd"><a href="https://www.netsea.jp/shop/1/X">X</a></h3></section></div>';
    expect(() => extract(html)).toThrow(KumoError);
  });

  it('fails on a page without a results area, naming the field', () => {
    try {
      extract(`<div class="historyArea">${card('A-1', '<p class="price">500円</p>')}</div>`);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/items']);
    }
  });
});
