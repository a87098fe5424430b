// The Metrics role on prom-client, in its own Registry so nothing global (or another library's) leaks into /metrics.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BreakerState } from '../fetch/circuit-breaker.js';
import type { FetchObservation, Metrics, ScrapeObservation } from './metrics.js';

const breakerValue: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

export class PromClientMetrics implements Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'site' | 'status' | 'route' | 'code'>;
  readonly #credits: Counter<'site'>;
  readonly #fetchSeconds: Histogram<'host' | 'outcome'>;
  readonly #attempts: Counter<'host'>;
  readonly #bytes: Counter<'host'>;
  readonly #waitSeconds: Histogram<'host'>;
  readonly #breaker: Gauge<'host'>;
  readonly #browserRefusals: Counter<'layer' | 'reason'>;
  readonly #disagreements: Counter<'site' | 'field'>;
  readonly #batchRuns: Counter<'outcome' | 'code'>;
  readonly #webhookSeconds: Histogram<'result'>;
  readonly #monitorChecks: Counter<'state'>;
  readonly #monitorDeliveries: Counter<'channel' | 'result'>;
  readonly #mcpToolCalls: Counter<'tool' | 'result'>;

  constructor() {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'kumo_scrape_requests_total',
      help: 'Scrape calls answered, by site, fetch_summary status, fetch route and error code (ok on success).',
      labelNames: ['site', 'status', 'route', 'code'],
      registers,
    });
    this.#credits = new Counter({
      name: 'kumo_credits_charged_total',
      help: 'Credits committed to accounts, by site.',
      labelNames: ['site'],
      registers,
    });
    this.#fetchSeconds = new Histogram({
      name: 'kumo_fetch_duration_seconds',
      help: 'Wall-clock time of one fetch (all attempts, redirects and politeness waits), by target host and outcome.',
      labelNames: ['host', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
      registers,
    });
    this.#attempts = new Counter({
      name: 'kumo_fetch_attempts_total',
      help: 'Requests sent to target hosts (every try counts; robots.txt is not included).',
      labelNames: ['host'],
      registers,
    });
    this.#bytes = new Counter({
      name: 'kumo_fetch_bytes_total',
      help: 'Decoded body bytes received from target hosts.',
      labelNames: ['host'],
      registers,
    });
    this.#waitSeconds = new Histogram({
      name: 'kumo_politeness_wait_seconds',
      help: 'Time a request waited in the per-host politeness gate before it could start.',
      labelNames: ['host'],
      buckets: [0, 0.01, 0.1, 0.5, 1, 2, 5, 10, 30],
      registers,
    });
    this.#breaker = new Gauge({
      name: 'kumo_breaker_state',
      help: 'Circuit breaker per target host: 0 closed, 1 half-open, 2 open.',
      labelNames: ['host'],
      registers,
    });
    this.#browserRefusals = new Counter({
      name: 'kumo_browser_refusals_total',
      help: 'Requests and connections of browser renders refused, by layer (rules in the page, egress proxy) and reason.',
      labelNames: ['layer', 'reason'],
      registers,
    });
    this.#disagreements = new Counter({
      name: 'kumo_extract_source_disagreements_total',
      help: 'Extracted pages whose structured sources disagreed about a served field (e.g. JSON-LD price vs shown price), by site and field.',
      labelNames: ['site', 'field'],
      registers,
    });
    this.#batchRuns = new Counter({
      name: 'kumo_batch_item_runs_total',
      help: 'Runs of batch items on this instance, by outcome (ready, failed, not_found, skipped, retry) and error code (ok on success).',
      labelNames: ['outcome', 'code'],
      registers,
    });
    this.#monitorChecks = new Counter({
      name: 'kumo_monitor_checks_scheduled_total',
      help: 'Monitor checks the scheduler made on this instance: queued, or skipped because the previous one was still open.',
      labelNames: ['state'],
      registers,
    });
    this.#monitorDeliveries = new Counter({
      name: 'kumo_monitor_deliveries_total',
      help: 'Monitor alert delivery attempts, by channel (webhook, slack, chatwork, line) and result (delivered, retry, give_up).',
      labelNames: ['channel', 'result'],
      registers,
    });
    this.#mcpToolCalls = new Counter({
      name: 'kumo_mcp_tool_calls_total',
      help: 'MCP tool calls on POST /mcp, by tool and result (ok, or the error code the tool answered with).',
      labelNames: ['tool', 'result'],
      registers,
    });
    this.#webhookSeconds = new Histogram({
      name: 'kumo_webhook_delivery_seconds',
      help: 'Webhook delivery attempts from send to answer or failure, by result (2xx, 3xx, 4xx, 410, 5xx, connect, timeout, forbidden, redirect).',
      labelNames: ['result'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
  }

  scrapeFinished(o: ScrapeObservation): void {
    this.#requests.inc({ site: o.site, status: o.status, route: o.route, code: o.code });
    if (o.creditsCharged > 0) this.#credits.inc({ site: o.site }, o.creditsCharged);
  }

  fetchFinished(o: FetchObservation): void {
    this.#fetchSeconds.observe({ host: o.host, outcome: o.outcome }, o.seconds);
    if (o.attempts > 0) this.#attempts.inc({ host: o.host }, o.attempts);
    if (o.bytes > 0) this.#bytes.inc({ host: o.host }, o.bytes);
  }

  politenessWaited(host: string, seconds: number): void {
    this.#waitSeconds.observe({ host }, seconds);
  }

  breakerChanged(host: string, state: BreakerState): void {
    this.#breaker.set({ host }, breakerValue[state]);
  }

  browserRefused(layer: 'rules' | 'proxy', reason: string, count: number): void {
    if (count > 0) this.#browserRefusals.inc({ layer, reason }, count);
  }

  sourcesDisagreed(site: string, field: string): void {
    this.#disagreements.inc({ site, field });
  }

  batchItemRan(outcome: string, code: string): void {
    this.#batchRuns.inc({ outcome, code });
  }

  monitorChecksScheduled(state: 'queued' | 'skipped', count: number): void {
    if (count > 0) this.#monitorChecks.inc({ state }, count);
  }

  monitorDelivered(channel: string, result: 'delivered' | 'retry' | 'give_up'): void {
    this.#monitorDeliveries.inc({ channel, result });
  }

  mcpToolCalled(tool: string, result: string): void {
    this.#mcpToolCalls.inc({ tool, result });
  }

  webhookDelivered(result: string, seconds: number): void {
    this.#webhookSeconds.observe({ result }, seconds);
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
