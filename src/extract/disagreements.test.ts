// The cross-check behind kumo_extract_source_disagreements_total: which sources of a page disagree about a served field.
import { describe, expect, it } from 'vitest';
import { disagreementsOf } from './disagreements.js';
import type { Extraction } from './extractor.js';
import { normalizePage } from '../normalize/normalize-page.js';

function page(head: string, body = '') {
  return normalizePage({
    body: new TextEncoder().encode(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl: 'https://shop.example.jp/item/1',
    input: 'html',
  });
}

const jsonLd = (offers: unknown) =>
  `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'x', offers })}</script>`;

function served(data: Record<string, unknown>, provenance: Record<string, string>, extra: Partial<Extraction> = {}) {
  return { data: { title: 'x', ...data }, provenance: { title: 'selector:h1', ...provenance }, warnings: [], ...extra };
}

const shownPrice = (price: number) => served({ price }, { price: 'selector:.price' });

describe('disagreementsOf', () => {
  it('JSON-LD price beside a different shown price: one price disagreement, json-ld vs shown', () => {
    const p = page(jsonLd({ '@type': 'Offer', price: '3750', priceCurrency: 'JPY' }));
    expect(disagreementsOf(p, shownPrice(2800))).toEqual([{ field: 'price', sources: ['json-ld', 'shown'] }]);
  });

  it('sources that agree, a price inside an AggregateOffer range, or one of several offers: nothing', () => {
    expect(disagreementsOf(page(jsonLd({ '@type': 'Offer', price: 2800 })), shownPrice(2800))).toEqual([]);
    const range = jsonLd({ '@type': 'AggregateOffer', lowPrice: 1980, highPrice: 3480 });
    expect(disagreementsOf(page(range), shownPrice(2480))).toEqual([]);
    const several = jsonLd([
      { '@type': 'Offer', price: 5000 },
      { '@type': 'Offer', price: 4200 },
    ]);
    expect(disagreementsOf(page(several), shownPrice(4200))).toEqual([]);
  });

  it('a price served from JSON-LD is not checked against itself, but microdata and meta that differ count', () => {
    const p = page(
      jsonLd({ '@type': 'Offer', price: 1000 }) + '<meta property="product:price:amount" content="1200">',
      '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">x</span>' +
        '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta itemprop="price" content="900"></div></div>',
    );
    const result = disagreementsOf(p, served({ price: 1000 }, { price: 'json-ld:offers.price' }));
    expect(result).toEqual([
      { field: 'price', sources: ['json-ld', 'microdata'] },
      { field: 'price', sources: ['json-ld', 'meta'] },
      { field: 'price', sources: ['meta', 'microdata'] },
    ]);
  });

  it('availability: buyable against sold out counts; limited against InStock does not', () => {
    const p = page(jsonLd({ '@type': 'Offer', price: 500, availability: 'https://schema.org/OutOfStock' }));
    expect(
      disagreementsOf(
        p,
        served({ price: 500, availability: 'in_stock' }, { price: 'selector:.p', availability: 'selector:.stock' }),
      ),
    ).toEqual([{ field: 'availability', sources: ['json-ld', 'shown'] }]);
    const q = page(jsonLd({ '@type': 'Offer', price: 500, availability: 'InStock' }));
    expect(
      disagreementsOf(
        q,
        served({ price: 500, availability: 'limited' }, { price: 'selector:.p', availability: 'selector:.stock' }),
      ),
    ).toEqual([]);
  });

  it("an extractor's own report is kept once, beside the cross-check's", () => {
    const p = page(jsonLd({ '@type': 'Offer', price: 3750 }));
    const extraction = served(
      { price: 2800 },
      { price: 'selector:.price' },
      {
        disagreements: [
          { field: 'price', sources: ['shown', 'json-ld'] },
          { field: 'list_price', sources: ['json', 'shown'] },
        ],
      },
    );
    expect(disagreementsOf(p, extraction)).toEqual([
      { field: 'price', sources: ['json-ld', 'shown'] },
      { field: 'list_price', sources: ['json', 'shown'] },
    ]);
  });

  it('pages that serve no price are not walked', () => {
    const p = page(jsonLd({ '@type': 'Offer', price: 3750 }));
    expect(disagreementsOf(p, served({}, {}))).toEqual([]);
  });
});
