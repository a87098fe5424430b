// IdempotencyStore over Kysely: one row per (account, Idempotency-Key) holding a body hash and a request id, never output.
import type { Kysely, Transaction } from 'kysely';
import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecord, IdempotencyStore } from '../storage.js';
import type { KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';

/**
 * Race argument: a claim is an INSERT … ON CONFLICT DO NOTHING, then a conditional UPDATE that takes over only a dead
 * row (expired, or in progress past its hold). Both are decided by the primary key's uniqueness and row locks
 * (PostgreSQL) or the single writer (SQLite), so of parallel claims on one key exactly one sees `claimed`.
 */
export class KyselyIdempotencyStore implements IdempotencyStore {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const now = toIso(request.now);
    const values = {
      body_hash: request.bodyHash,
      request_id: request.requestId,
      state: 'in_progress' as const,
      created_at: now,
      expires_at: toIso(request.expiresAt),
      held_until: toIso(request.heldUntil),
    };
    return this.#db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('idempotency_keys')
        .values({ account_id: request.accountId, idempotency_key: request.key, ...values })
        .onConflict((oc) => oc.columns(['account_id', 'idempotency_key']).doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { outcome: 'claimed' };

      const taken = await trx
        .updateTable('idempotency_keys')
        .set(values)
        .where('account_id', '=', request.accountId)
        .where('idempotency_key', '=', request.key)
        .where((eb) =>
          eb.or([eb('expires_at', '<=', now), eb.and([eb('state', '=', 'in_progress'), eb('held_until', '<=', now)])]),
        )
        .executeTakeFirst();
      if (taken.numUpdatedRows > 0n) return { outcome: 'claimed' };

      const row = await trx
        .selectFrom('idempotency_keys')
        .select(['body_hash', 'request_id', 'state'])
        .where('account_id', '=', request.accountId)
        .where('idempotency_key', '=', request.key)
        .executeTakeFirstOrThrow();
      if (row.body_hash !== request.bodyHash) return { outcome: 'conflict', requestId: row.request_id };
      if (row.state === 'completed') return { outcome: 'replay', requestId: row.request_id };
      return { outcome: 'in_progress', requestId: row.request_id };
    });
  }

  /** Marks the claim of `requestId` completed, or frees it; a claim since taken over by another call is left alone. */
  async finishIn(
    trx: Transaction<KumoDatabase>,
    accountId: string,
    key: string,
    requestId: string,
    complete: boolean,
  ): Promise<void> {
    if (complete) {
      await trx
        .updateTable('idempotency_keys')
        .set({ state: 'completed', held_until: null })
        .where('account_id', '=', accountId)
        .where('idempotency_key', '=', key)
        .where('request_id', '=', requestId)
        .execute();
    } else {
      await trx
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', accountId)
        .where('idempotency_key', '=', key)
        .where('request_id', '=', requestId)
        .where('state', '=', 'in_progress')
        .execute();
    }
  }

  async get(accountId: string, key: string): Promise<IdempotencyRecord | null> {
    const row = await this.#db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!row) return null;
    return {
      accountId: row.account_id,
      key: row.idempotency_key,
      bodyHash: row.body_hash,
      requestId: row.request_id,
      state: row.state,
      createdAt: isoOf(row.created_at),
      expiresAt: isoOf(row.expires_at),
    };
  }

  async sweepExpired(now: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', toIso(now))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
