// The embedded default: Storage in one SQLite file under the data folder, via node:sqlite.
import { mkdir, open } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { Kysely } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import { NodeSqliteDatabase } from './node-sqlite-database.js';
import { NodeSqliteDialect } from './node-sqlite-dialect.js';
import { sqliteMigrations } from './sqlite-migrations.js';

export interface SqliteStorageOptions {
  /** The database file (e.g. `<data dir>/kumo.sqlite`), or `:memory:` for unit tests. */
  path: string;
  busyTimeoutMs?: number;
  /**
   * Who this process is, as recorded on its reservations; defaults to `host:pid`. Tests set it to play a process
   * that has since died.
   */
  holder?: string;
}

/**
 * A reservation's holder is gone when it names this machine and a pid that no longer exists. ESRCH is the only
 * proof; EPERM (someone else's live process) or a pid reused by another program keeps the reservation until expiry,
 * which errs toward holding credits a little longer rather than freeing credits of a call still running.
 */
export function isLocalProcessGone(holder: string): boolean {
  const match = /^(.*):(\d+)$/.exec(holder);
  if (!match || match[1] !== hostname()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

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
  const db = new Kysely<KumoDatabase>({ dialect: new NodeSqliteDialect({ database }) });
  return new KyselyStorage({
    db,
    migrations: sqliteMigrations,
    ledger: {
      holder: options.holder ?? `${hostname()}:${process.pid}`,
      // The file is local, so every holder is a process on this machine: one killed mid-call has its credits
      // back at the next sweep (at start-up), not only after its reservation expires.
      isHolderGone: isLocalProcessGone,
    },
  });
}
