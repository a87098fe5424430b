// Microdata against extruct's own expected output (corpus §5), and Product/Offer reading through findProduct.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../normalize/normalize-page.js';
import type { HtmlPage } from '../normalize/page.js';
import { corpusAvailable, corpusPath } from '../sites/corpus.js';
import { findProduct, isObject, type JsonObject } from './json-ld.js';
import { readMicrodata } from './microdata.js';

const base = 'https://example.com/samples/';

function page(html: string | Buffer, url = `${base}page.html`): HtmlPage {
  const p = normalizePage({
    body: new Uint8Array(typeof html === 'string' ? Buffer.from(html) : html),
    headers: { 'content-type': 'text/html' },
    finalUrl: url,
    input: 'html',
  });
  if (p.kind !== 'html') throw new Error('html expected');
  return p;
}

// extruct's output form ({type, properties}); our URLs are absolute because normalization resolves links.
function asExtruct(node: JsonObject): unknown {
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== '@type') props[k] = convert(v);
  return { type: node['@type'], properties: props };
}
function convert(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(convert);
  if (isObject(v)) return asExtruct(v);
  return typeof v === 'string' && v.startsWith(base) ? v.slice(base.length) : v;
}

describe.skipIf(!corpusAvailable())('readMicrodata on the extruct samples', () => {
  it.each(['schema.org/product', 'schema.org/product-ref'])('%s equals extruct’s expected items', (name) => {
    const html = readFileSync(corpusPath(`extruct/${name}.html`));
    const expected = JSON.parse(readFileSync(corpusPath(`extruct/${name}.json`), 'utf8')) as unknown;
    expect(readMicrodata(page(html).document).map(asExtruct)).toEqual(expected);
  });

  it('reads the Product and its Offer (non-yen price is not taken as yen)', () => {
    const html = readFileSync(corpusPath('extruct/schema.org/product.html'));
    const product = findProduct(readMicrodata(page(html).document));
    expect(product).toMatchObject({ name: 'Executive Anvil', brand: 'ACME' });
    expect(product?.offers[0]).toMatchObject({ price: null, currency: 'USD', availability: 'InStock' });
  });
});

describe('readMicrodata', () => {
  it('reads a Japanese shop item with content, meta and nested seller', () => {
    const doc = page(`<div itemscope itemtype="https://schema.org/Product">
      <h1 itemprop="name">ギタースタンド\u3000ST-250</h1><img itemprop="image" src="/img/1.jpg">
      <meta itemprop="gtin13" content="4573201242433">
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
        <span itemprop="price" content="4400">￥4,400</span><meta itemprop="priceCurrency" content="JPY">
        <link itemprop="availability" href="https://schema.org/OutOfStock">
        <div itemprop="seller" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">池部楽器店</span></div>
      </div></div>`).document;
    const product = findProduct(readMicrodata(doc));
    expect(product).toMatchObject({
      name: 'ギタースタンド ST-250',
      gtin: '4573201242433',
      images: ['https://example.com/img/1.jpg'],
    });
    expect(product?.offers[0]).toMatchObject({
      price: 4400,
      currency: 'JPY',
      availability: 'OutOfStock',
      seller: '池部楽器店',
    });
  });

  it('survives an itemref cycle', () => {
    const doc = page('<div id="a" itemscope itemref="a"><span itemprop="x">1</span></div>').document;
    expect(readMicrodata(doc)).toEqual([{ x: '1' }]);
  });
});
