// The WorkQueue of the embedded default: Kysely tables (migration 0011_work_queue) in Kumo's SQLite file.
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import type { HoldTransaction } from '../storage/kysely/kysely-credit-ledger.js';
import { toIso } from '../storage/kysely/columns.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { ClaimOptions, ClaimedWork, LaneWithWork, NewWork, Tx, WorkQueue } from './work-queue.js';
import { preparedFor } from '../storage/kysely/prepared.js';
import { addQueued, depth, emptied, lanesWithWork, laneCounts, laneInTurn, served } from './work-lanes.js';

export interface SqliteWorkQueueOptions {
  /** The storage's Kysely (`KyselyStorage.db` of createSqliteStorage). */
  db: Kysely<KumoDatabase>;
  /** Stamps claims (a claim whose holder left no heartbeat row is orphaned once older than `staleBefore`). */
  clock?: Clock;
  /**
   * How claims and releases run their own transaction; default a plain (durable) one. `holdWithoutFsync` is safe
   * here too: a claim lost to a power cut is lost with the item's running state written in the same transaction.
   */
  transaction?: HoldTransaction;
}

// The claim's hot queries, compiled once (storage/kysely/prepared.ts).
const nextQueued = (tx: Tx) =>
  preparedFor<{ id: string; group_id: string; attempts: number }, [string, string]>(
    tx,
    'sqlite-work-queue:next',
    2,
    (host: string, accountId: string) =>
      tx
        .selectFrom('work_queue')
        .select(['id', 'group_id', 'attempts'])
        .where('host', '=', host)
        .where('account_id', '=', accountId)
        .where('state', '=', 'queued')
        .orderBy('item_order')
        .orderBy('id')
        .limit(1),
  );
const claimRow = (tx: Tx) =>
  preparedFor<never, [string, string, string]>(
    tx,
    'sqlite-work-queue:claim',
    3,
    (holder: string, at: string, id: string) =>
      tx
        .updateTable('work_queue')
        .set((eb) => ({ state: 'claimed', holder, claimed_at: at, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id),
  );
const finishRow = (tx: Tx) =>
  preparedFor<never, [string, string]>(tx, 'sqlite-work-queue:finish', 2, (id: string, holder: string) =>
    tx.deleteFrom('work_queue').where('id', '=', id).where('holder', '=', holder).where('state', '=', 'claimed'),
  );

/** Rows per INSERT: 7 parameters each, well under SQLite's limit of 32,766. */
const insertChunk = 1_000;

/** Undoes a claim whose onClaimed said no; never leaves this module. */
class ClaimRefused extends Error {}

export class SqliteWorkQueue implements WorkQueue {
  readonly #db: Kysely<KumoDatabase>;
  readonly #clock: Clock;
  readonly #transaction: HoldTransaction;

  constructor(options: SqliteWorkQueueOptions) {
    this.#db = options.db;
    this.#clock = options.clock ?? systemClock;
    this.#transaction = options.transaction ?? ((db, body) => db.transaction().execute(body));
  }

  /** The tables are Kumo's own migration's. */
  async start(): Promise<void> {}

  async enqueue(tx: Tx, work: readonly NewWork[]): Promise<void> {
    for (let i = 0; i < work.length; i += insertChunk) {
      await tx
        .insertInto('work_queue')
        .values(
          work.slice(i, i + insertChunk).map((w) => ({
            id: w.id,
            group_id: w.groupId,
            account_id: w.accountId,
            host: w.host,
            item_order: w.order,
            state: 'queued' as const,
            holder: null,
          })),
        )
        .execute();
    }
    await addQueued(tx, laneCounts(work).values());
  }

  async claim(host: string, holder: string, options: ClaimOptions = {}): Promise<ClaimedWork | null> {
    const skip = options.skipAccounts ?? [];
    const claimedAt = new Date(this.#clock.now()).toISOString();
    try {
      return await this.#transaction(this.#db, async (tx) => {
        for (;;) {
          const accountId = await laneInTurn(tx, host, skip, 'none');
          if (accountId === null) return null;
          const item = await nextQueued(tx).first(tx, host, accountId);
          if (!item) {
            await emptied(tx, host, accountId);
            continue;
          }
          await claimRow(tx).execute(tx, holder, claimedAt, item.id);
          await served(tx, host, accountId);
          const work: ClaimedWork = {
            id: item.id,
            groupId: item.group_id,
            accountId,
            host,
            attempts: item.attempts + 1,
          };
          if (options.onClaimed && !(await options.onClaimed(tx, work))) throw new ClaimRefused();
          return work;
        }
      });
    } catch (error) {
      if (error instanceof ClaimRefused) return null;
      throw error;
    }
  }

  lanesWithWork(): Promise<LaneWithWork[]> {
    return lanesWithWork(this.#db);
  }

  depth(host: string): Promise<number> {
    return depth(this.#db, host);
  }

  async finish(tx: Tx, id: string, holder: string): Promise<boolean> {
    return (await finishRow(tx).changed(tx, id, holder)) > 0;
  }

  async heldBy(holder: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('work_queue')
      .select('id')
      .where('state', '=', 'claimed')
      .where('holder', '=', holder)
      .execute();
    return rows.map((row) => row.id);
  }

  async giveBack(tx: Tx, id: string, holder: string): Promise<boolean> {
    const row = await tx
      .updateTable('work_queue')
      .set({ state: 'queued', holder: null, claimed_at: null })
      .where('id', '=', id)
      .where('holder', '=', holder)
      .where('state', '=', 'claimed')
      .returning(['host', 'account_id'])
      .executeTakeFirst();
    if (!row) return false;
    await addQueued(tx, [{ host: row.host, accountId: row.account_id, count: 1 }]);
    return true;
  }

  async cancel(tx: Tx, groupId: string): Promise<string[]> {
    const rows = await tx
      .deleteFrom('work_queue')
      .where('group_id', '=', groupId)
      .where('state', '=', 'queued')
      .returning(['id', 'host', 'account_id'])
      .execute();
    const counts = laneCounts(rows.map((row) => ({ host: row.host, accountId: row.account_id })));
    await addQueued(
      tx,
      [...counts.values()].map((lane) => ({ ...lane, count: -lane.count })),
    );
    return rows.map((row) => row.id);
  }

  async releaseOrphaned(
    self: string,
    staleBefore: string,
    deadHolders: readonly string[],
    onRequeued: (tx: Tx, ids: readonly string[]) => Promise<void>,
  ): Promise<string[]> {
    const stale = toIso(staleBefore);
    const dead = deadHolders.filter((holder) => holder !== self);
    return this.#transaction(this.#db, async (tx) => {
      const orphans = await tx
        .selectFrom('work_queue as q')
        .leftJoin('instances as i', 'i.id', 'q.holder')
        .select(['q.id', 'q.host', 'q.account_id'])
        .where('q.state', '=', 'claimed')
        .where('q.holder', '!=', self)
        .where((eb) =>
          eb.or([
            eb('i.heartbeat_at', '<', stale),
            ...(dead.length > 0 ? [eb('q.holder', 'in', dead)] : []),
            // No heartbeat row (the ledger's sweep deletes a dead instance's row once it holds no credits): only once
            // old enough that a live holder would have beaten by now.
            eb.and([eb('i.id', 'is', null), eb('q.claimed_at', '<', stale)]),
          ]),
        )
        .execute();
      if (orphans.length === 0) return [];
      const ids = orphans.map((row) => row.id);
      for (let i = 0; i < ids.length; i += insertChunk) {
        await tx
          .updateTable('work_queue')
          .set({ state: 'queued', holder: null, claimed_at: null })
          .where('id', 'in', ids.slice(i, i + insertChunk))
          .where('state', '=', 'claimed')
          .execute();
      }
      await addQueued(tx, laneCounts(orphans.map((row) => ({ host: row.host, accountId: row.account_id }))).values());
      await onRequeued(tx, ids);
      return ids;
    });
  }

  /** The storage owns the connection. */
  async close(): Promise<void> {}
}
