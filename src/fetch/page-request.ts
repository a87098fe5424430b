// One request for a page and what its answer means: a page, a redirect, something worth retrying, or a refusal.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { KumoError, isKumoError } from '../errors.js';
import type { Clock } from '../time/clock.js';
import { forbiddenAddress, hasForbiddenAddress } from './address-guard.js';
import { isChallengeResponse, looksLikeBlockPage } from './block-page.js';
import { BodyEncodingError, BodyTooLargeError, readBody } from './body-reader.js';
import type { FetchTarget } from './fetcher.js';
import { defaultPauseMs, networkFailure, parseRetryAfter, timedOut, type Outcome } from './retry-policy.js';
import { discard, single, type TargetConnections } from './target-connections.js';

export interface PageRequestOptions {
  userAgent: string;
  /** Per request: from dispatch (connecting included) to the end of the response headers. */
  headersTimeoutMs: number;
  /** Cap on decoded body bytes (and on wire bytes). */
  maxBodyBytes: number;
  /** What "now" is for a Retry-After given as an HTTP-date. */
  clock: Clock;
}

// Headers the fetcher decides alone: who we are, how bytes travel, and where they go.
const OWNED_HEADERS = new Set([
  'host',
  'user-agent',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'cookie',
]);

export const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export async function requestPage(
  connections: TargetConnections,
  options: PageRequestOptions,
  url: URL,
  target: FetchTarget,
  signal: AbortSignal,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<Outcome> {
  const headers: Record<string, string> = {
    accept: acceptHeader(target.acceptContentTypes),
    'accept-language': 'ja',
  };
  for (const [name, value] of Object.entries(extraHeaders)) {
    const lower = name.toLowerCase();
    if (!OWNED_HEADERS.has(lower) && /^[a-z0-9-]+$/.test(lower) && !/[\r\n\0]/.test(value)) headers[lower] = value;
  }
  headers['user-agent'] = options.userAgent;
  headers['accept-encoding'] = 'gzip, deflate, br';

  // undici's own headers timer is coarse (about a second); this one is exact, connection time included.
  const headersDue = new AbortController();
  const headersTimer = setTimeout(() => headersDue.abort(), options.headersTimeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await connections.get(url, headers, AbortSignal.any([signal, headersDue.signal]));
  } catch (error) {
    if (signal.aborted || isKumoError(error)) throw error;
    if (hasForbiddenAddress(error)) throw forbiddenAddress();
    if (headersDue.signal.aborted) return timedOut;
    return networkFailure(error);
  } finally {
    clearTimeout(headersTimer);
  }

  const body = response.body as unknown as Readable;
  let consumed = false;
  try {
    const status = response.statusCode;
    if (isChallengeResponse(response.headers)) throw blocked();
    if (redirectStatuses.has(status)) {
      const location = single(response.headers.location);
      if (location === undefined) throw new KumoError('fetch_failed', `the site answered ${status} without a Location`);
      try {
        return { kind: 'redirect', location: new URL(location, url) };
      } catch {
        throw new KumoError('fetch_failed', 'the site redirected to an unparseable location');
      }
    }
    if (status >= 500) {
      // A 503 may say how long the site wants us away, as a 429 does; the breaker rests the host that long.
      const retryAfterMs =
        status === 503 ? parseRetryAfter(single(response.headers['retry-after']), options.clock.now()) : undefined;
      // A 503 that says when to come back is the site asking for a pause, not a failure: the caller is told to
      // wait (site_busy, Retry-After at least the site's) rather than that the page is broken.
      return retryAfterMs === undefined
        ? { kind: 'retry', code: 'fetch_failed', detail: `the site answered ${status}` }
        : {
            kind: 'retry',
            code: 'site_busy',
            detail: 'the site asked us to come back later (503)',
            retryAfterMs,
            pauseScope: 'host',
          };
    }
    if (status === 429) {
      const asked = parseRetryAfter(single(response.headers['retry-after']), options.clock.now());
      const detail = 'the site asked us to slow down (429)';
      // Its own Retry-After is a request to every client. Without one we still owe a pause (a minute, the usual
      // rate-limit window), but the limit may be this caller's alone (e-Stat counts per appId): only its account rests.
      return asked === undefined
        ? { kind: 'retry', code: 'site_busy', detail, retryAfterMs: defaultPauseMs, pauseScope: 'account' }
        : { kind: 'retry', code: 'site_busy', detail, retryAfterMs: asked, pauseScope: 'host' };
    }
    if (status === 401 || status === 403) throw blocked();
    const notFound = status === 404 || status === 410;
    if (!notFound && (status < 200 || status > 299)) {
      throw new KumoError('fetch_failed', `the site answered ${status}`);
    }
    if (!notFound) {
      const essence = contentTypeEssence(single(response.headers['content-type']));
      if (!target.acceptContentTypes.includes(essence)) {
        throw new KumoError('fetch_failed', `the site sent ${describeType(essence)}, not a page type it serves`);
      }
    }
    consumed = true;
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(body, single(response.headers['content-encoding']), options.maxBodyBytes, signal);
    } catch (error) {
      // A socket that breaks or stalls mid-body is as retryable as one that never answered.
      if (signal.aborted || isKumoError(error)) throw error;
      return networkFailure(error);
    }
    if (!notFound && looksLikeBlockPage(bytes)) throw blocked();
    return { kind: 'page', status, headers: flattenHeaders(response.headers), body: bytes };
  } finally {
    // Anything not read to the end is dropped with its socket rather than drained from a possibly hostile peer.
    if (!consumed) discard(body);
  }
}

/** The decoded body under the cap, with cap and encoding failures as the caller's error codes. */
async function readCapped(
  body: Readable,
  encoding: string | undefined,
  maxBodyBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array> {
  try {
    return await readBody(body, encoding, maxBodyBytes, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof BodyTooLargeError) {
      throw new KumoError('content_too_large', `the page is larger than ${maxBodyBytes} bytes`);
    }
    if (error instanceof BodyEncodingError) {
      throw new KumoError('fetch_failed', `the site sent a body with ${error.message}`);
    }
    throw error;
  }
}

function blocked(): KumoError {
  return new KumoError('target_blocked', 'the site refused the request (block or challenge page)');
}

function acceptHeader(types: readonly string[]): string {
  return types.length === 0 ? '*/*' : `${types.join(', ')}, */*;q=0.1`;
}

function contentTypeEssence(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Content types we name in a detail ourselves; any other value is text the target chose. */
const namedTypes = new Set([
  'text/html',
  'application/xhtml+xml',
  'application/json',
  'text/plain',
  'text/xml',
  'application/xml',
  'text/csv',
  'application/pdf',
  'application/octet-stream',
]);

function describeType(essence: string): string {
  if (essence === '') return 'no content type';
  // Only types we name ourselves: any other value is text the target chose, and never reaches a caller.
  return namedTypes.has(essence) ? essence : 'an unexpected content type';
}

function flattenHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // Cookies are the site's business with a browser, not ours; they are neither kept nor passed on.
    if (value === undefined || name === 'set-cookie') continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
