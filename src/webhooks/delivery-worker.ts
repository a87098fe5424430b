// The delivery loop over the Outbox: claim due deliveries, render, sign (Standard Webhooks), send, record the outcome.
import type { Metrics } from '../metrics/metrics.js';
import type { DueDelivery, Outbox, RenderedDelivery } from '../batches/batch-store.js';
import type { Secrets } from '../secrets/secret-box.js';
import type { Clock } from '../time/clock.js';
import type { WebhookEndpointStore } from './endpoint-store.js';
import { PollingLoop } from '../time/polling-loop.js';
import type { SendOutcome, WebhookSender } from './webhook-transport.js';
import { retryAfterOf, sendSigned, signingTargetOf, statusOf } from './signed-send.js';

/** What the worker tells its operator (no URLs, bodies or secrets: ids, statuses and failure kinds only). */
export interface DeliveryLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface DeliveryWorkerOptions {
  outbox: Outbox;
  endpoints: WebhookEndpointStore;
  secrets: Secrets;
  sender: WebhookSender;
  clock: Clock;
  /** This instance: it holds the leases of the deliveries it claims. */
  holder: string;
  /** Waits before retry 1, 2, … (KUMO_WEBHOOK_RETRY_SCHEDULE_MS); past the last, the delivery has failed. */
  retryScheduleMs: readonly number[];
  /** One attempt's budget (KUMO_WEBHOOK_TIMEOUT_MS); the lease covers it with a margin. */
  timeoutMs: number;
  /** Deliveries in flight per endpoint, across instances (the Outbox counts every lease). Default 4. */
  perEndpoint?: number;
  /** Deliveries in flight in this instance. Default 32. */
  maxInFlight?: number;
  /** The idle poll, ≤ 1 s; `wake()` cuts it short. Default 1000. */
  pollMs?: number;
  /** Uniform in [0, 1): the jitter's source (tests pin it). */
  random?: () => number;
  log?: DeliveryLog;
  /** Counts each attempt by result, with its time (GET /metrics). */
  metrics?: Pick<Metrics, 'webhookDelivered'>;
}

/** The lease beyond the attempt's timeout: rendering, signing and recording the outcome. */
const leaseMarginMs = 30_000;
/** ±20 % around each scheduled wait, so receivers recovering from an outage are not hit in lockstep. */
const jitter = 0.2;

/**
 * When the next attempt is due after a failed one, or null when it has failed for good: the retry schedule's wait for
 * this attempt (±20 % jitter), at least the receiver's Retry-After, and never past the batch's results_expire_at.
 */
export function nextAttemptAt(
  delivery: Pick<DueDelivery, 'attempts' | 'resultsExpireAt'>,
  now: number,
  schedule: readonly number[],
  random: () => number,
  retryAfterMs?: number,
): string | null {
  const base = schedule[delivery.attempts];
  if (base === undefined) return null;
  let wait = base * (1 - jitter + 2 * jitter * random());
  if (retryAfterMs !== undefined) wait = Math.max(wait, retryAfterMs);
  const at = now + Math.round(wait);
  return at > Date.parse(delivery.resultsExpireAt) ? null : new Date(at).toISOString();
}

export class DeliveryWorker {
  readonly #o: DeliveryWorkerOptions;
  readonly #perEndpoint: number;
  readonly #maxInFlight: number;
  readonly #pollMs: number;
  readonly #random: () => number;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #loop: PollingLoop;

  constructor(options: DeliveryWorkerOptions) {
    this.#o = options;
    this.#perEndpoint = options.perEndpoint ?? 4;
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#pollMs = Math.min(options.pollMs ?? 1000, 1000);
    this.#random = options.random ?? Math.random;
    this.#loop = new PollingLoop({
      clock: options.clock,
      intervalMs: this.#pollMs,
      // Claimed some, with room left: more may be due at once. Nothing, or full: wait (a finished delivery wakes it).
      step: async () => (await this.#claim()) > 0 && this.#inFlight.size < this.#maxInFlight,
      // A database outage: the claim is retried at the next poll; deliveries leased elsewhere are not touched.
      onError: (error) =>
        this.#o.log?.warn({ error_name: (error as Error).name }, 'webhook delivery: claim failed; will retry'),
    });
  }

  /** Starts the loop (claims at once, then on `wake()` or every poll). */
  start(): void {
    this.#loop.start();
  }

  /** Something became due (an event was written): claim now rather than at the next poll. */
  wake(): void {
    this.#loop.wake();
  }

  /** Stops claiming and waits for the deliveries in flight to be recorded. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.all([...this.#inFlight]);
  }

  /** One claim round, its deliveries awaited (tests, and the loop's step). Returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.#claim();
    await Promise.all([...this.#inFlight]);
    return claimed;
  }

  async #claim(): Promise<number> {
    const room = this.#maxInFlight - this.#inFlight.size;
    if (room <= 0) return 0;
    const now = this.#o.clock.now();
    const due = await this.#o.outbox.claimDue(
      new Date(now).toISOString(),
      this.#o.holder,
      new Date(now + this.#o.timeoutMs + leaseMarginMs).toISOString(),
      room,
      this.#perEndpoint,
    );
    for (const delivery of due) {
      const task: Promise<void> = this.#deliver(delivery)
        .catch((error: unknown) => {
          // Left leased: releaseExpiredLeases makes it due again once the lease ends (no attempt is lost).
          this.#o.log?.warn(
            { event_id: delivery.eventId, endpoint_id: delivery.endpointId, error_name: (error as Error).name },
            'webhook delivery: not recorded; it is retried when its lease ends',
          );
        })
        .finally(() => {
          this.#inFlight.delete(task);
          // A freed slot may let the loop claim again (it idles while full).
          this.wake();
        });
      this.#inFlight.add(task);
    }
    return due.length;
  }

  async #deliver(delivery: DueDelivery): Promise<void> {
    const { outbox, holder } = this.#o;
    const giveUp = (status: number | null, full: boolean) =>
      outbox.failed(delivery.eventId, holder, { status, full, nextAttemptAt: null });

    // The endpoint subscribes to some types only (the batch's own `events` should already be within them): an event it
    // did not ask for is never sent (and so never a handover; the result stays for GET …/items).
    const target = await signingTargetOf(this.#o, delivery.endpointId, delivery.accountId, delivery.type);
    if (!target) return giveUp(null, false);

    const rendered = await this.#render(delivery);
    const attempt = await sendSigned(this.#o, target, delivery.eventId, rendered.body);
    const { outcome, finishedAt } = attempt;
    this.#o.metrics?.webhookDelivered(resultOf(outcome), (finishedAt - attempt.sentAt) / 1000);

    if (attempt.verdict === 'delivered') {
      await outbox.delivered(delivery.eventId, holder, rendered.full, statusOf(outcome) ?? 200, iso(finishedAt));
      return;
    }
    if (attempt.verdict === 'gone') return giveUp(410, rendered.full);
    this.#o.log?.warn(
      {
        event_id: delivery.eventId,
        endpoint_id: target.endpoint.id,
        attempts: delivery.attempts + 1,
        ...describe(outcome),
      },
      'webhook delivery failed',
    );
    await outbox.failed(delivery.eventId, holder, {
      status: statusOf(outcome),
      full: rendered.full,
      nextAttemptAt: nextAttemptAt(delivery, finishedAt, this.#o.retryScheduleMs, this.#random, retryAfterOf(outcome)),
    });
  }

  /** The body, the result opened with the batch's data key (AAD the item id); thin once the key is shredded. */
  #render(delivery: DueDelivery): Promise<RenderedDelivery> {
    const sealedKey = delivery.dataKeySealed;
    if (sealedKey === null) {
      return this.#o.outbox.render(
        delivery,
        () => {
          throw new Error('the batch data key is shredded');
        },
        true,
      );
    }
    const box = this.#o.secrets.dataKeyBox(sealedKey, delivery.batchId);
    return this.#o.outbox.render(delivery, (resultSealed) => box.open(resultSealed, delivery.itemId ?? ''));
  }
}

/** The metric's label of an attempt: the answer's class (410 apart), or how it failed. */
function resultOf(outcome: SendOutcome): string {
  if (outcome.kind === 'failed') return outcome.failure;
  return outcome.status === 410 ? '410' : `${Math.floor(outcome.status / 100)}xx`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function describe(outcome: SendOutcome): Record<string, unknown> {
  return outcome.kind === 'answered'
    ? { status: outcome.status }
    : { failure: outcome.failure, ...(outcome.status === undefined ? {} : { status: outcome.status }) };
}
