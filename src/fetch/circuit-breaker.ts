// A per-host circuit breaker: after repeated failures Kumo stops sending to a host for a while (research §6.2–6.3).
import { KumoError } from '../errors.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * Guards every fetch to a host. `permit` throws KumoError('site_busy', …, { retryAfterSeconds }) while the host is
 * resting; the fetch then reports how it went with `succeeded` or `failed`.
 */
export interface CircuitBreaker {
  permit(host: string): void;
  succeeded(host: string): void;
  /** A failed fetch (network, timeout, 5xx, 429); `retryAfterMs` is the target's own Retry-After, if any. */
  failed(host: string, retryAfterMs?: number): void;
  state(host: string): BreakerState;
}

export interface InProcessCircuitBreakerOptions {
  /** Consecutive failed fetches that open the breaker (research §7: 5). */
  failureThreshold: number;
  /** How long an opened breaker refuses before letting one fetch through. */
  cooldownMs: number;
  onStateChange?: (host: string, state: BreakerState) => void;
  now?: () => number;
}

interface HostState {
  failures: number;
  state: BreakerState;
  /** Open: refuse until then. Half-open: the probe's slot, reopened to another probe after this. */
  until: number;
}

/** One process's view of each host; enough because every instance independently stops at the first sign of distress. */
export class InProcessCircuitBreaker implements CircuitBreaker {
  readonly #o: InProcessCircuitBreakerOptions;
  readonly #hosts = new Map<string, HostState>();
  readonly #now: () => number;

  constructor(options: InProcessCircuitBreakerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  permit(host: string): void {
    const entry = this.#hosts.get(host);
    if (!entry || entry.state === 'closed') return;
    const now = this.#now();
    if (now < entry.until) throw this.#busy(host, entry.until - now);
    // The rest is over: one probe goes through; a probe that never reports back frees the slot after a cool-down.
    this.#set(host, entry, 'half_open');
    entry.until = now + this.#o.cooldownMs;
  }

  succeeded(host: string): void {
    const entry = this.#hosts.get(host);
    if (!entry) return;
    entry.failures = 0;
    if (entry.state !== 'closed') this.#set(host, entry, 'closed');
  }

  failed(host: string, retryAfterMs?: number): void {
    let entry = this.#hosts.get(host);
    if (!entry) {
      entry = { failures: 0, state: 'closed', until: 0 };
      this.#hosts.set(host, entry);
    }
    entry.failures += 1;
    // A failed probe, too many failures in a row, or the target asking us to wait: all rest the host.
    const open =
      entry.state === 'half_open' || entry.failures >= this.#o.failureThreshold || retryAfterMs !== undefined;
    if (!open) return;
    const until = this.#now() + Math.max(this.#o.cooldownMs, retryAfterMs ?? 0);
    entry.until = entry.state === 'open' ? Math.max(entry.until, until) : until;
    this.#set(host, entry, 'open');
  }

  state(host: string): BreakerState {
    return this.#hosts.get(host)?.state ?? 'closed';
  }

  #set(host: string, entry: HostState, state: BreakerState): void {
    if (entry.state === state) return;
    entry.state = state;
    this.#o.onStateChange?.(host, state);
  }

  #busy(host: string, waitMs: number): KumoError {
    return new KumoError('site_busy', `${host} is failing or asked us to wait; Kumo is resting it`, {
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
  }
}
