// Storage assembled from the shared Kysely stores; a dialect supplies only its connection and its DDL.
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { SettleRequest, Storage } from '../storage.js';
import type { KumoDatabase } from './schema.js';
import { KyselyAccountStore } from './kysely-account-store.js';
import { KyselyKeyStore } from './kysely-key-store.js';
import { KyselyCreditLedger, type KyselyCreditLedgerOptions } from './kysely-credit-ledger.js';
import { KyselyRequestLog, type JstDayOf } from './kysely-request-log.js';
import { KyselySessionStore } from './kysely-session-store.js';
import { KyselyInstanceStore } from './kysely-instance-store.js';
import { KyselyIdempotencyStore } from './kysely-idempotency-store.js';
import { KyselyReviewStore } from './kysely-review-store.js';

/** Migration name → its statements, run in order, one transaction per migration. Names sort in apply order. */
export type SqlMigrations = Readonly<Record<string, readonly string[]>>;

function toKyselyMigrations(migrations: SqlMigrations): Record<string, Migration> {
  const out: Record<string, Migration> = {};
  for (const [name, statements] of Object.entries(migrations)) {
    out[name] = {
      // One statement per call: node:sqlite prepares a single statement at a time.
      up: async (db) => {
        for (const statement of statements) await sql.raw(statement).execute(db);
      },
    };
  }
  return out;
}

/** Rolls back a settlement whose reservation or Idempotency-Key claim was no longer its own; never leaves this module. */
class NotCommitted extends Error {
  constructor(what = 'no open reservation to commit') {
    super(what);
  }
}

export interface KyselyStorageOptions {
  db: Kysely<KumoDatabase>;
  migrations: SqlMigrations;
  ledger: KyselyCreditLedgerOptions;
  /** The dialect's expression for the Asia/Tokyo day of a request row (the console's daily chart). */
  jstDay: JstDayOf;
}

export class KyselyStorage implements Storage {
  readonly db: Kysely<KumoDatabase>;
  readonly accounts: KyselyAccountStore;
  readonly keys: KyselyKeyStore;
  readonly ledger: KyselyCreditLedger;
  readonly requests: KyselyRequestLog;
  readonly instances: KyselyInstanceStore;
  readonly idempotency: KyselyIdempotencyStore;
  readonly reviews: KyselyReviewStore;
  readonly sessions: KyselySessionStore;
  readonly #migrations: SqlMigrations;
  #closed: Promise<void> | null = null;

  constructor(options: KyselyStorageOptions) {
    this.db = options.db;
    this.#migrations = options.migrations;
    this.accounts = new KyselyAccountStore(options.db);
    this.keys = new KyselyKeyStore(options.db);
    this.ledger = new KyselyCreditLedger(options.db, options.ledger);
    this.requests = new KyselyRequestLog(options.db, options.jstDay);
    this.instances = new KyselyInstanceStore(options.db);
    this.idempotency = new KyselyIdempotencyStore(options.db);
    this.reviews = new KyselyReviewStore(options.db);
    this.sessions = new KyselySessionStore(options.db);
  }

  /**
   * One transaction for the charge and its evidence: a committed charge always has its request row (and a completed
   * Idempotency-Key), and a row that cannot be written takes the charge back with it.
   */
  async settle(request: SettleRequest): Promise<boolean> {
    const { record, ledger, idempotency } = request;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (ledger === 'release') await this.ledger.releaseIn(trx, record.requestId);
        else if (ledger !== 'none' && !(await this.ledger.commitIn(trx, record.requestId, ledger.commit))) {
          throw new NotCommitted();
        }
        await this.requests.insertIn(trx, record);
        if (idempotency) {
          const held = await this.idempotency.finishIn(
            trx,
            record.accountId,
            idempotency.key,
            record.requestId,
            idempotency.complete,
          );
          // A call that ran past its hold was taken over by a retry, which will charge the key itself: charging this
          // one too would charge the key twice. (A release of a claim taken over has nothing to give back: it stands.)
          if (!held && idempotency.complete) throw new NotCommitted('the Idempotency-Key claim was taken over');
        }
      });
      return true;
    } catch (error) {
      if (error instanceof NotCommitted) return false;
      throw error;
    }
  }

  async migrate(): Promise<void> {
    const migrations = toKyselyMigrations(this.#migrations);
    const migrator = new Migrator({
      db: this.db,
      provider: { getMigrations: async () => migrations },
      migrationTableName: 'kumo_migration',
      migrationLockTableName: 'kumo_migration_lock',
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  }

  /** Idempotent. */
  async close(): Promise<void> {
    this.#closed ??= this.db.destroy();
    await this.#closed;
  }
}
