// The plain-HTTP Fetcher: the composition of the address guard, robots check, politeness gate, breaker and retries.
import { KumoError, isKumoError } from '../errors.js';
import { systemClock, type Clock } from '../time/clock.js';
import { checkDestination, type Resolver } from './address-guard.js';
import type { ConnectToMap } from './connect-to.js';
import type { FetchedPage, Fetcher, FetchRequest } from './fetcher.js';
import { anonymousAccount, type GateOutcome, type HostGate, type PolitenessRule } from './host-gate.js';
import type { Blame, CircuitBreaker, Probe } from './circuit-breaker.js';
import { requestPage, type PageRequestOptions } from './page-request.js';
import { backoff, finalError, givenUp, retryAfterSeconds, type Outcome } from './retry-policy.js';
import { RobotsCheck, type RobotsOptions } from './robots-check.js';
import { allowAll, type RobotsRules } from './robots.js';
import { TargetConnections } from './target-connections.js';
import type { Metrics } from '../metrics/metrics.js';
import { canonicalHost } from './url-policy.js';

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
  /**
   * Deadlines, the backoff between tries and robots.txt lifetimes run on it (default the system clock); the socket
   * timeouts of one request (connect, headers, body) stay on Node's timers, since they time real I/O.
   */
  clock?: Clock;
}

export class HttpFetcher implements Fetcher {
  readonly #o: HttpFetcherOptions;
  readonly #connections: TargetConnections;
  readonly #robots: RobotsCheck | null;
  readonly #clock: Clock;
  readonly #page: PageRequestOptions;

  constructor(options: HttpFetcherOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    this.#page = { ...options, clock: this.#clock };
    this.#connections = new TargetConnections({
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      connectTo: options.connectTo,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    this.#robots = options.robots
      ? new RobotsCheck(options.robots, {
          connections: this.#connections,
          hostGate: options.hostGate,
          politeness: options.politeness,
          userAgent: options.userAgent,
          headersTimeoutMs: options.headersTimeoutMs,
          clock: this.#clock,
        })
      : null;
  }

  /** The robots.txt rules for a URL that they allow (else robots_disallowed), from this fetcher's cache: the browser
   * route asks here so that both routes honour one robots.txt, fetched once. */
  async robotsRules(url: URL, target: FetchRequest['target'], deadlineAt: number): Promise<RobotsRules> {
    return this.#robots ? this.#robots.admit(url, target, deadlineAt) : allowAll;
  }

  async fetch(request: FetchRequest): Promise<FetchedPage> {
    const started = performance.now();
    const { target, deadlineAt } = request;
    const accountId = request.accountId ?? anonymousAccount;
    const deadline = new AbortController();
    const timer = this.#clock.setTimeout(() => deadline.abort(), deadlineAt - this.#clock.now());
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    let attempts = 0;
    let bytes = 0;
    let host = canonicalHost(request.url);
    // Hosts this fetch was let through to, with the breaker's probe slots it took; each gets the fetch's verdict.
    const permitted = new Map<string, Probe | null>();
    // Whether the fetch ended in a way that says the host is unwell (network, timeout, 5xx, 429).
    let hostFailed = false;
    // The pause the last failed try asked for, and of whom (see Outcome.pauseScope).
    let pause: Pick<Extract<Outcome, { kind: 'retry' }>, 'retryAfterMs' | 'pauseScope'> = {};
    try {
      if (this.#clock.now() >= deadlineAt)
        throw new KumoError('fetch_timeout', 'the deadline passed before the fetch began');
      let current = checkDestination(new URL(request.url.href), target, 'the URL');
      let redirects = 0;
      let startsNewTry = true;
      for (;;) {
        host = canonicalHost(current);
        if (!permitted.has(host)) permitted.set(host, this.#o.breaker?.permit(host, accountId) ?? null);
        const rules = this.#robots ? await this.#robots.admit(current, target, deadlineAt) : allowAll;
        const rule = this.#o.politeness(host);
        const spacing = rules.crawlDelayMs > rule.minIntervalMs ? { ...rule, minIntervalMs: rules.crawlDelayMs } : rule;
        const waitStarted = performance.now();
        const leave = await this.#o.hostGate.enter(host, spacing, deadlineAt, signal, accountId);
        this.#o.metrics?.politenessWaited(host, (performance.now() - waitStarted) / 1000);
        let outcome: Outcome;
        // What this request tells the gate about the account's use of the host (see fairCost in host-gate.ts).
        let verdict: GateOutcome | undefined;
        try {
          if (startsNewTry) attempts += 1;
          startsNewTry = false;
          outcome = await requestPage(
            this.#connections,
            this.#page,
            current,
            target,
            signal,
            request.headers?.(current),
          );
          verdict = gateVerdict(outcome);
        } catch (error) {
          // A deadline that runs out mid-request is the host being slow; anything else is not its health.
          hostFailed = !isKumoError(error) && deadline.signal.aborted && !request.signal?.aborted;
          // A caller who went away has not used the host badly; every other thrown failure is free to the caller.
          if (!request.signal?.aborted) verdict = 'free_failure';
          throw error;
        } finally {
          leave(verdict);
        }
        hostFailed = outcome.kind === 'retry';
        if (outcome.kind === 'retry') pause = outcome;

        if (outcome.kind === 'page') {
          bytes = outcome.body.length;
          this.#settle(permitted, accountId, false);
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
        if (attempts >= this.#o.maxAttempts) throw givenUp(outcome);
        let delay = backoff(this.#o.retryBaseDelayMs, attempts);
        if (outcome.retryAfterMs !== undefined) delay = Math.max(delay, outcome.retryAfterMs);
        // A wait that ends past the deadline would only turn a clear failure into a timeout.
        if (this.#clock.now() + delay >= deadlineAt) throw givenUp(outcome);
        await this.#clock.sleep(delay, signal);
        startsNewTry = true;
      }
    } catch (error) {
      const final = finalError(error, attempts, deadline.signal, request.signal);
      // Only fetches that reached the host and saw it through judge its health. A refusal before any request, or a
      // caller who went away, says nothing: the breaker is left as is, and a probe slot it took is given back.
      if (attempts > 0 && !request.signal?.aborted) this.#settle(permitted, accountId, hostFailed, pause);
      else this.#release(permitted, accountId);
      // The caller is told when a call can really go through: if this failure rested the host (or the account there)
      // for longer than the site's own Retry-After, the breaker's rest is the truth.
      const resting = final.code === 'site_busy' ? (this.#o.breaker?.restingMs(host, accountId) ?? 0) : 0;
      if (resting > 0) {
        final.extras.retryAfterSeconds = Math.max(final.extras.retryAfterSeconds ?? 0, retryAfterSeconds(resting));
      }
      this.#observe(host, final.code, started, attempts, bytes);
      throw final;
    } finally {
      this.#clock.clearTimeout(timer);
    }
  }

  #release(hosts: Map<string, Probe | null>, accountId: string): void {
    for (const [host, probe] of hosts) if (probe) this.#o.breaker?.released(host, accountId, probe);
  }

  #settle(
    hosts: Map<string, Probe | null>,
    accountId: string,
    failed: boolean,
    pause: { retryAfterMs?: number; pauseScope?: 'host' | 'account' } = {},
  ): void {
    const breaker = this.#o.breaker;
    if (!breaker) return;
    const blame: Blame = { accountId };
    if (pause.retryAfterMs !== undefined) {
      // Only the target's own Retry-After rests the host for everyone; a pause we chose rests this account.
      if (pause.pauseScope === 'account') blame.accountPauseMs = pause.retryAfterMs;
      else blame.retryAfterMs = pause.retryAfterMs;
    }
    for (const host of hosts.keys()) {
      if (failed) breaker.failed(host, blame);
      else breaker.succeeded(host, accountId);
    }
  }

  #observe(host: string, outcome: string, started: number, attempts: number, bytes: number): void {
    this.#o.metrics?.fetchFinished({ host, outcome, seconds: (performance.now() - started) / 1000, attempts, bytes });
  }

  async close(): Promise<void> {
    await this.#connections.close();
  }
}

/** A page is a success; a 404/410 or anything retried is a failure the caller pays nothing for; a redirect is neither. */
function gateVerdict(outcome: Outcome): GateOutcome | undefined {
  if (outcome.kind === 'redirect') return undefined;
  if (outcome.kind === 'page' && outcome.status >= 200 && outcome.status <= 299) return 'success';
  return 'free_failure';
}
