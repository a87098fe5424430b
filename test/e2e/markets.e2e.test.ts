// End to end over real HTTP for the market sites (kabutan, minkabu, nikkei): the real pages served by a local origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, repoRoot, type KumoProcess } from '../support/kumo-process.js';

const corpus = path.resolve(repoRoot, '../shared/corpus/real');
const available = existsSync(path.join(corpus, 'kabutan/main_7203.html'));
if (!available) console.warn(`skipping market end-to-end checks: ${corpus} is absent`);

let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  if (!available) return;
  origin = await startOrigin();
  // The origin routes by path; the query (code=, scode=) is checked by the site's URL patterns on Kumo's side.
  for (const [route, file] of [
    ['/stock/', 'kabutan/main_7203.html'],
    ['/stock/kabuka', 'kabutan/kabuka_7203_day_p1.html'],
    ['/stock/2157', 'minkabu/minkabu.html'],
    ['/nkd/company/', 'nikkei/nikkei.html'],
  ] as const) {
    origin.route('GET', route, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: await readFile(path.join(corpus, file)),
    });
  }
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({
      'kabutan.jp': origin.url,
      'minkabu.jp': origin.url,
      'www.nikkei.com': origin.url,
    }),
  });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

const metric = (data: { metrics: { key: string; value: number | null }[] }, key: string) =>
  data.metrics.find((m) => m.key === key)?.value;

describe.skipIf(!available)('POST /v1/scrape on the market sites', () => {
  it('kabutan quote: decimal price, 兆/億円 market cap applied', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://kabutan.jp/stock/?code=7203' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'kabutan', page_type: 'quote' });
    expect(res.body.extractor).toMatchObject({ id: 'kabutan/quote', coverage: 'stable' });
    expect(res.body.data).toMatchObject({ code: '7203', name: 'トヨタ自動車', price: 2724.5, currency: 'JPY' });
    expect(metric(res.body.data, 'per')).toBe(10.8);
    expect(metric(res.body.data, 'market_cap')).toBe(39764000000000);
  });

  it('kabutan history: 29 daily rows', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://kabutan.jp/stock/kabuka?code=7203&ashi=day&page=1' });
    expect(res.status).toBe(200);
    expect(res.body.page_type).toBe('history');
    expect(res.body.data.rows).toHaveLength(29);
    expect(res.body.data.rows[0]).toMatchObject({ date: '2026-06-30', close: 2725 });
  });

  it('minkabu quote: the price and the four target prices', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://minkabu.jp/stock/2157' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'minkabu', page_type: 'quote' });
    expect(res.body.data).toMatchObject({ price: 408, as_of: '2020-11-27', as_of_text: '11/27' });
    expect(metric(res.body.data, 'target_price')).toBe(636);
  });

  it('nikkei quote: 時価総額 in 百万円 applied with the raw text kept', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://www.nikkei.com/nkd/company/?scode=9681' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'nikkei', page_type: 'quote' });
    expect(res.body.data).toMatchObject({ price: 1047, as_of: '2020-11-27T15:00:00+09:00' });
    const metrics = res.body.data.metrics as { key: string }[];
    const cap = metrics.find((m) => m.key === 'market_cap');
    expect(cap).toMatchObject({ value: 100362000000, unit: '円', raw: '100,362 百万円' });
  });
});
