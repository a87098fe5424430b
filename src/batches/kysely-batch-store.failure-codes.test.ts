// KyselyBatchStore.failureCodes (the console's failures by code) on SQLite and PostgreSQL: failed and skipped items
// grouped by state and error code, largest first, only the account's own batch, other states and batches left out.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import { newId } from '../accounts/ids.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';
import { KyselyBatchStore } from './kysely-batch-store.js';
import type { NewBatch, NewBatchItem } from './batch-store.js';

function newBatch(id: string, accountId: string, keyId: string): NewBatch {
  return {
    id,
    accountId,
    keyId,
    sealed: true,
    params: {},
    webhook: null,
    retainHours: null,
    resultsExpireAt: '2026-11-29T03:00:00.000Z',
    maxCredits: null,
    estimate: { costUnitsMax: 12, etaS: 10 },
    rejected: [],
    dataKeySealed: randomBytes(60),
    createdAt: '2026-11-28T03:00:00.000Z',
  };
}

function items(n: number): NewBatchItem[] {
  return Array.from({ length: n }, (_, index) => ({
    id: newId('itm'),
    index,
    ref: null,
    url: `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${index}`,
    urlSealed: randomBytes(40),
    host: 'www.ikebe-gakki.com',
    siteId: 'ikebe_gakki',
    pageType: 'item',
    route: 'http',
    params: null,
    costMax: 1,
  }));
}

function suite(name: string, open: () => Promise<{ storage: KyselyStorage; done: () => Promise<void> }>) {
  describe(`KyselyBatchStore.failureCodes on ${name}`, () => {
    let storage: KyselyStorage;
    let done: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, done } = await open());
      await storage.migrate();
    });
    afterAll(async () => {
      await storage?.close();
      await done?.();
    });

    it('counts failed and skipped items by state and code, largest first, for the owner only', async () => {
      const accounts = new Accounts(storage);
      const owner = await accounts.createKey({ plan: 'growth' });
      const other = await accounts.createKey({ plan: 'growth' });
      const store = new KyselyBatchStore(storage);
      const mine = items(12);
      const theirs = items(3);
      const [a, b] = [newId('bat'), newId('bat')];
      expect((await store.create(newBatch(a, owner.accountId, owner.keyId), mine, async () => {})).outcome).toBe(
        'created',
      );
      await store.create(newBatch(b, other.accountId, other.keyId), theirs, async () => {});
      // The end states as the dispatcher leaves them (its transitions are the contract suite's): set directly here.
      const end = async (ids: string[], state: string, code: string | null) =>
        storage.db
          .updateTable('batch_items')
          .set({ state: state as never, error_code: code })
          .where('id', 'in', ids)
          .execute();
      const id = (i: number) => mine[i]!.id;
      await end([id(0), id(1), id(2)], 'failed', 'fetch_timeout');
      await end([id(3)], 'failed', 'target_blocked');
      await end([id(4), id(5)], 'skipped', 'credits_exhausted');
      await end([id(6)], 'not_found', 'page_not_found_on_site');
      await end([id(7)], 'delivered', null);
      await end(
        theirs.map((x) => x.id),
        'failed',
        'fetch_failed',
      );

      expect(await store.failureCodes(a, owner.accountId)).toEqual([
        { state: 'failed', code: 'fetch_timeout', count: 3 },
        { state: 'skipped', code: 'credits_exhausted', count: 2 },
        { state: 'failed', code: 'target_blocked', count: 1 },
      ]);
      // Another account asking for this batch, or a batch with none: nothing.
      expect(await store.failureCodes(a, other.accountId)).toEqual([]);
      expect(await store.failureCodes(b, owner.accountId)).toEqual([]);
      expect(await store.failureCodes(b, other.accountId)).toEqual([
        { state: 'failed', code: 'fetch_failed', count: 3 },
      ]);
    });
  });
}

suite('SQLite', async () => ({ storage: await createSqliteStorage({ path: ':memory:' }), done: async () => {} }));

let scratch: ScratchDatabase | undefined;
suite('PostgreSQL', async () => {
  scratch = await createScratchDatabase('kumo_failure_codes');
  return { storage: await createPostgresStorage({ url: scratch.url, poolSize: 2 }), done: () => scratch!.drop() };
});
