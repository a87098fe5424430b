// The shared mode end to end: the same server on PostgreSQL (ledger, keys, metadata, artifacts) and Redis (concurrency
// leases).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';
import { createScratchDatabase, testRedisUrl, type ScratchDatabase } from '../support/backends.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
const marker = 'KUMO-MARKER-shared-artifact-5d1e';
let database: ScratchDatabase;
let env: Record<string, string>;
let origin: Origin;
const started: KumoProcess[] = [];

beforeAll(async () => {
  database = await createScratchDatabase('kumo_e2e');
  env = { DATABASE_URL: database.url, REDIS_URL: testRedisUrl };
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/400001', (_req, res) => {
    setTimeout(() => res.writeHead(200, html).end(itemPage()), 150);
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/400002', {
    status: 200,
    headers: html,
    body: itemPage({ marker, title: `Marker item ${marker}` }),
  });
  const spec = connectToSpec({ 'www.ikebe-gakki.com': origin.url });
  // Two stateless instances sharing PostgreSQL and Redis.
  started.push(await startKumo({ ...env, KUMO_CONNECT_TO: spec }));
  started.push(await startKumo({ ...env, KUMO_CONNECT_TO: spec }));
});

afterAll(async () => {
  for (const k of started) {
    await k.stop();
    await k.cleanup();
  }
  await origin?.close();
  await database?.drop();
});

describe('two instances on PostgreSQL and Redis', () => {
  it('share keys, credits and the concurrency limit', async () => {
    const [a, b] = started as [KumoProcess, KumoProcess];
    const key = await kumoCli(a.dataDir, ['keys', 'create', '--plan', 'starter', '--concurrency', '2', '--json'], env);
    origin.resetPeak();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => scrape((i % 2 ? a : b).baseUrl, { url: item('400001') }, key.key)),
    );
    const ok = answers.filter((r) => r.status === 200).length;
    const limited = answers.filter((r) => r.status === 429 && r.body.code === 'concurrency_limited').length;
    expect(ok + limited).toBe(30);
    expect(ok).toBeGreaterThanOrEqual(2);
    expect(origin.inFlightMax()).toBeLessThanOrEqual(2);

    const fromA = await call(a.baseUrl, '/v1/usage', key.key);
    const fromB = await call(b.baseUrl, '/v1/usage', key.key);
    expect(fromA.body.credits).toMatchObject({ used: ok, reserved: 0 });
    expect(fromB.body.credits).toEqual(fromA.body.credits);
    expect(fromA.body.concurrency.in_use).toBe(0);

    const someId = answers.find((r) => r.status === 200)!.body.request_id;
    expect((await call(b.baseUrl, `/v1/requests/${someId}`, key.key)).body.status).toBe('completed');
  });
});

describe('the result cache in shared mode', () => {
  it("an answer kept through one instance is a hit through the other (it lives in PostgreSQL), never on either's disk", async () => {
    const [a, b] = started as [KumoProcess, KumoProcess];
    const key = await kumoCli(a.dataDir, ['keys', 'create', '--plan', 'starter', '--json'], env);
    origin.route('GET', '/c/c-/kb/kb01/kb011427/400003', {
      status: 200,
      headers: html,
      body: itemPage({ title: 'Shared cache item KUMO-MARKER-shared-cache-91c2' }),
    });
    const miss = await scrape(a.baseUrl, { url: item('400003'), params: { max_age_s: 600 } }, key.key);
    expect(miss.body.cache.state).toBe('miss');
    const hit = await scrape(b.baseUrl, { url: item('400003'), params: { max_age_s: 600 } }, key.key);
    expect(hit.body).toMatchObject({ cost_units: 0, cache: { state: 'hit', fetched_at: miss.body.cache.fetched_at } });
    expect(origin.hits('/c/c-/kb/kb01/kb011427/400003')).toBe(1);
    for (const k of started) expect(await filesHolding(k.dataDir, 'KUMO-MARKER-shared-cache-91c2')).toEqual([]);
    expect((await call(b.baseUrl, '/v1/cache', key.key, 'DELETE')).body.deleted).toBe(1);
  });
});

/** Files under an instance's data folder that hold `needle` (none is expected to: artifacts live in PostgreSQL). */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const found: string[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    if ((await readFile(file)).includes(Buffer.from(needle, 'utf8'))) found.push(path.relative(dir, file));
  }
  return found;
}

describe('an artifact in shared mode', () => {
  it('kept through one instance is read and deleted through the other, for its own account only', async () => {
    const [a, b] = started as [KumoProcess, KumoProcess];
    const owner = await kumoCli(a.dataDir, ['keys', 'create', '--plan', 'starter', '--json'], env);
    const stranger = await kumoCli(b.dataDir, ['keys', 'create', '--plan', 'starter', '--json'], env);

    const kept = await scrape(a.baseUrl, { url: item('400002'), params: { store_artifact: true } }, owner.key);
    expect(kept.status).toBe(200);
    const id = kept.body.artifact.id as string;

    const fromB = await call(b.baseUrl, `/v1/artifacts/${id}`, owner.key);
    expect(fromB.status).toBe(200);
    expect(fromB.body).toMatchObject({ id, request_id: kept.body.request_id, data: { price: 2200 } });
    expect(fromB.body.html).toContain(marker);
    expect(fromB.body.data).toEqual(kept.body.data);
    // Neither instance's own disk holds it: the one copy is in the shared database.
    expect(await filesHolding(a.dataDir, marker)).toEqual([]);
    expect(await filesHolding(b.dataDir, marker)).toEqual([]);

    expect((await call(b.baseUrl, `/v1/artifacts/${id}`, stranger.key)).status).toBe(404);
    expect((await call(a.baseUrl, `/v1/artifacts/${id}`, stranger.key, 'DELETE')).status).toBe(404);

    expect((await call(b.baseUrl, `/v1/artifacts/${id}`, owner.key, 'DELETE')).status).toBe(204);
    expect((await call(a.baseUrl, `/v1/artifacts/${id}`, owner.key)).status).toBe(404);
    expect((await call(b.baseUrl, `/v1/artifacts/${id}`, owner.key, 'DELETE')).status).toBe(404);
  });
});
