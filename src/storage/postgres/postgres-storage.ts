// Storage shared by many instances: PostgreSQL through a pg Pool and Kysely's PostgresDialect.
import { hostname } from 'node:os';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import { postgresMigrations } from './postgres-migrations.js';

export interface PostgresStorageOptions {
  /** `postgres://user:pass@host:5432/db` */
  url: string;
  poolSize: number;
  /** How long a query waits for a free pooled connection before failing (so a dead database fails fast). */
  connectionTimeoutMs?: number;
  /** Errors of idle pooled connections (e.g. the server restarted); without a listener they would crash the process. */
  onIdleError?: (error: Error) => void;
}

export async function createPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  const db = new Kysely<KumoDatabase>({ dialect: new PostgresDialect({ pool }) });
  return new KyselyStorage({
    db,
    migrations: postgresMigrations,
    // Instances on other machines share this database and a pid means nothing across them, so reservations of a
    // killed instance are freed by expiry alone.
    ledger: { holder: `${hostname()}:${process.pid}` },
  });
}
