// The embedded default: Storage in one SQLite file under the data folder, via node:sqlite.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Kysely, sql } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { HoldTransaction } from '../kysely/kysely-credit-ledger.js';
import { NodeSqliteDatabase } from './node-sqlite-database.js';
import { NodeSqliteDialect } from './node-sqlite-dialect.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { outageClassifyingDialect } from '../kysely/outage-dialect.js';
import { newId } from '../../accounts/ids.js';

export interface SqliteStorageOptions {
  /** The database file (e.g. `<data dir>/kumo.sqlite`), or `:memory:` for unit tests. */
  path: string;
  busyTimeoutMs?: number;
  /** This server instance (`ins_…`), the owner of the reservations it makes; a fresh id by default. */
  holder?: string;
  /** A heartbeat older than this marks its instance dead (see KyselyCreditLedger). */
  staleAfterMs?: number;
}

/** Timestamps are ISO text ending in Z, which SQLite's date() reads as UTC; Japan keeps UTC+9 all year. */
export const sqliteJstDay = () => sql<string>`date(created_at, '+9 hours')`;

export async function createSqliteStorage(options: SqliteStorageOptions): Promise<KyselyStorage> {
  if (options.path !== ':memory:') {
    await mkdir(dirname(options.path), { recursive: true });
    // Key hashes and account data live here: create the file readable by its owner only (WAL files follow suit).
    const handle = await open(options.path, 'a', 0o600);
    await handle.close();
  }
  const database = new NodeSqliteDatabase(
    options.path,
    options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs },
  );
  const db = new Kysely<KumoDatabase>({ dialect: outageClassifyingDialect(new NodeSqliteDialect({ database })) });
  return new KyselyStorage({
    db,
    migrations: sqliteMigrations,
    jstDay: sqliteJstDay,
    // A process killed mid-call is found dead by its stale heartbeat, never by its pid: a zombie or a reused pid
    // would look alive for ever (docs/architecture.md, liveness).
    ledger: {
      holder: options.holder ?? newId('ins'),
      holdTransaction: holdWithoutFsync,
      ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }),
    },
  });
}

/**
 * A reservation commits with synchronous=NORMAL: durable if the process is killed (WAL), not waited onto the disk. The
 * settlement that turns it into a charge commits with synchronous=FULL, and its fsync of the WAL persists every frame
 * before it, the reservation included; a power cut that loses a hold loses only a call that was never answered. One
 * connection (Kysely's SQLite driver serializes on it) keeps another transaction from running in between, and the
 * level goes back to FULL before the connection is let go. PRAGMA synchronous cannot change inside a transaction.
 */
export const holdWithoutFsync: HoldTransaction = (db, body) =>
  db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await connection.transaction().execute(body);
    } finally {
      await sql`pragma synchronous = full`.execute(connection);
    }
  });
