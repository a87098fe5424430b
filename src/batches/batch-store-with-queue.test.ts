// The batch store inside the SQLite work queue's transactions: claim → markRunning, finish → finishRun, cancel and the liveness sweep.
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { ManualClock } from '../time/clock.js';
import { completedRequest } from '../../test/support/request-records.js';
import { KyselyBatchStore } from './kysely-batch-store.js';
import { SqliteWorkQueue } from './sqlite-work-queue.js';
import type { NewBatchItem } from './batch-store.js';

describe('KyselyBatchStore with SqliteWorkQueue', () => {
  let dir: string;
  let storage: KyselyStorage;
  let store: KyselyBatchStore;
  let queue: SqliteWorkQueue;
  let clock: ManualClock;
  const accountId = newId('acc');
  const keyId = newId('key');
  const secrets = new AesGcmSecrets(randomBytes(32));
  const host = 'shop.example.jp';

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kumo-batch-queue-'));
    storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
    await storage.migrate();
    clock = new ManualClock(Date.now());
    store = new KyselyBatchStore(storage, { clock });
    queue = new SqliteWorkQueue({ db: storage.db, clock });
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
    await rm(dir, { recursive: true, force: true });
  });

  const now = () => new Date(clock.now()).toISOString();

  async function submit(n: number) {
    const id = newId('bat');
    const { box, sealed } = secrets.newDataKey(id);
    const items: NewBatchItem[] = Array.from({ length: n }, (_, index) => {
      const itemId = newId('itm');
      const url = `https://${host}/item/${index}`;
      return {
        id: itemId,
        index,
        ref: null,
        url,
        urlSealed: box.seal(url, `url:${itemId}`),
        host,
        siteId: 'ikebe_gakki',
        pageType: 'item',
        route: 'http',
        params: null,
        costMax: 1,
      };
    });
    const outcome = await store.create(
      {
        id,
        accountId,
        keyId,
        params: {},
        webhook: null,
        retainHours: 24,
        resultsExpireAt: new Date(clock.now() + 86_400_000).toISOString(),
        maxCredits: null,
        estimate: { costUnitsMax: n, etaS: n },
        rejected: [],
        dataKeySealed: sealed,
        createdAt: now(),
        sealed: true,
      },
      items,
      (tx) =>
        queue.enqueue(
          tx,
          items.map((item) => ({ id: item.id, groupId: id, accountId, host, order: item.index })),
        ),
    );
    return { id, box, items, outcome };
  }

  async function claim(holder: string) {
    const requestId = newId('req');
    const work = await queue.claim(host, holder, {
      onClaimed: async (tx, claimed) => (await store.markRunning(tx, claimed.id, holder, requestId, now())) !== null,
    });
    if (!work) return null;
    const reserved = await store.reserve(work.id, holder, {
      requestId,
      period: '2026-11',
      cost: 1,
      accountLimit: 1000,
      keyLimit: null,
      expiresAt: new Date(clock.now() + 300_000).toISOString(),
    });
    expect(reserved).toEqual({ ok: true });
    return { work, requestId };
  }

  it('runs every item through claim, reserve and finish; the batch completes and the queue empties', async () => {
    const { id, box } = await submit(4);
    for (let i = 0; i < 4; i++) {
      const claimed = await claim('ins_a');
      expect(claimed).not.toBeNull();
      const { work, requestId } = claimed!;
      const finished = await store.finishRun(
        work.id,
        'ins_a',
        {
          state: 'ready',
          requestId,
          costUnits: 1,
          route: 'http',
          sealResult: () => box.seal('{"data":{}}', work.id),
          record: completedRequest({ accountId, keyId }, { requestId, costUnits: 0 }),
        },
        (tx) => queue.finish(tx, work.id, 'ins_a'),
      );
      expect(finished).toBe(true);
    }
    expect(await queue.claim(host, 'ins_a')).toBeNull();
    expect(await queue.lanesWithWork()).toEqual([]);
    const batch = await store.get(id, accountId);
    expect(batch).toMatchObject({ status: 'completed', counts: { ready: 4 }, credits: { held: 4, reserved: 0 } });
  });

  it('a dead instance’s running item goes back to the queue with its reservation freed, and runs again', async () => {
    const { id } = await submit(2);
    const dead = await claim('ins_dead');
    const orphaned = await queue.releaseOrphaned('ins_a', now(), ['ins_dead'], (tx, ids) => store.requeue(tx, ids));
    expect(orphaned).toEqual([dead!.work.id]);
    expect(await storage.ledger.reservationState(dead!.requestId)).toBe('released');
    expect((await store.get(id, accountId))!.counts).toMatchObject({ queued: 2, running: 0 });
    const again = await claim('ins_a');
    expect(again!.work.id).toBe(dead!.work.id);
    expect(again!.work.attempts).toBe(2);
  });

  it('cancel removes the queued work with the items; a running item finishes and the batch ends cancelled', async () => {
    const { id } = await submit(3);
    const running = await claim('ins_a');
    const cancelled = await store.cancel(id, accountId, (tx) => queue.cancel(tx, id));
    expect(cancelled).toMatchObject({ cancelled: 2, batch: { status: 'cancelling' } });
    expect(await queue.depth(host)).toBe(0);
    expect(await queue.claim(host, 'ins_a')).toBeNull();
    const done = await store.finishRun(
      running!.work.id,
      'ins_a',
      { state: 'failed', requestId: running!.requestId, error: null, record: null },
      (tx) => queue.finish(tx, running!.work.id, 'ins_a'),
    );
    expect(done).toBe(true);
    expect((await store.get(id, accountId))!.status).toBe('cancelled');
    expect(await store.events({ accountId, batchId: id, limit: 10 })).toMatchObject([
      { type: 'item.failed' },
      { type: 'batch.cancelled' },
    ]);
  });
});
