// End to end over real HTTP: a started server process, a local origin under real hostnames, real SQLite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, repoRoot, testKey, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';
import { siteFolders } from '../../src/sites/catalogue-index.js';

const corpus = path.resolve(repoRoot, '../shared/corpus/real');
const corpusAvailable = existsSync(path.join(corpus, 'ikebe-gakki/product.html'));
if (!corpusAvailable) console.warn(`skipping real-page end-to-end checks: ${corpus} is absent`);

const ikebe = 'https://www.ikebe-gakki.com';
let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/750001', {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage(),
  });
  if (corpusAvailable) {
    const real = await readFile(path.join(corpus, 'ikebe-gakki/product.html'));
    origin.route('GET', '/c/c-/kb/kb01/kb011427/750592', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      body: real,
    });
  }
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

describe('POST /v1/scrape on ikebe_gakki', () => {
  it.skipIf(!corpusAvailable)('returns the documented body for the recorded real page', async () => {
    const res = await scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/750592` });
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toBe(res.body.request_id);
    expect(res.body.request_id).toMatch(/^req_[0-9A-Za-z]+$/);
    expect(res.body.resolved_site).toBe('ikebe_gakki');
    expect(res.body.page_type).toBe('item');
    expect(res.body.data.title).toBe('USB cable type C to type C【箱損アウトレット】');
    expect(res.body.data.price).toBe(2200);
    expect(res.body.data.price_tax).toBe('included');
    expect(res.body.data.currency).toBe('JPY');
    expect(res.body.cost_units).toBe(1);
    expect(res.body.fetch_summary).toMatchObject({
      status: 'completed',
      attempts: 1,
      route: 'http',
      http_status: 200,
      final_url: `${ikebe}/c/c-/kb/kb01/kb011427/750592`,
      charset: 'utf-8',
      bytes: 366969,
    });
    expect(res.body.extractor).toMatchObject({ id: 'ikebe_gakki/item', coverage: 'stable' });
    expect(typeof res.body.extractor.version).toBe('number');
    expect(res.body.extractor.provenance.price).toBeTruthy();
    expect(res.body.warnings).toEqual([]);
    expect(res.body.html).toBeUndefined();
    expect(res.headers.get('x-credits-limit')).toBe('500');
    expect(Number(res.headers.get('x-credits-remaining'))).toBeLessThan(500);
    expect(res.headers.get('x-concurrency-limit')).toBe('2');
    expect(res.headers.get('x-concurrency-remaining')).toBe('2');
  });

  it('returns normalized HTML without scripts when asked, and html-only mode has data null', async () => {
    const url = `${ikebe}/c/c-/kb/kb01/kb011427/750001`;
    const both = await scrape(kumo.baseUrl, { url, params: { include_html: true } });
    expect(both.status).toBe(200);
    expect(both.body.data.price).toBe(2200);
    expect(both.body.html).toContain('fs-c-productNameHeading');
    expect(both.body.html).not.toContain('window.tracking');
    const htmlOnly = await scrape(kumo.baseUrl, { url, params: { mode: 'html' } });
    expect(htmlOnly.status).toBe(200);
    expect(htmlOnly.body.data).toBeNull();
    expect(htmlOnly.body.html).toContain('fs-c-productNameHeading');
  });

  it('keeps a metadata row the caller can read, and nobody else', async () => {
    const res = await scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/750001` });
    const row = await call(kumo.baseUrl, `/v1/requests/${res.body.request_id}`);
    expect(row.status).toBe(200);
    expect(row.body).toMatchObject({
      request_id: res.body.request_id,
      site: 'ikebe_gakki',
      page_type: 'item',
      status: 'completed',
      cost_units: 1,
      attempts: 1,
      route: 'http',
      error_code: null,
    });
    const other = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'free', '--json']);
    const foreign = await call(kumo.baseUrl, `/v1/requests/${res.body.request_id}`, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });
});

describe('the other endpoints', () => {
  it('GET /v1/usage reports this month in Asia/Tokyo', async () => {
    const res = await call(kumo.baseUrl, '/v1/usage');
    expect(res.status).toBe(200);
    expect(res.body.plan).toBe('free');
    expect(res.body.period).toMatch(/^\d{4}-\d{2}$/);
    expect(res.body.resets_at).toMatch(/T15:00:00\.000Z$/);
    expect(res.body.credits.allowance).toBe(500);
    expect(res.body.credits.used + res.body.credits.remaining).toBe(500);
    expect(res.body.credits.reserved).toBe(0);
    expect(res.body.concurrency).toEqual({ limit: 2, in_use: 0 });
    expect(res.headers.get('x-credits-remaining')).toBe(String(res.body.credits.remaining));
  });

  it('GET /v1/sites lists the sites with route, page types, URL patterns, coverage, fixtures, review and what verified them', async () => {
    const res = await call(kumo.baseUrl, '/v1/sites', null);
    expect(res.status).toBe(200);
    const ids = (res.body.sites as { id: string }[]).map((s) => s.id).sort();
    // Every site folder of src/sites/ is served, and nothing else (the commerce sites beside the public-data ones).
    expect(ids).toEqual(siteFolders(path.join(repoRoot, 'src', 'sites')).map((f) => f.folder.replaceAll('-', '_')));
    expect(ids).toEqual(expect.arrayContaining(['ikebe_gakki', 'rakuten_ichiba', 'estat_api', 'jma_forecast']));
    for (const site of res.body.sites) {
      expect(site.hosts.length).toBeGreaterThan(0);
      expect(site.cost).toBe(1);
      expect(['http', 'browser', 'api']).toContain(site.route);
      for (const pt of site.page_types) {
        expect(pt.verified_by.length).toBeGreaterThan(0);
        expect(pt.url_pattern.length).toBeGreaterThan(0);
        expect(pt.review === null || (typeof pt.review.reason === 'string' && pt.review.reason.length > 0)).toBe(true);
        expect(pt.fixtures.real + pt.fixtures.modelled).toBeGreaterThan(0);
      }
    }
    // イケベ's item pages: a recorded real page and modelled variants, nothing under review.
    const ikebe = (res.body.sites as any[]).find((s) => s.id === 'ikebe_gakki');
    expect(ikebe.route).toBe('http');
    const item = (ikebe.page_types as any[]).find((p) => p.page_type === 'item');
    expect(item).toMatchObject({ url_pattern: '/c/<groups…>/<numeric code>', review: null });
    expect(item.fixtures.real).toBeGreaterThanOrEqual(1);
    expect(item.fixtures.modelled).toBeGreaterThanOrEqual(1);
  });

  it('GET /openapi.json is generated from the route schemas', async () => {
    const res = await call(kumo.baseUrl, '/openapi.json', null);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const scrapeOp = res.body.paths['/v1/scrape'].post;
    expect(scrapeOp.requestBody.content['application/json'].schema.properties.url).toBeDefined();
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/scrape', '/v1/sites', '/v1/usage', '/v1/requests/{id}', '/v1/artifacts/{id}']),
    );
  });

  it('GET /healthz answers ok, and every response has a Request-Id, 404s included', async () => {
    const health = await call(kumo.baseUrl, '/healthz', null);
    expect(health.status).toBe(200);
    expect(health.headers.get('request-id')).toMatch(/^req_/);
    const missing = await call(kumo.baseUrl, '/v1/nothing-here', null);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(missing.body).toMatchObject({ code: 'not_found', status: 404 });
    expect(missing.headers.get('request-id')).toBe(missing.body.request_id);
  });

  it('never logs the key', () => {
    expect(kumo.output()).not.toContain(testKey);
  });
});
