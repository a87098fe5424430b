// IdempotencyStore over Kysely: one row per (account, Idempotency-Key) holding a body hash and a request id, never output.
import type { Kysely, Transaction } from 'kysely';
import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecord, IdempotencyStore } from '../storage.js';
import type { KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';

/**
 * Race argument: a claim is an INSERT … ON CONFLICT DO NOTHING, then a conditional UPDATE that takes over only a dead
 * row (expired, in progress past its hold, or in progress on an instance whose heartbeat is stale). The takeover
 * writes the taker's own holder, time and hold, so a second taker re-checking the row finds a live claim. Both are decided by the primary key's uniqueness and row locks
 * (PostgreSQL) or the single writer (SQLite), so of parallel claims on one key exactly one sees `claimed`.
 * A replay is `UPDATE … SET replays = replays + 1 WHERE state = 'completed' AND replays < cap`: PostgreSQL re-checks the
 * WHERE against the row version a concurrent replay committed, SQLite runs them one at a time, so of N parallel replays
 * exactly as many as the cap leaves pass and the rest are `spent`.
 */
export interface KyselyIdempotencyStoreOptions {
  /** This instance's id, the holder of the claims it makes (unless a request names one). */
  holder: string;
  /** A heartbeat older than this marks its instance dead: the same bound as the credit sweep. Default 30,000 ms. */
  staleAfterMs?: number;
}

export class KyselyIdempotencyStore implements IdempotencyStore {
  readonly #db: Kysely<KumoDatabase>;
  readonly #holder: string;
  readonly #staleAfterMs: number;

  constructor(db: Kysely<KumoDatabase>, options: KyselyIdempotencyStoreOptions) {
    this.#db = db;
    this.#holder = options.holder;
    this.#staleAfterMs = options.staleAfterMs ?? 30_000;
  }

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const now = toIso(request.now);
    const holder = request.holder ?? this.#holder;
    const staleBefore = new Date(Date.parse(request.now) - this.#staleAfterMs).toISOString();
    const values = {
      holder,
      body_hash: request.bodyHash,
      request_id: request.requestId,
      state: 'in_progress' as const,
      created_at: now,
      expires_at: toIso(request.expiresAt),
      held_until: toIso(request.heldUntil),
      replays: 0,
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
          eb.or([
            eb('expires_at', '<=', now),
            eb.and([
              eb('state', '=', 'in_progress'),
              eb.or([
                eb('held_until', '<=', now),
                // Its holder is dead by the rule the credit sweep uses (KyselyCreditLedger.releaseOrphaned): a
                // heartbeat older than the bound, or none at all once the claim is older than it. Never the claimer's
                // own instance, which is alive since it is asking.
                eb.and([
                  eb('holder', 'is not', null),
                  eb('holder', '!=', holder),
                  eb.or([
                    eb.exists(
                      eb
                        .selectFrom('instances')
                        .select('instances.id')
                        .whereRef('instances.id', '=', 'idempotency_keys.holder')
                        .where('instances.heartbeat_at', '<', staleBefore),
                    ),
                    eb.and([
                      eb.not(
                        eb.exists(
                          eb
                            .selectFrom('instances')
                            .select('instances.id')
                            .whereRef('instances.id', '=', 'idempotency_keys.holder'),
                        ),
                      ),
                      eb('created_at', '<', staleBefore),
                    ]),
                  ]),
                ]),
              ]),
            ]),
          ]),
        )
        .executeTakeFirst();
      if (taken.numUpdatedRows > 0n) return { outcome: 'claimed' };

      const replayed = await trx
        .updateTable('idempotency_keys')
        .set((eb) => ({ replays: eb('replays', '+', 1) }))
        .where('account_id', '=', request.accountId)
        .where('idempotency_key', '=', request.key)
        .where('state', '=', 'completed')
        .where('body_hash', '=', request.bodyHash)
        .where('replays', '<', request.maxReplays)
        .returning('request_id')
        .executeTakeFirst();
      if (replayed) return { outcome: 'replay', requestId: replayed.request_id };

      const row = await trx
        .selectFrom('idempotency_keys')
        .select(['body_hash', 'request_id', 'state'])
        .where('account_id', '=', request.accountId)
        .where('idempotency_key', '=', request.key)
        .executeTakeFirstOrThrow();
      if (row.body_hash !== request.bodyHash) return { outcome: 'conflict', requestId: row.request_id };
      if (row.state === 'completed') return { outcome: 'spent', requestId: row.request_id };
      return { outcome: 'in_progress', requestId: row.request_id };
    });
  }

  /**
   * Marks the claim of `requestId` completed, or frees it; a claim since taken over by another call is left alone.
   * Returns whether this call still held the claim (false: another call took it over, or it expired and went).
   */
  async finishIn(
    trx: Transaction<KumoDatabase>,
    accountId: string,
    key: string,
    requestId: string,
    complete: boolean,
  ): Promise<boolean> {
    if (complete) {
      const updated = await trx
        .updateTable('idempotency_keys')
        .set({ state: 'completed', held_until: null, holder: null })
        .where('account_id', '=', accountId)
        .where('idempotency_key', '=', key)
        .where('request_id', '=', requestId)
        .where('state', '=', 'in_progress')
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    }
    const deleted = await trx
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .where('request_id', '=', requestId)
      .where('state', '=', 'in_progress')
      .executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  async returnReplay(accountId: string, key: string, requestId: string): Promise<boolean> {
    const updated = await this.#db
      .updateTable('idempotency_keys')
      .set((eb) => ({ replays: eb('replays', '-', 1) }))
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .where('request_id', '=', requestId)
      .where('state', '=', 'completed')
      .where('replays', '>', 0)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
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
      replays: Number(row.replays),
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
