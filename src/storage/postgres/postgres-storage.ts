// Storage shared by many instances: PostgreSQL through a pg Pool and Kysely's PostgresDialect.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import { postgresMigrations } from './postgres-migrations.js';
import { outageClassifyingDialect } from '../kysely/outage-dialect.js';
import { newId } from '../../accounts/ids.js';

export interface PostgresStorageOptions {
  /** `postgres://user:pass@host:5432/db` */
  url: string;
  poolSize: number;
  /** How long a query waits for a free pooled connection before failing (so a dead database fails fast). */
  connectionTimeoutMs?: number;
  /** Errors of idle pooled connections (e.g. the server restarted); without a listener they would crash the process. */
  onIdleError?: (error: Error) => void;
  /** This server instance (`ins_…`), the owner of the reservations it makes; a fresh id by default. */
  instanceId?: string;
  /** A heartbeat older than this marks its instance dead (see KyselyCreditLedger). */
  staleAfterMs?: number;
}

/** The Asia/Tokyo day of a timestamptz. */
export const postgresJstDay = () => sql<string>`to_char(created_at AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD')`;

export async function createPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    // Finds a dead peer (a dropped route, a server gone without a FIN) instead of waiting on it for ever.
    keepAlive: true,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  // pg-pool listens for errors on idle clients only: a checked-out client whose socket dies between two queries
  // (inside a transaction, say) emits 'error' with no listener, which ends the process. This listener stays for
  // the client's life; the query in flight, if any, still rejects and is classified as `unavailable`.
  pool.on('connect', (client) => client.on('error', (error) => options.onIdleError?.(error)));
  const db = new Kysely<KumoDatabase>({ dialect: outageClassifyingDialect(new PostgresDialect({ pool })) });
  return new KyselyStorage({
    db,
    migrations: postgresMigrations,
    jstDay: postgresJstDay,
    ledger: {
      holder: options.instanceId ?? newId('ins'),
      ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }),
    },
  });
}
