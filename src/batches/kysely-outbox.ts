// The Outbox over batch_events: deliveries claimed exclusively with a per-endpoint cap, rendered from the buffer, settled with the handover in the same transaction.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { isoOf, toIso } from '../storage/kysely/columns.js';
import type { Tx } from './work-queue.js';
import type { DueDelivery, EventType, RenderedDelivery } from './batch-store.js';
import { bytesOf, countsOf, jstIso, type ItemRow } from './batch-rows.js';

/** Where a thin delivery's result is fetched (GET …/items): relative to the API's base URL unless made absolute. */
export type ResultUrl = (item: { batchId: string; itemId: string; index: number }) => string;

/** The page of GET /v1/batches/{id}/items that starts at the item (cursors as the API makes them: `i<index before>`). */
export const defaultResultUrl: ResultUrl = ({ batchId, index }) => {
  const path = `/v1/batches/${batchId}/items`;
  return index === 0
    ? `${path}?limit=1`
    : `${path}?cursor=${Buffer.from(`i${index - 1}`).toString('base64url')}&limit=1`;
};

/** From this many non-2xx answers to full deliveries on, an event is delivered thin (DESIGN §8). */
export const thinAfterFullFailures = 3;

/** Serializes claims across instances on PostgreSQL (pg_advisory_xact_lock), so per-endpoint caps count exactly. */
const claimLockKey = 0x6b756d6f; // 'kumo'

export interface KyselyOutboxDeps {
  handoverIn: (tx: Tx, itemIds: readonly string[], via: 'webhook' | 'poll', now: string) => Promise<string[]>;
  resultUrl?: ResultUrl;
  /** The time a render is judged at (whether the batch's results have expired). */
  now: () => number;
}

export class KyselyOutbox {
  readonly #db: Kysely<KumoDatabase>;
  readonly #deps: KyselyOutboxDeps;
  readonly #resultUrl: ResultUrl;
  readonly #postgres: boolean;

  constructor(db: Kysely<KumoDatabase>, deps: KyselyOutboxDeps) {
    this.#db = db;
    this.#deps = deps;
    this.#resultUrl = deps.resultUrl ?? defaultResultUrl;
    this.#postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * Exclusive across instances: PostgreSQL takes one transaction-level advisory lock for the claim (short: two reads
   * and one guarded UPDATE), so the live leases per endpoint it counts cannot change under it; SQLite has one writer.
   * A delivery whose lease ran out counts as due again (its holder died), as after releaseExpiredLeases.
   */
  async claimDue(
    now: string,
    holder: string,
    leaseUntil: string,
    limit: number,
    perEndpoint: number,
  ): Promise<DueDelivery[]> {
    if (limit <= 0 || perEndpoint <= 0) return [];
    const at = toIso(now);
    const until = toIso(leaseUntil);
    return this.#db.transaction().execute(async (tx) => {
      if (this.#postgres) await sql`SELECT pg_advisory_xact_lock(${claimLockKey})`.execute(tx);
      const live = await tx
        .selectFrom('batch_events')
        .select(['endpoint_id', sql<number>`count(*)`.as('n')])
        .where('delivery_state', '=', 'delivering')
        .where('lease_until', '>', at)
        .groupBy('endpoint_id')
        .execute();
      const leased = new Map(live.map((row) => [row.endpoint_id, Number(row.n)]));
      const due = await sql<{ id: string; endpoint_id: string }>`
        SELECT id, endpoint_id FROM (
          SELECT id, endpoint_id, next_attempt_at,
            row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS rn
          FROM batch_events
          WHERE endpoint_id IS NOT NULL
            AND ((delivery_state = 'pending' AND next_attempt_at <= ${at})
              OR (delivery_state = 'delivering' AND lease_until <= ${at}))
        ) due
        WHERE rn <= ${perEndpoint}
        ORDER BY next_attempt_at, id
        LIMIT ${Math.max(limit * 4, 100)}`.execute(tx);
      const chosen: string[] = [];
      for (const row of due.rows) {
        if (chosen.length >= limit) break;
        const n = leased.get(row.endpoint_id) ?? 0;
        if (n >= perEndpoint) continue;
        leased.set(row.endpoint_id, n + 1);
        chosen.push(row.id);
      }
      if (chosen.length === 0) return [];
      const claimed = await tx
        .updateTable('batch_events')
        .set({ delivery_state: 'delivering', holder, lease_until: until })
        .where('id', 'in', chosen)
        .where((eb) =>
          eb.or([
            eb.and([eb('delivery_state', '=', 'pending'), eb('next_attempt_at', '<=', at)]),
            eb.and([eb('delivery_state', '=', 'delivering'), eb('lease_until', '<=', at)]),
          ]),
        )
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const batches = await tx
        .selectFrom('batches')
        .select(['id', 'webhook_payload', 'results_expire_at', 'data_key_sealed'])
        .where('id', 'in', [...new Set(claimed.map((row) => row.batch_id))])
        .execute();
      const byId = new Map(batches.map((row) => [row.id, row]));
      return claimed
        .map((row): DueDelivery => {
          const batch = byId.get(row.batch_id);
          const thin = batch?.webhook_payload === 'thin' || Number(row.full_failures) >= thinAfterFullFailures;
          return {
            eventId: row.id,
            accountId: row.account_id,
            batchId: row.batch_id,
            itemId: row.item_id,
            type: row.type as EventType,
            sequence: Number(row.sequence),
            endpointId: row.endpoint_id!,
            attempts: Number(row.attempts),
            payload: thin ? 'thin' : 'full',
            createdAt: isoOf(row.created_at),
            resultsExpireAt: batch ? isoOf(batch.results_expire_at) : isoOf(row.expires_at),
            dataKeySealed: batch?.data_key_sealed ? bytesOf(batch.data_key_sealed) : null,
          };
        })
        .sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
    });
  }

  async render(
    delivery: DueDelivery,
    open: (resultSealed: Uint8Array) => Buffer,
    forceThin = false,
  ): Promise<RenderedDelivery> {
    const batch = await this.#db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', delivery.batchId)
      .executeTakeFirst();
    const timestamp = jstIso(delivery.createdAt);
    if (delivery.itemId === null) {
      const data = {
        batch_id: delivery.batchId,
        status: batch?.status ?? null,
        sequence: delivery.sequence,
        counts: batch ? countsOf(batch) : null,
        credits: batch
          ? {
              charged: Number(batch.credits_charged),
              held: Number(batch.credits_held),
              max: batch.max_credits,
            }
          : null,
      };
      return { body: JSON.stringify({ type: delivery.type, timestamp, data }), full: false };
    }
    const item = (await this.#db
      .selectFrom('batch_items as i')
      .leftJoin('delivery_buffer as d', 'd.item_id', 'i.id')
      .selectAll('i')
      .select('d.result_sealed')
      .where('i.id', '=', delivery.itemId)
      .executeTakeFirstOrThrow()) as ItemRow & { result_sealed: Uint8Array | null };
    const data: Record<string, unknown> = {
      batch_id: delivery.batchId,
      item_id: item.id,
      index: Number(item.item_index),
      ref: item.ref,
      sequence: delivery.sequence,
      url: item.url,
      request_id: item.request_id,
      cost_units: Number(item.cost_units),
      attempts: Number(item.attempts),
    };
    let full = false;
    if (delivery.type === 'item.succeeded') {
      const sealed = item.result_sealed;
      // A result goes out only where a 2xx to it can be charged (BatchStore.handover's rule) or already was: an item
      // still ready (or delivered and retained) of a batch neither cancelled nor past its results' expiry. Anything
      // else would hand a result over for free.
      const chargeable =
        (item.state === 'ready' || item.state === 'delivered') &&
        batch !== undefined &&
        batch.status !== 'cancelling' &&
        batch.status !== 'cancelled' &&
        this.#deps.now() < new Date(isoOf(batch.results_expire_at)).getTime();
      if (!forceThin && delivery.payload === 'full' && sealed !== null && chargeable) {
        data['result'] = JSON.parse(open(bytesOf(sealed)).toString('utf8')) as unknown;
        full = true;
      } else {
        data['result_url'] = this.#resultUrl({
          batchId: delivery.batchId,
          itemId: item.id,
          index: Number(item.item_index),
        });
      }
    } else if (item.error_code !== null) {
      data['error'] = {
        code: item.error_code,
        status: Number(item.error_status ?? 0),
        retryable: Number(item.error_retryable ?? 0) === 1,
      };
    }
    return { body: JSON.stringify({ type: delivery.type, timestamp, data }), full };
  }

  async delivered(
    eventId: string,
    holder: string,
    full: boolean,
    status: number,
    now: string,
  ): Promise<{ charged: boolean }> {
    const at = toIso(now);
    return this.#db.transaction().execute(async (tx) => {
      const event = await tx
        .updateTable('batch_events')
        .set((eb) => ({
          delivery_state: 'delivered',
          delivered_at: at,
          last_status: status,
          attempts: eb('attempts', '+', 1),
          holder: null,
          lease_until: null,
        }))
        .where('id', '=', eventId)
        .where('holder', '=', holder)
        .where('delivery_state', '=', 'delivering')
        .returning(['type', 'item_id'])
        .executeTakeFirst();
      if (!event || !full || event.type !== 'item.succeeded' || event.item_id === null) return { charged: false };
      const charged = await this.#deps.handoverIn(tx, [event.item_id], 'webhook', at);
      return { charged: charged.length > 0 };
    });
  }

  async failed(
    eventId: string,
    holder: string,
    result: { status: number | null; full: boolean; nextAttemptAt: string | null },
  ): Promise<void> {
    await this.#db
      .updateTable('batch_events')
      .set((eb) => ({
        delivery_state: result.nextAttemptAt === null ? 'failed' : 'pending',
        next_attempt_at: result.nextAttemptAt === null ? null : toIso(result.nextAttemptAt),
        last_status: result.status,
        attempts: eb('attempts', '+', 1),
        full_failures: result.full ? eb('full_failures', '+', 1) : eb.ref('full_failures'),
        holder: null,
        lease_until: null,
      }))
      .where('id', '=', eventId)
      .where('holder', '=', holder)
      .where('delivery_state', '=', 'delivering')
      .execute();
  }

  async releaseExpiredLeases(now: string): Promise<number> {
    const result = await this.#db
      .updateTable('batch_events')
      .set({ delivery_state: 'pending', holder: null, lease_until: null })
      .where('delivery_state', '=', 'delivering')
      .where('lease_until', '<=', toIso(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
