// Batch dispatch as createServices wires it, on real SQLite (and PostgreSQL + Redis): items of a batch fetched from a
// local origin under the site's real hostname (KUMO_CONNECT_TO), produced in the extraction pool, held at ready,
// charged once at handover, each host's politeness never exceeded.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createServices, type Services } from '../services.js';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import { eventTypes, type BatchRecord, type NewBatchItem, type WebhookTarget } from './batch-store.js';
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
let receiver: http.Server;
let receiverUrl = '';
/** Each delivery as the receiver got it, and whether it verified with the endpoint's secret. */
const received: { type: string; verified: boolean; body: Record<string, unknown> }[] = [];
let signingSecret = '';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      try {
        new Webhook(signingSecret).verify(text, headers);
        verified = true;
      } catch {
        verified = false;
      }
      const body = JSON.parse(text) as { type: string } & Record<string, unknown>;
      received.push({ type: body.type, verified, body });
      res.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
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
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
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
      KUMO_CONNECT_TO: connectToSpec({ [host]: origin.url, 'receiver.test': receiverUrl }),
      KUMO_HOST_MAX_IN_FLIGHT: '2',
      KUMO_HOST_MIN_INTERVAL_MS: '0',
      KUMO_FETCH_RETRY_BASE_MS: '10',
      KUMO_BATCH_POLL_MS: '100',
      // A dead instance's items come back within this bound (the liveness sweep runs every heartbeat).
      KUMO_HEARTBEAT_INTERVAL_MS: '500',
      KUMO_INSTANCE_STALE_MS: '3000',
      ...prepared.env,
    });
    services = await createServices(config, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await services?.close();
    await cleanup?.();
    await rm(dir, { recursive: true, force: true });
  });

  async function newAccount() {
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
    await services.storage.accounts.create(account);
    await services.storage.keys.create(key);
    return { account, key };
  }

  /** A batch of `count` items (index i at pathOf(i)) submitted as BatchService does: store + queue in one go. */
  async function submit(
    caller: { account: { id: string }; key: { id: string } },
    webhook: WebhookTarget | null,
    options: { wake: boolean } = { wake: true },
  ) {
    const { batchStore, workQueue, secrets } = services;
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
    const created = await batchStore.create(
      {
        id: batchId,
        accountId: caller.account.id,
        keyId: caller.key.id,
        params: { mode: 'html_json' },
        webhook,
        retainHours: webhook ? null : 24,
        resultsExpireAt: new Date(Date.now() + 86_400_000).toISOString(),
        maxCredits: null,
        estimate: { costUnitsMax: count, etaS: 1 },
        rejected: [],
        dataKeySealed: dataKey.sealed,
        createdAt: new Date().toISOString(),
        sealed: true,
      },
      items,
      (tx) =>
        workQueue.enqueue(
          tx,
          items.map((item, order) => ({ id: item.id, groupId: batchId, accountId: caller.account.id, host, order })),
        ),
    );
    expect(created.outcome).toBe('created');
    if (options.wake) services.dispatcher!.wake();
    return { batchId, dataKey };
  }

  /** Real fetches, extraction and deliveries: waited for by polling the batch, with a bound far past the need. */
  async function batchWhen(batchId: string, accountId: string, done: (batch: BatchRecord) => boolean) {
    const end = performance.now() + 90_000;
    let batch = await services.batchStore.get(batchId, accountId);
    while (batch && !done(batch) && performance.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batch = await services.batchStore.get(batchId, accountId);
    }
    return batch;
  }

  it('runs every item to ready (or not_found) with holds, never above the host politeness; handover charges once', async () => {
    const { storage, batchStore, dispatcher } = services;
    expect(dispatcher).not.toBeNull();
    const caller = await newAccount();
    const { account } = caller;
    origin.resetPeak();
    const { batchId, dataKey } = await submit(caller, null);
    const batch = await batchWhen(batchId, account.id, (b) => b.counts.ready + b.counts.not_found >= count);
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

  it('with a webhook: every event is signed and verifies, each ready item is charged once at the first 2xx', async () => {
    const caller = await newAccount();
    const { endpoint, secret } = await services.webhookEndpointStore!.create({
      id: newId('whe'),
      accountId: caller.account.id,
      url: 'https://receiver.test/hook',
      events: [...eventTypes],
      createdAt: new Date().toISOString(),
    });
    signingSecret = secret;
    received.length = 0;
    const { batchId } = await submit(caller, { endpointId: endpoint.id, events: [...eventTypes], payload: 'full' });
    const readyCount = count - missing.size;
    const batch = await batchWhen(
      batchId,
      caller.account.id,
      (b) => b.counts.delivered === readyCount && received.some((r) => r.type === 'batch.completed'),
    );
    expect(batch?.counts).toMatchObject({ delivered: readyCount, not_found: missing.size, ready: 0, queued: 0 });
    expect(batch?.credits).toMatchObject({ charged: readyCount, held: 0, reserved: 0 });
    expect(received.every((r) => r.verified)).toBe(true);
    const succeeded = received.filter((r) => r.type === 'item.succeeded');
    expect(new Set(succeeded.map((r) => (r.body.data as { item_id: string }).item_id)).size).toBe(readyCount);
    expect(received.filter((r) => r.type === 'item.not_found')).toHaveLength(missing.size);
    for (const r of succeeded) {
      const data = r.body.data as { result: { data: { title: string } }; index: number };
      expect(data.result.data.title).toBe(`${marker} ${data.index}`);
    }
    expect((await services.storage.ledger.accountUsage(caller.account.id, periodOf(new Date()))).used).toBe(readyCount);
    // No retention asked with a webhook: the results left the buffer at handover.
    const listed = await services.batchStore.listItems(batchId, caller.account.id, { limit: 100 });
    expect(listed.every(({ resultSealed }) => resultSealed === null)).toBe(true);
  });

  it('a revoked key stops its batches (items fail unauthorized, free); a rotated one goes on under its successor', async () => {
    const revoked = await newAccount();
    await services.storage.keys.revoke(revoked.key.id, new Date().toISOString());
    const stopped = await submit(revoked, null);
    const failed = await batchWhen(stopped.batchId, revoked.account.id, (b) => b.counts.failed >= count);
    expect(failed?.counts).toMatchObject({ failed: count, ready: 0, queued: 0, running: 0 });
    const [first] = await services.batchStore.listItems(stopped.batchId, revoked.account.id, { limit: 1 });
    expect(first?.item.error?.code).toBe('unauthorized');
    expect(failed?.credits).toEqual({ charged: 0, held: 0, reserved: 0 });

    const rotated = await newAccount();
    const successor = { ...rotated.key, id: newId('key'), hash: newId('hash'), lineageId: rotated.key.id };
    await services.storage.keys.create(successor);
    await services.storage.keys.revoke(rotated.key.id, new Date().toISOString());
    const going = await submit(rotated, null);
    const done = await batchWhen(
      going.batchId,
      rotated.account.id,
      (b) => b.counts.ready + b.counts.not_found >= count,
    );
    expect(done?.counts.failed).toBe(0);
    expect((done?.counts.ready ?? 0) + (done?.counts.not_found ?? 0)).toBe(count);
  });

  it("a dead instance's running item is queued again by the liveness sweep and then runs here, charged once", async () => {
    const caller = await newAccount();
    const { batchStore, workQueue } = services;
    // Stop this instance's dispatcher from taking the item first: claim it as an instance that then dies (no
    // heartbeat row ever), exactly as a dispatcher's claim does.
    const dead = newId('ins');
    const { batchId } = await submit(caller, null, { wake: false });
    let claimedId: string | null = null;
    for (let tries = 0; tries < 50 && claimedId === null; tries++) {
      const work = await workQueue.claim(host, dead, {
        onClaimed: async (tx, claimed) =>
          (await batchStore.markRunning(tx, claimed.id, dead, newId('req'), new Date().toISOString())) !== null,
      });
      claimedId = work?.id ?? null;
    }
    expect(claimedId).not.toBeNull();
    const batch = await batchWhen(batchId, caller.account.id, (b) => b.counts.ready + b.counts.not_found >= count);
    expect(batch?.counts).toMatchObject({ ready: count - missing.size, not_found: missing.size, running: 0 });
    const listed = await batchStore.listItems(batchId, caller.account.id, { limit: 100 });
    const orphan = listed.find(({ item }) => item.id === claimedId)!.item;
    // Its first attempt was the dead instance's; the second ran here.
    expect(orphan.attempts).toBe(2);
    expect(['ready', 'not_found']).toContain(orphan.state);
    const ready = listed.filter(({ item }) => item.state === 'ready').map(({ item }) => item.id);
    expect(await batchStore.handover(ready, 'poll', new Date().toISOString())).toHaveLength(ready.length);
    expect((await services.storage.ledger.accountUsage(caller.account.id, periodOf(new Date()))).used).toBe(
      ready.length,
    );
  });
});
