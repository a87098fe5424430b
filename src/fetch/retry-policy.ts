// Which failures are worth another try, how long to wait before it, and what the caller is told when tries run out.
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';

/** What one request produced; only `page` and `redirect` continue the fetch without a retry. */
export type Outcome =
  | { kind: 'page'; status: number; headers: Record<string, string>; body: Uint8Array }
  | { kind: 'redirect'; location: URL }
  | {
      kind: 'retry';
      code: ErrorCode;
      detail: string;
      retryAfterMs?: number;
      /**
       * Who the pause in retryAfterMs is owed by: `host` when the target said so itself (its Retry-After is a request
       * to every client), `account` when we chose it (a 429 without Retry-After may limit only this caller).
       */
      pauseScope?: 'host' | 'account';
    };

const timeoutCodes = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
// Failures a second try cannot fix: the peer is misconfigured or hostile, not flaky.
const permanentCodes = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', 'HPE_HEADER_OVERFLOW']);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export const timedOut: Outcome = { kind: 'retry', code: 'fetch_timeout', detail: 'the site did not answer in time' };

/** A failed connection or read as a retryable outcome; throws for failures a second try cannot fix. */
export function networkFailure(error: unknown): Outcome {
  const code = codeOf(error);
  if (timeoutCodes.has(code)) return timedOut;
  if (permanentCodes.has(code)) throw new KumoError('fetch_failed', 'the site sent oversized response headers');
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')) {
    throw new KumoError('fetch_failed', 'the TLS connection to the site could not be verified');
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return { kind: 'retry', code: 'fetch_failed', detail: "the site's host name did not resolve" };
  }
  return { kind: 'retry', code: 'fetch_failed', detail: 'the connection to the site failed' };
}

/** The error a retryable outcome becomes when no further try is made; the site's Retry-After travels with it. */
export function givenUp(outcome: Extract<Outcome, { kind: 'retry' }>): KumoError {
  return new KumoError(
    outcome.code,
    outcome.detail,
    outcome.retryAfterMs === undefined ? {} : { retryAfterSeconds: retryAfterSeconds(outcome.retryAfterMs) },
  );
}

/** Whatever ended the fetch, as a KumoError carrying the number of tries. */
export function finalError(
  error: unknown,
  attempts: number,
  deadline: AbortSignal,
  caller: AbortSignal | undefined,
): KumoError {
  let code: ErrorCode;
  let detail: string;
  let retryAfterSeconds: number | undefined;
  if (isKumoError(error)) {
    code = error.code;
    detail = error.message;
    retryAfterSeconds = error.extras.retryAfterSeconds;
  } else if (caller?.aborted) {
    code = 'fetch_failed';
    detail = 'the fetch was cancelled';
  } else if (deadline.aborted) {
    code = 'fetch_timeout';
    detail = 'the site did not answer within the deadline';
  } else {
    code = 'fetch_failed';
    detail = 'the fetch failed';
  }
  return new KumoError(
    code,
    detail,
    { ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }), body: { attempts } },
    { cause: error },
  );
}

/** Exponential backoff with "equal jitter": half fixed, half random, so synchronized retries spread out. */
export function backoff(baseMs: number, attemptsSoFar: number): number {
  const full = baseMs * 2 ** (attemptsSoFar - 1);
  return Math.round(full / 2 + Math.random() * (full / 2));
}

/** No site may rest a host (or be waited for) longer than this, whatever its Retry-After says. */
export const maxRetryAfterMs = 3_600_000;
/** The pause a site is owed when it asks for one without saying (or without saying readably) how long. */
export const defaultPauseMs = 60_000;

/**
 * Retry-After as delta-seconds or an HTTP-date, in ms from `now` (the caller's clock), at most an hour; undefined when absent. A value that
 * is present but unreadable (negative, fractional, garbage) still asks for a pause: the default minute.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(maxRetryAfterMs, Number(text) * 1000);
  // Only a real date, never a bare number Date.parse would read as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return defaultPauseMs;
  return Math.min(maxRetryAfterMs, Math.max(0, at - now));
}

/** A wait in ms as a Retry-After in whole seconds: rounded up, and never 0 (that would invite an instant retry). */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
