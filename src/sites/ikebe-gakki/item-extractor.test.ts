// イケベ item extractor behaviour beyond the golden data: provenance, warnings, failure details.
import { describe, expect, it } from 'vitest';
import { itemPage } from '../../../test/support/pages.js';
import { KumoError } from '../../errors.js';
import { validateExtraction } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { ikebeItemExtractor } from './item-extractor.js';

const URL_ = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const extract = (html: string) =>
  ikebeItemExtractor.extract(
    normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html' },
      finalUrl: URL_,
      input: 'html',
    }),
  );

const price = (main: string, addon?: [string, string]) =>
  `<div class="fs-c-productPrices fs-c-productPrices--productDetail"><div class="fs-c-productPrice fs-c-productPrice--selling">
   <span class="fs-c-productPrice__main"><span class="fs-c-price"><span class="fs-c-price__value">${main}</span></span></span>
   ${addon ? `<span class="fs-c-productPrice__addon"><span class="fs-c-productPrice__addon__label">${addon[0]}</span><span class="fs-c-price"><span class="fs-c-price__value">${addon[1]}</span></span></span>` : ''}
   </div></div>`;
const name = '<h1><span class="fs-c-productNameHeading__name">テスト商品</span></h1>';

describe('ikebe_gakki/item', () => {
  it('confirms the JSON-LD price with the displayed 税込 amount', () => {
    const r = extract(
      `<script type="application/ld+json">{"@type":"Product","name":"テスト商品","offers":{"price":"2200","priceCurrency":"JPY"}}</script>${price('2,000', ['消費税込', '2,200'])}`,
    );
    expect(r.data).toMatchObject({ price: 2200, price_tax: 'included', price_excluding_tax: 2000 });
    expect(r.provenance).toMatchObject({
      title: 'json-ld:name',
      price: 'json-ld:offers.price',
      price_tax: 'selector:.fs-c-productPrice--selling',
    });
    expect(r.warnings).toEqual([]);
  });

  it('serves the displayed 税込 amount and warns when structured data disagrees', () => {
    const r = extract(
      `<meta property="product:price:amount" content="2000">${name}${price('2,000', ['消費税込', '2,200'])}`,
    );
    expect(r.data).toMatchObject({ title: 'テスト商品', price: 2200, price_tax: 'included' });
    expect(r.provenance.price).toBe('selector:.fs-c-productPrice--selling');
    expect(r.warnings[0]).toMatch(/product:price:amount \(2000\) disagrees/);
  });

  it('uses product:price:amount when there is no JSON-LD and the display has no tax label', () => {
    const r = extract(
      `<meta property="product:price:amount" content="1,500"><meta property="product:price:currency" content="JPY">${name}`,
    );
    expect(r.data).toMatchObject({ price: 1500, price_tax: 'unknown' });
    expect(r.provenance.price).toBe('meta:product:price:amount');
  });

  it('ignores a product: price in another currency', () => {
    expect(() =>
      extract(
        `<meta property="product:price:amount" content="15"><meta property="product:price:currency" content="USD">${name}`,
      ),
    ).toThrow(KumoError);
  });

  it('fails with the missing fields named when there is no title', () => {
    try {
      extract(price('2,000', ['消費税込', '2,200']));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KumoError);
      expect((e as KumoError).code).toBe('extraction_failed');
      expect((e as KumoError).message).toContain('no title');
      expect((e as KumoError).extras.body?.fields).toEqual(['/title']);
    }
  });

  it('leaves out a JAN whose check digit fails, with a warning', () => {
    const r = extract(`${name}${price('1,000')}<span class="janCode">JAN：4573201242434</span>`);
    expect(r.data.jan).toBeUndefined();
    expect(r.warnings).toContain('jan: the page shows a JAN that fails its check digit; left out');
  });

  it('reads the item page the end-to-end tests serve (test/support/pages.ts)', () => {
    const r = extract(itemPage({ title: 'Kumo テスト商品', price: 3300 }));
    validateExtraction('item', r);
    expect(r.data).toMatchObject({
      title: 'Kumo テスト商品',
      price: 3300,
      price_tax: 'included',
      price_excluding_tax: 3000,
    });
    expect(() => extract(itemPage({ price: null }))).toThrow(/no price/);
  });

  it('refuses JSON input', () => {
    expect(() => ikebeItemExtractor.extract({ kind: 'json', url: URL_, charset: 'utf-8', json: {} })).toThrow(
      KumoError,
    );
  });
});
