// The cache through POST /v1/scrape over real HTTP (loopback), on real SQLite and real PostgreSQL: a local origin
// plays the site under its real hostname (KUMO_CONNECT_TO) and counts what reaches it; time moves on a ManualClock.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createHttpFetcher } from '../services.js';
import { buildApp, type AppServices, type KumoApp } from '../http/app.js';
import { ScrapeService } from '../scrape/scrape-service.js';
import { createSqliteStorage, truncateWriteAheadLog } from '../storage/sqlite/sqlite-storage.js';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { InProcessHostGate } from '../fetch/host-gate.js';
import { FsArtifactStore } from '../artifacts/fs-artifact-store.js';
import { SiteRegistry } from '../sites/registry.js';
import { cacheLimitOf } from '../sites/site.js';
import { Accounts } from '../accounts/accounts-service.js';
import { UsageReporter } from '../accounts/usage-report.js';
import { periodOf } from '../accounts/period.js';
import { ManualClock } from '../time/clock.js';
import { KyselyResultCache } from './kysely-result-cache.js';
import { Freshness, htmlBypassWarning } from './freshness.js';
import { useExtractionPool } from '../../test/support/extraction.js';
import { startOrigin, connectToSpec, type Origin } from '../../test/support/origin.js';
import { itemPage } from '../../test/support/pages.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';

const host = 'www.ikebe-gakki.com';
/** Each backend's own pages (so each counts its own origin requests): n on backend b. */
let backendOffset = 0;
const pathOf = (n: number) => `/c/c-/kb/kb01/kb011427/${700000 + backendOffset + n}`;
const urlOf = (n: number) => `https://${host}${pathOf(n)}`;
const marker = `CACHED-TITLE-${randomBytes(6).toString('hex')}`;
const sweptMarker = `SWEPT-TITLE-${randomBytes(6).toString('hex')}`;

const workers = useExtractionPool();
let origin: Origin;

beforeAll(async () => {
  origin = await startOrigin();
  for (let n = 1; n <= 9; n++) {
    const title = n === 9 ? `Swept ${sweptMarker}` : `Cached ${n} ${marker}`;
    for (const offset of [0, 100])
      origin.route('GET', `/c/c-/kb/kb01/kb011427/${700000 + offset + n}`, {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: itemPage({ title }),
      });
  }
});
afterAll(async () => {
  await origin?.close();
});

interface Backend {
  name: string;
  offset: number;
  open(dir: string): Promise<{ storage: KyselyStorage; sqlite: boolean; drop(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    offset: 0,
    open: async (dir) => {
      const storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
      return { storage, sqlite: true, drop: async () => undefined };
    },
  },
  {
    name: 'PostgreSQL',
    offset: 100,
    open: async () => {
      const scratch: ScratchDatabase = await createScratchDatabase('kumo_cache_http');
      const storage = await createPostgresStorage({ url: scratch.url, poolSize: 4 });
      return { storage, sqlite: false, drop: () => scratch.drop() };
    },
  },
];

describe.each(backends)('the result cache over HTTP: $name', (backend) => {
  let dir: string;
  let storage: KyselyStorage;
  let sqlite: boolean;
  let drop: () => Promise<void>;
  let app: KumoApp;
  let base: string;
  let accounts: Accounts;
  let cache: KyselyResultCache;
  const registry = new SiteRegistry();
  const clock = new ManualClock(Date.now());
  const ikebeItem = () =>
    registry
      .list()
      .find((s) => s.id === 'ikebe_gakki')!
      .pageTypes.find((e) => e.pageType === 'item')!;

  beforeAll(async () => {
    backendOffset = backend.offset;
    dir = await mkdtemp(join(tmpdir(), 'kumo-cache-http-'));
    const opened = await backend.open(dir);
    storage = opened.storage;
    sqlite = opened.sqlite;
    drop = () => opened.drop();
    await storage.migrate();
    const config = loadConfig({ KUMO_DATA_DIR: dir, KUMO_CONNECT_TO: connectToSpec({ [host]: origin.url }) });
    const fetcher = createHttpFetcher(config, {
      hostGate: new InProcessHostGate(),
      politeness: () => ({ maxInFlight: 4, minIntervalMs: 0 }),
    });
    cache = new KyselyResultCache({ db: storage.db, ...(sqlite ? { afterDelete: truncateWriteAheadLog } : {}) });
    const limiter = new InProcessConcurrencyLimiter();
    const artifacts = new FsArtifactStore({ dir: join(dir, 'artifacts') });
    const scrape = new ScrapeService({
      registry,
      fetcher,
      storage,
      limiter,
      artifacts,
      extraction: workers.pool,
      environment: 'production',
      fetchDeadlineMs: 10_000,
      leaseBeyondFetchMs: 60_000,
      artifactRetentionMs: 3_600_000,
      freshness: new Freshness({ cache, clock }),
    });
    accounts = new Accounts(storage);
    const services = {
      scrape,
      accounts,
      usage: new UsageReporter({ ledger: storage.ledger, limiter }),
      registry,
      artifacts,
      resultCache: cache,
      requests: storage.requests,
      readiness: {},
    } as unknown as AppServices;
    app = await buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    base = address;
  });

  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await drop?.();
    await rm(dir, { recursive: true, force: true });
  });

  async function scrapeAs(key: string, url: string, params: Record<string, unknown> = {}) {
    const res = await fetch(`${base}/v1/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, params }),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Record<string, any> };
  }

  async function newKey(options: { sites?: string[]; accountId?: string } = {}) {
    const created = await accounts.createKey({ plan: options.accountId ? undefined : 'growth', ...options });
    return { key: created.key, accountId: created.accountId };
  }

  const used = (accountId: string) => storage.ledger.accountUsage(accountId, periodOf(new Date()));

  async function record(key: string, requestId: string) {
    const res = await fetch(`${base}/v1/requests/${requestId}`, { headers: { authorization: `Bearer ${key}` } });
    return (await res.json()) as Record<string, unknown>;
  }

  async function rowsHolding(text: string): Promise<number> {
    const { rows } = await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM result_cache WHERE answer LIKE ${`%${text}%`}`.execute(storage.db);
    return Number(rows[0]!.n);
  }

  /** Files of the data folder (the SQLite file and its write-ahead log) whose bytes hold `text`. */
  async function filesHolding(text: string): Promise<string[]> {
    const found: string[] = [];
    for (const name of await readdir(dir, { recursive: true })) {
      const bytes = await readFile(join(dir, name)).catch(() => null);
      if (bytes?.includes(Buffer.from(text, 'utf8'))) found.push(name);
    }
    return found;
  }

  it('a second call within max_age_s is a hit: cost 0, no request to the origin, ledger unchanged, the same data', async () => {
    const a = await newKey();
    const miss = await scrapeAs(a.key, urlOf(1), { max_age_s: 600 });
    expect(miss.status).toBe(200);
    expect(miss.body.cache).toMatchObject({ state: 'miss', age_s: 0 });
    expect(miss.body.cost_units).toBe(1);
    expect(miss.body.data.title).toContain(marker);
    expect(origin.hits(pathOf(1))).toBe(1);
    expect(await used(a.accountId)).toEqual({ used: 1, reserved: 0 });

    await clock.advance(30_000);
    const hit = await scrapeAs(a.key, urlOf(1), { max_age_s: 600 });
    expect(hit.status).toBe(200);
    expect(hit.body.cache).toEqual({ state: 'hit', fetched_at: miss.body.cache.fetched_at, age_s: 30 });
    expect(hit.body.cost_units).toBe(0);
    expect(hit.body.request_id).not.toBe(miss.body.request_id);
    expect(origin.hits(pathOf(1))).toBe(1);
    expect(await used(a.accountId)).toEqual({ used: 1, reserved: 0 });
    // Byte for byte: the data's JSON text as sent, key order included.
    const dataText = (text: string) => JSON.stringify((JSON.parse(text) as { data: unknown }).data);
    expect(dataText(hit.text)).toBe(dataText(miss.text));
    expect(hit.body.extractor).toEqual(miss.body.extractor);
    expect(hit.body.fetch_summary).toEqual(miss.body.fetch_summary);
    expect(hit.body.warnings).toEqual(miss.body.warnings);

    expect(await record(a.key, hit.body.request_id)).toMatchObject({
      status: 'completed',
      cost_units: 0,
      cache: 'hit',
    });
    expect(await record(a.key, miss.body.request_id)).toMatchObject({
      status: 'completed',
      cost_units: 1,
      cache: 'miss',
    });
  });

  it('without max_age_s a call fetches (bypass) and keeps nothing; the next call that asks misses', async () => {
    const a = await newKey();
    const plain = await scrapeAs(a.key, urlOf(2));
    expect(plain.body.cache.state).toBe('bypass');
    const zero = await scrapeAs(a.key, urlOf(2), { max_age_s: 0 });
    expect(zero.body.cache.state).toBe('bypass');
    expect(await cache.delete(a.accountId)).toBe(0);
    expect(await record(a.key, plain.body.request_id)).toMatchObject({ cache: 'bypass' });
    const asked = await scrapeAs(a.key, urlOf(2), { max_age_s: 600 });
    expect(asked.body.cache.state).toBe('miss');
    expect(origin.hits(pathOf(2))).toBe(3);
  });

  it('an output with HTML is never answered from or kept in the cache: bypass, with a warning saying why', async () => {
    const a = await newKey();
    await scrapeAs(a.key, urlOf(3), { max_age_s: 600 });
    const withHtml = await scrapeAs(a.key, urlOf(3), { max_age_s: 600, include_html: true });
    expect(withHtml.body.cache.state).toBe('bypass');
    expect(withHtml.body.warnings).toContain(htmlBypassWarning);
    expect(withHtml.body.html).toContain('<');
    expect(origin.hits(pathOf(3))).toBe(2);
    const hit = await scrapeAs(a.key, urlOf(3), { max_age_s: 600 });
    expect(hit.body.cache.state).toBe('hit');
    expect(hit.body.warnings).not.toContain(htmlBypassWarning);
  });

  it('another account never hits; a key of the account narrowed to another site gets key_scope_denied, not a hit', async () => {
    const a = await newKey();
    await scrapeAs(a.key, urlOf(4), { max_age_s: 600 });
    const b = await newKey();
    const other = await scrapeAs(b.key, urlOf(4), { max_age_s: 600 });
    expect(other.body.cache.state).toBe('miss');
    expect(origin.hits(pathOf(4))).toBe(2);
    const narrowed = await newKey({ accountId: a.accountId, sites: ['amazon_jp'] });
    const denied = await scrapeAs(narrowed.key, urlOf(4), { max_age_s: 600 });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('key_scope_denied');
    expect(origin.hits(pathOf(4))).toBe(2);
  });

  it('a new extractor version misses', async () => {
    const a = await newKey();
    await scrapeAs(a.key, urlOf(5), { max_age_s: 600 });
    expect((await scrapeAs(a.key, urlOf(5), { max_age_s: 600 })).body.cache.state).toBe('hit');
    const entry = ikebeItem() as { extractor: { version: number } };
    const before = entry.extractor;
    entry.extractor = { ...before, version: before.version + 1 };
    try {
      const bumped = await scrapeAs(a.key, urlOf(5), { max_age_s: 600 });
      expect(bumped.body.cache.state).toBe('miss');
      expect(bumped.body.extractor.version).toBe(before.version + 1);
      expect(origin.hits(pathOf(5))).toBe(2);
    } finally {
      entry.extractor = before;
    }
  });

  it('a not_found answer (cost 0) is a miss and keeps nothing', async () => {
    const a = await newKey();
    // No route for n = 10: the origin answers 404.
    const gone = await scrapeAs(a.key, urlOf(10), { max_age_s: 600 });
    expect(gone.body).toMatchObject({ cost_units: 0, data: null, cache: { state: 'miss' } });
    expect(gone.body.fetch_summary.status).toBe('not_found');
    expect((await scrapeAs(a.key, urlOf(10), { max_age_s: 600 })).body.cache.state).toBe('miss');
    expect(await cache.delete(a.accountId)).toBe(0);
  });

  it('an Idempotency-Key retry is still charged at most once and says it was replayed (here from the cache)', async () => {
    const a = await newKey();
    const send = () =>
      fetch(`${base}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
        body: JSON.stringify({ url: urlOf(6), params: { max_age_s: 600 } }),
      });
    const first = await send();
    expect(((await first.json()) as { cache: { state: string } }).cache.state).toBe('miss');
    const retry = await send();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toMatchObject({ cost_units: 0, cache: { state: 'hit' } });
    expect(await used(a.accountId)).toEqual({ used: 1, reserved: 0 });
    expect(origin.hits(pathOf(6))).toBe(1);
    expect(await cache.delete(a.accountId)).toBe(1);
  });

  it('DELETE /v1/cache deletes one URL’s entries or all of the account’s, answering how many', async () => {
    const a = await newKey();
    await scrapeAs(a.key, urlOf(6), { max_age_s: 600 });
    await scrapeAs(a.key, urlOf(7), { max_age_s: 600 });
    const del = (query: string) =>
      fetch(`${base}/v1/cache${query}`, { method: 'DELETE', headers: { authorization: `Bearer ${a.key}` } });
    const one = await del(`?url=${encodeURIComponent(urlOf(6))}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ deleted: 1 });
    expect((await scrapeAs(a.key, urlOf(6), { max_age_s: 600 })).body.cache.state).toBe('miss');
    expect((await scrapeAs(a.key, urlOf(7), { max_age_s: 600 })).body.cache.state).toBe('hit');
    expect(await (await del('')).json()).toMatchObject({ deleted: 2 });
    expect((await scrapeAs(a.key, urlOf(7), { max_age_s: 600 })).body.cache.state).toBe('miss');
  });

  it("an entry older than its site's limit is never served, even when max_age_s asks for older", async () => {
    const a = await newKey();
    const limit = cacheLimitOf(
      registry.list().find((s) => s.id === 'ikebe_gakki')!,
      ikebeItem(),
    ).seconds;
    await scrapeAs(a.key, urlOf(8), { max_age_s: 604_800 });
    await clock.advance((limit - 1) * 1000);
    expect((await scrapeAs(a.key, urlOf(8), { max_age_s: 604_800 })).body.cache).toMatchObject({
      state: 'hit',
      age_s: limit - 1,
    });
    await clock.advance(2_000);
    expect((await scrapeAs(a.key, urlOf(8), { max_age_s: 604_800 })).body.cache.state).toBe('miss');
    expect(origin.hits(pathOf(8))).toBe(2);
  });

  it('a cached title is in the database while cached, and gone from it (and from the SQLite file and WAL) after expiry and the sweep', async () => {
    const a = await newKey();
    const limit = cacheLimitOf(
      registry.list().find((s) => s.id === 'ikebe_gakki')!,
      ikebeItem(),
    ).seconds;
    const miss = await scrapeAs(a.key, urlOf(9), { max_age_s: 600 });
    expect(miss.body.data.title).toContain(sweptMarker);
    expect(await rowsHolding(sweptMarker)).toBe(1);
    if (sqlite) expect((await filesHolding(sweptMarker)).length).toBeGreaterThan(0);
    // Entries of earlier cases may be past their limit already (the clock moved); this one is not.
    await cache.sweepExpired(new Date(clock.now()).toISOString());
    expect(await rowsHolding(sweptMarker)).toBe(1);
    await clock.advance(limit * 1000);
    expect(await cache.sweepExpired(new Date(clock.now()).toISOString())).toBeGreaterThanOrEqual(1);
    expect(await rowsHolding(sweptMarker)).toBe(0);
    if (sqlite) expect(await filesHolding(sweptMarker)).toEqual([]);
  });
});
