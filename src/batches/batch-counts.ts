// Moves a batch row's counts and credits with every item change, in the caller's transaction, and derives its status and the batch events (DESIGN §8).
import { sql, type RawBuilder } from 'kysely';
import { newId } from '../accounts/ids.js';
import { preparedFor } from '../storage/kysely/prepared.js';
import type { Tx } from './work-queue.js';
import type { BatchStatus, EventType, ItemState } from './batch-store.js';
import { webhookWants, type BatchRow } from './batch-rows.js';

/** What an item change adds to its batch row (negative to take away). */
export type BatchDeltas = Partial<
  Record<ItemState | 'total' | 'credits_charged' | 'credits_held' | 'credits_reserved', number>
>;

export interface NewEvent {
  type: EventType;
  itemId: string | null;
}

/** Events are kept (and GET /v1/events answers) for 72 h. */
export const eventRetentionMs = 72 * 3_600_000;

export interface BatchMove {
  /** The row after the change. */
  row: BatchRow;
  /** The status the change moved the batch out of, when it did. */
  from: BatchStatus | null;
}

/**
 * The batch's status from its counts: `running` once an item has left the queue, `completed` once it is sealed and
 * nothing is queued or running, `cancelled` once a cancelling batch has nothing running. Null: unchanged.
 */
export function nextStatus(row: BatchRow): BatchStatus | null {
  const queued = Number(row.queued);
  const running = Number(row.running);
  if (row.status === 'queued' || row.status === 'running') {
    if (Number(row.sealed) === 1 && queued === 0 && running === 0) return 'completed';
    if (row.status === 'queued' && Number(row.total) > queued) return 'running';
    return null;
  }
  if (row.status === 'cancelling' && running === 0) return 'cancelled';
  return null;
}

/**
 * Adds `deltas` to the batch row (locking it: PostgreSQL row lock, SQLite's single writer), records `events` with
 * the batch's next sequence numbers, and moves its status when the counts say so (with `batch.completed` /
 * `batch.cancelled`, exactly once: only the transaction that moves the status writes it). Null when there is no such
 * batch.
 */
export async function moveBatch(
  tx: Tx,
  batchId: string,
  deltas: BatchDeltas,
  events: readonly NewEvent[],
  now: string,
  changes: { sealed?: boolean; status?: BatchStatus } = {},
): Promise<BatchMove | null> {
  const moved = Object.entries(deltas).filter((entry): entry is [string, number] => !!entry[1]);
  const sealed = changes.sealed === undefined ? [] : [changes.sealed ? 1 : 0];
  const setStatus = changes.status === undefined ? [] : [changes.status];
  // One prepared UPDATE per shape (which columns move, whether it seals or sets a status): a handful in all.
  const update = preparedFor<BatchRow, unknown[]>(
    tx,
    `batch-counts:move:${moved.map(([column]) => column).join(',')}:${sealed.length}:${setStatus.length}`,
    moved.length + 2 + sealed.length + setStatus.length,
    (...slots: unknown[]) => {
      const set: Record<string, RawBuilder<unknown>> = {};
      moved.forEach(([column], i) => (set[column] = sql`${sql.ref(column)} + ${slots[i]}`));
      // Always written (by itself when no event is added), so the row is locked even when nothing else changes.
      set['next_sequence'] = sql`next_sequence + ${slots[moved.length]}`;
      let at = moved.length + 2;
      if (sealed.length) set['sealed'] = sql`${slots[at++]}`;
      if (setStatus.length) set['status'] = sql`${slots[at++]}`;
      return tx
        .updateTable('batches')
        .set(set as never)
        .where('id', '=', slots[moved.length + 1] as string)
        .returningAll();
    },
  );
  let row = await update.first(tx, ...moved.map(([, delta]) => delta), events.length, batchId, ...sealed, ...setStatus);
  if (!row) return null;
  const written: { type: EventType; itemId: string | null; sequence: number }[] = events.map((event, i) => ({
    ...event,
    sequence: Number(row!.next_sequence) - events.length + i,
  }));
  let from: BatchStatus | null = null;
  const status = nextStatus(row);
  if (status !== null) {
    const event: EventType | null =
      status === 'completed' ? 'batch.completed' : status === 'cancelled' ? 'batch.cancelled' : null;
    const finished = status === 'completed' || status === 'cancelled';
    const moved = await tx
      .updateTable('batches')
      .set({
        status,
        ...(finished ? { finished_at: now } : {}),
        ...(event ? { next_sequence: sql<number>`next_sequence + 1` } : {}),
      })
      .where('id', '=', batchId)
      .where('status', '=', row.status)
      .returningAll()
      .executeTakeFirst();
    if (moved) {
      from = row.status;
      row = moved;
      if (event) written.push({ type: event, itemId: null, sequence: Number(moved.next_sequence) - 1 });
    }
  }
  await insertEvents(tx, row, written, now);
  return { row, from };
}

async function insertEvents(
  tx: Tx,
  batch: BatchRow,
  events: readonly { type: EventType; itemId: string | null; sequence: number }[],
  now: string,
): Promise<void> {
  if (events.length === 0) return;
  const nowMs = Date.parse(now);
  const expiresAt = new Date(nowMs + eventRetentionMs).toISOString();
  const rows = events.map((event) => {
    const wanted = webhookWants(batch, event.type);
    return {
      // The process's wall clock, not `now`: ids made by one process strictly increase, so GET /v1/events pages
      // in creation order.
      id: newId('evt'),
      account_id: batch.account_id,
      batch_id: batch.id,
      item_id: event.itemId,
      type: event.type,
      sequence: event.sequence,
      created_at: now,
      expires_at: expiresAt,
      endpoint_id: wanted ? batch.webhook_endpoint_id : null,
      delivery_state: wanted ? ('pending' as const) : ('none' as const),
      next_attempt_at: wanted ? now : null,
    };
  });
  // An item's event (and the batch's last one with it) is written on every item's outcome: prepared for one or two.
  if (rows.length > 2) {
    await tx.insertInto('batch_events').values(rows).execute();
    return;
  }
  const columns = Object.keys(rows[0]!) as (keyof (typeof rows)[number])[];
  const insert = preparedFor<never, unknown[]>(
    tx,
    `batch-counts:events:${rows.length}`,
    rows.length * columns.length,
    (...slots: unknown[]) =>
      tx
        .insertInto('batch_events')
        .values(
          rows.map((_, r) => Object.fromEntries(columns.map((c, i) => [c, slots[r * columns.length + i]])) as never),
        ),
  );
  await insert.execute(tx, ...rows.flatMap((row) => columns.map((c) => row[c])));
}
