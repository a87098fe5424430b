// The WorkQueue of shared mode: batch items are pg-boss jobs in Kumo's own PostgreSQL, fetched and settled inside Kumo's
// Kysely transactions; fairness between accounts (lanes, round robin) and liveness (which instance holds what) are
// Kumo's, on top (docs/decisions/0022-work-queue-on-pg-boss.md).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PgBoss, fromKysely } from 'pg-boss';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { toIso } from '../storage/kysely/columns.js';
import { commitWithoutWaiting } from '../storage/postgres/postgres-storage.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { ClaimOptions, ClaimedWork, LaneWithWork, NewWork, Tx, WorkQueue } from './work-queue.js';
import {
  addQueued,
  depth,
  emptied,
  lanesWithWork,
  laneCounts,
  laneInTurn,
  served,
  type LaneCount,
} from './work-lanes.js';

export interface PgBossWorkQueueOptions {
  /** The storage's Kysely (`KyselyStorage.db` of createPostgresStorage): every item change runs in its transactions. */
  db: Kysely<KumoDatabase>;
  /** The same database, for pg-boss's own small pool (its schema install at start, queue creation, its queue cache). */
  url: string;
  /** pg-boss's schema; default `pgboss`. */
  schema?: string;
  /** Stamps claims (a claim whose holder left no heartbeat row is orphaned once older than `staleBefore`). */
  clock?: Clock;
  /** pg-boss's `error` events (a failed background query); without a listener they would end the process. */
  onError?: (error: Error) => void;
}

/** The job's data: only ids (DESIGN §5: the item's URL and params stay in Kumo's tables). */
interface JobData {
  id: string;
  groupId: string;
}

/** Jobs per INSERT (pg-boss inserts a JSON array in one statement). */
const insertChunk = 5_000;
/** findJobs' page (its maximum is 100,000). */
const findPage = 10_000;

/**
 * Every lane's pg-boss queue. A job goes back to `retry` when given back or orphaned (pg-boss's `fail`), which needs
 * retries left: the dispatcher counts attempts itself. Expiry and retention belong to pg-boss's maintenance, which
 * Kumo does not run (supervise: false): a dead holder's item comes back through releaseOrphaned instead.
 */
const laneQueueOptions = { retryLimit: 1_000_000, retryDelay: 0, retryBackoff: false } as const;

/** pg-boss's timers (its queue cache refresh, its work-in-progress report) must not keep a CLI or a test alive. */
const unrefClock = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (fn: () => void, ms: number) => setInterval(fn, ms).unref(),
  clearInterval: (handle: unknown) => clearInterval(handle as NodeJS.Timeout),
};

/** Undoes a claim whose onClaimed said no; never leaves this module. */
class ClaimRefused extends Error {}

/** The pg-boss queue of one lane: a name pg-boss accepts (letters, digits, `_-./`) whatever the host and account. */
export function laneQueue(host: string, accountId: string): string {
  return `kumo-work.${createHash('sha256').update(`${host}\u0000${accountId}`).digest('hex').slice(0, 40)}`;
}

export class PgBossWorkQueue implements WorkQueue {
  readonly #db: Kysely<KumoDatabase>;
  readonly #boss: PgBoss;
  readonly #clock: Clock;
  /** Lane queues known to exist (created here, or found by pg-boss). */
  readonly #queues = new Set<string>();
  #closed: Promise<void> | null = null;

  constructor(options: PgBossWorkQueueOptions) {
    this.#db = options.db;
    this.#clock = options.clock ?? systemClock;
    this.#boss = new PgBoss({
      connectionString: options.url,
      schema: options.schema ?? 'pgboss',
      application_name: 'kumo-work-queue',
      max: 2,
      // Kumo runs no pg-boss maintenance, cron or instance registry: finished jobs are deleted in the transaction
      // that finishes them, and liveness is Kumo's. What is left of pg-boss's timers is unref'd (unrefClock).
      supervise: false,
      schedule: false,
      registerInstance: false,
      migrate: true,
      createSchema: true,
      openTelemetry: { enabled: false },
      clock: unrefClock,
    });
    const onError = options.onError ?? (() => undefined);
    this.#boss.on('error', (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
    // Its warnings (slow queries, large queues) are about its own maintenance, which is off here.
    this.#boss.on('warning', () => undefined);
  }

  /** Installs (or migrates) pg-boss's schema; after Kumo's migrations, which made the lanes. */
  async start(): Promise<void> {
    await this.#boss.start();
  }

  async #ensureQueue(name: string): Promise<void> {
    if (this.#queues.has(name)) return;
    // Outside the caller's transaction (pg-boss's pool): a lane queue left by a rolled-back enqueue is empty and
    // harmless. create_queue is idempotent.
    await this.#boss.createQueue(name, laneQueueOptions);
    this.#queues.add(name);
  }

  async enqueue(tx: Tx, work: readonly NewWork[]): Promise<void> {
    const lanes = new Map<string, { lane: LaneCount; work: NewWork[] }>();
    for (const w of work) {
      const name = laneQueue(w.host, w.accountId);
      const entry = lanes.get(name);
      if (entry) {
        entry.work.push(w);
        entry.lane.count++;
      } else lanes.set(name, { lane: { host: w.host, accountId: w.accountId, count: 1 }, work: [w] });
    }
    const db = fromKysely(tx);
    for (const [name, { work: laneWork }] of lanes) {
      await this.#ensureQueue(name);
      for (let i = 0; i < laneWork.length; i += insertChunk) {
        // pg-boss fetches by priority (highest first), then creation: the account's lowest `order` runs first.
        const jobs = laneWork.slice(i, i + insertChunk).map((w) => ({
          data: { id: w.id, groupId: w.groupId } satisfies JobData,
          priority: -w.order,
        }));
        await this.#boss.insert(name, jobs, { db });
      }
    }
    const groupLanes = new Map<string, { group_id: string; host: string; account_id: string }>();
    for (const w of work) {
      groupLanes.set(`${w.groupId}\u0000${w.host}\u0000${w.accountId}`, {
        group_id: w.groupId,
        host: w.host,
        account_id: w.accountId,
      });
    }
    if (groupLanes.size > 0) {
      await tx
        .insertInto('work_group_lanes')
        .values([...groupLanes.values()])
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await addQueued(
      tx,
      [...lanes.values()].map((entry) => entry.lane),
    );
  }

  /**
   * Picks the lane in turn and locks its row: a lane another claim holds is passed over (concurrent claimers serve
   * different accounts); when every lane with work is held, waits for the first in turn.
   */
  async #lockLane(tx: Tx, host: string, skip: readonly string[]): Promise<string | null> {
    for (;;) {
      const free = await laneInTurn(tx, host, skip, 'skip-locked');
      if (free !== null) return free;
      const first = await laneInTurn(tx, host, skip, 'none');
      if (first === null) return null;
      const locked = await tx
        .selectFrom('work_lanes')
        .select('queued')
        .where('host', '=', host)
        .where('account_id', '=', first)
        .forUpdate()
        .executeTakeFirst();
      if (locked && locked.queued > 0) return first;
    }
  }

  async claim(host: string, holder: string, options: ClaimOptions = {}): Promise<ClaimedWork | null> {
    const skip = options.skipAccounts ?? [];
    const claimedAt = new Date(this.#clock.now()).toISOString();
    try {
      // The claim commits without waiting for its WAL flush (the commit was most of a claim's time): a claim lost
      // to a database crash is lost with the item's running state written beside it (onClaimed), so the item is
      // simply queued again, and its first holder's finish is refused (no claim row) and rolls back. The cost is
      // at most a second fetch of that page; never a second charge. Every later durable commit flushes it.
      return await commitWithoutWaiting(this.#db, async (tx) => {
        for (;;) {
          const accountId = await this.#lockLane(tx, host, skip);
          if (accountId === null) return null;
          const name = laneQueue(host, accountId);
          const [job] = await this.#boss.fetch<JobData>(name, { db: fromKysely(tx), batchSize: 1 });
          if (!job) {
            await emptied(tx, host, accountId);
            continue;
          }
          await tx
            .insertInto('work_claims')
            .values({
              item_id: job.data.id,
              job_id: job.id,
              queue: name,
              group_id: job.data.groupId,
              account_id: accountId,
              host,
              holder,
              claimed_at: claimedAt,
            })
            .execute();
          await served(tx, host, accountId);
          const work: ClaimedWork = {
            id: job.data.id,
            groupId: job.data.groupId,
            accountId,
            host,
            attempts: job.retryCount + 1,
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
    const claim = await tx
      .deleteFrom('work_claims')
      .where('item_id', '=', id)
      .where('holder', '=', holder)
      .returning(['job_id', 'queue'])
      .executeTakeFirst();
    if (!claim) return false;
    // Deleted rather than completed: nothing reads a finished job, and no maintenance has to sweep it later.
    await this.#boss.deleteJob(claim.queue, claim.job_id, { db: fromKysely(tx) });
    return true;
  }

  async heldBy(holder: string): Promise<string[]> {
    const rows = await this.#db.selectFrom('work_claims').select('item_id').where('holder', '=', holder).execute();
    return rows.map((row) => row.item_id);
  }

  async giveBack(tx: Tx, id: string, holder: string): Promise<boolean> {
    const claim = await tx
      .deleteFrom('work_claims')
      .where('item_id', '=', id)
      .where('holder', '=', holder)
      .returning(['job_id', 'queue', 'host', 'account_id'])
      .executeTakeFirst();
    if (!claim) return false;
    await this.#requeue(tx, [claim]);
    return true;
  }

  /** Active jobs back to pg-boss's `retry` state, fetchable at once, in their place (same priority). */
  async #requeue(
    tx: Tx,
    claims: readonly { job_id: string; queue: string; host: string; account_id: string }[],
  ): Promise<void> {
    const byQueue = new Map<string, string[]>();
    for (const claim of claims) byQueue.set(claim.queue, [...(byQueue.get(claim.queue) ?? []), claim.job_id]);
    const db = fromKysely(tx);
    for (const [name, ids] of byQueue) await this.#boss.fail(name, ids, null, { db });
    await addQueued(tx, laneCounts(claims.map((c) => ({ host: c.host, accountId: c.account_id }))).values());
  }

  /**
   * Locks the group's lanes first (in one order, as claims lock theirs): a claim in flight on one of them commits
   * before the queued jobs are read, and none starts until the cancel commits, so no item is both claimed and
   * cancelled. Callers lock batch rows after this (claims lock the lane, then onClaimed the batch's rows).
   */
  async cancel(tx: Tx, groupId: string): Promise<string[]> {
    const lanes = await tx
      .selectFrom('work_group_lanes')
      .select(['host', 'account_id'])
      .where('group_id', '=', groupId)
      .orderBy('host')
      .orderBy('account_id')
      .execute();
    const removed: string[] = [];
    const db = fromKysely(tx);
    for (const lane of lanes) {
      await tx
        .selectFrom('work_lanes')
        .select('queued')
        .where('host', '=', lane.host)
        .where('account_id', '=', lane.account_id)
        .forUpdate()
        .execute();
      const name = laneQueue(lane.host, lane.account_id);
      const jobIds: string[] = [];
      for (let after: string | undefined; ;) {
        const page = await this.#boss.findJobs<JobData>(name, {
          data: { groupId },
          queued: true,
          limit: findPage,
          db,
          ...(after === undefined ? {} : { after }),
        });
        for (const job of page) {
          jobIds.push(job.id);
          removed.push(job.data.id);
        }
        if (page.length < findPage) break;
        after = page[page.length - 1]!.id;
      }
      if (jobIds.length === 0) continue;
      for (let i = 0; i < jobIds.length; i += findPage) {
        await this.#boss.deleteJob(name, jobIds.slice(i, i + findPage), { db });
      }
      await addQueued(tx, [{ host: lane.host, accountId: lane.account_id, count: -jobIds.length }]);
    }
    return removed;
  }

  async releaseOrphaned(
    self: string,
    staleBefore: string,
    deadHolders: readonly string[],
    onRequeued: (tx: Tx, ids: readonly string[]) => Promise<void>,
  ): Promise<string[]> {
    const stale = toIso(staleBefore);
    const dead = deadHolders.filter((holder) => holder !== self);
    return this.#db.transaction().execute(async (tx) => {
      const orphans = await tx
        .selectFrom('work_claims as c')
        .leftJoin('instances as i', 'i.id', 'c.holder')
        .select(['c.item_id', 'c.job_id', 'c.queue', 'c.host', 'c.account_id'])
        .where('c.holder', '!=', self)
        .where((eb) =>
          eb.or([
            eb('i.heartbeat_at', '<', stale),
            ...(dead.length > 0 ? [eb('c.holder', 'in', dead)] : []),
            // No heartbeat row (the ledger's sweep deletes a dead instance's row once it holds no credits): only once
            // old enough that a live holder would have beaten by now.
            eb.and([eb('i.id', 'is', null), eb('c.claimed_at', '<', stale)]),
          ]),
        )
        .forUpdate('c')
        .skipLocked()
        .execute();
      if (orphans.length === 0) return [];
      const ids = orphans.map((row) => row.item_id);
      await tx.deleteFrom('work_claims').where('item_id', 'in', ids).execute();
      await this.#requeue(tx, orphans);
      await onRequeued(tx, ids);
      return ids;
    });
  }

  /** Stops pg-boss and closes its pool (Kumo's pool is the storage's). Idempotent. */
  async close(): Promise<void> {
    this.#closed ??= this.#boss.stop({ graceful: false, close: true, timeout: 1_000 });
    await this.#closed;
  }
}
