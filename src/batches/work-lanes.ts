// The fairness bookkeeping both work queues share: one lane per (host, account) with its queued count and its turn.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import type { LaneWithWork, Tx } from './work-queue.js';
import { preparedFor } from '../storage/kysely/prepared.js';

/** How a claim locks the lane it picks: SQLite has one writer (none); PostgreSQL locks the lane row. */
export type LaneLock = 'none' | 'skip-locked' | 'wait';

/** Queued items per lane, from a list of works (enqueue, give back, requeue). */
export function laneCounts(works: readonly { host: string; accountId: string }[]): Map<string, LaneCount> {
  const counts = new Map<string, LaneCount>();
  for (const work of works) {
    const key = `${work.host}\u0000${work.accountId}`;
    const lane = counts.get(key);
    if (lane) lane.count++;
    else counts.set(key, { host: work.host, accountId: work.accountId, count: 1 });
  }
  return counts;
}

export interface LaneCount {
  host: string;
  accountId: string;
  count: number;
}

/**
 * Adds (or, negative, removes) queued items to lanes; a new lane starts at turn 0, so it goes next on its host. The
 * lane rows are written in one order (host, then account) whatever order the caller's work came in: two transactions
 * adding to the same lanes in opposite orders would each hold a row the other waits for (on PostgreSQL, three
 * instances' monitor claims deadlocked so: monitor-scheduler.contract.ts).
 */
export async function addQueued(tx: Tx, counts: Iterable<LaneCount>): Promise<void> {
  const lanes = [...counts].sort((a, b) =>
    a.host === b.host ? compare(a.accountId, b.accountId) : compare(a.host, b.host),
  );
  for (const lane of lanes) {
    if (lane.count === 0) continue;
    if (lane.count > 0) {
      await tx
        .insertInto('work_lanes')
        .values({ host: lane.host, account_id: lane.accountId, queued: lane.count, last_served: 0 })
        .onConflict((oc) =>
          oc
            .columns(['host', 'account_id'])
            .doUpdateSet((eb) => ({ queued: eb('work_lanes.queued', '+', lane.count) })),
        )
        .execute();
    } else {
      await tx
        .updateTable('work_lanes')
        .set((eb) => ({ queued: eb('queued', '-', -lane.count) }))
        .where('host', '=', lane.host)
        .where('account_id', '=', lane.accountId)
        .execute();
    }
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The account whose turn it is on `host`: of the lanes with queued work (skipped accounts aside), the one served least
 * recently. With 'skip-locked' a lane another claim is taking its item from is passed over (so concurrent claimers
 * serve different accounts); with 'wait' the claim queues behind it.
 */
export async function laneInTurn(
  tx: Tx,
  host: string,
  skipAccounts: readonly string[],
  lock: LaneLock,
): Promise<string | null> {
  const skip = [...skipAccounts];
  const query = preparedFor<{ account_id: string }, string[]>(
    tx,
    `work-lanes:in-turn:${lock}:${skip.length}`,
    1 + skip.length,
    (hostSlot: string, ...skipSlots: string[]) => {
      let select = tx
        .selectFrom('work_lanes')
        .select('account_id')
        .where('host', '=', hostSlot)
        .where('queued', '>', 0)
        .orderBy('last_served')
        .orderBy('account_id')
        .limit(1);
      if (skipSlots.length > 0) select = select.where('account_id', 'not in', skipSlots);
      if (lock === 'skip-locked') select = select.forUpdate().skipLocked();
      if (lock === 'wait') select = select.forUpdate();
      return select;
    },
  );
  const row = await query.first(tx, host, ...skip);
  return row?.account_id ?? null;
}

/** One item of the lane was claimed: it leaves the queued count and the lane goes to the back of the host's turn. */
export async function served(tx: Tx, host: string, accountId: string): Promise<void> {
  await preparedFor<never, [string, string, string]>(
    tx,
    'work-lanes:served',
    3,
    (h: string, h2: string, account: string) =>
      tx
        .updateTable('work_lanes')
        .set((eb) => ({
          queued: eb('queued', '-', 1),
          last_served: sql<number>`(select max(l.last_served) from work_lanes l where l.host = ${h}) + 1`,
        }))
        .where('host', '=', h2)
        .where('account_id', '=', account),
  ).execute(tx, host, host, accountId);
}

/** A lane whose count says work but whose engine has none (a repair; should not happen). */
export async function emptied(tx: Tx, host: string, accountId: string): Promise<void> {
  await tx
    .updateTable('work_lanes')
    .set({ queued: 0 })
    .where('host', '=', host)
    .where('account_id', '=', accountId)
    .execute();
}

export async function lanesWithWork(db: Kysely<KumoDatabase>): Promise<LaneWithWork[]> {
  const rows = await preparedFor<{ host: string; account_id: string }, []>(db, 'work-lanes:with-work', 0, () =>
    db.selectFrom('work_lanes').select(['host', 'account_id']).where('queued', '>', 0),
  ).execute(db);
  return rows.rows.map((row) => ({ host: row.host, accountId: row.account_id }));
}

export async function depth(db: Kysely<KumoDatabase>, host: string): Promise<number> {
  const row = await db
    .selectFrom('work_lanes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('queued'), sql<number>`0`).as('queued'))
    .where('host', '=', host)
    .where('queued', '>', 0)
    .executeTakeFirst();
  return Number(row?.queued ?? 0);
}
