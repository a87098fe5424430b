// What is kept: metadata only by default (a marker planted in the page is found nowhere); artifacts only on request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const marker = 'KUMO-MARKER-7f3c9a1e-do-not-store';
const cachedMarker = 'KUMO-CACHED-MARKER-41b7d2c0';
let origin: Origin;
let kumo: KumoProcess;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function foldersContaining(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of await filesUnder(dir)) {
    const bytes = await readFile(file);
    if (bytes.includes(Buffer.from(needle, 'utf8'))) found.push(path.relative(dir, file));
  }
  return found;
}

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/300001', {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ marker, title: `Marker item ${marker}` }),
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/300002', {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ title: `Cached item ${cachedMarker}` }),
  });
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

describe('without store_artifact', () => {
  it('leaves no page content anywhere under the data folder, the database or the logs', async () => {
    const res = await scrape(kumo.baseUrl, { url: item('300001'), params: { include_html: true } });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toContain(marker); // the marker really went through the pipeline
    expect(res.body.html).toContain(marker);
    const failed = await scrape(kumo.baseUrl, { url: item('300001'), params: { work_type: 'item', mode: 'html' } });
    expect(failed.status).toBe(200);
    expect(await foldersContaining(kumo.dataDir, marker)).toEqual([]);
    expect(kumo.output()).not.toContain(marker);
    expect((await filesUnder(kumo.dataDir)).some((f) => f.endsWith('.sqlite'))).toBe(true);
  });
});

describe('with store_artifact: true', () => {
  it('keeps the artifact for its own account only, costs one more credit, and DELETE removes it', async () => {
    const res = await scrape(kumo.baseUrl, { url: item('300001'), params: { store_artifact: true } });
    expect(res.status).toBe(200);
    expect(res.body.cost_units).toBe(2);
    const id = res.body.artifact.id as string;
    expect(id).toMatch(/^art_/);
    expect(Date.parse(res.body.artifact.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const got = await call(kumo.baseUrl, `/v1/artifacts/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.price).toBe(2200);
    expect(got.body.html).toContain(marker);
    expect(got.body.request_id).toBe(res.body.request_id);

    const stranger = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'free', '--json']);
    expect((await call(kumo.baseUrl, `/v1/artifacts/${id}`, stranger.key)).status).toBe(404);
    expect((await call(kumo.baseUrl, `/v1/artifacts/${id}`, stranger.key, 'DELETE')).status).toBe(404);
    expect((await call(kumo.baseUrl, `/v1/artifacts/../../kumo.sqlite`)).status).toBe(404);

    expect((await call(kumo.baseUrl, `/v1/artifacts/${id}`, undefined, 'DELETE')).status).toBe(204);
    expect((await call(kumo.baseUrl, `/v1/artifacts/${id}`)).status).toBe(404);
    expect(await foldersContaining(kumo.dataDir, marker)).toEqual([]);
  });
});

describe('with max_age_s (the result cache)', () => {
  it('keeps the JSON only, answers a repeat at cost 0 without the site, and DELETE /v1/cache removes it from the disk', async () => {
    const miss = await scrape(kumo.baseUrl, { url: item('300002'), params: { max_age_s: 3600 } });
    expect(miss.status).toBe(200);
    expect(miss.body.cache.state).toBe('miss');
    expect(miss.body.data.title).toContain(cachedMarker);
    const before = (await call(kumo.baseUrl, '/v1/usage')).body.credits.used as number;

    const hit = await scrape(kumo.baseUrl, { url: item('300002'), params: { max_age_s: 3600 } });
    expect(hit.status).toBe(200);
    expect(hit.body.cache).toMatchObject({ state: 'hit', fetched_at: miss.body.cache.fetched_at });
    expect(hit.body.cost_units).toBe(0);
    expect(hit.body.data).toEqual(miss.body.data);
    expect(origin.hits('/c/c-/kb/kb01/kb011427/300002')).toBe(1);
    expect((await call(kumo.baseUrl, '/v1/usage')).body.credits.used).toBe(before);
    expect((await call(kumo.baseUrl, `/v1/requests/${hit.body.request_id}`)).body).toMatchObject({
      cost_units: 0,
      cache: 'hit',
    });
    // The answer's JSON is in the database while it is cached; never the page (the title is only in the JSON).
    expect((await foldersContaining(kumo.dataDir, cachedMarker)).length).toBeGreaterThan(0);

    const deleted = await call(
      kumo.baseUrl,
      `/v1/cache?url=${encodeURIComponent(item('300002'))}`,
      undefined,
      'DELETE',
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(1);
    expect(await foldersContaining(kumo.dataDir, cachedMarker)).toEqual([]);
    const again = await scrape(kumo.baseUrl, { url: item('300002'), params: { max_age_s: 3600 } });
    expect(again.body.cache.state).toBe('miss');
    expect(origin.hits('/c/c-/kb/kb01/kb011427/300002')).toBe(2);
    expect((await call(kumo.baseUrl, '/v1/cache', undefined, 'DELETE')).body.deleted).toBe(1);
  });
});
