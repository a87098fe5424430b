// minkabu quote extractor against fundanalyzer's minkabu_ok / minkabu_verify expectations (corpus MANIFEST §2).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuoteData } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { minkabuQuoteExtractor } from './quote-extractor.js';
import { minkabu } from './site.js';

if (!corpusAvailable()) console.info(`minkabu corpus tests skipped: ${corpusPath('')} is absent`);

const quoteOf = (file: string, code: string) => {
  const page = normalizePage({
    body: new Uint8Array(readFileSync(file)),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl: `https://minkabu.jp/stock/${code}`,
    input: 'html',
  });
  const { data, provenance } = minkabuQuoteExtractor.extract(page);
  expect(Object.keys(provenance).sort()).toEqual(Object.keys(data).sort());
  return data as QuoteData;
};
const values = (q: QuoteData) => Object.fromEntries(q.metrics.map((m) => [m.key, m.value]));

describe.skipIf(!corpusAvailable())('minkabu real pages', () => {
  it('minkabu.html gives minkabu_ok', () => {
    const q = quoteOf(corpusPath('minkabu/minkabu.html'), '2157');
    expect(q).toMatchObject({ code: '2157', name: 'コシダカホールディングス', price: 408.0, as_of_text: '11/27' });
    // The board writes 11/27; the page dates itself 2020/11/29.
    expect(q.as_of).toBe('2020-11-27');
    expect(values(q)).toEqual({
      target_price: 636,
      theoretical_price: 638,
      individual_forecast_price: 649,
      analyst_forecast_price: 630,
    });
  });

  it('minkabu_9903.html gives minkabu_verify, the analyst forecast null', () => {
    const q = quoteOf(corpusPath('minkabu/minkabu_9903.html'), '9903');
    expect(q).toMatchObject({
      code: '9903',
      name: 'カンセキ',
      price: 3180.0,
      as_of_text: '12/04',
      as_of: '2020-12-04',
    });
    expect(values(q)).toEqual({
      target_price: 2575,
      theoretical_price: 3013,
      individual_forecast_price: 1918,
      analyst_forecast_price: null,
    });
    expect(q.metrics.find((m) => m.key === 'analyst_forecast_price')).toMatchObject({
      reason: 'unavailable',
      raw: '---',
    });
  });
});

describe('minkabu modelled page', () => {
  it('reads a decimal price split over span.decimal and --- as null', () => {
    const q = quoteOf(path.join(import.meta.dirname, 'fixtures/modelled-new-listing.html'), '135A');
    expect(q.price).toBe(1512.5);
    expect(values(q).target_price).toBeNull();
    expect(q.metrics).toHaveLength(4);
  });
});

describe('minkabu board date', () => {
  const modelled = readFileSync(path.join(import.meta.dirname, 'fixtures/modelled-new-listing.html'), 'utf8');
  const asOf = (board: string, written: string | null) => {
    let html = modelled.replace('(10:42)', `(${board})`);
    html =
      written === null
        ? html.replace(/<p class="c_caution stock_caution">[^<]*<\/p>/, '')
        : html.replace('2026/10/27 -', `${written} -`);
    const page = normalizePage({
      body: new TextEncoder().encode(html),
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: 'https://minkabu.jp/stock/135A',
      input: 'html',
    });
    const { data, provenance } = minkabuQuoteExtractor.extract(page);
    return { asOf: (data as QuoteData).as_of, source: provenance.as_of };
  };

  it.each([
    ['10:42', '2026/10/27', '2026-10-27T10:42:00+09:00'],
    ['10/23', '2026/10/27', '2026-10-23'],
    ['10/27', '2026/10/27', '2026-10-27'],
    ['12/30', '2027/01/02', '2026-12-30'],
    ['2/29', '2024/03/01', '2024-02-29'],
    ['2/29', '2025/03/01', null],
    ['13/01', '2026/10/27', null],
    ['25:00', '2026/10/27', null],
  ])('board %s on a page written %s → %s', (board, written, expected) => {
    expect(asOf(board, written).asOf).toBe(expected);
  });

  it('stays null when the page does not date itself, and says so', () => {
    const r = asOf('10/23', null);
    expect(r.asOf).toBeNull();
    expect(r.source).toMatch(/^none:/);
  });
});

describe('minkabu URL patterns', () => {
  const typeOf = (u: string) => minkabu.pageTypes.find((p) => p.matches(new URL(u)))?.pageType;
  it('routes the stock top page only', () => {
    expect(typeOf('https://minkabu.jp/stock/2157')).toBe('quote');
    expect(typeOf('https://minkabu.jp/stock/135A')).toBe('quote');
    expect(typeOf('https://minkabu.jp/stock/2157/analysis')).toBeUndefined();
    expect(typeOf('https://minkabu.jp/')).toBeUndefined();
  });
});
