// The plain-HTTP Fetcher: SSRF-safe connections, hand-followed redirects, retries, timeouts and body caps (research §1–2).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import { BodyEncodingError, BodyTooLargeError, readBody } from './body-reader.js';
import { isChallengeResponse, looksLikeBlockPage } from './block-page.js';
import type { ConnectToMap } from './connect-to.js';
import type { FetchedPage, Fetcher, FetchRequest, FetchTarget } from './fetcher.js';
import type { HostGate, PolitenessRule } from './host-gate.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import {
  allowAll,
  disallowAll,
  parseRobots,
  robotsParseLimitBytes,
  type RobotsCache,
  type RobotsRules,
} from './robots.js';
import type { Metrics } from '../metrics/metrics.js';
import { canonicalHost, isIpLiteral, isPublicAddress } from './url-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; the default is the system resolver (`dns.lookup`, all families). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface HttpFetcherOptions {
  /** Identifies Kumo to site operators; keep a contact URL in it. */
  userAgent: string;
  connectTimeoutMs: number;
  /** Per request: from dispatch (connecting included) to the end of the response headers. */
  headersTimeoutMs: number;
  /** Cap on decoded body bytes (and on wire bytes). */
  maxBodyBytes: number;
  maxRedirects: number;
  /** Tries per fetch for network errors, timeouts, 5xx and 429; redirect hops are not tries. */
  maxAttempts: number;
  /** First retry waits about this long, doubling per try, with jitter. */
  retryBaseDelayMs: number;
  /** Operator origin overrides; the address policy is waived for exactly these hosts. */
  connectTo: ConnectToMap;
  hostGate: HostGate;
  politeness: (host: string) => PolitenessRule;
  /** Replaces DNS (tests); its answers still go through the address policy. */
  lookup?: Resolver;
  /** robots.txt honouring (RFC 9309); absent = not consulted (unit tests of other concerns). */
  robots?: RobotsOptions;
  /** Per-host circuit breaker; absent = never rests a host. */
  breaker?: CircuitBreaker;
  metrics?: Metrics;
}

export interface RobotsOptions {
  cache: RobotsCache;
  /** Our product token, matched case-insensitively against `User-agent` lines (e.g. `KumoBot`). */
  productToken: string;
  /** How long a fetched (or missing) robots.txt is trusted; RFC 9309 says at most 24 h. */
  ttlMs: number;
  /** How long an unreachable robots.txt (5xx, network, timeout) keeps the host disallowed before a new try. */
  unreachableTtlMs: number;
  /** Budget of the whole robots.txt fetch, redirects included. */
  timeoutMs: number;
}

/** RFC 9309 §2.3.1.2: follow at least five redirects; past that the file counts as unavailable. */
const maxRobotsRedirects = 5;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
// A marker our lookup fails with, found again in whatever error undici wraps it in.
const forbiddenAddressCode = 'KUMO_EFORBIDDEN_ADDRESS';

class ForbiddenAddressError extends Error {
  readonly code = forbiddenAddressCode;
}

/** What one request produced; only `page` and `redirect` continue the fetch without a retry. */
type Outcome =
  | { kind: 'page'; status: number; headers: Record<string, string>; body: Uint8Array }
  | { kind: 'redirect'; location: URL }
  | { kind: 'retry'; code: ErrorCode; detail: string; retryAfterMs?: number };

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

export class HttpFetcher implements Fetcher {
  readonly #o: HttpFetcherOptions;
  // Separate pools per policy: a socket opened without the address check must never serve a guarded request.
  readonly #guarded: Agent;
  readonly #overridden: Agent;

  constructor(options: HttpFetcherOptions) {
    this.#o = options;
    const common = {
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.headersTimeoutMs,
      maxHeaderSize: 16 * 1024,
      keepAliveTimeout: 4_000,
    };
    this.#guarded = new Agent({
      ...common,
      connect: { timeout: options.connectTimeoutMs, lookup: guardedLookup(options.lookup ?? defaultResolver) },
    });
    this.#overridden = new Agent({ ...common, connect: { timeout: options.connectTimeoutMs } });
  }

  async fetch(request: FetchRequest): Promise<FetchedPage> {
    const started = performance.now();
    const { target, deadlineAt } = request;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), Math.max(0, deadlineAt - Date.now()));
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    let attempts = 0;
    let bytes = 0;
    let host = canonicalHost(request.url);
    // Hosts this fetch was let through to; each gets the fetch's verdict at the end.
    const permitted = new Set<string>();
    // Whether the fetch ended in a way that says the host is unwell (network, timeout, 5xx, 429).
    let hostFailed = false;
    let retryAfterMs: number | undefined;
    try {
      if (Date.now() >= deadlineAt) throw new KumoError('fetch_timeout', 'the deadline passed before the fetch began');
      let current = checkDestination(new URL(request.url.href), target, 'the URL');
      let redirects = 0;
      let startsNewTry = true;
      for (;;) {
        host = canonicalHost(current);
        if (!permitted.has(host)) {
          this.#o.breaker?.permit(host);
          permitted.add(host);
        }
        const rules = await this.#robotsFor(current, target, deadlineAt);
        if (!rules.allows(current.pathname + current.search)) {
          throw new KumoError('robots_disallowed', `the site's robots.txt does not allow this path for Kumo`);
        }
        const rule = this.#o.politeness(host);
        const spacing = rules.crawlDelayMs > rule.minIntervalMs ? { ...rule, minIntervalMs: rules.crawlDelayMs } : rule;
        const waitStarted = performance.now();
        const leave = await this.#o.hostGate.enter(host, spacing, deadlineAt, signal);
        this.#o.metrics?.politenessWaited(host, (performance.now() - waitStarted) / 1000);
        let outcome: Outcome;
        try {
          if (startsNewTry) attempts += 1;
          startsNewTry = false;
          outcome = await this.#requestOnce(current, target, signal);
        } catch (error) {
          // A deadline that runs out mid-request is the host being slow; anything else is not its health.
          hostFailed = !isKumoError(error) && deadline.signal.aborted && !request.signal?.aborted;
          throw error;
        } finally {
          leave();
        }
        hostFailed = outcome.kind === 'retry';
        if (outcome.kind === 'retry') retryAfterMs = outcome.retryAfterMs;

        if (outcome.kind === 'page') {
          bytes = outcome.body.length;
          this.#settle(permitted, false);
          this.#observe(host, 'ok', started, attempts, bytes);
          return {
            route: 'http',
            finalUrl: current.href,
            httpStatus: outcome.status,
            headers: outcome.headers,
            body: outcome.body,
            attempts,
            elapsedMs: Math.round(performance.now() - started),
          };
        }
        if (outcome.kind === 'redirect') {
          redirects += 1;
          if (redirects > this.#o.maxRedirects) {
            throw new KumoError('fetch_failed', `the site redirected more than ${this.#o.maxRedirects} times`);
          }
          current = checkDestination(outcome.location, target, 'the site redirected to a URL that');
          continue;
        }
        // The site's own Retry-After travels with the failure, so the caller can pass it on.
        const givenUp = () =>
          new KumoError(
            outcome.code,
            outcome.detail,
            outcome.retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(outcome.retryAfterMs / 1000) },
          );
        if (attempts >= this.#o.maxAttempts) throw givenUp();
        let delay = backoff(this.#o.retryBaseDelayMs, attempts);
        if (outcome.retryAfterMs !== undefined) delay = Math.max(delay, outcome.retryAfterMs);
        // A wait that ends past the deadline would only turn a clear failure into a timeout.
        if (Date.now() + delay >= deadlineAt) throw givenUp();
        await sleep(delay, undefined, { signal });
        startsNewTry = true;
      }
    } catch (error) {
      const final = finalError(error, attempts, deadline.signal, request.signal);
      // Only fetches that reached the host judge its health; refusals before any request leave the breaker as is.
      if (attempts > 0) this.#settle(permitted, hostFailed, retryAfterMs);
      this.#observe(host, final.code, started, attempts, bytes);
      throw final;
    } finally {
      clearTimeout(timer);
    }
  }

  #settle(hosts: Set<string>, failed: boolean, retryAfterMs?: number): void {
    const breaker = this.#o.breaker;
    if (!breaker) return;
    for (const host of hosts) {
      if (failed) breaker.failed(host, retryAfterMs);
      else breaker.succeeded(host);
    }
  }

  #observe(host: string, outcome: string, started: number, attempts: number, bytes: number): void {
    this.#o.metrics?.fetchFinished({ host, outcome, seconds: (performance.now() - started) / 1000, attempts, bytes });
  }

  readonly #robotsPending = new Map<string, Promise<RobotsRules>>();

  /** The robots answer for the URL's origin: cached, or fetched once however many callers ask at the same time. */
  async #robotsFor(url: URL, target: FetchTarget, deadlineAt: number): Promise<RobotsRules> {
    const robots = this.#o.robots;
    if (!robots) return allowAll;
    const origin = url.origin;
    const cached = robots.cache.get(origin, Date.now());
    if (cached) return cached;
    let pending = this.#robotsPending.get(origin);
    if (!pending) {
      pending = this.#loadRobots(robots, url, target, deadlineAt).finally(() => this.#robotsPending.delete(origin));
      this.#robotsPending.set(origin, pending);
    }
    return pending;
  }

  async #loadRobots(robots: RobotsOptions, url: URL, target: FetchTarget, deadlineAt: number): Promise<RobotsRules> {
    // Not the caller's signal: other callers share this fetch, and one giving up must not fail them all.
    const signal = AbortSignal.timeout(Math.max(1, Math.min(robots.timeoutMs, deadlineAt - Date.now())));
    const remember = (rules: RobotsRules, ttlMs: number) => {
      robots.cache.set(url.origin, { rules, expiresAt: Date.now() + ttlMs });
      return rules;
    };
    let current = new URL('/robots.txt', url.origin);
    for (let redirects = 0; ; redirects++) {
      const host = canonicalHost(current);
      // The politeness gate's site_busy passes through: nothing was learnt, nothing is cached.
      const leave = await this.#o.hostGate.enter(host, this.#o.politeness(host), deadlineAt, signal);
      let answer: { status: number; location?: string; body?: Uint8Array } | null;
      try {
        answer = await this.#requestRobots(current, signal);
      } catch {
        answer = null;
      } finally {
        leave();
      }
      if (answer === null || answer.status >= 500 || answer.status === 429) {
        return remember(disallowAll, robots.unreachableTtlMs);
      }
      if (answer.status >= 200 && answer.status <= 299) {
        return remember(parseRobots(answer.body ?? new Uint8Array(), robots.productToken), robots.ttlMs);
      }
      if (redirectStatuses.has(answer.status) && answer.location !== undefined) {
        if (redirects >= maxRobotsRedirects) return remember(allowAll, robots.ttlMs);
        let next: URL;
        try {
          // Redirects stay on the site's own hosts: robots.txt is no reason to contact anyone else.
          next = checkDestination(new URL(answer.location, current), target, 'robots.txt redirected to a URL that');
        } catch {
          return remember(allowAll, robots.ttlMs);
        }
        current = next;
        continue;
      }
      // 4xx (and any other answer): unavailable, so everything is allowed (§2.3.1.3).
      return remember(allowAll, robots.ttlMs);
    }
  }

  /** One robots.txt request over the same guarded (or operator-mapped) connection as pages; reads ≤ 500 KiB. */
  async #requestRobots(
    url: URL,
    signal: AbortSignal,
  ): Promise<{ status: number; location?: string; body?: Uint8Array }> {
    const host = canonicalHost(url);
    const mapped = this.#o.connectTo.get(host);
    if (!mapped && isIpLiteral(url.hostname)) throw forbiddenAddress();
    const headers: Record<string, string> = {
      'user-agent': this.#o.userAgent,
      accept: 'text/plain, */*;q=0.1',
      // Plain bytes only: a compressed robots.txt cannot be a bomb if it is never decompressed.
      'accept-encoding': 'identity',
    };
    if (mapped) headers.host = url.host;
    const response = await (mapped ? this.#overridden : this.#guarded).request({
      origin: mapped ? mapped.origin : url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers,
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.#o.headersTimeoutMs)]),
    });
    const body = response.body as unknown as Readable;
    const status = response.statusCode;
    if (status < 200 || status > 299 || single(response.headers['content-encoding']) !== undefined) {
      discard(body);
      const location = single(response.headers.location);
      // A 2xx with an encoding we did not ask for is unreadable: as good as missing.
      return status >= 200 && status <= 299
        ? { status: 404 }
        : { status, ...(location === undefined ? {} : { location }) };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        size += chunk.length;
        // Past the parse limit nothing more is read; the parser drops the cut line.
        if (size > robotsParseLimitBytes) break;
      }
    } finally {
      discard(body);
    }
    return { status, body: Buffer.concat(chunks) };
  }

  async close(): Promise<void> {
    await Promise.all([this.#guarded.close(), this.#overridden.close()]);
  }

  async #requestOnce(url: URL, target: FetchTarget, signal: AbortSignal): Promise<Outcome> {
    const host = canonicalHost(url);
    const mapped = this.#o.connectTo.get(host);
    // url-policy refuses literals up front; this catches any that reach here another way (lookup never sees them).
    if (!mapped && isIpLiteral(url.hostname)) throw forbiddenAddress();
    const headers: Record<string, string> = {
      'user-agent': this.#o.userAgent,
      accept: acceptHeader(target.acceptContentTypes),
      'accept-encoding': 'gzip, deflate, br',
      'accept-language': 'ja',
    };
    if (mapped) headers.host = url.host;

    // undici's own headers timer is coarse (about a second); this one is exact, connection time included.
    const headersDue = new AbortController();
    const headersTimer = setTimeout(() => headersDue.abort(), this.#o.headersTimeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await (mapped ? this.#overridden : this.#guarded).request({
        origin: mapped ? mapped.origin : url.origin,
        path: url.pathname + url.search,
        method: 'GET',
        headers,
        signal: AbortSignal.any([signal, headersDue.signal]),
      });
    } catch (error) {
      if (signal.aborted) throw error;
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
        if (location === undefined)
          throw new KumoError('fetch_failed', `the site answered ${status} without a Location`);
        try {
          return { kind: 'redirect', location: new URL(location, url) };
        } catch {
          throw new KumoError('fetch_failed', 'the site redirected to an unparseable location');
        }
      }
      if (status >= 500) {
        // A 503 may say how long the site wants us away, as a 429 does; the breaker rests the host that long.
        const retryAfterMs = status === 503 ? parseRetryAfter(single(response.headers['retry-after'])) : undefined;
        // A 503 that says when to come back is the site asking for a pause, not a failure: the caller is told to
        // wait (site_busy, Retry-After at least the site's) rather than that the page is broken.
        return retryAfterMs === undefined
          ? { kind: 'retry', code: 'fetch_failed', detail: `the site answered ${status}` }
          : { kind: 'retry', code: 'site_busy', detail: 'the site asked us to come back later (503)', retryAfterMs };
      }
      if (status === 429) {
        // Without a Retry-After we still owe the site a pause; a minute is the usual rate-limit window.
        const retryAfterMs = parseRetryAfter(single(response.headers['retry-after'])) ?? 60_000;
        return { kind: 'retry', code: 'site_busy', detail: 'the site asked us to slow down (429)', retryAfterMs };
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
        bytes = await this.#readBody(body, single(response.headers['content-encoding']), signal);
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

  async #readBody(body: Readable, encoding: string | undefined, signal: AbortSignal): Promise<Uint8Array> {
    try {
      return await readBody(body, encoding, this.#o.maxBodyBytes, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof BodyTooLargeError) {
        throw new KumoError('content_too_large', `the page is larger than ${this.#o.maxBodyBytes} bytes`);
      }
      if (error instanceof BodyEncodingError) {
        throw new KumoError('fetch_failed', `the site sent a body with ${error.message}`);
      }
      throw error;
    }
  }
}

/** Wraps a resolver so a connection is only opened when every address is public (Happy Eyeballs may try any). */
function guardedLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        if (all.length === 0) {
          callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (all.some((entry) => !isPublicAddress(entry.address))) {
          callback(new ForbiddenAddressError('non-public address'), '', 0);
          return;
        }
        const family = options.family;
        const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
        const usable = wanted === 0 ? all : all.filter((entry) => entry.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** The scheme, credentials, port and host rules again, for the first URL and every redirect hop. */
function checkDestination(url: URL, target: FetchTarget, what: string): URL {
  const forbidden = (why: string) => new KumoError('destination_forbidden', `${what} ${why}`);
  if (!target.allowedSchemes.includes(url.protocol)) throw forbidden('uses a scheme the site is not allowed');
  if (url.username !== '' || url.password !== '') throw forbidden('carries credentials');
  if (url.port !== '') throw forbidden('uses a non-default port');
  if (isIpLiteral(url.hostname)) throw forbidden('names an IP address');
  const host = canonicalHost(url);
  if (!target.allowedHosts.includes(host)) throw forbidden("is outside the site's hosts");
  const next = new URL(url.href);
  if (next.hostname !== host) next.hostname = host;
  next.hash = '';
  return next;
}

/** Destroys an unread body; undici then emits an abort error that nobody else is left to hear. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function forbiddenAddress(): KumoError {
  // Never name the address: that would turn the API into a map of the network behind it.
  return new KumoError('destination_forbidden', "the site's host resolved to a non-public address");
}

function blocked(): KumoError {
  return new KumoError('target_blocked', 'the site refused the request (block or challenge page)');
}

function hasForbiddenAddress(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === forbiddenAddressCode) return true;
    if (e instanceof AggregateError && e.errors.some(hasForbiddenAddress)) return true;
  }
  return false;
}

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

const timedOut: Outcome = { kind: 'retry', code: 'fetch_timeout', detail: 'the site did not answer in time' };

function networkFailure(error: unknown): Outcome {
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

/** Whatever ended the fetch, as a KumoError carrying the number of tries. */
function finalError(
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
function backoff(baseMs: number, attemptsSoFar: number): number {
  const full = baseMs * 2 ** (attemptsSoFar - 1);
  return Math.round(full / 2 + Math.random() * (full / 2));
}

/** Retry-After as delta-seconds or an HTTP-date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function acceptHeader(types: readonly string[]): string {
  return types.length === 0 ? '*/*' : `${types.join(', ')}, */*;q=0.1`;
}

function contentTypeEssence(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A content type is safe to name in a detail only when it looks like one. */
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

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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
