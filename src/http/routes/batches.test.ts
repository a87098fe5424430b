// The batch routes in-process (app.inject) over the real stores: KyselyBatchStore and the work queue on SQLite and on
// PostgreSQL, AesGcmSecrets, real accounts and keys. Items are taken to `ready` the way the dispatcher does (claim →
// markRunning → reserve → finishRun), so the handover on GET is the production path, ledger included.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type AppServices, type KumoApp } from '../app.js';
import { ManualClock } from '../../time/clock.js';
import { newId } from '../../accounts/ids.js';
import { periodOf } from '../../accounts/period.js';
import { Accounts } from '../../accounts/accounts-service.js';
import { UsageReporter } from '../../accounts/usage-report.js';
import { InProcessConcurrencyLimiter } from '../../limits/in-process-concurrency-limiter.js';
import { SiteRegistry } from '../../sites/registry.js';
import { ScrapeService, type ScrapeServiceOptions } from '../../scrape/scrape-service.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { createPostgresStorage } from '../../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../../storage/kysely/kysely-storage.js';
import type { Operation } from '../../storage/storage.js';
import { AesGcmSecrets } from '../../secrets/aes-gcm-secrets.js';
import { KyselyBatchStore } from '../../batches/kysely-batch-store.js';
import { SqliteWorkQueue } from '../../batches/sqlite-work-queue.js';
import { PgBossWorkQueue } from '../../batches/pg-boss-work-queue.js';
import type { WorkQueue } from '../../batches/work-queue.js';
import { BatchService } from '../../batches/batch-service.js';
import { KyselyWebhookEndpointStore } from '../../webhooks/kysely-webhook-endpoint-store.js';
import { completedRequest } from '../../../test/support/request-records.js';
import { createScratchDatabase, type ScratchDatabase } from '../../../test/support/backends.js';
import { untilEventsListable } from '../../../test/support/batch-events.js';

/** An item as GET …/items shows it (the fields these tests read). */
interface ItemJson {
  id: string;
  index: number;
  ref: string | null;
  state: string;
  cost_units: number;
  result?: { data: { title: string } };
}
interface ItemsJson {
  items: ItemJson[];
  next_cursor: string | null;
}
const itemsOf = (res: { json(): unknown }) => res.json() as ItemsJson;

const ikebe = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const host = 'www.ikebe-gakki.com';
const holder = 'ins_test';

interface Backend {
  storage: KyselyStorage;
  queue: WorkQueue;
  close(): Promise<void>;
}

const backends: Record<string, (dir: string, clock: ManualClock) => Promise<Backend>> = {
  sqlite: async (dir, clock) => {
    const storage = await createSqliteStorage({ path: join(dir, 'kumo.db') });
    await storage.migrate();
    const queue = new SqliteWorkQueue({ db: storage.db, clock });
    await queue.start();
    return { storage, queue, close: () => storage.close() };
  },
  postgres: async (_dir, clock) => {
    const database: ScratchDatabase = await createScratchDatabase('kumo_batch_routes');
    const storage = await createPostgresStorage({ url: database.url, poolSize: 12 });
    await storage.migrate();
    const queue = new PgBossWorkQueue({ db: storage.db, url: database.url, clock });
    await queue.start();
    return {
      storage,
      queue,
      close: async () => {
        await queue.close();
        await storage.close();
        await database.drop();
      },
    };
  },
};

describe.each(Object.keys(backends))('batch routes on %s', (backendName) => {
  let dir: string;
  let clock: ManualClock;
  let backend: Backend;
  let storage: KyselyStorage;
  let store: KyselyBatchStore;
  let secrets: AesGcmSecrets;
  let accounts: Accounts;
  let app: KumoApp;

  async function appWith(withSecrets: boolean): Promise<KumoApp> {
    const registry = new SiteRegistry();
    const scrape = new ScrapeService({ registry, environment: 'production' } as unknown as ScrapeServiceOptions);
    const batches = new BatchService({
      store,
      queue: backend.queue,
      plan: (caller, url, params) => scrape.plan(caller, url, params),
      secrets: withSecrets ? secrets : null,
      endpoints: new KyselyWebhookEndpointStore(storage.db, secrets),
      politeness: () => ({ maxInFlight: 1, minIntervalMs: 1000 }),
      secretQueryParams: [...new Set(registry.list().flatMap((s) => s.secretQueryParams))],
      clock,
    });
    const services = {
      accounts,
      usage: new UsageReporter({ ledger: storage.ledger, limiter: new InProcessConcurrencyLimiter() }),
      batches,
    } as unknown as AppServices;
    return buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kumo-batch-routes-'));
    clock = new ManualClock(Date.now());
    backend = await backends[backendName]!(dir, clock);
    storage = backend.storage;
    store = new KyselyBatchStore(storage, { clock });
    secrets = new AesGcmSecrets(randomBytes(32));
    accounts = new Accounts(storage);
    app = await appWith(true);
  });

  afterEach(async () => {
    await app.close();
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function keyOf(
    plan: 'free' | 'starter' | 'growth' = 'starter',
    operations?: Operation[],
  ): Promise<{ key: string; accountId: string; keyId: string }> {
    return accounts.createKey({ plan, ...(operations ? { operations } : {}) });
  }

  function call(
    key: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  /** Runs every queued item of the account on `host` to ready (cost 1), as the dispatcher would. */
  async function runToReady(ids: { accountId: string; keyId: string }, batchId: string): Promise<string[]> {
    const box = secrets.dataKeyBox((await store.dataKey(batchId))!, batchId);
    const done: string[] = [];
    for (;;) {
      const requestId = newId('req');
      const now = new Date(clock.now()).toISOString();
      const work = await backend.queue.claim(host, holder, {
        onClaimed: async (tx, claimed) => (await store.markRunning(tx, claimed.id, holder, requestId, now)) !== null,
      });
      if (!work) return done;
      const reserved = await store.reserve(work.id, holder, {
        requestId,
        period: periodOf(new Date(clock.now())),
        cost: 1,
        accountLimit: 5_000,
        keyLimit: null,
        expiresAt: new Date(clock.now() + 300_000).toISOString(),
      });
      expect(reserved).toEqual({ ok: true });
      const finished = await store.finishRun(
        work.id,
        holder,
        {
          state: 'ready',
          requestId,
          costUnits: 1,
          route: 'http',
          sealResult: () =>
            box.seal(JSON.stringify({ resolved_site: 'ikebe_gakki', data: { title: `t-${work.id}` } }), work.id),
          record: completedRequest(ids, { requestId, costUnits: 0, createdAt: now }),
        },
        (tx) => backend.queue.finish(tx, work.id, holder),
      );
      expect(finished).toBe(true);
      done.push(work.id);
    }
  }

  async function ledger(accountId: string): Promise<{ rows: number; sum: number }> {
    const rows = await storage.db
      .selectFrom('credit_ledger')
      .select(['request_id', 'credits'])
      .where('account_id', '=', accountId)
      .execute();
    return { rows: rows.length, sum: rows.reduce((s, r) => s + Number(r.credits), 0) };
  }

  it('submits: 202 with the batch, rejected items by code, limit headers; GET and list show it; others get 404', async () => {
    const { key } = await keyOf();
    const res = await call(key, 'POST', '/v1/batches', {
      items: [{ url: ikebe, ref: 'SKU-1' }, { url: 'https://shop.example.net/x' }, { url: ikebe }],
      params: { mode: 'html_json' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-credits-remaining']).toBeDefined();
    const { batch, request_id } = res.json();
    expect(request_id).toBe(res.headers['request-id']);
    expect(batch).toMatchObject({
      id: expect.stringMatching(/^bat_/),
      status: 'queued',
      sealed: true,
      counts: { total: 2, queued: 2, running: 0, ready: 0, delivered: 0 },
      credits: { charged: 0, held: 0, max: null },
      estimate: { cost_units_max: 2, eta_s: 2 },
      rejected: [{ index: 1, url: 'https://shop.example.net/x', code: 'site_not_supported' }],
      webhook: null,
      links: { self: `/v1/batches/${batch.id}`, items: `/v1/batches/${batch.id}/items` },
    });
    expect((await call(key, 'GET', `/v1/batches/${batch.id}`)).json().batch).toMatchObject({
      id: batch.id,
      counts: { total: 2 },
    });
    expect(
      (await call(key, 'GET', '/v1/batches')).json<{ batches: { id: string }[] }>().batches.map((b) => b.id),
    ).toEqual([batch.id]);
    const items = itemsOf(await call(key, 'GET', `/v1/batches/${batch.id}/items`));
    expect(items.items.map((i) => [i.index, i.ref, i.state])).toEqual([
      [0, 'SKU-1', 'queued'],
      [2, null, 'queued'],
    ]);

    const other = await keyOf();
    for (const [method, url] of [
      ['GET', `/v1/batches/${batch.id}`],
      ['GET', `/v1/batches/${batch.id}/items`],
      ['DELETE', `/v1/batches/${batch.id}`],
      ['GET', `/v1/events?batch_id=${batch.id}`],
    ] as const) {
      const refused = await call(other.key, method, url);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().code).toBe('not_found');
    }
    const append = await call(other.key, 'POST', `/v1/batches/${batch.id}/items`, { items: [{ url: ikebe }] });
    expect(append.statusCode).toBe(404);
    expect((await call(other.key, 'GET', '/v1/batches')).json().batches).toEqual([]);
  });

  it('needs the batch operation; unknown fields (store_artifact included) are a 400 naming the field', async () => {
    const scrapeOnly = await keyOf('starter', ['scrape']);
    const denied = await call(scrapeOnly.key, 'POST', '/v1/batches', { items: [{ url: ikebe }] });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('key_scope_denied');
    const batchOnly = await keyOf('starter', ['batch']);
    expect((await call(batchOnly.key, 'POST', '/v1/batches', { items: [{ url: ikebe }] })).statusCode).toBe(202);

    const artifact = await call(batchOnly.key, 'POST', '/v1/batches', {
      items: [{ url: ikebe, params: { store_artifact: true } }],
    });
    expect(artifact.statusCode).toBe(400);
    expect(artifact.json()).toMatchObject({ code: 'invalid_request', field: 'items.0.params.store_artifact' });
    const extra = await call(batchOnly.key, 'POST', '/v1/batches', { items: [{ url: ikebe }], deadline_at: 'x' });
    expect(extra.json()).toMatchObject({ code: 'invalid_request', field: 'deadline_at' });
    const tooMany = await call(batchOnly.key, 'POST', '/v1/batches', {
      items: Array.from({ length: 1001 }, () => ({ url: ikebe })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'invalid_request', field: 'items' });
  });

  it('takes a ref in any printable text, Japanese included, and refuses control characters in it', async () => {
    const { key } = await keyOf('starter', ['batch']);
    const ref = 'ヨドバシ｜型番 KX-１２３（黒）';
    const made = await call(key, 'POST', '/v1/batches', { items: [{ url: ikebe, ref }] });
    expect(made.statusCode).toBe(202);
    const items = await call(key, 'GET', `/v1/batches/${made.json().batch.id}/items`);
    expect(items.json().items[0].ref).toBe(ref);
    for (const bad of ['line\nbreak', 'tab\there', 'x'.repeat(129)]) {
      const refused = await call(key, 'POST', '/v1/batches', { items: [{ url: ikebe, ref: bad }] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_request', field: 'items.0.ref' });
    }
  });

  it('takes up to 2 MiB on the item routes only; past it 413', async () => {
    const { key } = await keyOf('growth');
    // 1,000 items with long URLs: about 1.2 MB, far over the 16 KiB of every other route.
    const longUrl = `${ikebe}?${'q=1&'.repeat(280)}z=1`;
    const big = { items: Array.from({ length: 1000 }, (_, i) => ({ url: longUrl, ref: `r${i}` })) };
    const bigBody = JSON.stringify(big);
    expect(bigBody.length).toBeGreaterThan(1_000_000);
    const accepted = await call(key, 'POST', '/v1/batches', bigBody);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json().batch.counts.total).toBe(1000);
    const over = await call(
      key,
      'POST',
      '/v1/batches',
      `{"items":[{"url":"${ikebe}","ref":"${'x'.repeat(2_200_000)}"}]}`,
    );
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('payload_too_large');
    // Other routes keep the global limit.
    const scrape = await call(key, 'POST', '/v1/scrape', `{"url":"${ikebe}","x":"${'x'.repeat(20_000)}"}`);
    expect(scrape.statusCode).toBe(413);
  });

  it('holds a plan to its items per batch and its retention', async () => {
    const { key } = await keyOf('free');
    const many = (n: number) => Array.from({ length: n }, () => ({ url: ikebe }));
    const over = await call(key, 'POST', '/v1/batches', { items: many(101) });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'batch_limit_exceeded', limit: 100 });
    const retain = await call(key, 'POST', '/v1/batches', { items: many(1), results: { retain_hours: 48 } });
    expect(retain.statusCode).toBe(422);
    expect(retain.json()).toMatchObject({ code: 'batch_limit_exceeded', field: 'results.retain_hours' });
    const badRetain = await call(key, 'POST', '/v1/batches', { items: many(1), results: { retain_hours: 73 } });
    expect(badRetain.json()).toMatchObject({ code: 'invalid_request', field: 'results.retain_hours' });
    const none = await call(key, 'POST', '/v1/batches', { items: [{ url: 'https://shop.example.net/' }] });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      code: 'site_not_supported',
      rejected: [{ index: 0, url: 'https://shop.example.net/', code: 'site_not_supported' }],
    });
    expect((await call(key, 'GET', '/v1/batches')).json().batches).toEqual([]);
  });

  it('replays a submission with the same Idempotency-Key and body; another body is 422 idempotency_conflict', async () => {
    const { key } = await keyOf();
    const body = { items: [{ url: ikebe }] };
    const first = await call(key, 'POST', '/v1/batches', body, { 'idempotency-key': 'nightly-2026-11-28' });
    const again = await call(key, 'POST', '/v1/batches', body, { 'idempotency-key': 'nightly-2026-11-28' });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().batch.id).toBe(first.json().batch.id);
    expect(again.json().batch.counts.total).toBe(1);
    const conflict = await call(
      key,
      'POST',
      '/v1/batches',
      { items: [{ url: ikebe, ref: 'b' }] },
      {
        'idempotency-key': 'nightly-2026-11-28',
      },
    );
    expect(conflict.statusCode).toBe(422);
    expect(conflict.json()).toMatchObject({ code: 'idempotency_conflict', batch_id: first.json().batch.id });
    expect((await call(key, 'GET', '/v1/batches')).json().batches).toHaveLength(1);
    expect(await backend.queue.depth(host)).toBe(1);
  });

  it('makes one batch of three parallel submissions with the same Idempotency-Key and body', async () => {
    const { key } = await keyOf();
    const body = { items: [{ url: ikebe }, { url: ikebe }] };
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(key, 'POST', '/v1/batches', body, { 'idempotency-key': 'parallel-1' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202]);
    const ids = new Set(answers.map((a) => a.json<{ batch: { id: string } }>().batch.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect((await call(key, 'GET', '/v1/batches')).json<{ batches: unknown[] }>().batches).toHaveLength(1);
    expect(await backend.queue.depth(host)).toBe(2);
  });

  it('appends to an unsealed batch until an append seals it; then 409 batch_sealed', async () => {
    const { key } = await keyOf();
    const made = (await call(key, 'POST', '/v1/batches', { items: [{ url: ikebe }], seal: false })).json().batch;
    expect(made.sealed).toBe(false);
    const more = await call(key, 'POST', `/v1/batches/${made.id}/items`, {
      items: [{ url: 'https://shop.example.net/' }, { url: ikebe, ref: 'late' }],
      seal: false,
    });
    expect(more.statusCode).toBe(202);
    expect(more.json().batch).toMatchObject({
      sealed: false,
      counts: { total: 2, queued: 2 },
      rejected: [{ index: 1, url: 'https://shop.example.net/', code: 'site_not_supported' }],
    });
    const seal = await call(key, 'POST', `/v1/batches/${made.id}/items`, { items: [] });
    expect(seal.json().batch.sealed).toBe(true);
    const refused = await call(key, 'POST', `/v1/batches/${made.id}/items`, { items: [{ url: ikebe }] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('batch_sealed');
    const items = itemsOf(await call(key, 'GET', `/v1/batches/${made.id}/items`)).items;
    expect(items.map((i) => [i.index, i.ref])).toEqual([
      [0, null],
      [2, 'late'],
    ]);
    expect(await backend.queue.depth(host)).toBe(2);
  });

  it('cancels: queued items cancelled at once, free, their work gone from the queue', async () => {
    const ids = await keyOf();
    const made = (await call(ids.key, 'POST', '/v1/batches', { items: [{ url: ikebe }, { url: ikebe }] })).json().batch;
    const res = await call(ids.key, 'DELETE', `/v1/batches/${made.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      cancelled: 2,
      batch: { status: 'cancelled', counts: { cancelled: 2, queued: 0 } },
    });
    expect(await backend.queue.depth(host)).toBe(0);
    const items = itemsOf(await call(ids.key, 'GET', `/v1/batches/${made.id}/items?state=cancelled`)).items;
    expect(items).toHaveLength(2);
    expect(items.every((i) => i.cost_units === 0)).toBe(true);
    expect(await ledger(ids.accountId)).toEqual({ rows: 0, sum: 0 });
    const append = await call(ids.key, 'POST', `/v1/batches/${made.id}/items`, { items: [{ url: ikebe }] });
    expect(append.statusCode).toBe(409);
  });

  it('hands results over on GET exactly once under 10 parallel pages; retained results come back free', async () => {
    const ids = await keyOf();
    const made = (
      await call(ids.key, 'POST', '/v1/batches', {
        items: [{ url: ikebe }, { url: ikebe }, { url: ikebe }],
        results: { retain_hours: 48 },
      })
    ).json().batch;
    const ready = await runToReady(ids, made.id);
    expect(ready).toHaveLength(3);
    expect((await call(ids.key, 'GET', `/v1/batches/${made.id}`)).json().batch).toMatchObject({
      counts: { ready: 3 },
      credits: { charged: 0, held: 3 },
    });

    const pages = await Promise.all(
      Array.from({ length: 10 }, () => call(ids.key, 'GET', `/v1/batches/${made.id}/items?limit=100`)),
    );
    for (const page of pages) {
      expect(page.statusCode).toBe(200);
      const items = itemsOf(page).items;
      expect(items.map((i) => i.state)).toEqual(['delivered', 'delivered', 'delivered']);
      for (const item of items) expect(item.result?.data.title).toBe(`t-${item.id}`);
    }
    expect(await ledger(ids.accountId)).toEqual({ rows: 3, sum: 3 });
    expect((await call(ids.key, 'GET', `/v1/batches/${made.id}`)).json().batch).toMatchObject({
      counts: { ready: 0, delivered: 3 },
      credits: { charged: 3, held: 0 },
    });
    // Retained: the results again, charged nothing more.
    const again = itemsOf(await call(ids.key, 'GET', `/v1/batches/${made.id}/items`));
    expect(again.items.every((i) => i.result !== undefined)).toBe(true);
    expect(await ledger(ids.accountId)).toEqual({ rows: 3, sum: 3 });
  });

  it('answers 503 and charges nothing when the handover cannot be committed; a retry charges once', async () => {
    const ids = await keyOf();
    const made = (await call(ids.key, 'POST', '/v1/batches', { items: [{ url: ikebe }, { url: ikebe }] })).json().batch;
    await runToReady(ids, made.id);
    const handover = store.handover.bind(store);
    store.handover = async () => {
      throw new Error('connection terminated unexpectedly');
    };
    const failed = await call(ids.key, 'GET', `/v1/batches/${made.id}/items`);
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe('unavailable');
    expect(failed.body).not.toContain('t-itm_');
    expect(await ledger(ids.accountId)).toEqual({ rows: 0, sum: 0 });
    store.handover = handover;
    const served = await call(ids.key, 'GET', `/v1/batches/${made.id}/items`);
    expect(served.statusCode).toBe(200);
    expect(await ledger(ids.accountId)).toEqual({ rows: 2, sum: 2 });
  });

  it('pages items by cursor and state', async () => {
    const ids = await keyOf();
    const made = (
      await call(ids.key, 'POST', '/v1/batches', {
        items: Array.from({ length: 5 }, (_, i) => ({ url: ikebe, ref: `r${i}` })),
      })
    ).json().batch;
    const first = itemsOf(await call(ids.key, 'GET', `/v1/batches/${made.id}/items?limit=2`));
    expect(first.items.map((i) => i.ref)).toEqual(['r0', 'r1']);
    const second = itemsOf(
      await call(ids.key, 'GET', `/v1/batches/${made.id}/items?limit=2&cursor=${first.next_cursor}`),
    );
    expect(second.items.map((i) => i.ref)).toEqual(['r2', 'r3']);
    const last = itemsOf(
      await call(ids.key, 'GET', `/v1/batches/${made.id}/items?limit=2&cursor=${second.next_cursor}`),
    );
    expect(last).toMatchObject({ next_cursor: null });
    expect(last.items.map((i) => i.ref)).toEqual(['r4']);
    expect((await call(ids.key, 'GET', `/v1/batches/${made.id}/items?state=ready`)).json().items).toEqual([]);
    const bad = await call(ids.key, 'GET', `/v1/batches/${made.id}/items?limit=101`);
    expect(bad.statusCode).toBe(400);
    const badCursor = await call(ids.key, 'GET', `/v1/batches/${made.id}/items?cursor=nope`);
    expect(badCursor.json()).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });

  it('lists the events of a batch, filtered by type, paged by an opaque next_after; an unknown type is a 400', async () => {
    const ids = await keyOf();
    const made = (await call(ids.key, 'POST', '/v1/batches', { items: [{ url: ikebe }, { url: ikebe }] })).json().batch;
    await runToReady(ids, made.id);
    await untilEventsListable(storage.db);
    const events = (await call(ids.key, 'GET', `/v1/events?batch_id=${made.id}`)).json<{
      events: { id: string; type: string }[];
      next_after: string | null;
    }>();
    expect(events.next_after).toBeNull();
    expect(events.events.map((e) => e.type)).toContain('item.succeeded');
    expect(events.events[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      timestamp: expect.stringMatching(/\+09:00$/),
      data: { batch_id: made.id, item_id: expect.stringMatching(/^itm_/), sequence: expect.any(Number) },
    });
    const failed = (await call(ids.key, 'GET', `/v1/events?batch_id=${made.id}&types=item.failed`)).json();
    expect(failed.events).toEqual([]);
    const unknown = await call(ids.key, 'GET', '/v1/events?types=item.exploded');
    expect(unknown.json()).toMatchObject({ code: 'invalid_request', field: 'types' });

    // One a page: next_after is opaque (not an event id), and following it lists each event once, in order.
    const paged: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query: string = `/v1/events?batch_id=${made.id}&limit=1${after === null ? '' : `&after=${after}`}`;
      const body = (await call(ids.key, 'GET', query)).json<{ events: { id: string }[]; next_after: string | null }>();
      paged.push(...body.events.map((e) => e.id));
      if (body.next_after === null) break;
      expect(body.next_after).not.toMatch(/^evt_/);
      after = body.next_after;
    }
    expect(paged).toEqual(events.events.map((e) => e.id));
    // A plain event id (next_after before it became a cursor) still starts after that event.
    const legacy = (await call(ids.key, 'GET', `/v1/events?batch_id=${made.id}&after=${paged[0]}`)).json<{
      events: { id: string }[];
    }>();
    expect(legacy.events.map((e) => e.id)).toEqual(paged.slice(1));
    const bad = await call(ids.key, 'GET', '/v1/events?after=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_request', field: 'after' });
  });

  it('answers every batch route 503 unavailable without KUMO_SECRETS_KEY', async () => {
    await app.close();
    app = await appWith(false);
    const { key } = await keyOf();
    for (const [method, url, body] of [
      ['POST', '/v1/batches', { items: [{ url: ikebe }] }],
      ['GET', '/v1/batches', undefined],
      ['GET', '/v1/batches/bat_x', undefined],
      ['GET', '/v1/batches/bat_x/items', undefined],
      ['DELETE', '/v1/batches/bat_x', undefined],
      ['GET', '/v1/events', undefined],
    ] as const) {
      const res = await call(key, method, url, body);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'unavailable',
        detail: expect.stringContaining('KUMO_SECRETS_KEY is not set'),
      });
      expect(res.headers['retry-after']).toBeDefined();
    }
  });

  it('documents every batch route in /openapi.json', async () => {
    const doc = (await app.inject('/openapi.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths['/v1/batches'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/batches/{id}'] ?? {}).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(doc.paths['/v1/batches/{id}/items'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/events'] ?? {})).toEqual(['get']);
  });
});
