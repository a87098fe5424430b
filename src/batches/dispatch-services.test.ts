// Batch dispatch as createServices wires it, on real SQLite (and PostgreSQL + Redis): items of a batch fetched from a
// local origin under the site's real hostname (KUMO_CONNECT_TO), produced in the extraction pool, held at ready,
// charged once at handover, each host's politeness never exceeded.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createServices, type Services } from '../services.js';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import type { NewBatchItem } from './batch-store.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { batchLaneScope } from './dispatcher.js';
import { startOrigin, connectToSpec, type Origin } from '../../test/support/origin.js';
import { itemPage } from '../../test/support/pages.js';
import {
  createScratchDatabase,
  deleteRedisKeysUnder,
  testRedisUrl,
  type ScratchDatabase,
} from '../../test/support/backends.js';

const host = 'www.ikebe-gakki.com';
const marker = `MARKER-${randomBytes(6).toString('hex')}`;
const count = 12;
/** Items whose page the origin does not have (404): not_found, free. */
const missing = new Set([4]);
const pathOf = (i: number) => `/c/c-/kb/kb01/kb011427/${750600 + i}`;

let origin: Origin;

beforeAll(async () => {
  origin = await startOrigin();
  for (let i = 0; i < count; i++) {
    if (missing.has(i)) continue;
    origin.route('GET', pathOf(i), async (_req, res) => {
      // Slow enough that the dispatcher would overlap more than the politeness allows, if it could.
      await new Promise((resolve) => setTimeout(resolve, 30));
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(itemPage({ title: `${marker} ${i}`, marker }));
    });
  }
});

afterAll(async () => {
  await origin?.close();
});

interface Backend {
  name: string;
  env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite (embedded)',
    env: async () => ({ env: {}, cleanup: async () => undefined }),
  },
  {
    name: 'PostgreSQL + Redis (pg-boss queue)',
    env: async () => {
      const database: ScratchDatabase = await createScratchDatabase('kumo_dispatch');
      const prefix = `kumo-dispatch-${randomBytes(4).toString('hex')}`;
      return {
        env: {
          DATABASE_URL: database.url,
          REDIS_URL: testRedisUrl,
          KUMO_REDIS_KEY_PREFIX: prefix,
          KUMO_SECRETS_KEY: randomBytes(32).toString('base64'),
        },
        cleanup: async () => {
          await database.drop();
          await deleteRedisKeysUnder(prefix);
        },
      };
    },
  },
];

describe.each(backends)('batch dispatch wired by createServices: $name', (backend) => {
  let dir: string;
  let services: Services;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kumo-dispatch-'));
    const prepared = await backend.env();
    cleanup = prepared.cleanup;
    const config = loadConfig({
      KUMO_DATA_DIR: dir,
      KUMO_CONNECT_TO: connectToSpec({ [host]: origin.url }),
      KUMO_HOST_MAX_IN_FLIGHT: '2',
      KUMO_HOST_MIN_INTERVAL_MS: '0',
      KUMO_FETCH_RETRY_BASE_MS: '10',
      KUMO_BATCH_POLL_MS: '100',
      ...prepared.env,
    });
    services = await createServices(config, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await services?.close();
    await cleanup?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs every item to ready (or not_found) with holds, never above the host politeness; handover charges once', async () => {
    const { storage, batchStore, workQueue, dispatcher, secrets } = services;
    expect(dispatcher).not.toBeNull();
    const createdAt = new Date().toISOString();
    const account = { id: newId('acc'), plan: 'growth' as const, overageCapCredits: 0, createdAt };
    const key = {
      id: newId('key'),
      accountId: account.id,
      displayPrefix: 'kumo_live_test',
      hash: newId('hash'),
      sites: null,
      operations: null,
      outputs: null,
      monthlyCreditLimit: null,
      concurrencyLimit: null,
      createdAt,
      revokedAt: null,
      expiresAt: null,
    };
    await storage.accounts.create(account);
    await storage.keys.create(key);

    const batchId = newId('bat');
    const dataKey = secrets!.newDataKey(batchId);
    const items: NewBatchItem[] = Array.from({ length: count }, (_, index) => {
      const id = newId('itm');
      const url = `https://${host}${pathOf(index)}`;
      return {
        id,
        index,
        ref: `r${index}`,
        url,
        urlSealed: dataKey.box.seal(url, `url:${id}`),
        host,
        siteId: 'ikebe_gakki',
        pageType: 'item',
        route: 'http',
        params: null,
        costMax: 1,
      };
    });
    origin.resetPeak();
    const created = await batchStore.create(
      {
        id: batchId,
        accountId: account.id,
        keyId: key.id,
        params: { mode: 'html_json' },
        webhook: null,
        retainHours: 24,
        resultsExpireAt: new Date(Date.now() + 86_400_000).toISOString(),
        maxCredits: null,
        estimate: { costUnitsMax: count, etaS: 1 },
        rejected: [],
        dataKeySealed: dataKey.sealed,
        createdAt,
        sealed: true,
      },
      items,
      (tx) =>
        workQueue.enqueue(
          tx,
          items.map((item, order) => ({ id: item.id, groupId: batchId, accountId: account.id, host, order })),
        ),
    );
    expect(created.outcome).toBe('created');
    dispatcher!.wake();

    // Real fetches and extraction: waited for by polling the batch's counts, with a bound far past the need.
    const end = performance.now() + 90_000;
    let batch = await batchStore.get(batchId, account.id);
    while (batch && batch.counts.ready + batch.counts.not_found < count && performance.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batch = await batchStore.get(batchId, account.id);
    }
    expect(batch?.counts).toMatchObject({
      total: count,
      queued: 0,
      running: 0,
      ready: count - missing.size,
      not_found: missing.size,
      failed: 0,
    });
    expect(batch?.credits).toMatchObject({ charged: 0, held: count - missing.size, reserved: 0 });
    expect(batch?.status).toBe('completed');
    // Politeness: never more than the host's maxInFlight (2) at the origin at once; the lane is free again.
    expect(origin.inFlightMax()).toBeLessThanOrEqual(2);
    expect(await services.limiter.inUse(batchLaneScope(account.id))).toBe(0);
    expect(await services.limiter.inUse(`account:${account.id}`)).toBe(0);

    const listed = await batchStore.listItems(batchId, account.id, { limit: 100 });
    expect(listed).toHaveLength(count);
    for (const { item, resultSealed } of listed) {
      expect(item.requestId).toMatch(/^req_/);
      expect(item.attempts).toBe(1);
      if (missing.has(item.index)) {
        expect(item.state).toBe('not_found');
        expect(item.error).toEqual({ code: 'not_found', status: 404, retryable: false });
        expect(resultSealed).toBeNull();
        continue;
      }
      expect(item).toMatchObject({ state: 'ready', costUnits: 1, error: null });
      // Only ciphertext is stored; it opens with the batch's data key under the item's id.
      expect(Buffer.from(resultSealed!).includes(marker)).toBe(false);
      const body = JSON.parse(dataKey.box.open(resultSealed!, item.id).toString('utf8')) as {
        data: { title: string };
        cost_units: number;
        fetch_summary: { status: string; http_status: number };
      };
      expect(body).not.toHaveProperty('request_id');
      expect(body.data.title).toBe(`${marker} ${item.index}`);
      expect(body).toMatchObject({ cost_units: 1, fetch_summary: { status: 'completed', http_status: 200 } });
      // The attempt's metadata row, as a call writes it, at cost 0 until handover.
      expect(await storage.requests.get(item.requestId!, account.id)).toMatchObject({
        status: 'completed',
        costUnits: 0,
        siteId: 'ikebe_gakki',
        route: 'http',
        httpStatus: 200,
      });
    }
    const period = periodOf(new Date());
    expect((await storage.ledger.accountUsage(account.id, period)).used).toBe(0);

    // Handover: each ready item charged once, whoever asks again.
    const ready = listed.filter(({ item }) => item.state === 'ready').map(({ item }) => item.id);
    const now = new Date().toISOString();
    const [first, second] = await Promise.all([
      batchStore.handover(ready, 'poll', now),
      batchStore.handover(ready, 'poll', now),
    ]);
    expect([...first, ...second].sort()).toEqual([...ready].sort());
    expect(await batchStore.handover(ready, 'poll', now)).toEqual([]);
    expect((await storage.ledger.accountUsage(account.id, period)).used).toBe(ready.length);
    const rows = await (storage as KyselyStorage).db
      .selectFrom('credit_ledger')
      .select(['request_id'])
      .where('account_id', '=', account.id)
      .execute();
    expect(rows).toHaveLength(ready.length);
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(ready.length);
    const after = await batchStore.get(batchId, account.id);
    expect(after?.credits).toMatchObject({ charged: ready.length, held: 0, reserved: 0 });
    expect(after?.counts.delivered).toBe(ready.length);
  });
});
