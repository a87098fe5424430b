// One webhook POST: through the fetcher's address policy at connect time, no redirects, a timeout, the body discarded.
import type { Dispatcher } from 'undici';
import { hasForbiddenAddress, type Resolver } from '../fetch/address-guard.js';
import type { ConnectToMap } from '../fetch/connect-to.js';
import { TargetConnections, discard, single } from '../fetch/target-connections.js';
import { isKumoError } from '../errors.js';
import { systemClock, type Clock } from '../time/clock.js';

export type DeliveryFailureKind = 'connect' | 'timeout' | 'forbidden' | 'redirect';

/** The receiver answered (any status but a redirect), or the attempt failed before an answer. */
export type SendOutcome =
  | { kind: 'answered'; status: number; retryAfterMs?: number }
  | { kind: 'failed'; failure: DeliveryFailureKind; status?: number };

export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome>;
}

export interface WebhookTransportOptions {
  /** The whole attempt: connect, send, response headers. */
  timeoutMs: number;
  connectTo: ConnectToMap;
  /** Replaces DNS (tests); its answers still go through the address policy. */
  lookup?: Resolver;
  /** How much of a response body is read before it is dropped (never kept, never logged). */
  maxBodyBytes?: number;
  /** For a Retry-After given as a date. */
  clock?: Clock;
}

const defaultMaxBodyBytes = 64 * 1024;

export class WebhookTransport implements WebhookSender {
  readonly #connections: TargetConnections;
  readonly #timeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #clock: Clock;

  constructor(options: WebhookTransportOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
    this.#clock = options.clock ?? systemClock;
    // Its own pools (same policy as the sites'): a receiver's slow sockets never hold a page fetch's connections.
    this.#connections = new TargetConnections({
      connectTimeoutMs: Math.min(options.timeoutMs, 10_000),
      headersTimeoutMs: options.timeoutMs,
      connectTo: options.connectTo,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await this.#connections.post(new URL(url), headers, body, signal);
    } catch (error) {
      if (hasForbiddenAddress(error) || (isKumoError(error) && error.code === 'destination_forbidden')) {
        return { kind: 'failed', failure: 'forbidden' };
      }
      if (signal.aborted || isTimeout(error)) return { kind: 'failed', failure: 'timeout' };
      return { kind: 'failed', failure: 'connect' };
    }
    const status = response.statusCode;
    const retryAfter = single(response.headers['retry-after']);
    try {
      await drain(response.body, this.#maxBodyBytes);
    } catch {
      // The answer's status is what counts; a body cut short or timed out changes nothing.
    }
    // Redirects are never followed (a receiver could point Kumo anywhere): a failed attempt.
    if (status >= 300 && status < 400) return { kind: 'failed', failure: 'redirect', status };
    const retryAfterMs = retryAfter === undefined ? undefined : retryAfterMsOf(retryAfter, this.#clock.now());
    return retryAfterMs === undefined ? { kind: 'answered', status } : { kind: 'answered', status, retryAfterMs };
  }

  async close(): Promise<void> {
    await this.#connections.close();
  }
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; undefined when unreadable. */
export function retryAfterMsOf(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

async function drain(body: Dispatcher.ResponseData['body'], cap: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += (chunk as Buffer).length;
    if (read > cap) {
      discard(body);
      return;
    }
  }
}

function isTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const name = (e as { name?: unknown }).name;
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || name === 'TimeoutError')
      return true;
  }
  return false;
}
