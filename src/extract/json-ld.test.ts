// JSON-LD: lenient parsing (extruct's invalid-but-real cases, read in place), Product discovery, offers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../normalize/normalize-page.js';
import type { HtmlPage } from '../normalize/page.js';
import { corpusAvailable, corpusPath } from '../sites/corpus.js';
import { decodeCharacterReferences, findProduct, parseJsonLd, repairJson } from './json-ld.js';

const haveCorpus = corpusAvailable();
if (!haveCorpus) console.warn(`json-ld corpus tests skipped: ${corpusPath('')} is absent`);

const product = (...blocks: string[]) => findProduct(parseJsonLd(blocks).nodes);

describe('parseJsonLd', () => {
  it('skips a malformed block with a warning and keeps the others', () => {
    const r = parseJsonLd(['{"@type": "Product", "name": ', '{"@type":"Product","name":"B"}']);
    expect(r.warnings).toEqual(['json-ld: block 1 is not valid JSON, skipped']);
    expect(r.nodes).toEqual([{ '@type': 'Product', name: 'B' }]);
  });

  it('repairs comments, trailing commas and raw control characters, but not inside strings', () => {
    expect(JSON.parse(repairJson('{"u": "http://x//y", /* c */ "a": [1, 2,], // z\n}'))).toEqual({
      u: 'http://x//y',
      a: [1, 2],
    });
    expect(JSON.parse(repairJson('{"s": "a\nb\tc"}'))).toEqual({ s: 'a\nb\tc' });
  });

  it('decodes character references templates leave in values', () => {
    expect(decodeCharacterReferences('a.jpg?t&#x3D;1&amp;b&#61;2 &unknown;')).toBe('a.jpg?t=1&b=2 &unknown;');
  });
});

describe('findProduct', () => {
  it('finds a Product in an array, in @graph and nested under another node', () => {
    expect(product('[{"@type":"WebSite"},{"@type":"Product","name":"A"}]')?.name).toBe('A');
    expect(
      product(
        '{"@context":"https://schema.org","@graph":[{"@type":"BreadcrumbList"},{"@type":["Thing","Product"],"name":"B"}]}',
      )?.name,
    ).toBe('B');
    expect(product('{"@type":"ItemPage","mainEntity":{"@type":"http://schema.org/Product","name":"C"}}')?.name).toBe(
      'C',
    );
    expect(product('{"@type":"Article","name":"D"}')).toBeNull();
  });

  it('reads offers: object, array, string or number price, tax flag, seller, availability', () => {
    const p =
      product(`{"@type":"Product","name":"X","brand":{"@type":"Brand","name":"Roland"},"sku":"A-1","gtin13":"4957054512345",
      "image":["https://x.jp/1.jpg",{"@type":"ImageObject","url":"https://x.jp/2.jpg"}],
      "offers":[{"@type":"Offer","price":1980,"priceCurrency":"JPY","availability":"https://schema.org/OutOfStock"},
                {"@type":"Offer","priceSpecification":{"@type":"PriceSpecification","price":"2,178","priceCurrency":"JPY","valueAddedTaxIncluded":true},"seller":{"name":"店"}}]}`);
    expect(p).toMatchObject({
      name: 'X',
      brand: 'Roland',
      sku: 'A-1',
      gtin: '4957054512345',
      images: ['https://x.jp/1.jpg', 'https://x.jp/2.jpg'],
    });
    expect(p?.offers.map((o) => [o.price, o.availability, o.taxIncluded, o.seller])).toEqual([
      [1980, 'OutOfStock', null, null],
      [2178, null, true, '店'],
    ]);
  });

  it('reads AggregateOffer as its low price and never converts other currencies', () => {
    expect(
      product(
        '{"@type":"Product","offers":{"@type":"AggregateOffer","lowPrice":"1200","highPrice":"3400","priceCurrency":"JPY"}}',
      )?.offers[0],
    ).toMatchObject({
      price: 1200,
      highPrice: 3400,
      aggregate: true,
    });
    expect(
      product('{"@type":"Product","offers":{"@type":"Offer","price":"119.99","priceCurrency":"USD"}}')?.offers[0]
        ?.price,
    ).toBeNull();
  });
});

describe.skipIf(!haveCorpus)('extruct corpus (read in place)', () => {
  const load = (name: string) =>
    normalizePage({
      body: new Uint8Array(readFileSync(corpusPath(`extruct/custom.invalid/${name}.html`))),
      headers: { 'content-type': 'text/html' },
      finalUrl: 'https://example.com/',
      input: 'html',
    }) as HtmlPage;

  it.each(['JSONLD_with_JS_comment', 'JSONLD_with_control_characters'])(
    '%s parses to extruct’s expectation',
    (name) => {
      const expected: unknown = JSON.parse(readFileSync(corpusPath(`extruct/custom.invalid/${name}.jsonld`), 'utf8'));
      const r = parseJsonLd(load(name).jsonLd);
      expect(r.warnings).toEqual([]);
      expect(r.nodes).toEqual(expected);
    },
  );

  it('ikebe product page: Product with offers.price 2200 JPY InStock and a decoded image URL', () => {
    const page = normalizePage({
      body: new Uint8Array(readFileSync(corpusPath('ikebe-gakki/product.html'))),
      headers: {},
      finalUrl: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      input: 'html',
    }) as HtmlPage;
    const p = findProduct(parseJsonLd(page.jsonLd).nodes);
    expect(p?.name).toBe('USB cable type C to type C【箱損アウトレット】');
    expect(p?.offers[0]).toMatchObject({ price: 2200, currency: 'JPY', availability: 'InStock', seller: '池部楽器店' });
    expect(p?.images).toEqual([
      'https://ikebeweb.itembox.design/product/585/000000158508/000000158508-01-xs.jpg?t=20230201230222',
    ]);
  });
});
