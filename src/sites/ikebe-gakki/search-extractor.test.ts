// イケベ search/category lists beyond the golden data: URL routing, the real page's upstream values, list edge cases.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { ikebeSearchExtractor } from './search-extractor.js';
import { ikebeGakki } from './site.js';

const SEARCH_URL = 'https://www.ikebe-gakki.com/p/search?maxprice=100000&tag=%E6%96%B0%E5%93%81&sort=latest';
const extract = (html: string | Uint8Array, url = SEARCH_URL) => {
  const result = ikebeSearchExtractor.extract(
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
const kindOf = (url: string) => ikebeGakki.pageTypes.find((p) => p.matches(new URL(url)))?.pageType ?? null;

const row = (modifier: string, main: string, addon?: string) =>
  `<div class="fs-c-productPrice fs-c-productPrice--${modifier}"><span class="fs-c-productPrice__main">` +
  `<span class="fs-c-productPrice__main__price fs-c-price"><span class="fs-c-price__value">${main}</span></span></span>` +
  (addon ?? '') +
  '</div>';
const taxIn = (amount: string) =>
  `<span class="fs-c-productPrice__addon"><span class="fs-c-productPrice__addon__label">消費税込</span>` +
  `<span class="fs-c-productPrice__addon__price fs-c-price"><span class="fs-c-price__value">${amount}</span></span></span>`;
const article = (code: string, name: string, prices: string, extra = '') =>
  `<article class="fs-c-productList__list__item fs-c-productListItem"><h2 class="fs-c-productName">` +
  `<a href="/c/c-/gt/gt01/gt0111/${code}"><span class="fs-c-productName__copy">Fender</span>` +
  `<span class="fs-c-productName__name">${name}</span></a></h2>` +
  `<div class="fs-c-productListItem__prices fs-c-productPrices">${prices}</div>${extra}</article>`;
const list = (articles: string, after = '') =>
  `<div class="fs-c-productList"><div class="fs-c-productList__list">${articles}</div></div>${after}`;

describe('ikebe_gakki URL patterns', () => {
  it('keeps product pages as items and routes search and group pages to search', () => {
    expect(kindOf('https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592')).toBe('item');
    expect(kindOf('https://www.ikebe-gakki.com/c/c-/dt/dt03/dt031548/dt031548002/750802')).toBe('item');
    expect(kindOf(SEARCH_URL)).toBe('search');
    expect(kindOf('https://www.ikebe-gakki.com/p/search?keyword=strat&page=2')).toBe('search');
    expect(kindOf('https://www.ikebe-gakki.com/c/c-/gt/gt01/gt0111')).toBe('search');
    expect(kindOf('https://www.ikebe-gakki.com/c/c-/ba/ba01/ba0105/')).toBe('search');
    expect(kindOf('https://www.ikebe-gakki.com/c/c-/dt/dt03/dt031548/dt031548002?page=2')).toBe('search');
  });

  it('leaves other shop pages unmatched', () => {
    expect(kindOf('https://www.ikebe-gakki.com/')).toBeNull();
    expect(kindOf('https://www.ikebe-gakki.com/p/cart')).toBeNull();
    expect(kindOf('https://www.ikebe-gakki.com/f/guide')).toBeNull();
  });
});

describe.skipIf(!corpusAvailable())('ikebe_gakki/search on the real search page', () => {
  const result = corpusAvailable()
    ? extract(readFileSync(corpusPath('ikebe-gakki/product_list.html')))
    : { data: {}, provenance: {}, warnings: [] };
  const data = result.data as { items: Record<string, unknown>[]; next_page: string; total: number; page: number };

  it('gives the upstream test values: 40 products, first and last, the next page', () => {
    expect(data.items).toHaveLength(40);
    expect(data.items[0]).toMatchObject({
      title: 'Apocalyptica(オンライン納品専用)※代引きはご利用いただけません',
      sku: '750802',
      price: 34300,
      price_tax: 'included',
      price_excluding_tax: 31182,
    });
    expect(data.items[39]).toMatchObject({
      title: 'DRUM MIDI - EDM GROOVES(オンライン納品専用)※代引きはご利用いただけません',
      sku: '750628',
      price: 3630,
    });
    expect(data.next_page).toBe(
      'https://www.ikebe-gakki.com/p/search?maxprice=100000&tag=%E6%96%B0%E5%93%81&page=2&sort=latest',
    );
    expect(data).toMatchObject({ total: 30302, page: 1 });
  });

  it('serves the lazy-loaded product image, not the loading placeholder', () => {
    for (const item of data.items) expect((item.images as string[])[0]).toMatch(/itembox\.design\/product\//);
  });
});

describe('ikebe_gakki/search edge cases', () => {
  it('serves an unlabelled price as unknown and one labelled （税抜） as excluded', () => {
    const r = extract(list(article('100001', 'Strat', row('selling', '10,000'))));
    expect((r.data.items as unknown[])[0]).toMatchObject({ price: 10000, price_tax: 'unknown' });
    const labelled = extract(
      list(
        article(
          '100001',
          'Strat',
          row('selling', '10,000', '<span class="fs-c-productPrice__addon"><span>（税抜）</span></span>'),
        ),
      ),
    );
    expect((labelled.data.items as unknown[])[0]).toMatchObject({
      price: 10000,
      price_tax: 'excluded',
      price_excluding_tax: 10000,
    });
  });

  it('gives the list price only on the price’s tax basis', () => {
    const listed = (addon: string) => row('listed', '20,000', addon);
    const r = extract(
      list(
        article('100001', 'A', listed(taxIn('22,000')) + row('selling', '10,000', taxIn('11,000'))) +
          article(
            '100002',
            'B',
            listed('<span class="fs-c-productPrice__addon">（税抜）</span>') +
              row('selling', '10,000', taxIn('11,000')),
          ),
      ),
    );
    const items = r.data.items as Record<string, unknown>[];
    expect(items[0]).toMatchObject({ price: 11000, list_price: 22000 });
    expect(items[1]!.list_price).toBeUndefined();
  });

  it('maps stock notices by their part and keeps the words', () => {
    const out = '<div class="fs-c-productListItem__outOfStock fs-c-productListItem__notice">SOLD</div>';
    const low = '<div class="fs-c-productListItem__lowInStock fs-c-productListItem__notice">残りわずか</div>';
    const r = extract(
      list(
        article('100001', 'A', row('selling', '1,000', taxIn('1,100')), out) +
          article('100002', 'B', row('selling', '1,000', taxIn('1,100')), low),
      ),
    );
    const items = r.data.items as Record<string, unknown>[];
    expect(items[0]).toMatchObject({ availability: 'out_of_stock', availability_text: 'SOLD' });
    expect(items[1]).toMatchObject({ availability: 'limited', availability_text: '残りわずか' });
  });

  it('reads points when a list item shows the futureshop point part', () => {
    const points =
      '<div class="fs-c-productPointDisplay"><span class="fs-c-productPointDisplay__quantity">1,100</span>pt</div>';
    const r = extract(list(article('100001', 'A', row('selling', '10,000', taxIn('11,000')) + points)));
    expect((r.data.items as unknown[])[0]).toMatchObject({ price: 11000, points: 1100 });
  });

  it('ignores recommendation carousels and leaves out entries without a name', () => {
    const carousel =
      '<section class="fs-c-productListCarousel"><article class="fs-c-productListCarousel__list__item fs-c-productListItem">' +
      '<span class="fs-c-productName__name">Decoy</span></article></section>';
    const r = extract(
      list(
        article('100001', '', row('selling', '1,000', taxIn('1,100'))) +
          article('100002', 'Kept', row('selling', '1,000', taxIn('1,100'))),
        carousel,
      ),
    );
    expect((r.data.items as { title: string }[]).map((i) => i.title)).toEqual(['Kept']);
    expect(r.warnings).toEqual(['1 list entries without a product name were left out']);
  });

  it('gives an item without price fields when the list shows no price', () => {
    const r = extract(list(article('100001', 'Ask', '<div class="fs-c-productPrice">お問い合わせ</div>')));
    const item = (r.data.items as Record<string, unknown>[])[0]!;
    expect(item.price).toBeUndefined();
    expect(item.currency).toBeUndefined();
  });

  it('reads a label-only 税込 addon beside a discount percentage, and never serves a member price', () => {
    const labelOnly =
      '<span class="fs-c-productPrice__addon"><span class="priceOffValue">20% OFF</span>' +
      '<span class="fs-c-productPrice__addon__label">(税込)</span></span>';
    const member = row(
      'member',
      '21,780',
      '<span class="fs-c-productPrice__addon"><span class="fs-c-productPrice__addon__label">(税込)</span></span>',
    );
    const [item] = extract(list(article('764001', 'スネア', member + row('selling', '27,225', labelOnly)))).data
      .items as Record<string, unknown>[];
    expect(item).toMatchObject({ price: 27225, price_tax: 'included' });
    expect(item!.price_excluding_tax).toBeUndefined();
  });

  it('takes the product link from the image when the name has none', () => {
    const html = list(
      '<article class="fs-c-productList__list__item fs-c-productListItem">' +
        '<div class="fs-c-productListItem__image fs-c-productImage"><a href="/c/c-/dr/dr05/dr050002/764002"><img src="x.svg"></a></div>' +
        '<h2 class="fs-c-productName"><span class="fs-c-productName__name">スティック 5A</span></h2></article>',
    );
    const [item] = extract(html).data.items as Record<string, unknown>[];
    expect(item).toMatchObject({ url: 'https://www.ikebe-gakki.com/c/c-/dr/dr05/dr050002/764002', sku: '764002' });
  });

  it('fails on a page without the product-list part, naming the field', () => {
    try {
      extract('<article class="fs-c-productListItem"><span class="fs-c-productName__name">x</span></article>');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).extras.body?.fields).toEqual(['/items']);
    }
  });
});
