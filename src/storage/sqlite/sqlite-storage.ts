// The embedded default: Storage in one SQLite file under the data folder, via node:sqlite.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CompiledQuery, Kysely, sql } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { HoldTransaction } from '../kysely/kysely-credit-ledger.js';
import { NodeSqliteDatabase } from './node-sqlite-database.js';
import { NodeSqliteDialect } from './node-sqlite-dialect.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { outageClassifyingDialect } from '../kysely/outage-dialect.js';
import { newId } from '../../accounts/ids.js';
import { ThreadFdatasync, WalFlusher, type FileFlush } from './wal-sync.js';

export interface SqliteStorageOptions {
  /** The database file (e.g. `<data dir>/kumo.sqlite`), or `:memory:` for unit tests. */
  path: string;
  busyTimeoutMs?: number;
  /** This server instance (`ins_…`), the owner of the reservations it makes; a fresh id by default. */
  holder?: string;
  /** A heartbeat older than this marks its instance dead (see KyselyCreditLedger). */
  staleAfterMs?: number;
  /** How the write-ahead log is put on the disk after a charge (tests count the calls); default fdatasync on a thread. */
  flushFile?: (walPath: string) => FileFlush;
  /** Told once when a flush of the log fails and group commit is given up (docs/decisions/0017). */
  onFlushFailure?: (error: Error) => void;
  /**
   * Checkpoint the write-ahead log on a thread of its own every this many ms (the server: decision 0024) rather than
   * inside a commit; default off (SQLite's own checkpoints), which short-lived processes such as the CLI keep.
   */
  checkpointEveryMs?: number;
  /** Told once when a checkpoint on that thread fails (SQLite's own checkpoints then keep the log bounded). */
  onCheckpointFailure?: (code: string) => void;
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
  const database = new NodeSqliteDatabase(options.path, {
    ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    ...(options.checkpointEveryMs === undefined ? {} : { checkpointEveryMs: options.checkpointEveryMs }),
    ...(options.onCheckpointFailure ? { onCheckpointFailure: options.onCheckpointFailure } : {}),
  });
  const db = new Kysely<KumoDatabase>({ dialect: outageClassifyingDialect(new NodeSqliteDialect({ database })) });
  // An in-memory database, or one SQLite could not put in WAL mode, has no log to flush: its settlements commit FULL.
  const walPath = database.walPath();
  const wal = walPath
    ? new WalFlusher(options.flushFile ? options.flushFile(walPath) : new ThreadFdatasync(walPath))
    : null;
  return new KyselyStorage({
    db,
    migrations: sqliteMigrations,
    jstDay: sqliteJstDay,
    // Closed here too: Kysely leaves a never-queried connection open, and never waits for the checkpoint thread.
    release: async () => {
      database.close();
      await database.closed();
    },
    ...(wal
      ? {
          groupCommit: {
            settleTransaction: holdWithoutFsync,
            log: wal,
            onFlushFailure: options.onFlushFailure ?? (() => undefined),
          },
        }
      : {}),
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
 * A transaction that commits without waiting for the disk (docs/decisions/0014 and 0017).
 *
 * A reservation commits with synchronous=NORMAL: durable if the process is killed (WAL), not waited onto the disk. So
 * does a settlement, which the group commit (WalFlusher) then puts on the disk before its answer is sent; its flush of
 * the write-ahead log persists every frame before it, the reservation included. A power cut that loses a hold or an
 * unflushed charge loses only a call that was never answered (a failed flush is decision 0017's case). Every other
 * transaction keeps synchronous=FULL. One connection (Kysely's SQLite driver serializes on it) keeps another
 * transaction from running in between, and the level goes back to FULL before the connection is let go. PRAGMA
 * synchronous cannot change inside a transaction.
 */
export const holdWithoutFsync: HoldTransaction = (db, body) =>
  db.connection().execute(async (connection) => {
    await connection.executeQuery(synchronousNormal);
    try {
      return await connection.transaction().execute(body);
    } finally {
      await connection.executeQuery(synchronousFull);
    }
  });

// Twice per call each: compiled once.
const synchronousNormal = CompiledQuery.raw('pragma synchronous = normal');
const synchronousFull = CompiledQuery.raw('pragma synchronous = full');

/**
 * After rows were deleted so that their content is gone from the disk (the result cache, decision 0026): the pages
 * already hold zeros where the rows were (secure_delete, node-sqlite-database.ts), and the write-ahead log, which still
 * holds the pages as they were written, is copied into the file and truncated. Best effort: with a reader holding an
 * old snapshot the log is truncated at a later sweep.
 */
export async function truncateWriteAheadLog(db: Kysely<KumoDatabase>): Promise<void> {
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}
