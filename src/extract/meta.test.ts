// Page metadata, selectors and the futureshop parts on small pages written for the purpose.
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../normalize/normalize-page.js';
import type { HtmlPage } from '../normalize/page.js';
import { readFutureshopProduct } from './futureshop.js';
import { readMeta, titleWithoutSiteName } from './meta.js';
import { allTexts, firstAttr, firstText } from './selectors.js';

const page = (html: string, url = 'https://shop.example.jp/item/1') =>
  normalizePage({ body: new TextEncoder().encode(html), headers: {}, finalUrl: url, input: 'html' }) as HtmlPage;

describe('readMeta', () => {
  it('reads OpenGraph, product: price, canonical and <title>', () => {
    const m = readMeta(
      page(`<head><title> 商品A｜店 </title>
        <meta property="og:title" content="商品Ａ｜店"><meta name="og:site_name" content="店">
        <meta property="og:image" content="/a.jpg"><meta property="og:image" content="https://cdn.jp/b.jpg">
        <meta property="product:price:amount" content="2200"><meta property="product:price:currency" content="JPY">
        <link rel="Canonical" href="/item/1?ref=x"></head>`),
    );
    expect(m).toMatchObject({
      // NFKC folds the full-width bar ｜ to |.
      title: '商品A|店',
      ogTitle: '商品A|店',
      ogSiteName: '店',
      ogImages: ['https://shop.example.jp/a.jpg', 'https://cdn.jp/b.jpg'],
      priceAmount: '2200',
      priceCurrency: 'JPY',
      canonical: 'https://shop.example.jp/item/1?ref=x',
    });
  });

  it('strips only a known shop name from a title', () => {
    expect(titleWithoutSiteName('USB cable｜イケベ楽器店', ['イケベ楽器店'])).toBe('USB cable');
    expect(titleWithoutSiteName('A | B | 池部楽器店', ['イケベ楽器店', '池部楽器店'])).toBe('A | B');
    expect(titleWithoutSiteName('ケーブル｜3m', ['イケベ楽器店'])).toBe('ケーブル｜3m');
    expect(titleWithoutSiteName(null, ['x'])).toBeNull();
  });
});

describe('selectors', () => {
  const p = page(
    '<p class="price">3,200<span>円</span></p><p class="n">一行目<br>二行目</p><p class="n">　</p><a class="x" href="">a</a><a class="x" href="/y">b</a>',
  );
  it('joins text nodes without spaces, turns <br> into one, and normalizes', () => {
    expect(firstText(p.document, '.price')).toBe('3,200円');
    expect(allTexts(p.document, '.n')).toEqual(['一行目 二行目']);
    expect(firstText(p.document, '.missing')).toBeNull();
    expect(firstAttr(p.document, 'a.x', 'href')).toBe('https://shop.example.jp/y');
  });
});

describe('readFutureshopProduct', () => {
  const row = (cls: string, label: string, main: string, addon = '') =>
    `<div class="fs-c-productPrice ${cls}"><span class="fs-c-productPrice__main"><span class="fs-c-productPrice__main__label">${label}</span><span class="fs-c-price"><span class="fs-c-price__value">${main}</span></span></span>${addon}</div>`;
  const addon = (label: string, amount?: string) =>
    `<span class="fs-c-productPrice__addon"><span class="fs-c-productPrice__addon__label">${label}</span>${amount ? `<span class="fs-c-price"><span class="fs-c-price__value">${amount}</span></span>` : ''}</span>`;
  const read = (rows: string) =>
    readFutureshopProduct(page(`<div class="fs-c-productPrices fs-c-productPrices--productDetail">${rows}</div>`));

  it('税抜 main with a 消費税込 addon', () => {
    expect(read(row('fs-c-productPrice--selling', '特価', '2,000', addon('消費税込', '2,200'))).selling).toEqual({
      included: 2200,
      excluded: 2000,
      unmarked: null,
    });
  });

  it('税込 main with a 税抜 addon, and an addon that is only a label', () => {
    expect(read(row('fs-c-productPrice--selling', '', '2,200', addon('税抜', '2,000'))).selling).toEqual({
      included: 2200,
      excluded: 2000,
      unmarked: null,
    });
    expect(read(row('fs-c-productPrice--selling', '販売価格', '2,200', addon('(税込)'))).selling).toEqual({
      included: 2200,
      excluded: null,
      unmarked: null,
    });
  });

  it('an unlabelled price stays unmarked, and the listed row is separate', () => {
    const r = read(row('fs-c-productPrice--listed', '定価', '3,000') + row('fs-c-productPrice--selling', '', '2,500'));
    expect(r.listed).toEqual({ included: null, excluded: null, unmarked: 3000 });
    expect(r.selling).toEqual({ included: null, excluded: null, unmarked: 2500 });
  });
});
