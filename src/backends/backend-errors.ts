// Tells a backend outage (database, Redis) from a bug, in one place, so an outage is a 503 `unavailable` everywhere.
import { KumoError, isKumoError } from '../errors.js';

export type Backend = 'storage' | 'limits';

/** Seconds a caller is asked to wait: about one heartbeat, the time a reconnect normally takes. */
export const backendRetryAfterSeconds = 5;

// The socket or the name lookup failed: the backend is unreachable, whatever driver saw it.
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLite primary result codes that mean "the file cannot be written now", not "the statement is wrong":
// BUSY 5, LOCKED 6, READONLY 8, IOERR 10, FULL 13, CANTOPEN 14, PROTOCOL 15.
const sqliteOutages = new Set([5, 6, 8, 10, 13, 14, 15]);

// PostgreSQL SQLSTATEs of a server that is going away, not accepting connections, out of resources, or a read-only
// standby after a failover (class 08 is matched by prefix).
// 57014 is a statement cancelled by statement_timeout, 25P03 a session ended by idle_in_transaction_session_timeout,
// 55P03 a lock not granted in time: a database too slow or stuck to answer, not a wrong statement.
const postgresOutages = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53000',
  '53100',
  '53200',
  '53300',
  '25006',
  '57014',
  '25P03',
  '55P03',
]);

// Redis replies that mean the server cannot serve right now (a replica, loading, failing over).
const redisReplyOutage = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY)\b/;

// Messages of pg and ioredis for a dead connection; neither library gives these a code.
const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection is closed|Command timed out|Stream isn't writeable|Reached the max retries per request limit|connect ETIMEDOUT|Client was closed/i;

/** True when `error` says a backend cannot be reached or cannot serve now (retrying later can succeed). */
export function isBackendOutage(error: unknown): boolean {
  if (!(error instanceof Error) || isKumoError(error)) return false;
  const e = error as Error & { code?: unknown; errcode?: unknown; errno?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && networkCodes.has(e.code)) return true;
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return sqliteOutages.has(e.errcode & 0xff);
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
    return e.code.startsWith('08') || postgresOutages.has(e.code);
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (e.name === 'ReplyError') return redisReplyOutage.test(e.message);
  if (connectionMessages.test(e.message)) return true;
  // Node reports a failed connect to every resolved address at once.
  if (error instanceof AggregateError) return error.errors.some(isBackendOutage);
  return false;
}

/**
 * The 503 a caller sees; `backend` names which one when the boundary knows (null: caught further out). The driver's
 * error rides along as `cause` for the log, never in the body.
 */
export function unavailable(backend: Backend | null, cause?: unknown): KumoError {
  const what = backend === 'storage' ? 'the database' : backend === 'limits' ? 'the limits store' : 'a backend';
  return new KumoError(
    'unavailable',
    `${what} is unavailable; retry later`,
    { retryAfterSeconds: backendRetryAfterSeconds, ...(backend ? { body: { backend } } : {}) },
    cause === undefined ? undefined : { cause },
  );
}

/** At a backend's boundary: an outage becomes `unavailable`; anything else (a bug, a constraint) passes unchanged. */
export function classifyBackendError(backend: Backend, error: unknown): unknown {
  return isBackendOutage(error) ? unavailable(backend, error) : error;
}

/** Runs one backend operation, classifying what it throws. */
export async function guardBackend<T>(backend: Backend, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw classifyBackendError(backend, error);
  }
}
