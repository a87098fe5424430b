// KeyStore over Kysely: keys are found by the SHA-256 of their secret, never by the secret.
import type { Kysely, Selectable } from 'kysely';
import type { KeyNarrowing, KeyRecord, KeyStore, Operation, Output } from '../storage.js';
import type { ApiKeysTable, KumoDatabase } from './schema.js';
import { isoOf, isoOrNull, listOf, listToColumn, toIso } from './columns.js';
import { PreparedQuery } from './prepared.js';

function toRecord(row: Selectable<ApiKeysTable>): KeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    displayPrefix: row.display_prefix,
    hash: row.hash,
    sites: listOf<string>(row.sites),
    operations: listOf<Operation>(row.operations),
    outputs: listOf<Output>(row.outputs),
    monthlyCreditLimit: row.monthly_credit_limit,
    concurrencyLimit: row.concurrency_limit,
    createdAt: isoOf(row.created_at),
    revokedAt: isoOrNull(row.revoked_at),
    expiresAt: isoOrNull(row.expires_at),
    lineageId: row.lineage_id ?? row.id,
    ...(row.label === null ? {} : { label: row.label }),
  };
}

export class KyselyKeyStore implements KeyStore {
  readonly #db: Kysely<KumoDatabase>;
  /** Runs on every authenticated call. */
  readonly #byHash: PreparedQuery<Selectable<ApiKeysTable>, [string]>;
  /** Runs for every batch item (the key that submitted it, still usable?). */
  readonly #byId: PreparedQuery<Selectable<ApiKeysTable>, [string]>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
    this.#byHash = new PreparedQuery(1, (hash) => db.selectFrom('api_keys').selectAll().where('hash', '=', hash));
    this.#byId = new PreparedQuery(1, (id) => db.selectFrom('api_keys').selectAll().where('id', '=', id));
  }

  async create(key: KeyRecord): Promise<void> {
    await this.#db
      .insertInto('api_keys')
      .values({
        id: key.id,
        account_id: key.accountId,
        display_prefix: key.displayPrefix,
        hash: key.hash,
        sites: listToColumn(key.sites),
        operations: listToColumn(key.operations),
        outputs: listToColumn(key.outputs),
        monthly_credit_limit: key.monthlyCreditLimit,
        concurrency_limit: key.concurrencyLimit,
        created_at: toIso(key.createdAt),
        revoked_at: key.revokedAt === null ? null : toIso(key.revokedAt),
        expires_at: key.expiresAt === null ? null : toIso(key.expiresAt),
        lineage_id: key.lineageId ?? key.id,
        label: key.label ?? null,
      })
      .execute();
  }

  async get(id: string): Promise<KeyRecord | null> {
    const row = await this.#byId.first(this.#db, id);
    return row ? toRecord(row) : null;
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const row = await this.#byHash.first(this.#db, hash);
    return row ? toRecord(row) : null;
  }

  async list(accountId?: string): Promise<KeyRecord[]> {
    let query = this.#db.selectFrom('api_keys').selectAll();
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    // Ids are time-prefixed, so this is creation order even when two keys share a millisecond.
    const rows = await query.orderBy('id').execute();
    return rows.map(toRecord);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_keys')
      .set({ revoked_at: toIso(at) })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async narrow(id: string, narrowing: KeyNarrowing): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_keys')
      .set({
        sites: listToColumn(narrowing.sites),
        operations: listToColumn(narrowing.operations),
        outputs: listToColumn(narrowing.outputs),
        monthly_credit_limit: narrowing.monthlyCreditLimit,
        concurrency_limit: narrowing.concurrencyLimit,
      })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
