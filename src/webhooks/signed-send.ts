// One signed Standard Webhooks attempt to a customer's endpoint: find it, sign, send, and retire it on 410 Gone.
// Batch events (DeliveryWorker) and monitor events (MonitorNotifier) both send through this, so they agree.
import type { Clock } from '../time/clock.js';
import type { EventType } from '../batches/batch-store.js';
import type { WebhookEndpoint, WebhookEndpointStore } from './endpoint-store.js';
import { signDelivery } from './signer.js';
import type { SendOutcome, WebhookSender } from './webhook-transport.js';

export const webhookUserAgent = 'Kumo-Webhooks/1';

export interface SignedSendDeps {
  endpoints: Pick<WebhookEndpointStore, 'get' | 'signingSecrets' | 'disable'>;
  sender: WebhookSender;
  clock: Clock;
}

/** An endpoint ready to be sent to: enabled, and with a secret to sign with. */
export interface SigningTarget {
  endpoint: WebhookEndpoint;
  secrets: string[];
}

/**
 * The account's endpoint with its current signing secrets, or null when nothing may be sent: it is gone, disabled, has
 * no secret, or (when `type` is given) does not subscribe to that event type.
 */
export async function signingTargetOf(
  deps: Pick<SignedSendDeps, 'endpoints' | 'clock'>,
  endpointId: string,
  accountId: string,
  type?: EventType,
): Promise<SigningTarget | null> {
  const endpoint = await deps.endpoints.get(endpointId, accountId);
  if (!endpoint || endpoint.disabledAt !== null) return null;
  if (type !== undefined && !endpoint.events.includes(type)) return null;
  const secrets = await deps.endpoints.signingSecrets(endpoint.id, new Date(deps.clock.now()).toISOString());
  return secrets.length === 0 ? null : { endpoint, secrets };
}

/**
 * How one attempt ended: `delivered` (2xx), `gone` (410: the endpoint is disabled for good, no retry), or `retry`
 * (any other answer or failure; the caller's schedule decides whether another attempt comes).
 */
export interface SignedAttempt {
  verdict: 'delivered' | 'gone' | 'retry';
  outcome: SendOutcome;
  /** Clock times around the send, for the attempt's duration. */
  sentAt: number;
  finishedAt: number;
}

export async function sendSigned(
  deps: SignedSendDeps,
  { endpoint, secrets }: SigningTarget,
  eventId: string,
  body: string,
): Promise<SignedAttempt> {
  const { clock } = deps;
  const headers = {
    ...signDelivery(eventId, Math.floor(clock.now() / 1000), body, secrets),
    'content-type': 'application/json',
    'user-agent': webhookUserAgent,
  };
  const sentAt = clock.now();
  const outcome = await deps.sender.send(endpoint.url, headers, body);
  const finishedAt = clock.now();
  if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
    return { verdict: 'delivered', outcome, sentAt, finishedAt };
  }
  if (outcome.kind === 'answered' && outcome.status === 410) {
    // The receiver says it is gone for good: no more deliveries to it, this one included.
    await deps.endpoints.disable(endpoint.id, 'the receiver answered 410 Gone', new Date(finishedAt).toISOString());
    return { verdict: 'gone', outcome, sentAt, finishedAt };
  }
  return { verdict: 'retry', outcome, sentAt, finishedAt };
}

/** The HTTP status an attempt got, if any (a failed connection may still have one: a redirect's). */
export function statusOf(outcome: SendOutcome): number | null {
  return outcome.kind === 'answered' ? outcome.status : (outcome.status ?? null);
}

/** The receiver's Retry-After, when it answered with one. */
export function retryAfterOf(outcome: SendOutcome): number | undefined {
  return outcome.kind === 'answered' ? outcome.retryAfterMs : undefined;
}
