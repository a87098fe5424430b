// The Metrics role: what Kumo counts for operators (GET /metrics), and a no-op stand-in for unit tests.
import type { BreakerState } from '../fetch/circuit-breaker.js';

export interface ScrapeObservation {
  /** Site id, or `none` when the URL matched no site. */
  site: string;
  /** fetch_summary.status of the answer (`completed`, `not_found`, `failed`, …). */
  status: string;
  /** `http` or `browser`, or `none` before a site was resolved. */
  route: string;
  /** The error code, or `ok`. */
  code: string;
  creditsCharged: number;
}

export interface FetchObservation {
  host: string;
  /** `ok` or the error code the fetch ended with. */
  outcome: string;
  seconds: number;
  attempts: number;
  bytes: number;
}

export interface Metrics {
  scrapeFinished(observation: ScrapeObservation): void;
  fetchFinished(observation: FetchObservation): void;
  /** Time a request spent in the host gate before it could start. */
  politenessWaited(host: string, seconds: number): void;
  breakerChanged(host: string, state: BreakerState): void;
  /** Requests or connections of a render refused: by the in-page request rules or the egress proxy, and why. */
  browserRefused(layer: 'rules' | 'proxy', reason: string, count: number): void;
  /**
   * An extracted page whose structured sources disagreed about a served field (JSON-LD price vs the shown price …):
   * a site's template change shows up here before a user reports a wrong value.
   */
  sourcesDisagreed(site: string, field: string): void;
  /**
   * One run of a batch item ended: `ready`, `failed`, `not_found`, `skipped` (recorded), or `retry` (given back to the
   * queue); `code` the error code or `ok`.
   */
  batchItemRan(outcome: string, code: string): void;
  /**
   * One webhook delivery attempt ended: `2xx`, `3xx`/`4xx`/`5xx` by the receiver's answer (`410` apart: it disables
   * the endpoint), or how it failed before an answer (`connect`, `timeout`, `forbidden`, `redirect`); with the time
   * from sending to the answer or failure.
   */
  webhookDelivered(result: string, seconds: number): void;
  /** Monitor checks the scheduler queued (`queued`) or recorded `skipped` because the previous one was still open. */
  monitorChecksScheduled(state: 'queued' | 'skipped', count: number): void;
  /** One monitor alert delivery attempt ended: by channel (webhook, slack, chatwork, line) and result. */
  monitorDelivered(channel: string, result: 'delivered' | 'retry' | 'give_up'): void;
  /** One MCP tool call on POST /mcp ended: `ok`, or the catalogue code the tool answered with. */
  mcpToolCalled(tool: string, result: string): void;
  /** The Prometheus text exposition. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

/** Counts nothing; for tests and tools that do not serve /metrics. */
export class NoopMetrics implements Metrics {
  scrapeFinished(): void {}
  fetchFinished(): void {}
  politenessWaited(): void {}
  breakerChanged(): void {}
  browserRefused(): void {}
  sourcesDisagreed(): void {}
  batchItemRan(): void {}
  webhookDelivered(): void {}
  monitorChecksScheduled(): void {}
  monitorDelivered(): void {}
  mcpToolCalled(): void {}
  exposition(): Promise<{ contentType: string; body: string }> {
    return Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' });
  }
}
