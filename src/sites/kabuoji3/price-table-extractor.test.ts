// The kabuoji3 price table against the values the upstream project's test expects (corpus MANIFEST §2).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { kabuoji3PriceTableExtractor } from './price-table-extractor.js';

if (!corpusAvailable()) console.info(`kabuoji3 corpus tests skipped: ${corpusPath('')} is absent`);

describe.skipIf(!corpusAvailable())('kabuoji3 9434 (real page)', () => {
  it('has the 300 rows with the manifest values', () => {
    // Read inside the test: a skipped describe still runs its body, and the corpus may be absent.
    const page = normalizePage({
      body: new Uint8Array(readFileSync(corpusPath('kabuoji3/kabuoji3.html'))),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: 'https://kabuoji3.com/stock/9434/',
      input: 'html',
    });
    const { data, provenance } = kabuoji3PriceTableExtractor.extract(page);
    const rows = data.rows as Record<string, unknown>[];
    expect(rows).toHaveLength(300);
    expect(rows[0]).toEqual({
      date: '2020-11-27',
      open: 1284.5,
      high: 1290,
      low: 1274.5,
      close: 1287,
      volume: 18203600,
      adjusted_close: 1287,
    });
    expect(rows[1]).toMatchObject({ date: '2020-11-26', open: 1288.5, high: 1294.5, low: 1282, close: 1285 });
    expect(rows[1]!.volume).toBe(15760400);
    expect(rows[299]).toMatchObject({ date: '2019-08-16', open: 1499.5, high: 1505, low: 1498.5 });
    expect(data.subject).toBe('9434 ソフトバンク(株)');
    expect(Object.keys(provenance).sort()).toEqual(Object.keys(data).sort());
  });
});
