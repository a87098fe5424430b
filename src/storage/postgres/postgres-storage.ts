// Storage shared by many instances: PostgreSQL through a pg Pool and Kysely's PostgresDialect.
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { KumoDatabase } from '../kysely/schema.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { HoldTransaction } from '../kysely/kysely-credit-ledger.js';
import { postgresMigrations } from './postgres-migrations.js';
import type { SqlMigrations } from '../kysely/kysely-storage.js';
import { outageClassifyingDialect } from '../kysely/outage-dialect.js';
import { newId } from '../../accounts/ids.js';

export interface PostgresStorageOptions {
  /** `postgres://user:pass@host:5432/db` */
  url: string;
  poolSize: number;
  /** How long a query waits for a free pooled connection, opening one included, before failing. Default 3,000 ms. */
  connectionTimeoutMs?: number;
  /**
   * How long one statement may take: the server cancels it (`statement_timeout`), and the client gives up waiting
   * for an answer (`query_timeout`) and drops the connection, since a silent one cannot be trusted with the next
   * query. Default 5,000 ms.
   */
  queryTimeoutMs?: number;
  /** The server ends a session idle inside a transaction this long, freeing its row locks. Default 10,000 ms. */
  idleInTransactionTimeoutMs?: number;
  /** Idle time before TCP keepalive probes a connection. Default 10,000 ms. */
  keepAliveDelayMs?: number;
  /** Errors of idle pooled connections (e.g. the server restarted); without a listener they would crash the process. */
  onIdleError?: (error: Error) => void;
  /** This server instance (`ins_…`), the owner of the reservations it makes; a fresh id by default. */
  instanceId?: string;
  /** The schema's migrations; default `postgresMigrations` (a test adds its own). */
  migrations?: SqlMigrations;
  /** A heartbeat older than this marks its instance dead (see KyselyCreditLedger). */
  staleAfterMs?: number;
}

/** The Asia/Tokyo day of a timestamptz. */
export const postgresJstDay = () => sql<string>`to_char(created_at AT TIME ZONE 'Asia/Tokyo', 'YYYY-MM-DD')`;

/**
 * A transaction that commits without waiting for its WAL flush (`synchronous_commit = off` for it alone): for writes
 * that charge nothing and answer no one (a batch item's run, docs/decisions/0023). A database crash loses at most the
 * last such commits, in order; any later durable commit flushes them first.
 */
export const commitWithoutWaiting: HoldTransaction = (db, body) =>
  db.transaction().execute(async (tx) => {
    await sql`set local synchronous_commit = off`.execute(tx);
    return body(tx);
  });

export async function createPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  const queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
  // Every wait on the database is bounded, so a database that goes silent (packets dropped, no reset) fails a call
  // with 503 within connect + query timeout instead of holding it for the kernel's retransmission timeout (minutes).
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3_000,
    query_timeout: queryTimeoutMs,
    statement_timeout: queryTimeoutMs,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 10_000,
    // Finds a dead peer (a dropped route, a server gone without a FIN) on an idle connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: options.keepAliveDelayMs ?? 10_000,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  pool.on('connect', (client) => {
    // pg-pool listens for errors on idle clients only: a checked-out client whose socket dies between two queries
    // (inside a transaction, say) emits 'error' with no listener, which ends the process. This listener stays for
    // the client's life; the query in flight, if any, still rejects and is classified as `unavailable`.
    client.on('error', (error) => options.onIdleError?.(error));
    dropOnQueryTimeout(client);
  });
  const db = new Kysely<KumoDatabase>({ dialect: outageClassifyingDialect(new PostgresDialect({ pool })) });
  return new KyselyStorage({
    db,
    migrations: options.migrations ?? postgresMigrations,
    // Migrations run on a connection of their own, without statement_timeout or query_timeout: a long DDL is
    // legitimate there, and they run before the service takes calls. Opening it is still bounded.
    migrationDb: () => migrationDbOf(options),
    jstDay: postgresJstDay,
    ledger: {
      holder: options.instanceId ?? newId('ins'),
      ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }),
    },
  });
}

/** One connection, no statement or query timeout, for `migrate` only (destroyed after it). */
function migrationDbOf(options: PostgresStorageOptions): Kysely<KumoDatabase> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 1,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 3_000,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  return new Kysely<KumoDatabase>({ dialect: outageClassifyingDialect(new PostgresDialect({ pool })) });
}

/**
 * pg's `query_timeout` fails the query but keeps the connection, whose next query (the ROLLBACK, the next call's
 * BEGIN) would queue behind an answer that may never come. A connection that went silent is destroyed instead: the
 * client becomes unqueryable, so the ROLLBACK fails at once, and the pool discards it on release.
 */
function dropOnQueryTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') {
          (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        }
      });
    }
    return result;
  };
}
