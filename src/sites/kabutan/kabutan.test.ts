// kabutan quote and history extractors against pykabutan's expectations on the real pages (corpus MANIFEST §3).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QuoteData } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { kabutanHistoryExtractor } from './history-extractor.js';
import { kabutanQuoteExtractor } from './quote-extractor.js';
import { kabutan } from './site.js';

if (!corpusAvailable()) console.info(`kabutan corpus tests skipped: ${corpusPath('')} is absent`);

const pageOf = (file: string, finalUrl: string) =>
  normalizePage({
    body: new Uint8Array(readFileSync(file)),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl,
    input: 'html',
  });
const metric = (data: QuoteData, key: string) => data.metrics.find((m) => m.key === key);

describe.skipIf(!corpusAvailable())('kabutan real pages', () => {
  it('main_7203 gives pykabutan TestParseProfileToyota', () => {
    const page = pageOf(corpusPath('kabutan/main_7203.html'), 'https://kabutan.jp/stock/?code=7203');
    const { data, provenance } = kabutanQuoteExtractor.extract(page);
    const q = data as QuoteData;
    expect(q).toMatchObject({ code: '7203', name: 'トヨタ自動車', market: '東証P', industry: '輸送用機器' });
    expect(q.price).toBe(2724.5);
    expect(q.as_of).toBe('2026-07-01T15:30:00+09:00');
    expect(metric(q, 'per')?.value).toBe(10.8);
    expect(metric(q, 'pbr')?.value).toBe(0.81);
    expect(metric(q, 'market_cap')).toMatchObject({ value: 39764000000000, unit: '円' });
    expect(metric(q, 'dividend_yield')?.value).toBe(3.67);
    expect(metric(q, 'margin_ratio')?.value).toBe(10.18);
    expect(q.english_name).toBe('TOYOTA MOTOR CORPORATION');
    expect(q.themes).toContain('自動車');
    expect(q.website?.startsWith('https://')).toBe(true);
    expect(Object.keys(provenance).sort()).toEqual(Object.keys(data).sort());
  });

  it('kabuka_7203_day_p1 gives pykabutan TestParsePageDaily', () => {
    const page = pageOf(
      corpusPath('kabutan/kabuka_7203_day_p1.html'),
      'https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=1',
    );
    const { data } = kabutanHistoryExtractor.extract(page);
    const rows = data.rows as Record<string, unknown>[];
    expect(rows).toHaveLength(29);
    expect((data.columns as unknown[]).length).toBe(8);
    expect(rows[0]).toMatchObject({ date: '2026-06-30', close: 2725.0 });
    expect(data.next_page).toBe('https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2');
    expect(data.page).toBe(1);
  });
});

describe('kabutan modelled pages', () => {
  it('reads － as null with a reason and keeps the raw text', () => {
    const page = pageOf(
      path.join(import.meta.dirname, 'fixtures/modelled-loss-making.html'),
      'https://kabutan.jp/stock/?code=4587',
    );
    const q = kabutanQuoteExtractor.extract(page).data as QuoteData;
    expect(metric(q, 'per')).toMatchObject({ value: null, reason: 'not_applicable', raw: '-倍' });
    expect(metric(q, 'market_cap')?.value).toBe(196600000000);
    expect(q.website).toBeUndefined();
  });
});

describe('kabutan history paging', () => {
  const modelled = readFileSync(path.join(import.meta.dirname, 'fixtures/modelled-two-days.html'), 'utf8');
  const withPager = (pager: string, finalUrl = 'https://kabutan.jp/stock/kabuka?code=9999&ashi=day&page=2') => {
    const html = modelled
      .replace(/<div class="pagination">[\s\S]*?<\/div>\n/g, '')
      .replace('</table>', `</table>${pager}`);
    return kabutanHistoryExtractor.extract(
      normalizePage({
        body: new TextEncoder().encode(html),
        headers: { 'content-type': 'text/html; charset=utf-8' },
        finalUrl,
        input: 'html',
      }),
    );
  };
  const pager = (next: string) =>
    `<div class="pagination"><ul><li><strong>2</strong></li><li><a href="${next}">次へ＞</a></li></ul></div>`;

  it('follows the 次へ link of the same stock and daily view', () => {
    const r = withPager(pager('?code=9999&ashi=day&page=3'));
    expect(r.data).toMatchObject({ next_page: 'https://kabutan.jp/stock/kabuka?code=9999&ashi=day&page=3', page: 2 });
  });

  it.each([
    ['another stock', '?code=7203&ashi=day&page=3'],
    ['the weekly view', '?code=9999&ashi=wek&page=3'],
    ['another page of the site', '/stock/?code=9999'],
    ['another host', 'https://evil.example/stock/kabuka?code=9999&ashi=day&page=3'],
    ['no page number', '?code=9999&ashi=day'],
    ['plain http', 'http://kabutan.jp/stock/kabuka?code=9999&ashi=day&page=3'],
  ])('leaves out a 次へ link to %s, with a warning', (_, href) => {
    const r = withPager(pager(href));
    expect(r.data.next_page).toBeNull();
    expect(r.warnings.some((w) => w.startsWith('next_page:'))).toBe(true);
  });

  it('gives null paging when the page has no pager', () => {
    const r = withPager('');
    expect(r.data).toMatchObject({ next_page: null, page: null });
  });
});

describe('kabutan URL patterns', () => {
  const typeOf = (u: string) => kabutan.pageTypes.find((p) => p.matches(new URL(u)))?.pageType;
  it('routes the quote and the daily history', () => {
    expect(typeOf('https://kabutan.jp/stock/?code=7203')).toBe('quote');
    expect(typeOf('https://kabutan.jp/stock/?code=135A')).toBe('quote');
    expect(typeOf('https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=2')).toBe('history');
    expect(typeOf('https://kabutan.jp/stock/kabuka?code=7203')).toBe('history');
    expect(typeOf('https://kabutan.jp/stock/kabuka?code=7203&ashi=wek')).toBeUndefined();
    expect(typeOf('https://kabutan.jp/stock/finance?code=7203')).toBeUndefined();
  });
});
