// Delivers monitor events: signed Standard Webhooks to the monitor's endpoint, and messages to Slack, ChatWork and
// LINE in the monitor's language, each through the webhook transport (the fetcher's address policy, KUMO_CONNECT_TO).
import type { Logger } from 'pino';
import type { Clock } from '../time/clock.js';
import { PollingLoop } from '../time/polling-loop.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Secrets } from '../secrets/secret-box.js';
import type { WebhookEndpointStore } from '../webhooks/endpoint-store.js';
import type { WebhookSender } from '../webhooks/webhook-transport.js';
import { nextAttemptAt } from '../webhooks/delivery-worker.js';
import { retryAfterOf, sendSigned, signingTargetOf, statusOf } from '../webhooks/signed-send.js';
import type { DueMonitorDelivery, MonitorStore } from './monitor-store.js';
import { renderMessage } from './messages.js';
import { sendToChannel, type Channel } from './channels.js';

export interface MonitorNotifierOptions {
  store: Pick<MonitorStore, 'claimDeliveries' | 'delivered' | 'deliveryFailed'>;
  endpoints: Pick<WebhookEndpointStore, 'get' | 'signingSecrets' | 'disable'>;
  secrets: Pick<Secrets, 'dataKeyBox'>;
  sender: WebhookSender;
  clock: Clock;
  holder: string;
  /** Waits before each retry (the webhooks' schedule); past its end, or past the event's 72 h, a delivery fails. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  pollMs?: number;
  random?: () => number;
  log?: Pick<Logger, 'warn'>;
  metrics?: Pick<Metrics, 'monitorDelivered'>;
}

const eventLifetimeMs = 72 * 3_600_000;

/** The sealed channels of a monitor (JSON of Channel[]) are opened with its data key under this context. */
export function channelsContext(monitorId: string): string {
  return `channels:${monitorId}`;
}

export class MonitorNotifier {
  readonly #o: MonitorNotifierOptions;
  readonly #random: () => number;
  readonly #loop: PollingLoop;

  constructor(options: MonitorNotifierOptions) {
    this.#o = options;
    this.#random = options.random ?? Math.random;
    this.#loop = new PollingLoop({
      clock: options.clock,
      intervalMs: options.pollMs ?? 1000,
      // Claimed some: more may be due at once; none: wait.
      step: async () => (await this.runOnce()) > 0,
      onError: (error) =>
        this.#o.log?.warn({ error_name: (error as Error).name }, 'monitor delivery: claim failed; will retry'),
    });
  }

  start(): void {
    this.#loop.start();
  }

  /** An event was written: claim now rather than at the next poll. */
  wake(): void {
    this.#loop.wake();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One round: every due delivery sent and recorded (tests, and the loop's step). Returns how many. */
  async runOnce(): Promise<number> {
    const now = this.#o.clock.now();
    const due = await this.#o.store.claimDeliveries(
      new Date(now).toISOString(),
      this.#o.holder,
      new Date(now + this.#o.timeoutMs + 30_000).toISOString(),
      32,
    );
    await Promise.all(
      due.map((delivery) =>
        this.#deliver(delivery).catch((error: unknown) => {
          // Left leased: it is claimed again once the lease ends.
          this.#o.log?.warn(
            { delivery_id: delivery.id, channel: delivery.channel, error_name: (error as Error).name },
            'monitor delivery: not recorded; retried when its lease ends',
          );
        }),
      ),
    );
    return due.length;
  }

  async #deliver(delivery: DueMonitorDelivery): Promise<void> {
    const { store, clock, holder } = this.#o;
    const giveUp = (status: number | null) => store.deliveryFailed(delivery.id, holder, status, null);
    const data = JSON.parse(delivery.data) as Record<string, unknown>;
    let outcome: { result: 'delivered' | 'retry' | 'give_up'; status: number | null; retryAfterMs?: number };
    if (delivery.channel === 'webhook') {
      const sent = await this.#webhook(delivery, data);
      if (sent === null) return giveUp(null);
      outcome = sent;
    } else {
      const channel = this.#channel(delivery);
      if (!channel) return giveUp(null);
      const message = renderMessage(delivery.type, data as never, delivery.language);
      outcome = await sendToChannel(this.#o.sender, channel, message, delivery.eventId);
    }
    const finished = clock.now();
    this.#o.metrics?.monitorDelivered(delivery.channel, outcome.result);
    if (outcome.result === 'delivered') {
      return store.delivered(delivery.id, holder, outcome.status ?? 200, new Date(finished).toISOString());
    }
    // Ids and statuses only: a channel's URL or token never reaches a log line.
    this.#o.log?.warn(
      { delivery_id: delivery.id, channel: delivery.channel, status: outcome.status, attempts: delivery.attempts + 1 },
      'monitor delivery failed',
    );
    if (outcome.result === 'give_up') return giveUp(outcome.status);
    // The webhooks' retry rule (schedule ± jitter, Retry-After honoured), bounded by the event's 72 h.
    const resultsExpireAt = new Date(Date.parse(delivery.createdAt) + eventLifetimeMs).toISOString();
    const next = nextAttemptAt(
      { attempts: delivery.attempts, resultsExpireAt },
      finished,
      this.#o.retryScheduleMs,
      this.#random,
      outcome.retryAfterMs,
    );
    return store.deliveryFailed(delivery.id, holder, outcome.status, next);
  }

  /** A signed Standard Webhooks delivery to the monitor's endpoint; null when there is none to send to. */
  async #webhook(
    delivery: DueMonitorDelivery,
    data: Record<string, unknown>,
  ): Promise<{ result: 'delivered' | 'retry' | 'give_up'; status: number | null; retryAfterMs?: number } | null> {
    if (delivery.webhookEndpointId === null) return null;
    const target = await signingTargetOf(this.#o, delivery.webhookEndpointId, delivery.accountId);
    if (!target) return null;
    const body = JSON.stringify({ type: delivery.type, timestamp: delivery.createdAt, data });
    // As the batch worker does: 2xx delivered, 410 retires the endpoint, anything else (a redirect or a refused
    // address included: the receiver may fix it) is retried on the webhooks' schedule.
    const { verdict, outcome } = await sendSigned(this.#o, target, delivery.eventId, body);
    const status = statusOf(outcome);
    if (verdict === 'delivered') return { result: 'delivered', status };
    if (verdict === 'gone') return { result: 'give_up', status };
    const retryAfterMs = retryAfterOf(outcome);
    return { result: 'retry', status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }

  #channel(delivery: DueMonitorDelivery): Channel | null {
    if (delivery.channelsSealed === null) return null;
    try {
      const box = this.#o.secrets.dataKeyBox(delivery.dataKeySealed, delivery.monitorId);
      const channels = JSON.parse(
        box.open(delivery.channelsSealed, channelsContext(delivery.monitorId)).toString('utf8'),
      ) as Channel[];
      return channels.find((channel) => channel.kind === delivery.channel) ?? null;
    } catch {
      return null;
    }
  }
}
