// Moves a batch row's counts and credits with every item change, in the caller's transaction, and derives its status and the batch events (DESIGN §8).
import { sql, type RawBuilder } from 'kysely';
import { newId } from '../accounts/ids.js';
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
  const set: Record<string, RawBuilder<unknown>> = {};
  for (const [column, delta] of Object.entries(deltas)) {
    if (delta !== undefined && delta !== 0) set[column] = sql`${sql.ref(column)} + ${delta}`;
  }
  if (events.length > 0) set['next_sequence'] = sql`next_sequence + ${events.length}`;
  if (changes.sealed !== undefined) set['sealed'] = sql`${changes.sealed ? 1 : 0}`;
  if (changes.status !== undefined) set['status'] = sql`${changes.status}`;
  // Always written, so the row is locked even when nothing else changes.
  set['id'] = sql`id`;
  let row = await tx
    .updateTable('batches')
    .set(set as never)
    .where('id', '=', batchId)
    .returningAll()
    .executeTakeFirst();
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
  await tx
    .insertInto('batch_events')
    .values(
      events.map((event) => {
        const wanted = webhookWants(batch, event.type);
        return {
          id: newId('evt', nowMs),
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
      }),
    )
    .execute();
}
