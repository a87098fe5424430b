// The browser-route Fetcher: robots, politeness, the breaker and the deadline here; the render itself in a PageRenderer.
import { KumoError, isKumoError } from '../errors.js';
import { checkDestination } from '../fetch/address-guard.js';
import type { FetchedPage, Fetcher, FetchRequest } from '../fetch/fetcher.js';
import { anonymousAccount, type GateOutcome, type HostGate, type PolitenessRule } from '../fetch/host-gate.js';
import type { RobotsRules } from '../fetch/robots.js';
import type { CircuitBreaker, Probe } from '../fetch/circuit-breaker.js';
import { canonicalHost } from '../fetch/url-policy.js';
import type { PageRenderer, RenderJob } from './page-renderer.js';

export interface BrowserFetcherOptions {
  /** Where pages are rendered: the browser thread in production (`WorkerThreadRenderer`), in-process in tests. */
  renderer: PageRenderer;
  /** A render's own deadline (the call's fetch deadline still applies when shorter). */
  pageDeadlineMs: number;
  hostGate: HostGate;
  politeness: (host: string) => PolitenessRule;
  /** robots.txt for the page URL (the HTTP fetcher's check and cache); absent = not consulted. */
  robots?: (url: URL, target: FetchRequest['target'], deadlineAt: number) => Promise<RobotsRules>;
  /** The HTTP fetcher's per-host breaker: a host that keeps failing renders rests on both routes. Absent = never. */
  breaker?: CircuitBreaker;
}

export class BrowserFetcher implements Fetcher {
  readonly #o: BrowserFetcherOptions;

  constructor(options: BrowserFetcherOptions) {
    this.#o = options;
  }

  async fetch(request: FetchRequest): Promise<FetchedPage> {
    const started = performance.now();
    const deadlineAt = Math.min(request.deadlineAt, Date.now() + this.#o.pageDeadlineMs);
    const url = checkDestination(new URL(request.url.href), request.target, 'the URL');
    const host = canonicalHost(url);
    const accountId = request.accountId ?? anonymousAccount;
    const breaker = this.#o.breaker;
    // Throws site_busy while the host (or this account there) rests after failures on either route.
    const probe: Probe | null = breaker?.permit(host, accountId) ?? null;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), Math.max(0, deadlineAt - Date.now()));
    const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
    let verdict: GateOutcome | undefined;
    let leave: ((outcome?: GateOutcome) => void) | null = null;
    // Whether the render got as far as asking the site: only then does its outcome say anything about the host.
    let reached = false;
    try {
      const rules = this.#o.robots ? await this.#o.robots(url, request.target, deadlineAt) : null;
      const rule = this.#o.politeness(host);
      const spacing =
        rules && rules.crawlDelayMs > rule.minIntervalMs ? { ...rule, minIntervalMs: rules.crawlDelayMs } : rule;
      leave = await this.#o.hostGate.enter(host, spacing, deadlineAt, signal, accountId);
      const job: RenderJob = {
        url: url.href,
        target: { allowedHosts: request.target.allowedHosts, allowedSchemes: request.target.allowedSchemes },
        render: request.render ?? { subresourceHosts: [] },
        deadlineAt,
      };
      const rendered = await this.#o.renderer.render(job, signal, () => (reached = true));
      const page = { ...rendered, elapsedMs: Math.round(performance.now() - started) };
      verdict = page.httpStatus >= 200 && page.httpStatus <= 299 ? 'success' : 'free_failure';
      breaker?.succeeded(host, accountId);
      return page;
    } catch (error) {
      if (!request.signal?.aborted) verdict = 'free_failure';
      // Timeouts, 5xx and 429 of a render that reached the site count against the host, as on the HTTP route; every
      // other failure (refused by our own rules, no free page, the caller gone) says nothing about it.
      const code = isKumoError(error)
        ? error.code
        : deadline.signal.aborted || Date.now() >= deadlineAt
          ? 'fetch_timeout'
          : 'fetch_failed';
      const hostFailed =
        reached && !request.signal?.aborted && ['fetch_timeout', 'fetch_failed', 'site_busy'].includes(code);
      if (hostFailed) breaker?.failed(host, { accountId });
      else if (probe) breaker?.released(host, accountId, probe);
      if (request.signal?.aborted) throw new KumoError('internal', 'the caller went away', {}, { cause: error });
      // The render may end on its own timeout a moment before this thread's timer fires (another thread's clock
      // ticks separately): past the deadline is past it either way.
      const late = deadline.signal.aborted || (!isKumoError(error) && Date.now() >= deadlineAt);
      if (late && !(isKumoError(error) && error.code === 'unavailable')) {
        throw new KumoError('fetch_timeout', 'the page did not finish rendering before its deadline', {
          body: { attempts: 1 },
        });
      }
      if (isKumoError(error)) {
        error.extras.body = { ...error.extras.body, attempts: 1 };
        throw error;
      }
      throw new KumoError(
        'fetch_failed',
        'the browser could not render the page',
        { body: { attempts: 1 } },
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
      leave?.(verdict);
    }
  }

  /** Closes the renderer (and with the browser thread, its browser). */
  async close(): Promise<void> {
    await this.#o.renderer.close();
  }
}
