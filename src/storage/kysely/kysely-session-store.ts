// ConsoleSessionStore over Kysely: console sign-ins, keyed by the SHA-256 of the session id (never the id itself).
import type { Kysely, Selectable } from 'kysely';
import type { ConsoleSessionRecord, ConsoleSessionStore } from '../storage.js';
import type { ConsoleSessionsTable, KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';

function toRecord(row: Selectable<ConsoleSessionsTable>): ConsoleSessionRecord {
  return {
    idHash: row.id_hash,
    accountId: row.account_id,
    keyId: row.key_id,
    createdAt: isoOf(row.created_at),
    expiresAt: isoOf(row.expires_at),
  };
}

export class KyselySessionStore implements ConsoleSessionStore {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async create(session: ConsoleSessionRecord): Promise<void> {
    await this.#db
      .insertInto('console_sessions')
      .values({
        id_hash: session.idHash,
        account_id: session.accountId,
        key_id: session.keyId,
        created_at: toIso(session.createdAt),
        expires_at: toIso(session.expiresAt),
      })
      .execute();
  }

  async get(idHash: string, now: string): Promise<ConsoleSessionRecord | null> {
    const row = await this.#db
      .selectFrom('console_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', toIso(now))
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async delete(idHash: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('console_sessions').where('id_hash', '=', idHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteExpired(now: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('console_sessions')
      .where('expires_at', '<=', toIso(now))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
