// The batch store's per-item queries (claim, reserve, outcome), compiled once per dialect: each runs for every item.
import { sql, type ExpressionBuilder } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { preparedFor } from '../storage/kysely/prepared.js';
import type { ItemRow } from './batch-rows.js';
import type { Tx } from './work-queue.js';

/** The batch of the item row being updated, as `b`, for an EXISTS guard on its status or expiry. */
export function batchOfItem(eb: ExpressionBuilder<KumoDatabase, 'batch_items'>) {
  return eb.selectFrom('batches as b').select('b.id').whereRef('b.id', '=', 'batch_items.batch_id');
}

/** A queued item of a live batch (not cancelled, key not shredded, results not expired) becomes running. */
export function startItem(
  tx: Tx,
  args: { itemId: string; holder: string; requestId: string; at: string },
): Promise<ItemRow | undefined> {
  return preparedFor<ItemRow, [string, string, string, string, string]>(
    tx,
    'batch-run:start',
    5,
    (holder: string, requestId: string, at: string, itemId: string, notExpiredAt: string) =>
      tx
        .updateTable('batch_items')
        .set((eb) => ({
          state: 'running',
          attempts: eb('attempts', '+', 1),
          holder,
          request_id: requestId,
          started_at: at,
          reserved: 0,
        }))
        .where('id', '=', itemId)
        .where('state', '=', 'queued')
        .where((eb) =>
          eb.exists(
            batchOfItem(eb)
              .where('b.status', 'in', ['queued', 'running'])
              .where('b.data_key_sealed', 'is not', null)
              .where('b.results_expire_at', '>', notExpiredAt),
          ),
        )
        .returningAll(),
  ).first(tx, args.holder, args.requestId, args.at, args.itemId, args.at);
}

/** The running, unreserved item of this attempt takes its reservation's size; with its account and its batch's key. */
export function markReserved(
  tx: Tx,
  args: { itemId: string; holder: string; requestId: string; cost: number },
): Promise<{ batch_id: string; account_id: string; owner_key: string | null } | undefined> {
  return preparedFor<
    { batch_id: string; account_id: string; owner_key: string | null },
    [number, string, string, string]
  >(tx, 'batch-run:reserved', 4, (cost: number, itemId: string, holder: string, requestId: string) =>
    tx
      .updateTable('batch_items')
      .set({ reserved: cost })
      .where('id', '=', itemId)
      .where('state', '=', 'running')
      .where('holder', '=', holder)
      .where('request_id', '=', requestId)
      .where('reserved', '=', 0)
      .returning((eb) => [
        'batch_id',
        'account_id',
        eb.selectFrom('batches').select('key_id').whereRef('batches.id', '=', 'batch_items.batch_id').as('owner_key'),
      ]),
  ).first(tx, args.cost, args.itemId, args.holder, args.requestId);
}

/** max_credits: charged + held + reserved + cost, checked and taken in one guarded UPDATE. False: over the cap. */
export async function takeBatchCredits(tx: Tx, batchId: string, cost: number): Promise<boolean> {
  const row = await preparedFor<{ id: string }, [number, string, number]>(
    tx,
    'batch-run:credits',
    3,
    (add: number, id: string, asked: number) =>
      tx
        .updateTable('batches')
        .set((eb) => ({ credits_reserved: eb('credits_reserved', '+', add) }))
        .where('id', '=', id)
        .where(
          sql<boolean>`(max_credits IS NULL OR credits_charged + credits_held + credits_reserved + ${asked} <= max_credits)`,
        )
        .returning('id'),
  ).first(tx, cost, batchId, cost);
  return row !== undefined;
}

/** The running item held by `holder`, its row locked, with its batch's results_expire_at; undefined when it is not. */
export function lockRunning(
  tx: Tx,
  itemId: string,
  holder: string,
): Promise<(ItemRow & { results_expire_at: string | Date | null }) | undefined> {
  return preparedFor<ItemRow & { results_expire_at: string | Date | null }, [string, string]>(
    tx,
    'batch-run:lock',
    2,
    (id: string, by: string) =>
      tx
        .updateTable('batch_items')
        .set((eb) => ({ holder: eb.ref('holder') }))
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where('holder', '=', by)
        .returningAll()
        .returning((eb) =>
          eb
            .selectFrom('batches')
            .select('results_expire_at')
            .whereRef('batches.id', '=', 'batch_items.batch_id')
            .as('results_expire_at'),
        ),
  ).first(tx, itemId, holder);
}

export interface ItemOutcomeRow {
  state: string;
  finishedAt: string;
  requestId: string | null;
  costUnits: number;
  /** Set only for a ready item (the route it ran on); otherwise the item's route is left as it was. */
  route: string | null;
  errorCode: string | null;
  errorStatus: number | null;
  errorRetryable: number | null;
}

/** The item's outcome: out of running, its holder, reservation and sealed URL cleared. */
export async function writeOutcome(tx: Tx, itemId: string, o: ItemOutcomeRow): Promise<void> {
  await preparedFor<
    never,
    [string, string, string | null, number, string | null, string | null, number | null, number | null, string]
  >(
    tx,
    'batch-run:outcome',
    9,
    (
      state: string,
      finishedAt: string,
      requestId: string | null,
      costUnits: number,
      route: string | null,
      errorCode: string | null,
      errorStatus: number | null,
      errorRetryable: number | null,
      id: string,
    ) =>
      tx
        .updateTable('batch_items')
        .set({
          state: state as never,
          holder: null,
          reserved: 0,
          finished_at: finishedAt,
          // The URL as given is needed only to run the item.
          url_sealed: null,
          request_id: requestId,
          cost_units: costUnits,
          route: sql`coalesce(${route}, route)`,
          error_code: errorCode,
          error_status: errorStatus,
          error_retryable: errorRetryable,
        })
        .where('id', '=', id),
  ).execute(
    tx,
    o.state,
    o.finishedAt,
    o.requestId,
    o.costUnits,
    o.route,
    o.errorCode,
    o.errorStatus,
    o.errorRetryable,
    itemId,
  );
}

/** A ready item's sealed result, kept for its handover until the batch's results expire. */
export async function bufferResult(
  tx: Tx,
  row: {
    itemId: string;
    batchId: string;
    accountId: string;
    resultSealed: Uint8Array;
    createdAt: string;
    expiresAt: string;
  },
): Promise<void> {
  await preparedFor<never, [string, string, string, Uint8Array, string, string]>(
    tx,
    'batch-run:buffer',
    6,
    (itemId: string, batchId: string, accountId: string, result: Uint8Array, createdAt: string, expiresAt: string) =>
      tx.insertInto('delivery_buffer').values({
        item_id: itemId,
        batch_id: batchId,
        account_id: accountId,
        result_sealed: result,
        created_at: createdAt,
        expires_at: expiresAt,
      }),
  ).execute(tx, row.itemId, row.batchId, row.accountId, row.resultSealed, row.createdAt, row.expiresAt);
}
