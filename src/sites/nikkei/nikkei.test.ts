// nikkei quote extractor against fundanalyzer's nikkei_ok expectations (corpus MANIFEST §2).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuoteData } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { nikkeiQuoteExtractor } from './quote-extractor.js';
import { nikkei } from './site.js';

if (!corpusAvailable()) console.info(`nikkei corpus tests skipped: ${corpusPath('')} is absent`);

const quoteOf = (file: string, code: string) => {
  const page = normalizePage({
    body: new Uint8Array(readFileSync(file)),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl: `https://www.nikkei.com/nkd/company/?scode=${code}`,
    input: 'html',
  });
  const { data, provenance } = nikkeiQuoteExtractor.extract(page);
  expect(Object.keys(provenance).sort()).toEqual(Object.keys(data).sort());
  return data as QuoteData;
};
const metric = (q: QuoteData, key: string) => q.metrics.find((m) => m.key === key);

describe.skipIf(!corpusAvailable())('nikkei real page', () => {
  it('nikkei.html gives nikkei_ok', () => {
    const q = quoteOf(corpusPath('nikkei/nikkei.html'), '9681');
    expect(q).toMatchObject({ code: '9681', name: '東京ドーム', price: 1047, as_of_text: '2020/11/27' });
    expect(q.as_of).toBe('2020-11-27T15:00:00+09:00');
    expect(metric(q, 'volume')).toMatchObject({ value: 134400, unit: '株' });
    expect(metric(q, 'shares_outstanding')).toMatchObject({ value: 95857420, unit: '株' });
    expect(metric(q, 'market_cap')).toMatchObject({ value: 100362000000, unit: '円', raw: '100,362 百万円' });
    expect(metric(q, 'pbr')).toMatchObject({ value: 1.02, unit: '倍' });
    expect(metric(q, 'per')).toMatchObject({ value: null, reason: 'unavailable' });
    expect(q.shareholder_benefits).toBe('ギフト券 レジャー 招待券');
  });
});

describe('nikkei modelled page', () => {
  it('keeps a decimal price and a date without time', () => {
    const q = quoteOf(path.join(import.meta.dirname, 'fixtures/modelled-decimal-price.html'), '7203');
    expect(q.price).toBe(2724.5);
    expect(q.as_of).toBe('2026-07-01');
    expect(metric(q, 'market_cap')?.value).toBe(39764000000000);
    expect(q.metrics.filter((m) => m.key === 'volume')).toHaveLength(1);
  });
});

describe('nikkei URL patterns', () => {
  const typeOf = (u: string) => nikkei.pageTypes.find((p) => p.matches(new URL(u)))?.pageType;
  it('routes the company top page only', () => {
    expect(typeOf('https://www.nikkei.com/nkd/company/?scode=9681')).toBe('quote');
    expect(typeOf('https://www.nikkei.com/nkd/company/?scode=9681&ba=1')).toBe('quote');
    expect(typeOf('https://www.nikkei.com/nkd/company/news/?scode=9681')).toBeUndefined();
    expect(typeOf('https://www.nikkei.com/nkd/company/')).toBeUndefined();
  });
});
