// The behaviour every BatchStore (+ Outbox) must show; kysely-batch-store.sqlite.test.ts and kysely-batch-store.postgres.test.ts run it on real databases.
import type { HoldTransaction } from '../storage/kysely/kysely-credit-ledger.js';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import { ManualClock } from '../time/clock.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { completedRequest } from '../../test/support/request-records.js';
import { KyselyBatchStore } from './kysely-batch-store.js';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { untilEventsListable } from '../../test/support/batch-events.js';
import {
  itemStates,
  type BatchRecord,
  type EventPosition,
  type EventType,
  type NewBatch,
  type NewBatchItem,
} from './batch-store.js';

export interface BatchStoreBackend {
  storage: KyselyStorage;
  /** The SQLite file (and its -wal), for the storage audit; null on PostgreSQL. */
  file: string | null;
  /** How a run's writes commit on this backend in production (services.ts); default a plain transaction. */
  runTransaction?: HoldTransaction;
}

const period = '2026-11';
const hour = 3_600_000;

export function describeBatchStoreContract(name: string, make: () => Promise<BatchStoreBackend>): void {
  describe(`${name}: BatchStore contract`, () => {
    let backend: BatchStoreBackend;
    let storage: KyselyStorage;
    let store: KyselyBatchStore;
    let clock: ManualClock;
    let accountId: string;
    let keyId: string;
    const secrets = new AesGcmSecrets(randomBytes(32));
    const boxes = new Map<string, SecretBox>();

    beforeEach(async () => {
      backend = await make();
      storage = backend.storage;
      await storage.migrate();
      // The ledger stamps with the wall clock; the store's clock starts there and is moved by the tests.
      clock = new ManualClock(Date.now());
      store = new KyselyBatchStore(storage, {
        clock,
        ...(backend.runTransaction ? { runTransaction: backend.runTransaction } : {}),
      });
      accountId = newId('acc');
      keyId = newId('key');
      const createdAt = new Date(clock.now()).toISOString();
      await storage.accounts.create({ id: accountId, plan: 'growth', overageCapCredits: 0, createdAt });
      await storage.keys.create({
        id: keyId,
        lineageId: keyId,
        accountId,
        displayPrefix: 'kumo_live_abcd',
        hash: newId('hash').toLowerCase(),
        sites: null,
        operations: null,
        outputs: null,
        monthlyCreditLimit: null,
        concurrencyLimit: null,
        createdAt,
        revokedAt: null,
        expiresAt: null,
      });
    });

    afterEach(async () => {
      await storage.close();
    });

    const nowIso = () => new Date(clock.now()).toISOString();
    const noWork = async () => undefined;
    const workDone = async () => true;

    function newBatch(changes: Partial<NewBatch> = {}): NewBatch {
      const id = changes.id ?? newId('bat');
      const { box, sealed } = secrets.newDataKey(id);
      boxes.set(id, box);
      return {
        id,
        accountId,
        keyId,
        params: { mode: 'fast' },
        webhook: null,
        retainHours: 24,
        resultsExpireAt: new Date(clock.now() + 24 * hour).toISOString(),
        maxCredits: null,
        estimate: { costUnitsMax: 0, etaS: 1 },
        rejected: [],
        dataKeySealed: sealed,
        createdAt: nowIso(),
        sealed: true,
        ...changes,
      };
    }

    function newItems(batchId: string, n: number, url = (i: number) => `https://example.jp/item/${i}`): NewBatchItem[] {
      const box = boxes.get(batchId)!;
      return Array.from({ length: n }, (_, index) => {
        const id = newId('itm');
        return {
          id,
          index,
          ref: `ref-${index}`,
          url: url(index),
          urlSealed: box.seal(url(index), `url:${id}`),
          host: 'example.jp',
          siteId: 'ikebe_gakki',
          pageType: 'item',
          route: 'http',
          params: null,
          costMax: 1,
        };
      });
    }

    async function submit(
      n: number,
      changes: Partial<NewBatch> = {},
    ): Promise<{ batch: BatchRecord; items: NewBatchItem[] }> {
      const batch = newBatch(changes);
      const items = newItems(batch.id, n);
      const outcome = await store.create(batch, items, noWork);
      if (outcome.outcome !== 'created') throw new Error(outcome.outcome);
      return { batch: outcome.batch, items };
    }

    async function markRunning(itemId: string, holder = 'ins_a') {
      const requestId = newId('req');
      const run = await storage.db
        .transaction()
        .execute((tx) => store.markRunning(tx, itemId, holder, requestId, nowIso()));
      return run ? { run, requestId } : null;
    }

    const limits = { accountLimit: 1_000_000, keyLimit: null as number | null };
    async function reserve(itemId: string, requestId: string, holder = 'ins_a', cost = 1, l = limits) {
      return store.reserve(itemId, holder, {
        requestId,
        period,
        cost,
        accountLimit: l.accountLimit,
        keyLimit: l.keyLimit,
        expiresAt: new Date(clock.now() + 300_000).toISOString(),
      });
    }

    async function finishReady(itemId: string, batchId: string, requestId: string, holder = 'ins_a', result = {}) {
      return store.finishRun(
        itemId,
        holder,
        {
          state: 'ready',
          requestId,
          costUnits: 1,
          route: 'http',
          sealResult: () => boxes.get(batchId)!.seal(JSON.stringify({ data: result }), itemId),
          record: completedRequest({ accountId, keyId }, { requestId, costUnits: 0, createdAt: nowIso() }),
        },
        workDone,
      );
    }

    /** Runs an item to ready (cost 1). */
    async function toReady(itemId: string, batchId: string, result: object = { title: 'x' }) {
      const started = await markRunning(itemId);
      expect(started).not.toBeNull();
      expect(await reserve(itemId, started!.requestId)).toEqual({ ok: true });
      expect(await finishReady(itemId, batchId, started!.requestId, 'ins_a', result)).toBe(true);
      return started!.requestId;
    }

    /** The maintained figures equal what the items say, whatever happened before. */
    async function expectConsistent(batchId: string): Promise<BatchRecord> {
      const batch = (await store.get(batchId, accountId))!;
      const counted = await store.countedStates(batchId);
      for (const state of itemStates) expect(batch.counts[state], state).toBe(counted[state] ?? 0);
      expect(batch.counts.total).toBe(Object.values(counted).reduce((a, b) => a + b, 0));
      const items = await storage.db
        .selectFrom('batch_items')
        .select(['state', 'cost_units', 'reserved', 'request_id'])
        .where('batch_id', '=', batchId)
        .execute();
      const sum = (state: string, column: 'cost_units' | 'reserved') =>
        items.filter((i) => i.state === state).reduce((a, i) => a + Number(i[column]), 0);
      expect(batch.credits.held).toBe(sum('ready', 'cost_units'));
      expect(batch.credits.reserved).toBe(sum('running', 'reserved'));
      const charged = await storage.db
        .selectFrom('credit_ledger')
        .select(sql<number>`coalesce(sum(credits), 0)`.as('n'))
        .where(
          'request_id',
          'in',
          items.map((i) => i.request_id ?? '-'),
        )
        .executeTakeFirstOrThrow();
      expect(batch.credits.charged).toBe(Number(charged.n));
      expect(batch.credits.charged).toBe(sum('delivered', 'cost_units'));
      return batch;
    }

    async function ledgerRows(requestId: string): Promise<number> {
      const rows = await storage.db
        .selectFrom('credit_ledger')
        .select('request_id')
        .where('request_id', '=', requestId)
        .execute();
      return rows.length;
    }

    async function reservation(requestId: string) {
      return storage.db
        .selectFrom('credit_reservations')
        .select(['state', 'kind', 'holder', 'cost'])
        .where('request_id', '=', requestId)
        .executeTakeFirst();
    }

    async function eventTypes(batchId: string): Promise<EventType[]> {
      await untilEventsListable(storage.db);
      return (await store.events({ accountId, batchId, limit: 1000 })).map((e) => e.type);
    }

    it('creates a batch with its items queued, and reads it back only for its account', async () => {
      const { batch, items } = await submit(3, { rejected: [{ index: 3, url: 'https://x.jp/', code: 'invalid_url' }] });
      expect(batch.status).toBe('queued');
      expect(batch.sealed).toBe(true);
      expect(batch.counts).toMatchObject({ total: 3, queued: 3, running: 0 });
      expect(batch.rejected).toEqual([{ index: 3, url: 'https://x.jp/', code: 'invalid_url' }]);
      expect((await store.get(batch.id, accountId))?.id).toBe(batch.id);
      expect(await store.get(batch.id, 'acc_other')).toBeNull();
      expect((await store.list(accountId, 10)).map((b) => b.id)).toEqual([batch.id]);
      const page = await store.listItems(batch.id, accountId, { limit: 2 });
      expect(page.map((p) => p.item.id)).toEqual(items.slice(0, 2).map((i) => i.id));
      const next = await store.listItems(batch.id, accountId, { limit: 2, afterIndex: 1 });
      expect(next.map((p) => p.item.index)).toEqual([2]);
      expect(await store.listItems(batch.id, 'acc_other', { limit: 2 })).toEqual([]);
      expect(await store.dataKey(batch.id)).toBeInstanceOf(Uint8Array);
      await expectConsistent(batch.id);
    });

    it('a sealed batch whose every item was rejected is completed at once, with one batch.completed', async () => {
      const { batch } = await submit(0);
      expect(batch.status).toBe('completed');
      expect(await eventTypes(batch.id)).toEqual(['batch.completed']);
    });

    it('Idempotency-Key: the same body replays, another conflicts, parallel submissions make one batch', async () => {
      const idempotency = { key: 'nightly-1', bodyHash: 'a'.repeat(64) };
      const first = await store.create(newBatch({ idempotency }), [], noWork);
      expect(first.outcome).toBe('created');
      const replay = await store.create(newBatch({ idempotency }), [], noWork);
      expect(replay).toMatchObject({ outcome: 'replay', batch: { id: first.outcome === 'created' && first.batch.id } });
      const conflict = await store.create(
        newBatch({ idempotency: { ...idempotency, bodyHash: 'b'.repeat(64) } }),
        [],
        noWork,
      );
      expect(conflict).toMatchObject({ outcome: 'conflict' });

      const parallelKey = { key: 'nightly-2', bodyHash: 'c'.repeat(64) };
      let enqueued = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => {
          const batch = newBatch({ idempotency: parallelKey });
          return store.create(batch, newItems(batch.id, 3), async () => {
            enqueued++;
          });
        }),
      );
      expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'replay')).toHaveLength(9);
      expect(enqueued).toBe(1);
      const ids = new Set(outcomes.map((o) => (o.outcome === 'conflict' ? o.batchId : o.batch.id)));
      expect(ids.size).toBe(1);
      const items = await storage.db
        .selectFrom('batch_items')
        .select('id')
        .where('batch_id', 'in', [...ids])
        .execute();
      expect(items).toHaveLength(3);
    });

    it('runs an item to ready (a hold until results_expire_at), hands it over once, and completes the batch once', async () => {
      const { batch, items } = await submit(2);
      const started = await markRunning(items[0]!.id);
      expect(started?.run.item.state).toBe('running');
      expect(started?.run.batch.status).toBe('running');
      expect(
        secrets
          .dataKeyBox(started!.run.dataKeySealed, batch.id)
          .open(started!.run.urlSealed, `url:${items[0]!.id}`)
          .toString(),
      ).toBe(items[0]!.url);
      // Only once: a second claim of the same item finds it running.
      expect(await markRunning(items[0]!.id)).toBeNull();
      expect((await expectConsistent(batch.id)).counts).toMatchObject({ queued: 1, running: 1 });
      expect(await reserve(items[0]!.id, started!.requestId, 'ins_a', 2)).toEqual({ ok: true });
      expect((await expectConsistent(batch.id)).credits).toEqual({ charged: 0, held: 0, reserved: 2 });
      expect(await finishReady(items[0]!.id, batch.id, started!.requestId)).toBe(true);
      // The hold is the cost (1 of the 2 reserved), owned by nobody, until the results expire.
      expect(await reservation(started!.requestId)).toMatchObject({
        state: 'reserved',
        kind: 'hold',
        holder: null,
        cost: 1,
      });
      expect(await storage.ledger.accountUsage(accountId, period)).toEqual({ used: 0, reserved: 1 });
      expect((await expectConsistent(batch.id)).credits).toEqual({ charged: 0, held: 1, reserved: 0 });
      // A finish by a holder that lost the item writes nothing.
      expect(await finishReady(items[0]!.id, batch.id, started!.requestId, 'ins_b')).toBe(false);

      const page = await store.listItems(batch.id, accountId, { limit: 10, state: 'ready' });
      expect(page).toHaveLength(1);
      expect(page[0]!.resultSealed).not.toBeNull();
      expect(await store.handover([items[0]!.id], 'poll', nowIso())).toEqual([items[0]!.id]);
      expect(await store.handover([items[0]!.id], 'poll', nowIso())).toEqual([]);
      expect(await ledgerRows(started!.requestId)).toBe(1);
      expect(await storage.ledger.accountUsage(accountId, period)).toEqual({ used: 1, reserved: 0 });
      expect((await storage.requests.get(started!.requestId, accountId))?.costUnits).toBe(1);
      // Retained (no webhook): the buffer row stays until the results expire.
      expect((await store.listItems(batch.id, accountId, { limit: 10 }))[0]!.resultSealed).not.toBeNull();

      const second = await markRunning(items[1]!.id);
      expect(
        await store.finishRun(
          items[1]!.id,
          'ins_a',
          {
            state: 'failed',
            requestId: second!.requestId,
            error: { code: 'fetch_timeout', status: 504, retryable: true },
            record: null,
          },
          workDone,
        ),
      ).toBe(true);
      const done = await expectConsistent(batch.id);
      expect(done.status).toBe('completed');
      expect(done.counts).toMatchObject({ delivered: 1, failed: 1 });
      expect(done.credits).toEqual({ charged: 1, held: 0, reserved: 0 });
      expect(await eventTypes(batch.id)).toEqual(['item.succeeded', 'item.failed', 'batch.completed']);
      const sequences = (await store.events({ accountId, batchId: batch.id, limit: 10 })).map((e) => e.sequence);
      expect(sequences).toEqual([1, 2, 3]);
      const failed = (await store.listItems(batch.id, accountId, { limit: 10, state: 'failed' }))[0]!.item;
      expect(failed).toMatchObject({ costUnits: 0, error: { code: 'fetch_timeout', status: 504, retryable: true } });
    });

    it('a finish whose queue finish fails writes nothing', async () => {
      const { batch, items } = await submit(1);
      const started = await markRunning(items[0]!.id);
      await reserve(items[0]!.id, started!.requestId);
      const outcome = {
        state: 'ready' as const,
        requestId: started!.requestId,
        costUnits: 1,
        route: 'http',
        sealResult: () => Buffer.from('x'),
        record: completedRequest({ accountId, keyId }, { requestId: started!.requestId, costUnits: 0 }),
      };
      expect(await store.finishRun(items[0]!.id, 'ins_a', outcome, async () => false)).toBe(false);
      expect((await expectConsistent(batch.id)).counts.running).toBe(1);
      expect(await reservation(started!.requestId)).toMatchObject({ kind: 'call', state: 'reserved' });
      expect(await storage.requests.get(started!.requestId, accountId)).toBeNull();
    });

    it('max_credits and the account limit refuse the reservation; the item is then skipped, free', async () => {
      const { batch, items } = await submit(3, { maxCredits: 2 });
      const a = await markRunning(items[0]!.id);
      const b = await markRunning(items[1]!.id);
      const c = await markRunning(items[2]!.id);
      expect(await reserve(items[0]!.id, a!.requestId)).toEqual({ ok: true });
      expect(await reserve(items[1]!.id, b!.requestId)).toEqual({ ok: true });
      // Both others are only reserved: they may still come back.
      expect(await reserve(items[2]!.id, c!.requestId)).toEqual({ ok: false, held: 'batch' });
      expect(await finishReady(items[0]!.id, batch.id, a!.requestId)).toBe(true);
      expect(await store.handover([items[0]!.id], 'poll', nowIso())).toHaveLength(1);
      expect(await finishReady(items[1]!.id, batch.id, b!.requestId)).toBe(true);
      expect(await reserve(items[2]!.id, c!.requestId)).toEqual({ ok: false, exhausted: 'batch' });
      expect(await reservation(c!.requestId)).toBeUndefined();
      expect(
        await store.finishRun(
          items[2]!.id,
          'ins_a',
          {
            state: 'skipped',
            requestId: null,
            error: { code: 'credits_exhausted', status: 402, retryable: false },
            record: null,
          },
          workDone,
        ),
      ).toBe(true);
      const done = await expectConsistent(batch.id);
      expect(done.counts).toMatchObject({ delivered: 1, ready: 1, skipped: 1 });
      expect(await eventTypes(batch.id)).toContain('item.skipped');

      const other = await submit(2);
      const d = await markRunning(other.items[0]!.id);
      expect(await reserve(other.items[0]!.id, d!.requestId, 'ins_a', 1, { accountLimit: 2, keyLimit: null })).toEqual({
        ok: false,
        held: 'account',
      });
      expect(await reserve(other.items[0]!.id, d!.requestId, 'ins_a', 1, { accountLimit: 3, keyLimit: 0 })).toEqual({
        ok: false,
        exhausted: 'key',
      });
      // A refusal leaves nothing reserved anywhere.
      expect(await storage.ledger.accountUsage(accountId, period)).toEqual({ used: 1, reserved: 1 });
      expect((await expectConsistent(other.batch.id)).credits.reserved).toBe(0);
    });

    it('exactly one ledger row per item when polls and webhook deliveries race (20 items in parallel)', async () => {
      const { batch, items } = await submit(20, {
        webhook: { endpointId: 'whe_race', events: [], payload: 'full' },
        retainHours: null,
      });
      for (const item of items) await toReady(item.id, batch.id);
      const due = await store.claimDue(nowIso(), 'ins_w', new Date(clock.now() + 60_000).toISOString(), 100, 100);
      expect(due.filter((d) => d.type === 'item.succeeded')).toHaveLength(20);
      const byItem = new Map(due.map((d) => [d.itemId, d]));
      const results = await Promise.all(
        items.flatMap((item) => [
          store.handover([item.id], 'poll', nowIso()).then((ids) => ids.length),
          store.handover([item.id], 'poll', nowIso()).then((ids) => ids.length),
          store.delivered(byItem.get(item.id)!.eventId, 'ins_w', true, 200, nowIso()).then((r) => (r.charged ? 1 : 0)),
        ]),
      );
      expect(results.reduce((a, b) => a + b, 0)).toBe(20);
      const rows = await storage.db
        .selectFrom('credit_ledger')
        .select(['request_id'])
        .where('account_id', '=', accountId)
        .execute();
      expect(rows).toHaveLength(20);
      expect(new Set(rows.map((r) => r.request_id)).size).toBe(20);
      const done = await expectConsistent(batch.id);
      expect(done.counts.delivered).toBe(20);
      expect(done.credits.charged).toBe(20);
      // A webhook batch without retention keeps no result after its handover to the webhook; one a poll charged stays
      // until the results expire (that page may never have reached the caller).
      const buffered = new Set(
        (
          await storage.db.selectFrom('delivery_buffer').select('item_id').where('batch_id', '=', batch.id).execute()
        ).map((row) => row.item_id),
      );
      const via = await storage.db
        .selectFrom('batch_items')
        .select(['id', 'delivered_via'])
        .where('batch_id', '=', batch.id)
        .execute();
      for (const item of via) expect(buffered.has(item.id)).toBe(item.delivered_via === 'poll');
    });

    it('reservations, finishes, handovers and requeues of one batch in parallel neither deadlock nor drift', async () => {
      const { batch, items } = await submit(30, { maxCredits: 1000 });
      const readyIds: string[] = [];
      for (const item of items.slice(0, 10)) {
        await toReady(item.id, batch.id);
        readyIds.push(item.id);
      }
      const runs = [];
      for (const item of items.slice(10, 20)) {
        const started = await markRunning(item.id);
        await reserve(item.id, started!.requestId);
        runs.push({ item, requestId: started!.requestId });
      }
      const fresh = [];
      for (const item of items.slice(20)) fresh.push({ item, started: await markRunning(item.id) });
      await Promise.all([
        ...fresh.map(({ item, started }) => reserve(item.id, started!.requestId)),
        ...runs.map(({ item, requestId }, i) =>
          i % 2 === 0
            ? finishReady(item.id, batch.id, requestId)
            : storage.db.transaction().execute((tx) => store.requeue(tx, [item.id])),
        ),
        ...readyIds.map((id) => store.handover([id], 'poll', nowIso())),
        store.handover(readyIds.slice().reverse(), 'poll', nowIso()),
      ]);
      const state = await expectConsistent(batch.id);
      expect(state.counts).toMatchObject({ delivered: 10, ready: 5, queued: 5, running: 10 });
      expect(state.credits).toEqual({ charged: 10, held: 5, reserved: 10 });
    });

    it('expiry: a ready item expires free, its hold released, and the batch key and URLs are shredded', async () => {
      const { batch, items } = await submit(2);
      const requestId = await toReady(items[0]!.id, batch.id);
      const running = await markRunning(items[1]!.id);
      await clock.advance(25 * hour);
      // Past expiry nothing is handed over, nor charged.
      expect(await store.handover([items[0]!.id], 'poll', nowIso())).toEqual([]);
      expect(await ledgerRows(requestId)).toBe(0);
      // The ledger's own sweep releases a hold once past its expires_at; the item's figures move at the store's.
      expect(await storage.ledger.releaseExpired(nowIso())).toBeGreaterThanOrEqual(1);
      expect(await store.expire(nowIso())).toBe(1);
      expect(await reservation(requestId)).toMatchObject({ state: 'released' });
      // Something still runs: the key is kept until it ends.
      expect(await store.dataKey(batch.id)).not.toBeNull();
      await store.finishRun(
        items[1]!.id,
        'ins_a',
        {
          state: 'not_found',
          requestId: running!.requestId,
          error: { code: 'not_found', status: 404, retryable: false },
          record: null,
        },
        workDone,
      );
      expect(await store.expire(nowIso())).toBe(0);
      expect(await store.dataKey(batch.id)).toBeNull();
      const urls = await storage.db
        .selectFrom('batch_items')
        .select('url_sealed')
        .where('batch_id', '=', batch.id)
        .execute();
      expect(urls.every((u) => u.url_sealed === null)).toBe(true);
      const done = await expectConsistent(batch.id);
      expect(done.counts).toMatchObject({ expired: 1, not_found: 1 });
      expect(done.credits).toEqual({ charged: 0, held: 0, reserved: 0 });
      expect(await storage.ledger.accountUsage(accountId, period)).toEqual({ used: 0, reserved: 0 });
    });

    it('holds survive the liveness sweep; a dead holder running an item is freed and the item requeued', async () => {
      const { batch, items } = await submit(2);
      const held = await toReady(items[0]!.id, batch.id);
      const started = await markRunning(items[1]!.id, 'ins_dead');
      expect(await reserve(items[1]!.id, started!.requestId, 'ins_dead')).toEqual({ ok: true });
      const future = new Date(clock.now() + hour).toISOString();
      expect(await storage.ledger.foreignHolders()).toEqual(['ins_dead']);
      expect(await storage.ledger.releaseOrphaned(future, ['ins_dead'])).toBe(1);
      expect(await reservation(held)).toMatchObject({ state: 'reserved', kind: 'hold' });
      expect(await reservation(started!.requestId)).toMatchObject({ state: 'released' });
      // The ledger's own expiry leaves a hold alone until its expires_at.
      expect(await storage.ledger.releaseExpired(future)).toBe(0);
      await storage.db.transaction().execute((tx) => store.requeue(tx, [items[1]!.id]));
      const after = await expectConsistent(batch.id);
      expect(after.counts).toMatchObject({ queued: 1, running: 0, ready: 1 });
      expect(after.credits.reserved).toBe(0);
      // It runs again, as a new attempt.
      const again = await markRunning(items[1]!.id, 'ins_b');
      expect(again?.run.item.attempts).toBe(2);
      expect(await reserve(items[1]!.id, again!.requestId, 'ins_b')).toEqual({ ok: true });
      // A retryable failure gives it back, its reservation released.
      expect(await store.retryLater(items[1]!.id, 'ins_b', workDone)).toBe(true);
      expect(await reservation(again!.requestId)).toMatchObject({ state: 'released' });
      expect((await expectConsistent(batch.id)).counts.queued).toBe(1);
    });

    it('a ready result whose reservation a sweep freed is not written; the item is given back', async () => {
      const { batch, items } = await submit(1);
      const started = await markRunning(items[0]!.id);
      await reserve(items[0]!.id, started!.requestId);
      await storage.ledger.release(started!.requestId);
      expect(await finishReady(items[0]!.id, batch.id, started!.requestId)).toBe(false);
      expect(await store.retryLater(items[0]!.id, 'ins_a', workDone)).toBe(true);
      expect((await expectConsistent(batch.id)).counts.queued).toBe(1);
    });

    it('cancel racing with markRunning: every item ends cancelled or runs, and the batch ends cancelled once', async () => {
      const { batch, items } = await submit(12);
      const [cancelled, ...runs] = await Promise.all([
        store.cancel(batch.id, accountId, async () => []),
        ...items.map((item) => markRunning(item.id)),
      ]);
      expect(cancelled).not.toBeNull();
      const started = runs.filter((r) => r !== null);
      expect(started.length + cancelled!.cancelled).toBe(12);
      let state = await expectConsistent(batch.id);
      expect(state.status).toBe(started.length > 0 ? 'cancelling' : 'cancelled');
      expect(state.sealed).toBe(true);
      for (const run of started) {
        await store.finishRun(
          run.run.item.id,
          'ins_a',
          { state: 'failed', requestId: run.requestId, error: null, record: null },
          workDone,
        );
      }
      state = await expectConsistent(batch.id);
      expect(state.status).toBe('cancelled');
      expect((await eventTypes(batch.id)).filter((t) => t === 'batch.cancelled')).toHaveLength(1);
      // The sweep shreds a cancelled batch's key.
      await store.expire(nowIso());
      expect(await store.dataKey(batch.id)).toBeNull();
      // Nothing of a cancelled batch starts again, and cancelling it again changes nothing.
      expect((await store.cancel(batch.id, accountId, async () => []))?.cancelled).toBe(0);
      expect(await store.cancel(batch.id, 'acc_other', async () => [])).toBeNull();
    });

    it('append: an unsealed batch takes items until sealed, then completes; a sealed one refuses', async () => {
      const { batch, items } = await submit(1, {
        sealed: false,
        rejected: [{ index: 1, url: 'u', code: 'invalid_url' }],
      });
      await toReady(items[0]!.id, batch.id);
      expect((await expectConsistent(batch.id)).status).toBe('running');
      const more = newItems(batch.id, 2);
      let base = -1;
      const options = { seal: false, maxItems: 5, addCostUnitsMax: 2, etaS: 4, now: nowIso() };
      const appended = await store.append(
        batch.id,
        accountId,
        more,
        [{ index: 2, url: 'v', code: 'invalid_url' }],
        options,
        async (_tx, b) => {
          base = b;
        },
      );
      expect(base).toBe(2);
      expect(appended).toMatchObject({ outcome: 'appended', rejected: [{ index: 4 }] });
      const indexes = (await store.listItems(batch.id, accountId, { limit: 10 })).map((p) => p.item.index);
      expect(indexes).toEqual([0, 2, 3]);
      expect(await store.append(batch.id, accountId, newItems(batch.id, 3), [], options, noWork)).toEqual({
        outcome: 'limit',
        total: 3,
      });
      for (const item of more) {
        const started = await markRunning(item.id);
        await store.finishRun(
          item.id,
          'ins_a',
          { state: 'failed', requestId: started!.requestId, error: null, record: null },
          workDone,
        );
      }
      expect((await expectConsistent(batch.id)).status).toBe('running');
      const sealed = await store.append(batch.id, accountId, [], [], { ...options, seal: true }, noWork);
      expect(sealed).toMatchObject({ outcome: 'appended', batch: { status: 'completed', sealed: true } });
      expect(await store.append(batch.id, accountId, [], [], options, noWork)).toMatchObject({ outcome: 'sealed' });
      expect(await store.append(batch.id, 'acc_other', [], [], options, noWork)).toEqual({ outcome: 'not_found' });
      expect((await eventTypes(batch.id)).filter((t) => t === 'batch.completed')).toHaveLength(1);
    });

    it('outbox: per-endpoint cap across instances, leases, the thin rule, and a 2xx to thin charging nothing', async () => {
      const { batch, items } = await submit(6, {
        webhook: { endpointId: 'whe_cap', events: ['item.succeeded'], payload: 'full' },
      });
      for (const item of items) await toReady(item.id, batch.id, { title: `t-${item.index}` });
      const lease = new Date(clock.now() + 60_000).toISOString();
      const a = await store.claimDue(nowIso(), 'ins_a', lease, 10, 4);
      const b = await store.claimDue(nowIso(), 'ins_b', lease, 10, 4);
      expect(a).toHaveLength(4);
      expect(b).toHaveLength(0);
      expect(a[0]!.dataKeySealed).toBeInstanceOf(Uint8Array);
      const open = (d: (typeof a)[number]) => (sealed: Uint8Array) =>
        secrets.dataKeyBox(d.dataKeySealed!, d.batchId).open(sealed, d.itemId!);
      const rendered = await store.render(a[0]!, open(a[0]!));
      expect(rendered.full).toBe(true);
      const body = JSON.parse(rendered.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(body.type).toBe('item.succeeded');
      expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/);
      expect(body.data).toMatchObject({
        batch_id: batch.id,
        item_id: a[0]!.itemId,
        cost_units: 1,
        attempts: 1,
        result: { data: { title: expect.any(String) } },
      });
      const thin = JSON.parse((await store.render(a[0]!, open(a[0]!), true)).body) as { data: Record<string, unknown> };
      expect(thin.data['result']).toBeUndefined();
      expect(thin.data['result_url']).toMatch(`/v1/batches/${batch.id}/items`);

      // Three failed full deliveries make the event thin; a 2xx to thin is not a handover.
      const target = a[0]!;
      for (let i = 0; i < 3; i++) {
        await store.failed(target.eventId, 'ins_a', { status: 500, full: true, nextAttemptAt: nowIso() });
        const again = (await store.claimDue(nowIso(), 'ins_a', lease, 10, 4)).find((d) => d.eventId === target.eventId);
        expect(again?.payload).toBe(i < 2 ? 'full' : 'thin');
      }
      expect(await store.delivered(target.eventId, 'ins_b', false, 200, nowIso())).toEqual({ charged: false });
      expect(await store.delivered(target.eventId, 'ins_a', false, 200, nowIso())).toEqual({ charged: false });
      expect((await store.get(batch.id, accountId))!.counts.ready).toBe(6);

      // A dead instance's leases come back when they run out.
      await clock.advance(61_000);
      expect(await store.releaseExpiredLeases(nowIso())).toBe(3);
      const later = await store.claimDue(nowIso(), 'ins_b', new Date(clock.now() + 60_000).toISOString(), 10, 4);
      expect(later).toHaveLength(4);
      expect(await store.delivered(later[0]!.eventId, 'ins_b', true, 200, nowIso())).toEqual({ charged: true });
      await store.failed(later[1]!.eventId, 'ins_b', { status: null, full: true, nextAttemptAt: null });
      const states = await storage.db
        .selectFrom('batch_events')
        .select('delivery_state')
        .where('id', '=', later[1]!.eventId)
        .executeTakeFirstOrThrow();
      expect(states.delivery_state).toBe('failed');
      await expectConsistent(batch.id);
    });

    it('outbox: a result of a cancelled batch, or one past its results’ expiry, goes out thin and charges nothing', async () => {
      const webhook = { endpointId: 'whe_free', events: ['item.succeeded' as const], payload: 'full' as const };
      const cancelled = await submit(1, { webhook });
      await toReady(cancelled.items[0]!.id, cancelled.batch.id, { title: 'cancelled' });
      await store.cancel(cancelled.batch.id, accountId, async () => []);
      const expiring = await submit(1, { webhook });
      await toReady(expiring.items[0]!.id, expiring.batch.id, { title: 'expiring' });
      await clock.advance(new Date(expiring.batch.resultsExpireAt).getTime() - clock.now() + 1);
      const due = await store.claimDue(nowIso(), 'ins_a', new Date(clock.now() + 60_000).toISOString(), 10, 4);
      expect(due.map((d) => d.batchId).sort()).toEqual([cancelled.batch.id, expiring.batch.id].sort());
      for (const d of due) {
        const rendered = await store.render(d, (sealed) =>
          secrets.dataKeyBox(d.dataKeySealed!, d.batchId).open(sealed, d.itemId!),
        );
        expect(rendered.full).toBe(false);
        expect((JSON.parse(rendered.body) as { data: Record<string, unknown> }).data['result']).toBeUndefined();
        expect(await store.delivered(d.eventId, 'ins_a', rendered.full, 200, nowIso())).toEqual({ charged: false });
      }
      for (const id of [cancelled.batch.id, expiring.batch.id])
        expect((await store.get(id, accountId))!.credits.charged).toBe(0);
    });

    it('a batch past its results’ expiry starts nothing: its queued items end expired, free, as they are claimed', async () => {
      const { batch, items } = await submit(2);
      await clock.advance(new Date(batch.resultsExpireAt).getTime() - clock.now());
      expect(await markRunning(items[0]!.id)).toBeNull();
      expect(await markRunning(items[1]!.id)).toBeNull();
      const after = await expectConsistent(batch.id);
      expect(after.counts).toMatchObject({ queued: 0, running: 0, expired: 2 });
      expect(after.status).toBe('completed');
      expect(after.credits).toEqual({ charged: 0, held: 0, reserved: 0 });
    });

    it('DELETE of a completed batch: ready results expire free, holds go, the key is shredded, the batch ends cancelled', async () => {
      const { batch, items } = await submit(2);
      for (const item of items) await toReady(item.id, batch.id);
      expect((await expectConsistent(batch.id)).status).toBe('completed');
      const deleted = await store.cancel(batch.id, accountId, async () => []);
      expect(deleted?.batch.status).toBe('cancelled');
      const after = await expectConsistent(batch.id);
      expect(after.counts).toMatchObject({ ready: 0, expired: 2 });
      expect(after.credits).toEqual({ charged: 0, held: 0, reserved: 0 });
      expect(await store.dataKey(batch.id)).toBeNull();
      expect(await store.handover([items[0]!.id], 'poll', nowIso())).toEqual([]);
      const buffered = await storage.db
        .selectFrom('delivery_buffer')
        .select('item_id')
        .where('batch_id', '=', batch.id)
        .execute();
      expect(buffered).toHaveLength(0);
    });

    it('an open (unsealed) batch past its results’ expiry is sealed by the sweep and completes', async () => {
      const { batch, items } = await submit(1, { sealed: false });
      await toReady(items[0]!.id, batch.id);
      expect((await expectConsistent(batch.id)).status).toBe('running');
      await clock.advance(new Date(batch.resultsExpireAt).getTime() - clock.now() + 1);
      await store.expire(nowIso());
      const after = await expectConsistent(batch.id);
      expect(after.sealed).toBe(true);
      expect(after.status).toBe('completed');
      expect(after.counts).toMatchObject({ ready: 0, expired: 1 });
    });

    it('outbox: parallel claims by several instances never pass the per-endpoint cap nor claim one event twice', async () => {
      const { batch, items } = await submit(12, { webhook: { endpointId: 'whe_par', events: [], payload: 'full' } });
      for (const item of items) {
        const started = await markRunning(item.id);
        await store.finishRun(
          item.id,
          'ins_a',
          {
            state: 'failed',
            requestId: started!.requestId,
            error: { code: 'fetch_failed', status: 502, retryable: true },
            record: null,
          },
          workDone,
        );
      }
      const lease = new Date(clock.now() + 60_000).toISOString();
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.claimDue(nowIso(), `ins_${i}`, lease, 10, 4)),
      );
      const all = claims.flat();
      expect(all).toHaveLength(4);
      expect(new Set(all.map((d) => d.eventId)).size).toBe(4);
      const failure = all.find((d) => d.type === 'item.failed')!;
      const body = JSON.parse((await store.render(failure, () => Buffer.from('{}'))).body) as {
        data: Record<string, unknown>;
      };
      expect(body.data).toMatchObject({ error: { code: 'fetch_failed', status: 502, retryable: true }, cost_units: 0 });
      expect(body.data['result']).toBeUndefined();
      // The rest follow as the leases end: 13 events in all (12 items and batch.completed), each delivered once.
      const seen = new Set<string>();
      for (let round = 0; round < 5; round++) {
        const due = round === 0 ? all : await store.claimDue(nowIso(), 'ins_a', lease, 10, 4);
        for (const d of due) {
          expect(seen.has(d.eventId)).toBe(false);
          seen.add(d.eventId);
          const rendered = await store.render(d, () => Buffer.from('{}'));
          expect(rendered.full).toBe(false);
          await store.delivered(
            d.eventId,
            round === 0 ? `ins_${claims.findIndex((c) => c.includes(d))}` : 'ins_a',
            false,
            204,
            nowIso(),
          );
        }
      }
      expect(seen.size).toBe(13);
      await untilEventsListable(storage.db);
      const completed = (
        await store.events({ accountId, batchId: batch.id, types: ['batch.completed'], limit: 1 })
      )[0]!;
      expect(seen.has(completed.id)).toBe(true);
    });

    it('events: only the webhook’s types are pending; GET /v1/events pages by position; purged after 72 h', async () => {
      const { batch, items } = await submit(2, {
        webhook: { endpointId: 'whe_ev', events: ['item.failed'], payload: 'thin' },
      });
      await toReady(items[0]!.id, batch.id);
      const started = await markRunning(items[1]!.id);
      await store.finishRun(
        items[1]!.id,
        'ins_a',
        { state: 'failed', requestId: started!.requestId, error: null, record: null },
        workDone,
      );
      const rows = await storage.db
        .selectFrom('batch_events')
        .select(['type', 'delivery_state'])
        .where('batch_id', '=', batch.id)
        .orderBy('sequence')
        .execute();
      expect(rows).toEqual([
        { type: 'item.succeeded', delivery_state: 'none' },
        { type: 'item.failed', delivery_state: 'pending' },
        { type: 'batch.completed', delivery_state: 'none' },
      ]);
      await untilEventsListable(storage.db);
      const first = await store.events({ accountId, limit: 1 });
      const rest = await store.events({ accountId, after: { position: first[0]!.position }, limit: 10 });
      expect([...first, ...rest].map((e) => e.sequence)).toEqual([1, 2, 3]);
      // A plain event id (a next_after from before migration 0012) still starts after that event.
      expect(await store.events({ accountId, after: { id: first[0]!.id }, limit: 10 })).toEqual(rest);
      expect(await store.events({ accountId, types: ['item.failed'], limit: 10 })).toHaveLength(1);
      expect(await store.events({ accountId: 'acc_other', limit: 10 })).toEqual([]);
      await clock.advance(73 * hour);
      expect(await store.purgeEvents(nowIso())).toBe(3);
      expect(await store.events({ accountId, limit: 10 })).toEqual([]);
    });

    /** An event row as moveBatch writes it, with the id (and so the wall clock) the test chooses. */
    async function insertEvent(db: Kysely<KumoDatabase>, batchId: string, id: string, sequence: number) {
      await db
        .insertInto('batch_events')
        .values({
          id,
          account_id: accountId,
          batch_id: batchId,
          item_id: null,
          type: 'item.succeeded',
          sequence,
          created_at: nowIso(),
          expires_at: new Date(clock.now() + 72 * hour).toISOString(),
          endpoint_id: null,
          delivery_state: 'none',
          next_attempt_at: null,
        })
        .execute();
    }

    async function listedIds(after?: EventPosition): Promise<{ ids: string[]; last: EventPosition | undefined }> {
      const page = await store.events({ accountId, ...(after ? { after: { position: after } } : {}), limit: 100 });
      return { ids: page.map((e) => e.id), last: page.at(-1)?.position ?? after };
    }

    it('events: one committed after a page was listed comes after it, whatever its id; a purge reuses no position', async () => {
      // Ids come from each process's wall clock: another instance, or a clock stepped back, makes a smaller one later.
      const { batch } = await submit(1);
      const t = clock.now();
      const late = newId('evt', t + 2_000);
      await insertEvent(storage.db, batch.id, late, 101);
      await untilEventsListable(storage.db);
      const first = await listedIds();
      expect(first.ids).toEqual([late]);
      const early = newId('evt', t + 1_000);
      expect(early < late).toBe(true);
      await insertEvent(storage.db, batch.id, early, 102);
      await untilEventsListable(storage.db);
      const second = await listedIds(first.last);
      expect(second.ids).toEqual([early]);
      // Every event purged (a quiet 72 h): the next one, with a still smaller id, is after the last position too.
      await clock.advance(73 * hour);
      expect(await store.purgeEvents(nowIso())).toBe(2);
      const earliest = newId('evt', t);
      await insertEvent(storage.db, batch.id, earliest, 103);
      await untilEventsListable(storage.db);
      expect((await listedIds(second.last)).ids).toEqual([earliest]);
    });

    it('events (PostgreSQL): a transaction that took an earlier id and commits late is not skipped', async ({
      skip,
    }) => {
      if (!(storage.db.getExecutor().adapter instanceof PostgresAdapter)) skip();
      const { batch } = await submit(1);
      const t = clock.now();
      const before = newId('evt', t);
      await insertEvent(storage.db, batch.id, before, 100);
      await untilEventsListable(storage.db);
      const start = await listedIds();
      expect(start.ids).toEqual([before]);

      const early = newId('evt', t + 1_000);
      const late = newId('evt', t + 2_000);
      let inserted!: () => void;
      const earlyWritten = new Promise<void>((resolve) => (inserted = resolve));
      let commit!: () => void;
      const commitEarly = new Promise<void>((resolve) => (commit = resolve));
      const slow = storage.db.transaction().execute(async (tx) => {
        await insertEvent(tx, batch.id, early, 101);
        inserted();
        await commitEarly;
      });
      let during: Awaited<ReturnType<typeof listedIds>>;
      try {
        await earlyWritten;
        // Another transaction, begun after, writes a later id and commits while the first is still open.
        await insertEvent(storage.db, batch.id, late, 102);
        expect((await storage.db.selectFrom('batch_events').select('id').where('id', '=', late).execute()).length).toBe(
          1,
        );
        // Neither is listed yet: handing out `late` (a position past it) now would let `early` be skipped for ever.
        during = await listedIds(start.last);
        expect(during.ids).toEqual([]);
        expect(during.last).toEqual(start.last);
      } finally {
        // Committed even when a check failed, so the test ends instead of waiting on its own open transaction.
        commit();
        await slow;
      }
      await untilEventsListable(storage.db);
      const after = await listedIds(during.last);
      expect(after.ids).toEqual([early, late]);
      expect((await listedIds(after.last)).ids).toEqual([]);
    });

    it('counts equal the items’ states after any sequence of operations', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.tuple(
              fc.constantFrom('run', 'ready', 'fail', 'retry', 'requeue', 'handover', 'cancel', 'expire'),
              fc.nat(4),
            ),
            {
              minLength: 1,
              maxLength: 25,
            },
          ),
          async (ops) => {
            const { batch, items } = await submit(5, { webhook: { endpointId: 'whe_p', events: [], payload: 'full' } });
            const attempt = new Map<string, string>();
            for (const [op, i] of ops) {
              const item = items[i]!;
              if (op === 'run') {
                const started = await markRunning(item.id);
                if (started) {
                  attempt.set(item.id, started.requestId);
                  await reserve(item.id, started.requestId);
                }
              } else if (op === 'ready' && attempt.has(item.id)) {
                await finishReady(item.id, batch.id, attempt.get(item.id)!);
              } else if (op === 'fail' && attempt.has(item.id)) {
                await store.finishRun(
                  item.id,
                  'ins_a',
                  { state: 'failed', requestId: attempt.get(item.id)!, error: null, record: null },
                  workDone,
                );
              } else if (op === 'retry') {
                await store.retryLater(item.id, 'ins_a', workDone);
              } else if (op === 'requeue') {
                await storage.db.transaction().execute((tx) => store.requeue(tx, [item.id]));
              } else if (op === 'handover') {
                await store.handover([item.id], 'poll', nowIso());
              } else if (op === 'cancel') {
                await store.cancel(batch.id, accountId, async () => []);
              } else if (op === 'expire') {
                await clock.advance(25 * hour);
                await store.expire(nowIso());
              }
              await expectConsistent(batch.id);
            }
            const events = await eventTypes(batch.id);
            expect(events.filter((t) => t.startsWith('batch.')).length).toBeLessThanOrEqual(1);
          },
        ),
        { numRuns: 15 },
      );
    });

    it('storage audit: a marker in a result or a URL is never in the database file in plaintext', async ({ skip }) => {
      if (!backend.file) skip();
      const marker = `KUMO-MARKER-${randomBytes(6).toString('hex')}`;
      const batch = newBatch();
      const items = newItems(batch.id, 2, (i) => `https://example.jp/item/${i}?apikey=${marker}`).map((item) => ({
        ...item,
        url: `https://example.jp/item/${item.index}?apikey=REDACTED`,
      }));
      expect((await store.create(batch, items, noWork)).outcome).toBe('created');
      await toReady(items[0]!.id, batch.id, { title: `商品 ${marker}` });
      await sql`PRAGMA wal_checkpoint(FULL)`.execute(storage.db);
      for (const path of [backend.file!, `${backend.file!}-wal`]) {
        const bytes = await readFile(path).catch(() => Buffer.alloc(0));
        expect(bytes.includes(Buffer.from(marker)), path).toBe(false);
      }
      // It is there, sealed: the result opens with the batch's key.
      const page = await store.listItems(batch.id, accountId, { limit: 1 });
      const box = secrets.dataKeyBox((await store.dataKey(batch.id))!, batch.id);
      expect(box.open(page[0]!.resultSealed!, items[0]!.id).toString()).toContain(marker);
    });
  });
}
