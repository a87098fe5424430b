// 駿河屋 behaviour beyond the golden data: URL shapes, provenance and warnings, offer rules, upstream expectations.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import type { Extractor } from '../../extract/extractor.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { surugaya } from './site.js';
import { surugayaItemExtractor } from './item-extractor.js';
import { surugayaOffersExtractor } from './offers-extractor.js';
import { surugayaSearchExtractor } from './search-extractor.js';

const run = (extractor: Extractor, html: string | Buffer, url: string) =>
  extractor.extract(
    normalizePage({
      body: typeof html === 'string' ? new TextEncoder().encode(html) : html,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: url,
      input: 'html',
    }),
  );
const ITEM = 'https://www.suruga-ya.jp/product/detail/128049960';
const OTHER = 'https://www.suruga-ya.jp/product/other/128049960';
const SEARCH = 'https://www.suruga-ya.jp/search?category=&search_word=test';

const grade = (
  label: string,
  price: string,
  old?: string,
  tags = '<span class="tag_product blue-light"><span>在庫数：1</span></span>',
) =>
  `<div class="item-price form-inline"><div class="form-check"><input name="grade" type="radio">
   <label class="mgnB0 d-block" data-label="${label}&nbsp;">${label}&nbsp;
   ${old ? `<span class="text-price-detail price-old">${old}</span>` : ''}
   <span class="text-price-detail price-buy">${price}</span>${tags}</label></div></div>`;
const itemPage = (grades: string, extra = '') =>
  `<h1 class="h1_title_product" id="item_title">アニメDVD\u3000テスト</h1><div class="price_group mb-2">${grades}</div>
   <div id="cart"><input type="hidden" name="tenpo_cd" value=""></div>${extra}`;

function pageTypeOf(url: string): string[] {
  const u = new URL(url);
  return surugaya.pageTypes.filter((e) => e.matches(u)).map((e) => e.pageType);
}

describe('surugaya URL shapes', () => {
  it('matches item, offers and search pages and nothing else', () => {
    expect(pageTypeOf('https://www.suruga-ya.jp/product/detail/128049960')).toEqual(['item']);
    expect(pageTypeOf('https://www.suruga-ya.jp/product/detail/G4404338')).toEqual(['item']);
    expect(pageTypeOf('https://www.suruga-ya.jp/product/detail/106000370?tenpo_cd=400438')).toEqual(['item']);
    expect(pageTypeOf('https://www.suruga-ya.jp/product/detail/109102234?branch_number=0088')).toEqual(['item']);
    expect(pageTypeOf('https://www.suruga-ya.jp/product/other/128002938')).toEqual(['offers']);
    expect(pageTypeOf('https://www.suruga-ya.jp/search?category=&search_word=&category1=7&page=2')).toEqual(['search']);
    expect(pageTypeOf('https://www.suruga-ya.jp/kaitori/kaitori_detail/128049960')).toEqual([]);
    expect(pageTypeOf('https://www.suruga-ya.jp/shop/400438')).toEqual([]);
    expect(pageTypeOf('https://www.suruga-ya.jp/product/detail/')).toEqual([]);
  });
});

describe('surugaya/item', () => {
  it('serves the displayed time-sale price over the JSON-LD pre-sale price, with a warning', () => {
    const r = run(
      surugayaItemExtractor,
      itemPage(grade('中古', '2,800円 (税込)', '3,750円'), '') +
        '<div class="flash_sale"><div class="flash_sale_title">タイムセール</div></div>' +
        '<script type="application/ld+json">{"@type":"Product","name":"テスト","offers":[{"price":"3750","priceCurrency":"JPY"}]}</script>',
      ITEM,
    );
    expect(r.data).toMatchObject({
      price: 2800,
      price_tax: 'included',
      list_price: 3750,
      on_sale: true,
      sale_label: 'タイムセール',
      shop: '駿河屋',
    });
    expect(r.warnings.join('\n')).toMatch(/json-ld:offers.price \(3750\) disagrees/);
    expect(() => validateExtraction('item', r)).not.toThrow();
  });

  it('takes the new-condition grade as the price even when a used one is cheaper', () => {
    const r = run(
      surugayaItemExtractor,
      itemPage(grade('中古', '3,000円 (税込)') + grade('新品', '5,000円 (税込)')),
      ITEM,
    );
    expect(r.data.price).toBe(5000);
    expect(r.provenance.price).toMatch(/new-condition offer/);
    expect((r.data.offers as unknown[]).length).toBe(2);
  });

  it('reads a marketplace seller and its shop link, and the Product block despite `"offers": ,`', () => {
    const r = run(
      surugayaItemExtractor,
      `<h1 id="item_title">WiiUソフト\u3000テスト(状態：外箱欠品)</h1>
       <div class="mb-2">この商品は、<a href="/shop/400438" class="link_underline">テスト古河店 Supported by 駿河屋</a>が販売、発送します。</div>
       <div class="price_group">${grade('中古', '3,209円 (税込)')}</div>
       <div id="cart"><input type="hidden" name="tenpo_cd" value="400438"></div>
       <script type="application/ld+json">[{"@type":"Product","name":"テスト","offers": ,"gtin13":"4902370528534"}]</script>`,
      'https://www.suruga-ya.jp/product/detail/106000370?tenpo_cd=400438',
    );
    expect(r.data).toMatchObject({
      shop: 'テスト古河店 Supported by 駿河屋',
      jan: '4902370528534',
      condition_text: '中古 状態:外箱欠品',
    });
    expect(r.warnings).toEqual([]);
  });

  it('fails naming the missing fields, never quoting the page', () => {
    try {
      run(surugayaItemExtractor, '<div class="price_group"></div><h2>買取価格 1,000円</h2>', ITEM);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/title', '/price']);
    }
  });
});

const offerRow = (price: string, condition: string, shop: string, postage: string, struck = '') =>
  `<tr class="item"><td><p class="title_product"><strong class="text-red text-bold mgnL10">${price}</strong>${struck}</p></td>
   <td><a href="/product/detail/128049960?branch_number=0001"><h2 class="title_product">${condition}</h2></a></td>
   <td><div class="text-center">${shop}</div></td><td><ul><li class="padT5">${postage}</li></ul></td>
   <td><a class="add-cart" data-tenpo_cd="${shop ? '400506' : ''}"></a></td></tr>`;

describe('surugaya/offers', () => {
  it('keeps every offer with its condition words; a fee is served only when one flat amount is written', () => {
    const r = run(
      surugayaOffersExtractor,
      `<h1 class="title_product mgnB15">テストの取り扱い店舗一覧</h1><span class="total_all">3</span><table id="tbl_all">
       ${offerRow('1,980円', '中古ディスク不備', '', '<div class="campaign_price"><span>999円未満</span><span>440円</span></div><div class="campaign_price"><span>999円以上</span><span>送料無料</span></div>')}
       ${offerRow('3,200円', '中古', '<div class="space_text_1"><a href="/shop/200823">テスト本館</a></div>', '<div class="campaign_price"><span>2,000円未満</span><span>300～1,500円</span></div><div class="campaign_price"><span>2,000円以上</span><span>送料無料</span></div>')}
       ${offerRow('2,800円', '中古', '', '', '<br><strong class="mgnL10 text-line-through">3,750円</strong>')}
       </table>`,
      OTHER,
    );
    const items = r.data.items as Record<string, unknown>[];
    expect(r.data.title).toBe('テスト');
    expect(items.map((i) => i.condition_text)).toEqual(['中古ディスク不備', '中古', '中古']);
    expect(items[0]).toMatchObject({
      shop: '駿河屋',
      shipping: 'extra',
      shipping_fee: 440,
      free_shipping_threshold: 999,
    });
    expect(items[1]).toMatchObject({ shop: 'テスト本館', shop_url: 'https://www.suruga-ya.jp/shop/200823' });
    expect(items[1]!.free_shipping_threshold).toBe(2000);
    expect(items[1]!.shipping_fee).toBeUndefined();
    // A struck price means a sale; the list never names it, so no label is invented.
    expect(items[2]).toMatchObject({ on_sale: true, list_price: 3750 });
    expect(items[2]!.sale_label).toBeUndefined();
    expect(() => validateExtraction('offers', r)).not.toThrow();
  });

  it('an offers list with no offers left is an empty list, not an error', () => {
    const r = run(
      surugayaOffersExtractor,
      `<h1 class="title_product mgnB15">テストの取り扱い店舗一覧</h1><span class="total_all">0</span>
       <p class="price_product"><strong>価格： <span class="red"> </span></strong></p>
       <table id="tbl_all"><tr class="thead"><th>価格</th><th>コンディション</th></tr></table>
       <div class="related_product"><span class="text-red">1,280円</span></div>`,
      OTHER,
    );
    expect(r.data).toEqual({ title: 'テスト', items: [], next_page: null, total: 0, page: null });
    expect(r.warnings).toEqual([]);
    expect(() => validateExtraction('offers', r)).not.toThrow();
  });

  it('lists the 全て tab once: the 新品/中古 tabs repeat its rows', () => {
    const row = offerRow('5,980円', '新品', '', '');
    const r = run(
      surugayaOffersExtractor,
      `<h1 class="title_product">テストの取り扱い店舗一覧</h1><span class="total_all">1</span>
       <table id="tbl_all">${row}</table><table id="tbl_new">${row}</table>`,
      OTHER,
    );
    expect(r.data.items).toHaveLength(1);
    expect(r.data.items).toEqual([expect.objectContaining({ price: 5980, condition: 'new', shop: '駿河屋' })]);
  });

  it('is not a list without the offers table', () => {
    expect(() => run(surugayaOffersExtractor, '<h1 class="title_product">見つかりません</h1>', OTHER)).toThrow(
      KumoError,
    );
  });
});

describe('surugaya/search', () => {
  it('never takes 定価 as a price and prefers a new offer', () => {
    const r = run(
      surugayaSearchExtractor,
      `<div id="search_header"><div class="hit">該当件数:1件中 1-1件</div></div><div id="search_result"><div class="item_box"><div class="item">
       <div class="title"><a href="/product/detail/G1"><h3 class="product-name">テスト</h3></a></div>
       <div class="item_price"><p class="price_teika">定価：<strong>￥9,999</strong></p>
       <p class="price_teika">中古：<span class="text-red"><strong>￥500</strong></span><span class="tax">税込</span></p>
       <p class="price_teika">新品：<span class="text-red"><strong>￥800</strong></span><span class="tax">税込</span></p></div>
       </div></div></div>`,
      SEARCH,
    );
    expect(r.data.items).toEqual([
      expect.objectContaining({
        price: 800,
        condition: 'new',
        price_range: { min: 500, max: 800 },
        url: 'https://www.suruga-ya.jp/product/detail/G1',
        sku: 'G1',
      }),
    ]);
    expect(r.data).toMatchObject({ total: 1, next_page: null });
    expect(() => validateExtraction('search', r)).not.toThrow();
  });

  it('takes the next page from the head link when the pager is missing', () => {
    const r = run(
      surugayaSearchExtractor,
      `<link rel="next" href="/search?search_word=test&page=3"><div id="search_header"><div class="hit">該当件数:60件中 25-48件</div></div><div id="search_result"></div>`,
      SEARCH,
    );
    expect(r.data).toMatchObject({
      items: [],
      total: 60,
      next_page: 'https://www.suruga-ya.jp/search?search_word=test&page=3',
    });
    expect(r.provenance.next_page).toBe('link:rel=next');
  });

  it('is not a search page without its header or result list', () => {
    expect(() => run(surugayaSearchExtractor, '<p>メンテナンス中</p>', SEARCH)).toThrow(KumoError);
  });

  it('a product page served at a search URL (a search that lands on one product) is not a list', () => {
    // The scrape service refuses a redirect to another page type; a detail page served as the search response
    // itself must fail here rather than pass as a list of its related products.
    try {
      run(
        surugayaSearchExtractor,
        itemPage(grade('中古', '2,800円 (税込)')) +
          '<div class="related_product"><div class="item"><h3 class="product-name">関連</h3><span class="price-buy">500円</span></div></div>',
        SEARCH,
      );
      expect.unreachable();
    } catch (e) {
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/items']);
    }
  });

  const card = (prices: string) =>
    `<div id="search_header"><div class="hit">該当件数:1件中 1-1件</div></div><div id="search_result"><div class="item_box"><div class="item">
     <div class="title"><a href="/product/detail/G2"><h3 class="product-name">テスト</h3></a></div>
     <div class="item_price">${prices}</div></div></div></div>`;

  it('a range line (several grades of its own) gives both ends to price_range, the lower one as the offer', () => {
    const r = run(
      surugayaSearchExtractor,
      card(
        '<p class="price_teika">中古：<span class="text-red"><strong>￥3,440  ～ ￥4,300 </strong></span>&nbsp;<span class="tax">税込</span></p>',
      ),
      SEARCH,
    );
    expect(r.data.items).toEqual([
      expect.objectContaining({ price: 3440, condition: 'used', price_range: { min: 3440, max: 4300 } }),
    ]);
  });

  it('a time-sale line without a condition label takes the condition and struck price of its 通常価格 line', () => {
    const r = run(
      surugayaSearchExtractor,
      card(
        `<p class="timesales"><span class="timesaleTit">タイムセール</span><br><span class="timesaleSpan">2026-11-22 14:00:00 から</span></p>
         <p class="price_normal">中古通常価格&nbsp;<span class="strike">¥910 </span></p>
         <p class="price_teika"><span class="text-red"><strong>￥600</strong></span>&nbsp;<span class="tax">税込</span></p>
         <p class="price_teika">定価：￥11,204</p>`,
      ),
      SEARCH,
    );
    const item = (r.data.items as Record<string, unknown>[])[0]!;
    expect(item).toMatchObject({
      price: 600,
      condition: 'used',
      condition_text: '中古',
      on_sale: true,
      list_price: 910,
      sale_label: 'タイムセール',
    });
    expect(item.price_range).toBeUndefined();
    expect(() => validateExtraction('search', r)).not.toThrow();
  });
});

describe.skipIf(!corpusAvailable())('surugaya real pages against the upstream expectations', () => {
  const real = (file: string) => readFileSync(corpusPath(`surugaya/${file}`));

  it('surugaya_other.html: 13 offers; without 不備 the upstream 10 in its order', () => {
    const r = run(
      surugayaOffersExtractor,
      real('surugaya_other.html'),
      'https://www.suruga-ya.jp/product/other/128002938',
    );
    const items = r.data.items as { price: number; shop: string; condition_text: string }[];
    expect(items).toHaveLength(13);
    const kept = items.filter((i) => !i.condition_text.includes('不備'));
    expect(kept).toHaveLength(10);
    expect(kept.map((i) => [i.price, i.shop]).filter((_, n) => [0, 1, 2, 8, 9].includes(n))).toEqual([
      [2440, '駿河屋 ひたちなかファッションクルーズ店'],
      [3180, '駿河屋神戸兵庫駅前店'],
      [3200, '駿河屋日本橋本館'],
      [3580, '駿河屋'],
      [4500, '駿河屋藤枝店'],
    ]);
  });

  it('surugaya_detail_other_b_rank.html: the upstream keyword filters work on condition_text', () => {
    const r = run(
      surugayaItemExtractor,
      real('surugaya_detail_other_b_rank.html'),
      'https://www.suruga-ya.jp/product/detail/109102234',
    );
    const offers = r.data.offers as { price: number; condition_text: string }[];
    expect(offers.map((o) => o.price)).toEqual([4680, 3740, 3450, 3060]);
    expect(offers.filter((o) => !o.condition_text.includes('難')).map((o) => o.price)).toEqual([4680, 3740, 3450]);
    expect(offers.filter((o) => !o.condition_text.includes('欠品')).map((o) => o.price)).toEqual([4680, 3740]);
  });
});
