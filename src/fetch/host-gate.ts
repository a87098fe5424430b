// Politeness toward a target host, shared by every caller: how many requests at once and how far apart they start.
import { KumoError } from '../errors.js';

export interface PolitenessRule {
  maxInFlight: number;
  minIntervalMs: number;
}

/**
 * Every request to a target host (each retry and redirect hop included) enters the gate first and leaves when its
 * response is fully read. Implementations may be in-process or shared between instances.
 */
export interface HostGate {
  /**
   * Resolves, in arrival order, when a request to `host` may start; the returned function leaves (idempotent).
   * Throws KumoError('site_busy', …, { retryAfterSeconds }) when the caller would wait past `deadlineAt` or the
   * queue is full, and the signal's reason when the caller aborts while waiting.
   */
  enter(host: string, rule: PolitenessRule, deadlineAt: number, signal?: AbortSignal): Promise<() => void>;
  /** Releases connections the gate owns, if any. */
  close?(): Promise<void>;
}

export interface InProcessHostGateOptions {
  /** Callers allowed to wait per host before new ones are refused at once (default 100). */
  maxQueue?: number;
}

interface Waiter {
  rule: PolitenessRule;
  resolve: (leave: () => void) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

interface HostState {
  inFlight: number;
  /** The later of the last start and the last leave: the next start waits minIntervalMs after it. */
  lastStartAt: number;
  queue: Waiter[];
  timer: NodeJS.Timeout | null;
}

/** One process's gate: right while a single instance serves; a shared (Redis) gate replaces it for several. */
export class InProcessHostGate implements HostGate {
  readonly #hosts = new Map<string, HostState>();
  readonly #maxQueue: number;

  constructor(options: InProcessHostGateOptions = {}) {
    this.#maxQueue = options.maxQueue ?? 100;
  }

  enter(host: string, rule: PolitenessRule, deadlineAt: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const state = this.#state(host);
    // Spacing runs on the monotonic clock (wall-clock steps must not shorten a gap); the deadline is wall-clock.
    const now = performance.now();
    const timeLeft = deadlineAt - Date.now();
    const ahead = state.queue.length;
    // The soonest this caller could start if everyone ahead left at once: a lower bound, so refusing on it is safe.
    const earliest = Math.max(now, state.lastStartAt + rule.minIntervalMs) + ahead * rule.minIntervalMs;
    if (ahead >= this.#maxQueue || earliest > now + timeLeft) {
      return Promise.reject(this.#busy(host, rule, ahead));
    }

    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = { rule, resolve, reject, cleanup: () => undefined };
      const deadlineTimer = setTimeout(() => {
        this.#remove(host, waiter);
        reject(this.#busy(host, rule, state.queue.length));
      }, timeLeft);
      const onAbort = () => {
        this.#remove(host, waiter);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.cleanup = () => {
        clearTimeout(deadlineTimer);
        signal?.removeEventListener('abort', onAbort);
      };
      state.queue.push(waiter);
      this.#pump(host);
    });
  }

  #state(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { inFlight: 0, lastStartAt: -Infinity, queue: [], timer: null };
      this.#hosts.set(host, state);
    }
    return state;
  }

  #remove(host: string, waiter: Waiter): void {
    const state = this.#hosts.get(host);
    if (!state) return;
    const index = state.queue.indexOf(waiter);
    if (index !== -1) state.queue.splice(index, 1);
    waiter.cleanup();
    // The head may have changed; the next one could be ready now.
    this.#pump(host);
  }

  #pump(host: string): void {
    const state = this.#hosts.get(host);
    if (!state || state.timer) return;
    while (state.queue.length > 0) {
      const head = state.queue[0]!;
      // A rule of 0 would stall the host forever; one at a time is the floor.
      if (state.inFlight >= Math.max(1, head.rule.maxInFlight)) return;
      const now = performance.now();
      const wait = state.lastStartAt + head.rule.minIntervalMs - now;
      if (wait > 0) {
        state.timer = setTimeout(() => {
          state.timer = null;
          this.#pump(host);
        }, Math.ceil(wait));
        return;
      }
      state.queue.shift();
      head.cleanup();
      state.inFlight += 1;
      state.lastStartAt = now;
      let left = false;
      head.resolve(() => {
        if (left) return;
        left = true;
        state.inFlight -= 1;
        // Spacing also counts from the end of a response: only then does the site see the gap we meant, however
        // late our own request reached it.
        state.lastStartAt = Math.max(state.lastStartAt, performance.now());
        this.#pump(host);
      });
    }
  }

  #busy(host: string, rule: PolitenessRule, ahead: number): KumoError {
    const waitMs = (ahead + 1) * Math.max(rule.minIntervalMs, 1000 / Math.max(rule.maxInFlight, 1));
    return new KumoError('site_busy', `too many requests are waiting for ${host}; try again shortly`, {
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
  }
}
