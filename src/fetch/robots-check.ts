// Fetching, caching and consulting robots.txt before a page is requested (RFC 9309; parsing lives in robots.ts).
import type { Readable } from 'node:stream';
import { KumoError } from '../errors.js';
import type { Clock } from '../time/clock.js';
import { checkDestination, forbiddenAddress, hasForbiddenAddress } from './address-guard.js';
import type { FetchTarget } from './fetcher.js';
import type { HostGate, PolitenessRule } from './host-gate.js';
import { redirectStatuses } from './page-request.js';
import {
  allowAll,
  parseRobots,
  robotsParseLimitBytes,
  type RobotsCache,
  type RobotsRules,
  unreachableUntil,
} from './robots.js';
import { maxRetryAfterMs, retryAfterSeconds } from './retry-policy.js';
import { discard, single, type TargetConnections } from './target-connections.js';
import { canonicalHost } from './url-policy.js';

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

export interface RobotsCheckParts {
  connections: TargetConnections;
  hostGate: HostGate;
  politeness: (host: string) => PolitenessRule;
  userAgent: string;
  headersTimeoutMs: number;
  /** Lifetimes of cached answers and the robots deadline run on it; the fetch's socket budget on Node's timers. */
  clock: Clock;
}

/** RFC 9309 §2.3.1.2: follow at least five redirects; past that the file counts as unavailable. */
const maxRobotsRedirects = 5;

interface RobotsAnswer {
  status: number;
  location?: string;
  body?: Uint8Array;
}

export class RobotsCheck {
  readonly #o: RobotsOptions;
  readonly #p: RobotsCheckParts;
  readonly #pending = new Map<string, Promise<RobotsRules>>();

  constructor(options: RobotsOptions, parts: RobotsCheckParts) {
    this.#o = options;
    this.#p = parts;
  }

  /**
   * The rules for the URL's origin when they allow its path. A robots.txt that says no is 422 robots_disallowed; one
   * that could not be fetched is an outage of the site, not a verdict: 503 site_busy until the short unreachable
   * TTL ends (RFC 9309 has us not fetch meanwhile, but the caller is told the truth about why).
   */
  async admit(url: URL, target: FetchTarget, deadlineAt: number): Promise<RobotsRules> {
    const rules = await this.rulesFor(url, target, deadlineAt);
    if (rules.unreachableUntil !== undefined) {
      throw new KumoError('site_busy', "the site's robots.txt could not be fetched; try again after it recovers", {
        retryAfterSeconds: retryAfterSeconds(rules.unreachableUntil - this.#p.clock.now()),
      });
    }
    if (!rules.allows(url.pathname + url.search)) {
      throw new KumoError('robots_disallowed', `the site's robots.txt does not allow this path for Kumo`);
    }
    return rules;
  }

  /** The robots answer for the URL's origin: cached, or fetched once however many callers ask at the same time. */
  async rulesFor(url: URL, target: FetchTarget, deadlineAt: number): Promise<RobotsRules> {
    const origin = url.origin;
    const cached = this.#o.cache.get(origin, this.#p.clock.now());
    if (cached) return cached;
    let pending = this.#pending.get(origin);
    if (!pending) {
      pending = this.#load(url, target, deadlineAt).finally(() => this.#pending.delete(origin));
      this.#pending.set(origin, pending);
    }
    return pending;
  }

  async #load(url: URL, target: FetchTarget, deadlineAt: number): Promise<RobotsRules> {
    const robots = this.#o;
    // The whole robots.txt fetch, its waits in the politeness gate included, ends by then.
    const robotsDeadlineAt = Math.min(deadlineAt, this.#p.clock.now() + robots.timeoutMs);
    // Not the caller's signal: other callers share this fetch, and one giving up must not fail them all.
    const signal = AbortSignal.timeout(Math.max(1, Math.ceil(robotsDeadlineAt - this.#p.clock.now())));
    const remember = (rules: RobotsRules, ttlMs: number) => {
      robots.cache.set(url.origin, { rules, expiresAt: this.#p.clock.now() + ttlMs });
      return rules;
    };
    let current = new URL('/robots.txt', url.origin);
    for (let redirects = 0; ; redirects++) {
      const host = canonicalHost(current);
      // The gate gets the robots deadline and no timer signal: a wait that runs out is then the gate's own site_busy
      // with its estimate as Retry-After, never a bare timeout (a 502). It passes through uncached: the wait was in
      // our queue, nothing was learnt about the site.
      const leave = await this.#p.hostGate.enter(host, this.#p.politeness(host), robotsDeadlineAt);
      let answer: RobotsAnswer | null;
      try {
        answer = await this.#request(current, signal);
      } catch (error) {
        // A host that resolves to a private address is refused as such, not mistaken for an outage.
        if (hasForbiddenAddress(error)) throw forbiddenAddress();
        answer = null;
      } finally {
        leave();
      }
      if (answer === null || answer.status >= 500 || answer.status === 429) {
        // Callers are told to come back when robots.txt is asked again, and no Retry-After of ours exceeds an hour.
        const ttlMs = Math.min(maxRetryAfterMs, robots.unreachableTtlMs);
        return remember(unreachableUntil(this.#p.clock.now() + ttlMs), ttlMs);
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
  async #request(url: URL, signal: AbortSignal): Promise<RobotsAnswer> {
    const headers: Record<string, string> = {
      'user-agent': this.#p.userAgent,
      accept: 'text/plain, */*;q=0.1',
      // Plain bytes only: a compressed robots.txt cannot be a bomb if it is never decompressed.
      'accept-encoding': 'identity',
    };
    const response = await this.#p.connections.get(
      url,
      headers,
      AbortSignal.any([signal, AbortSignal.timeout(this.#p.headersTimeoutMs)]),
    );
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
}
