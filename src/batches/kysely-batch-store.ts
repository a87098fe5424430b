// KyselyBatchStore: the BatchStore and Outbox roles over migration 0009/0010's tables, one code for SQLite and PostgreSQL (DESIGN §5, §8).
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import type { HoldTransaction, KyselyCreditLedger } from '../storage/kysely/kysely-credit-ledger.js';
import type { KyselyRequestLog } from '../storage/kysely/kysely-request-log.js';
import { toIso } from '../storage/kysely/columns.js';
import type { ReserveOutcome } from '../storage/storage.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { Tx } from './work-queue.js';
import type { ErrorCode } from '../errors.js';
import type {
  AppendOptions,
  AppendOutcome,
  BatchItemRecord,
  BatchRecord,
  BatchStore,
  CreateOutcome,
  DueDelivery,
  EventQuery,
  EventRecord,
  FailureCount,
  ItemPageQuery,
  ItemState,
  ItemToRun,
  NewBatch,
  NewBatchItem,
  Outbox,
  RejectedItem,
  RenderedDelivery,
  RunOutcome,
  RunReservation,
} from './batch-store.js';
import {
  bytesOf,
  jsonOf,
  toBatchRecord,
  toEventRecord,
  toItemRecord,
  type BatchRow,
  type ItemRow,
} from './batch-rows.js';
import { retryingConflicts } from './deadlock-retry.js';
import { moveBatch, type BatchDeltas, type NewEvent } from './batch-counts.js';
import {
  batchOfItem,
  bufferResult,
  lockRunning,
  markReserved,
  startItem,
  takeBatchCredits,
  writeOutcome,
} from './run-queries.js';
import { KyselyOutbox, type ResultUrl } from './kysely-outbox.js';
import { Abort, answerOrAbort } from '../storage/kysely/abort.js';

/** What the store needs of the storage: its database, the ledger (holds) and the request log (metadata rows). */
export interface BatchStoreStorage {
  db: Kysely<KumoDatabase>;
  ledger: KyselyCreditLedger;
  requests: KyselyRequestLog;
}

export interface KyselyBatchStoreOptions {
  clock?: Clock;
  /** Where a thin delivery says the result can be fetched (GET …/items); see kysely-outbox.ts. */
  resultUrl?: ResultUrl;
  /**
   * How a run's own writes commit (reserve, finishRun, retryLater); default a plain transaction. They charge nothing
   * and answer no one, so the backend may commit them without waiting for the disk (docs/decisions/0023): what a
   * crash loses of them is a suffix, an item left running under a dead holder that the liveness sweep queues again;
   * every delivery claim and handover after them is a durable commit that puts them on the disk first.
   */
  runTransaction?: HoldTransaction;
}

/** Rows per INSERT: well inside SQLite's and PostgreSQL's limits on bound parameters. */
const insertChunk = 200;

const itemEventOf: Record<'ready' | 'failed' | 'not_found' | 'skipped', NewEvent['type']> = {
  ready: 'item.succeeded',
  failed: 'item.failed',
  not_found: 'item.not_found',
  skipped: 'item.skipped',
};

/**
 * Concurrency: every item change is a state-guarded UPDATE of its item row (`WHERE state = … AND holder = …`), and
 * the batch row's counts move in the same transaction (batch-counts.ts), so of two racers only one finds the item in
 * the state it expects. Credits go through the ledger's *In methods in that same transaction: a ledger row, an item
 * state and the batch's counters commit together or not at all. On PostgreSQL (READ COMMITTED) the guarded UPDATE
 * waits for a concurrent one on the same row and re-checks its WHERE; SQLite has a single writer.
 */
export class KyselyBatchStore implements BatchStore, Outbox {
  readonly #db: Kysely<KumoDatabase>;
  readonly #ledger: KyselyCreditLedger;
  readonly #requests: KyselyRequestLog;
  readonly #clock: Clock;
  readonly #outbox: KyselyOutbox;
  readonly #runTransaction: HoldTransaction;

  constructor(storage: BatchStoreStorage, options: KyselyBatchStoreOptions = {}) {
    this.#db = storage.db;
    this.#ledger = storage.ledger;
    this.#requests = storage.requests;
    this.#clock = options.clock ?? systemClock;
    this.#runTransaction = options.runTransaction ?? ((db, body) => db.transaction().execute(body));
    this.#outbox = new KyselyOutbox(storage.db, {
      handoverIn: (tx, ids, via, now) => this.handoverIn(tx, ids, via, now),
      now: () => this.#clock.now(),
      ...(options.resultUrl ? { resultUrl: options.resultUrl } : {}),
    });
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  // ---- submission ---------------------------------------------------------------------------------------------

  async create(
    batch: NewBatch,
    items: readonly NewBatchItem[],
    enqueue: (tx: Tx) => Promise<void>,
  ): Promise<CreateOutcome> {
    const outcome = await retryingConflicts(() =>
      this.#db.transaction().execute(async (tx): Promise<CreateOutcome> => {
        const inserted = await tx
          .insertInto('batches')
          .values({
            id: batch.id,
            account_id: batch.accountId,
            key_id: batch.keyId,
            status: 'queued',
            params: JSON.stringify(batch.params),
            webhook_endpoint_id: batch.webhook?.endpointId ?? null,
            webhook_events: batch.webhook ? JSON.stringify(batch.webhook.events) : null,
            webhook_payload: batch.webhook?.payload ?? null,
            retain_hours: batch.retainHours,
            results_expire_at: toIso(batch.resultsExpireAt),
            max_credits: batch.maxCredits,
            data_key_sealed: batch.dataKeySealed,
            idempotency_key: batch.idempotency?.key ?? null,
            body_hash: batch.idempotency?.bodyHash ?? null,
            total: items.length,
            queued: items.length,
            cost_units_max: batch.estimate.costUnitsMax,
            eta_s: batch.estimate.etaS,
            rejected: JSON.stringify(batch.rejected),
            created_at: toIso(batch.createdAt),
            sealed: batch.sealed ? 1 : 0,
          })
          .onConflict((oc) =>
            oc.columns(['account_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing(),
          )
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          // Another submission with this key committed first (PostgreSQL waited for it): this one writes nothing.
          const existing = await tx
            .selectFrom('batches')
            .selectAll()
            .where('account_id', '=', batch.accountId)
            .where('idempotency_key', '=', batch.idempotency!.key)
            .executeTakeFirstOrThrow();
          return existing.body_hash === batch.idempotency!.bodyHash
            ? { outcome: 'replay', batch: toBatchRecord(existing) }
            : { outcome: 'conflict', batchId: existing.id };
        }
        await this.#insertItems(tx, batch.id, batch.accountId, items, 0, batch.createdAt);
        await enqueue(tx);
        // Settles the status (a sealed batch without items is completed at once, with its event).
        const moved = await moveBatch(tx, batch.id, {}, [], toIso(batch.createdAt));
        return { outcome: 'created', batch: toBatchRecord(moved!.row) };
      }),
    );
    return outcome;
  }

  async byIdempotencyKey(
    accountId: string,
    key: string,
  ): Promise<{ batch: BatchRecord; bodyHash: string | null } | null> {
    const row = await this.#db
      .selectFrom('batches')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row ? { batch: toBatchRecord(row), bodyHash: row.body_hash } : null;
  }

  async #insertItems(
    tx: Tx,
    batchId: string,
    accountId: string,
    items: readonly NewBatchItem[],
    base: number,
    now: string,
  ): Promise<void> {
    const createdAt = toIso(now);
    for (let start = 0; start < items.length; start += insertChunk) {
      await tx
        .insertInto('batch_items')
        .values(
          items.slice(start, start + insertChunk).map((item) => ({
            id: item.id,
            batch_id: batchId,
            account_id: accountId,
            item_index: item.index + base,
            ref: item.ref,
            url: item.url,
            url_sealed: item.urlSealed,
            host: item.host,
            site_id: item.siteId,
            page_type: item.pageType,
            route: item.route,
            params: item.params === null ? null : JSON.stringify(item.params),
            cost_max: item.costMax,
            state: 'queued' as const,
            created_at: createdAt,
          })),
        )
        .execute();
    }
  }

  async append(
    batchId: string,
    accountId: string,
    items: readonly NewBatchItem[],
    rejected: readonly RejectedItem[],
    options: AppendOptions,
    enqueue: (tx: Tx, base: number) => Promise<void>,
  ): Promise<AppendOutcome> {
    const now = toIso(options.now);
    return retryingConflicts(() =>
      this.#db.transaction().execute(async (tx): Promise<AppendOutcome> => {
        // The lock order of every transaction here: queue rows (lanes), items, then the batch row. A claim locks a lane and
        // then its item's batch, so this append reads the batch unlocked, queues its work, and only then locks the batch
        // row, checking that nothing moved meanwhile (another append: the whole transaction runs again).
        const seen = await tx.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirst();
        if (!seen || seen.account_id !== accountId) return { outcome: 'not_found' };
        const refusal = appendRefusal(seen, items.length, options.maxItems);
        if (refusal) return refusal;
        const stored = jsonOf<RejectedItem[]>(seen.rejected as string | RejectedItem[]);
        const base = Number(seen.total) + stored.length;
        await enqueue(tx, base);
        const locked = await moveBatch(tx, batchId, {}, [], now);
        const row = locked!.row;
        const lockedRefusal = appendRefusal(row, items.length, options.maxItems);
        if (lockedRefusal) return lockedRefusal;
        if (Number(row.total) + jsonOf<RejectedItem[]>(row.rejected as string | RejectedItem[]).length !== base) {
          throw Object.assign(new Error('the batch grew while this append read it'), { code: '40001' });
        }
        const added = rejected.map((entry) => ({ ...entry, index: entry.index + base }));
        await this.#insertItems(tx, batchId, accountId, items, base, now);
        await tx
          .updateTable('batches')
          .set((eb) => ({
            rejected: JSON.stringify([...stored, ...added]),
            cost_units_max: eb('cost_units_max', '+', options.addCostUnitsMax),
            eta_s: options.etaS,
          }))
          .where('id', '=', batchId)
          .execute();
        const moved = await moveBatch(tx, batchId, { total: items.length, queued: items.length }, [], now, {
          sealed: options.seal,
        });
        return { outcome: 'appended', batch: toBatchRecord(moved!.row), rejected: added };
      }),
    );
  }

  // ---- reading ------------------------------------------------------------------------------------------------

  async get(batchId: string, accountId: string): Promise<BatchRecord | null> {
    const row = await this.#db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', batchId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toBatchRecord(row) : null;
  }

  async list(accountId: string, limit: number): Promise<BatchRecord[]> {
    const rows = await this.#db
      .selectFrom('batches')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => toBatchRecord(row));
  }

  async listItems(
    batchId: string,
    accountId: string,
    query: ItemPageQuery,
  ): Promise<{ item: BatchItemRecord; resultSealed: Uint8Array | null }[]> {
    let select = this.#db
      .selectFrom('batch_items as i')
      .leftJoin('delivery_buffer as d', 'd.item_id', 'i.id')
      .selectAll('i')
      .select('d.result_sealed')
      .where('i.batch_id', '=', batchId)
      .where('i.account_id', '=', accountId);
    if (query.state !== undefined) select = select.where('i.state', '=', query.state);
    if (query.afterIndex !== undefined) select = select.where('i.item_index', '>', query.afterIndex);
    const rows = await select.orderBy('i.item_index').limit(query.limit).execute();
    return rows.map((row) => ({
      item: toItemRecord(row as unknown as ItemRow),
      resultSealed: row.result_sealed === null ? null : bytesOf(row.result_sealed),
    }));
  }

  async failureCodes(batchId: string, accountId: string): Promise<FailureCount[]> {
    // batch_items_state (batch_id, state, item_index) narrows this to the batch's failed and skipped rows.
    const rows = await this.#db
      .selectFrom('batch_items')
      .select(['state', 'error_code'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('batch_id', '=', batchId)
      .where('account_id', '=', accountId)
      .where('state', 'in', ['failed', 'skipped'])
      .groupBy(['state', 'error_code'])
      .execute();
    return rows
      .map((row) => ({
        state: row.state as FailureCount['state'],
        // A skipped item always carries its reason; `internal` stands for a row that somehow has none.
        code: (row.error_code ?? 'internal') as ErrorCode,
        count: Number(row.n),
      }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code) || a.state.localeCompare(b.state));
  }

  async dataKey(batchId: string): Promise<Uint8Array | null> {
    const row = await this.#db
      .selectFrom('batches')
      .select('data_key_sealed')
      .where('id', '=', batchId)
      .executeTakeFirst();
    return row?.data_key_sealed ? bytesOf(row.data_key_sealed) : null;
  }

  // ---- running ------------------------------------------------------------------------------------------------

  async markRunning(tx: Tx, itemId: string, holder: string, requestId: string, now: string): Promise<ItemToRun | null> {
    const at = toIso(now);
    // A batch past its results' expiry starts nothing more: a result made now could never be handed over (it would
    // only spend the host's politeness). Its queued items end `expired`, free, as they are claimed. The common case
    // (a live batch) is the one guarded UPDATE; only when it finds nothing is the lapse looked for.
    const item = await startItem(tx, { itemId, holder, requestId, at });
    if (!item) {
      const lapsed = await tx
        .updateTable('batch_items')
        .set({ state: 'expired', finished_at: at, url_sealed: null })
        .where('id', '=', itemId)
        .where('state', '=', 'queued')
        .where((eb) => eb.exists(batchOfItem(eb).where('b.results_expire_at', '<=', at)))
        .returning('batch_id')
        .executeTakeFirst();
      if (lapsed) await moveBatch(tx, lapsed.batch_id, { queued: -1, expired: 1 }, [], at);
      return null;
    }
    if (!item || item.url_sealed === null) return null;
    const moved = await moveBatch(tx, item.batch_id, { queued: -1, running: 1 }, [], at);
    const batch = toBatchRecord(moved!.row);
    return {
      item: toItemRecord(item),
      batch: {
        id: batch.id,
        accountId: batch.accountId,
        keyId: batch.keyId,
        params: batch.params,
        resultsExpireAt: batch.resultsExpireAt,
        maxCredits: batch.maxCredits,
        status: batch.status,
        webhook: batch.webhook,
      },
      urlSealed: bytesOf(item.url_sealed),
      dataKeySealed: bytesOf(moved!.row.data_key_sealed!),
    };
  }

  async reserve(
    itemId: string,
    holder: string,
    request: RunReservation,
  ): Promise<ReserveOutcome | { ok: false; exhausted: 'batch' } | { ok: false; held: 'batch' }> {
    type Outcome = ReserveOutcome | { ok: false; exhausted: 'batch' } | { ok: false; held: 'batch' };
    const attempt = () =>
      answerOrAbort(() =>
        this.#runTransaction(this.#db, async (tx): Promise<Outcome> => {
          const item = await markReserved(tx, { itemId, holder, requestId: request.requestId, cost: request.cost });
          if (!item?.owner_key) throw new Error(`item ${itemId} is not running unreserved under ${holder}`);
          // Lock order everywhere: item, then credit rows, then the batch row (no two transactions wait on each other).
          const outcome = await this.#ledger.reserveIn(tx, {
            requestId: request.requestId,
            accountId: item.account_id,
            keyId: item.owner_key,
            period: request.period,
            cost: request.cost,
            accountLimit: request.accountLimit,
            keyLimit: request.keyLimit,
            expiresAt: request.expiresAt,
            owner: holder,
          });
          if (!outcome.ok) throw new Abort<Outcome>(outcome);
          const batch = await takeBatchCredits(tx, item.batch_id, request.cost);
          if (!batch) {
            const row = await tx
              .selectFrom('batches')
              .select(['credits_charged', 'credits_held', 'max_credits'])
              .where('id', '=', item.batch_id)
              .executeTakeFirstOrThrow();
            const spent = Number(row.credits_charged) + Number(row.credits_held) + request.cost;
            throw new Abort<Outcome>(
              spent > Number(row.max_credits) ? { ok: false, exhausted: 'batch' } : { ok: false, held: 'batch' },
            );
          }
          return outcome;
        }),
      );
    return this.#ledger.afterSweep(attempt);
  }

  async finishRun(
    itemId: string,
    holder: string,
    outcome: RunOutcome,
    finishWork: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean> {
    const now = this.#now();
    return answerOrAbort(() =>
      this.#runTransaction(this.#db, async (tx) => {
        const item = await lockRunning(tx, itemId, holder);
        if (!item) return false;
        const ready = outcome.state === 'ready';
        const resultsExpireAt = isoOf(item.results_expire_at!);
        const reserved = Number(item.reserved);
        const attemptId = item.request_id;
        if (ready) {
          // Another attempt's outcome (never expected: one holder runs an item once at a time) writes nothing.
          if (outcome.requestId !== attemptId) throw new Abort(false);
          // The reservation becomes the hold; when a sweep freed it meanwhile, nothing is written (false): the
          // dispatcher gives the item back (retryLater) and it runs again with a fresh reservation.
          if (reserved === 0 || !(await this.#ledger.holdIn(tx, attemptId, outcome.costUnits, resultsExpireAt))) {
            throw new Abort(false);
          }
        } else if (reserved > 0 && attemptId !== null) {
          await this.#ledger.releaseIn(tx, attemptId);
        }
        if (!(await finishWork(tx))) throw new Abort(false);
        await writeOutcome(tx, itemId, {
          state: outcome.state,
          finishedAt: now,
          requestId: outcome.requestId ?? attemptId,
          costUnits: ready ? outcome.costUnits : 0,
          route: ready ? outcome.route : null,
          errorCode: ready ? null : (outcome.error?.code ?? null),
          errorStatus: ready ? null : (outcome.error?.status ?? null),
          errorRetryable: ready || !outcome.error ? null : outcome.error.retryable ? 1 : 0,
        });
        if (ready) {
          await bufferResult(tx, {
            itemId,
            batchId: item.batch_id,
            accountId: item.account_id,
            resultSealed: outcome.sealResult(),
            createdAt: now,
            expiresAt: resultsExpireAt,
          });
        }
        if (outcome.record) await this.#requests.insertIn(tx, outcome.record);
        const deltas: BatchDeltas = { running: -1, [outcome.state]: 1, credits_reserved: -reserved };
        if (ready) deltas.credits_held = outcome.costUnits;
        await moveBatch(tx, item.batch_id, deltas, [{ type: itemEventOf[outcome.state], itemId }], now);
        return true;
      }),
    );
  }

  async requeue(tx: Tx, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    const rows = (await tx
      .updateTable('batch_items')
      .set((eb) => ({ holder: eb.ref('holder') }))
      .where('id', 'in', [...itemIds])
      .where('state', '=', 'running')
      .returningAll()
      .execute()) as ItemRow[];
    await this.#backToQueue(tx, rows, this.#now());
  }

  async retryLater(itemId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>): Promise<boolean> {
    const now = this.#now();
    return answerOrAbort(() =>
      this.#runTransaction(this.#db, async (tx) => {
        const row = await lockRunning(tx, itemId, holder);
        if (!row) return false;
        if (!(await giveBack(tx))) throw new Abort(false);
        await this.#backToQueue(tx, [row], now);
        return true;
      }),
    );
  }

  /**
   * Running items (locked) back to queued, their attempt counts kept and reservations released; in a cancelling batch
   * they are cancelled instead (free), since nothing of that batch starts again. Credit rows before batch rows.
   */
  async #backToQueue(tx: Tx, rows: readonly ItemRow[], now: string): Promise<void> {
    for (const row of rows) if (row.request_id !== null) await this.#ledger.releaseIn(tx, row.request_id);
    const byBatch = new Map<string, BatchDeltas>();
    for (const row of [...rows].sort((a, b) => (a.batch_id < b.batch_id ? -1 : 1))) {
      const batch = await tx.selectFrom('batches').select('status').where('id', '=', row.batch_id).executeTakeFirst();
      const cancel = batch?.status === 'cancelling' || batch?.status === 'cancelled';
      await tx
        .updateTable('batch_items')
        .set({
          state: cancel ? 'cancelled' : 'queued',
          holder: null,
          reserved: 0,
          ...(cancel ? { finished_at: now, url_sealed: null } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      const deltas = byBatch.get(row.batch_id) ?? {};
      deltas.running = (deltas.running ?? 0) - 1;
      const to = cancel ? 'cancelled' : 'queued';
      deltas[to] = (deltas[to] ?? 0) + 1;
      deltas.credits_reserved = (deltas.credits_reserved ?? 0) - Number(row.reserved);
      byBatch.set(row.batch_id, deltas);
    }
    for (const [batchId, deltas] of byBatch) await moveBatch(tx, batchId, deltas, [], now);
  }

  async cancel(
    batchId: string,
    accountId: string,
    cancelWork: (tx: Tx) => Promise<string[]>,
  ): Promise<{ batch: BatchRecord; cancelled: number } | null> {
    const now = this.#now();
    return retryingConflicts(() =>
      this.#db.transaction().execute(async (tx) => {
        const found = await tx
          .selectFrom('batches')
          .select(['status'])
          .where('id', '=', batchId)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        if (!found) return null;
        if (found.status === 'queued' || found.status === 'running' || found.status === 'cancelling') {
          // Lock order as everywhere: queue rows, items, then the batch row.
          await cancelWork(tx);
          // Every item still queued, whatever the queue returned: one claimed at this moment finds its batch cancelling
          // (markRunning refuses it), so nothing of this batch starts after this.
          const cancelled = await tx
            .updateTable('batch_items')
            .set({ state: 'cancelled', finished_at: now, url_sealed: null })
            .where('batch_id', '=', batchId)
            .where('state', '=', 'queued')
            .executeTakeFirst();
          const n = Number(cancelled.numUpdatedRows);
          await tx
            .updateTable('batches')
            .set({ status: 'cancelling', sealed: 1 })
            .where('id', '=', batchId)
            .where('status', 'in', ['queued', 'running'])
            .execute();
          // `cancelled` (and its event) at once when nothing runs; the expiry sweep then shreds its key.
          const moved = await moveBatch(tx, batchId, { queued: -n, cancelled: n }, [], now);
          return { batch: toBatchRecord(moved!.row), cancelled: n };
        }
        if (found.status === 'completed') {
          // DELETE of a finished batch (DESIGN §5): what it keeps goes now. Ready results expire (their holds
          // released, cost 0), the buffer and sealed URLs are deleted, and the data key is shredded, which makes any
          // copy of them unreadable; the batch ends `cancelled`, with its batch.cancelled event.
          await this.#expireReady(tx, batchId, now);
          await this.#shredIfIdle(tx, batchId);
          const moved = await moveBatch(tx, batchId, {}, [], now, { status: 'cancelling' });
          return { batch: toBatchRecord(moved!.row), cancelled: 0 };
        }
        const row = await tx.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow();
        return { batch: toBatchRecord(row), cancelled: 0 };
      }),
    );
  }

  /**
   * Shreds the batch's data key once nothing is queued or running (no item needs its URL or the key again, and
   * nothing is left to hand over), with what it sealed: retained results and item URLs (unreadable now anyway).
   */
  async #shredIfIdle(tx: Tx, batchId: string): Promise<void> {
    const shredded = await tx
      .updateTable('batches')
      .set({ data_key_sealed: null })
      .where('id', '=', batchId)
      .where('running', '=', 0)
      .where('queued', '=', 0)
      .where('data_key_sealed', 'is not', null)
      .executeTakeFirst();
    if (Number(shredded.numUpdatedRows) === 0) return;
    await tx.deleteFrom('delivery_buffer').where('batch_id', '=', batchId).execute();
    await tx
      .updateTable('batch_items')
      .set({ url_sealed: null })
      .where('batch_id', '=', batchId)
      .where('url_sealed', 'is not', null)
      .execute();
  }

  /** The batch's ready items → expired: holds released, buffer rows deleted, cost 0. Returns how many. */
  async #expireReady(tx: Tx, batchId: string, now: string): Promise<number> {
    const rows = await tx
      .updateTable('batch_items')
      .set({ state: 'expired', finished_at: now })
      .where('batch_id', '=', batchId)
      .where('state', '=', 'ready')
      .returning(['id', 'request_id', 'cost_units'])
      .execute();
    if (rows.length === 0) return 0;
    let held = 0;
    for (const row of rows) {
      held += Number(row.cost_units);
      // Already released when the ledger's releaseExpired came first: the item's figures move all the same.
      if (row.request_id !== null) await this.#ledger.releaseIn(tx, row.request_id);
    }
    await tx
      .updateTable('batch_items')
      .set({ cost_units: 0 })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    await tx
      .deleteFrom('delivery_buffer')
      .where(
        'item_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    await moveBatch(tx, batchId, { ready: -rows.length, expired: rows.length, credits_held: -held }, [], now);
    return rows.length;
  }

  // ---- handover and expiry ------------------------------------------------------------------------------------

  async handover(itemIds: readonly string[], via: 'webhook' | 'poll', now: string): Promise<string[]> {
    if (itemIds.length === 0) return [];
    return retryingConflicts(() =>
      this.#db.transaction().execute((tx) => this.handoverIn(tx, itemIds, via, toIso(now))),
    );
  }

  /**
   * `handover` inside a caller's transaction (the outbox's `delivered`). Per item: ready → delivered only while its
   * results have not expired, then the hold committed (the ledger's UNIQUE(request_id) stands behind the state guard).
   */
  async handoverIn(tx: Tx, itemIds: readonly string[], via: 'webhook' | 'poll', now: string): Promise<string[]> {
    if (itemIds.length === 0) return [];
    // One statement locks every item still ready (in the primary key's order, as any other handover would), before
    // any credit or batch row: a poll's page and a webhook's delivery of the same item never wait on each other.
    const rows = await tx
      .updateTable('batch_items')
      .set({ state: 'delivered', delivered_at: now, delivered_via: via })
      .where('id', 'in', [...new Set(itemIds)])
      .where('state', '=', 'ready')
      .where((eb) =>
        eb.exists(
          batchOfItem(eb)
            .where('b.results_expire_at', '>', now)
            // DELETE of a batch ends its handovers: what is ready expires, free.
            .where('b.status', 'not in', ['cancelling', 'cancelled']),
        ),
      )
      .returning(['id', 'batch_id', 'request_id', 'cost_units'])
      .execute();
    const charged: string[] = [];
    const byBatch = new Map<string, { ids: string[]; cost: number }>();
    for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const cost = Number(row.cost_units);
      // UNIQUE(request_id) in the ledger stands behind the item's state guard: one row per item, ever.
      if (row.request_id === null || !(await this.#ledger.commitIn(tx, row.request_id, cost))) {
        // The hold is gone (released at its expiry): nothing to charge, so nothing handed over.
        await tx
          .updateTable('batch_items')
          .set({ state: 'ready', delivered_at: null, delivered_via: null })
          .where('id', '=', row.id)
          .execute();
        continue;
      }
      await tx.updateTable('requests').set({ cost_units: cost }).where('request_id', '=', row.request_id).execute();
      const entry = byBatch.get(row.batch_id) ?? { ids: [], cost: 0 };
      entry.ids.push(row.id);
      entry.cost += cost;
      byBatch.set(row.batch_id, entry);
      charged.push(row.id);
    }
    for (const [batchId, { ids, cost }] of [...byBatch].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const batch = await tx
        .selectFrom('batches')
        .select(['webhook_endpoint_id', 'retain_hours'])
        .where('id', '=', batchId)
        .executeTakeFirstOrThrow();
      // With a webhook and no retention asked for, the result is kept only until its first handover to the webhook. A
      // poll's handover keeps it until the results expire: the page that charged it may never reach the caller (a
      // connection lost after the commit), and a retried GET must still find what was paid for.
      if (via === 'webhook' && batch.webhook_endpoint_id !== null && batch.retain_hours === null) {
        await tx.deleteFrom('delivery_buffer').where('item_id', 'in', ids).execute();
      }
      await moveBatch(
        tx,
        batchId,
        { ready: -ids.length, delivered: ids.length, credits_held: -cost, credits_charged: cost },
        [],
        now,
      );
    }
    return charged;
  }

  async expire(now: string): Promise<number> {
    const at = toIso(now);
    // Past their results' expiry, or cancelled (DELETE): what they keep goes.
    const batches = await this.#db
      .selectFrom('batches')
      .select('id')
      .where((eb) => eb.or([eb('results_expire_at', '<=', at), eb('status', '=', 'cancelled')]))
      .where((eb) => eb.or([eb('ready', '>', 0), eb('data_key_sealed', 'is not', null), eb('sealed', '=', 0)]))
      .execute();
    let expired = 0;
    for (const { id } of batches) {
      expired += await this.#db.transaction().execute(async (tx) => {
        const n = await this.#expireReady(tx, id, at);
        // An open batch past its results' expiry takes no more items (appends answer batch_sealed): it is sealed, so it
        // completes once what it holds has ended, and `kumo batch --wait` and the status stop waiting.
        await moveBatch(tx, id, {}, [], at, { sealed: true });
        await tx.deleteFrom('delivery_buffer').where('batch_id', '=', id).where('expires_at', '<=', at).execute();
        await this.#shredIfIdle(tx, id);
        return n;
      });
    }
    return expired;
  }

  // ---- events -------------------------------------------------------------------------------------------------

  /**
   * Pages by (tx_order, id) (migration 0012), never by id alone: an id is made before its transaction commits, so an
   * event with a smaller id can commit after a greater one was listed. On PostgreSQL only events whose transaction is
   * below the statement's snapshot xmin are listed: every such transaction has ended, and every transaction still to
   * write one gets a greater id, so nothing can later appear before the last position listed (the transactional
   * outbox's rule; a long transaction anywhere in the cluster holds new events back until it ends, never loses one).
   * On SQLite `tx_order` is taken in commit order under the write lock, and a reader sees a prefix of the commits.
   */
  async events(query: EventQuery): Promise<EventRecord[]> {
    let select = this.#db.selectFrom('batch_events').selectAll().where('account_id', '=', query.accountId);
    if (query.batchId !== undefined) select = select.where('batch_id', '=', query.batchId);
    if (query.types !== undefined && query.types.length > 0) select = select.where('type', 'in', query.types);
    if (this.#db.getExecutor().adapter instanceof PostgresAdapter) {
      select = select.where(sql<boolean>`tx_order < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`);
    }
    const after = query.after;
    if (after !== undefined && 'position' in after) {
      // CAST: the order may pass 2^53, so it travels as a decimal string (SQLite: "bigint" has integer affinity).
      select = select.where(
        sql<boolean>`(tx_order, id) > (CAST(${after.position.order} AS bigint), ${after.position.id})`,
      );
    } else if (after !== undefined) {
      select = select.where('id', '>', after.id);
    }
    const rows = await select.orderBy('tx_order').orderBy('id').limit(query.limit).execute();
    return rows.map(toEventRecord);
  }

  async purgeEvents(now: string): Promise<number> {
    const result = await this.#db.deleteFrom('batch_events').where('expires_at', '<=', toIso(now)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // ---- outbox -------------------------------------------------------------------------------------------------

  claimDue(
    now: string,
    holder: string,
    leaseUntil: string,
    limit: number,
    perEndpoint: number,
  ): Promise<DueDelivery[]> {
    return this.#outbox.claimDue(now, holder, leaseUntil, limit, perEndpoint);
  }

  render(
    delivery: DueDelivery,
    open: (resultSealed: Uint8Array) => Buffer,
    forceThin?: boolean,
  ): Promise<RenderedDelivery> {
    return this.#outbox.render(delivery, open, forceThin);
  }

  delivered(
    eventId: string,
    holder: string,
    full: boolean,
    status: number,
    now: string,
  ): Promise<{ charged: boolean }> {
    return this.#outbox.delivered(eventId, holder, full, status, now);
  }

  failed(
    eventId: string,
    holder: string,
    result: { status: number | null; full: boolean; nextAttemptAt: string | null },
  ): Promise<void> {
    return this.#outbox.failed(eventId, holder, result);
  }

  releaseExpiredLeases(now: string): Promise<number> {
    return this.#outbox.releaseExpiredLeases(now);
  }

  /** Per-state counts of the batch's items, counted (tests check the maintained figures against it). */
  async countedStates(batchId: string): Promise<Partial<Record<ItemState, number>>> {
    const rows = await this.#db
      .selectFrom('batch_items')
      .select(['state', sql<number>`count(*)`.as('n')])
      .where('batch_id', '=', batchId)
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
  }
}

function isoOf(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : toIso(value);
}

/** Why an append cannot go into this batch row (sealed, cancelled, shredded, or past the plan's items), or null. */
function appendRefusal(row: BatchRow, adding: number, maxItems: number): AppendOutcome | null {
  if (
    Number(row.sealed) === 1 ||
    row.status === 'cancelling' ||
    row.status === 'cancelled' ||
    row.data_key_sealed === null
  )
    return { outcome: 'sealed', batch: toBatchRecord(row) };
  const total = Number(row.total);
  if (total + adding > maxItems) return { outcome: 'limit', total };
  return null;
}
