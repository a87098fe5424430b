// RefusalLimiter in the process's memory: a fixed window per key, bounded in size.
import type { Clock } from '../time/clock.js';
import { systemClock } from '../time/clock.js';
import type { RefusalLimiter } from './refusal-limiter.js';

export interface RefusalLimiterOptions {
  /** Refusals answered as usual in one window; the calls after them, until the window ends, are 429. */
  maxRefusals: number;
  windowMs: number;
  clock?: Clock;
  /** Subjects remembered at most (bounded memory); windows that ended go first, then the oldest. */
  maxSubjects?: number;
}

interface Window {
  startedAt: number;
  refusals: number;
}

/**
 * In-process: with several instances each counts its own, so a key is held back after `maxRefusals` refusals on any
 * one instance (at most instances × maxRefusals in a window in all). That is enough for what the limit is for: each
 * instance sheds the load of a refusal loop on its own CPU and database pool, and a Redis round trip on every call
 * would tax honest traffic to make the bound exact (docs/architecture.md, "Refused calls").
 */
export class InProcessRefusalLimiter implements RefusalLimiter {
  readonly #windows = new Map<string, Window>();
  readonly #maxRefusals: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #maxSubjects: number;

  constructor(options: RefusalLimiterOptions) {
    if (!Number.isSafeInteger(options.maxRefusals) || options.maxRefusals < 1) {
      throw new RangeError('maxRefusals must be an integer ≥ 1');
    }
    if (!(options.windowMs > 0)) throw new RangeError('windowMs must be > 0');
    this.#maxRefusals = options.maxRefusals;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock ?? systemClock;
    this.#maxSubjects = options.maxSubjects ?? 100_000;
  }

  retryAfterSeconds(subject: string): number {
    const now = this.#clock.now();
    const window = this.#current(subject, now);
    if (!window || window.refusals < this.#maxRefusals) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.#windowMs - now) / 1000));
  }

  recordRefusal(subject: string): void {
    const now = this.#clock.now();
    const window = this.#current(subject, now);
    if (window) {
      window.refusals += 1;
      return;
    }
    this.#windows.set(subject, { startedAt: now, refusals: 1 });
    if (this.#windows.size > this.#maxSubjects) this.#bound(now);
  }

  /**
   * The subject's window if it is still running; an ended one is forgotten. A window that starts in the future (the
   * wall clock stepped back) starts now instead, so it never runs, nor holds a key back, longer than windowMs.
   */
  #current(subject: string, now: number): Window | undefined {
    const window = this.#windows.get(subject);
    if (!window) return undefined;
    if (now - window.startedAt >= this.#windowMs) {
      this.#windows.delete(subject);
      return undefined;
    }
    window.startedAt = Math.min(window.startedAt, now);
    return window;
  }

  #bound(now: number): void {
    for (const [subject, window] of this.#windows) {
      if (now - window.startedAt >= this.#windowMs) this.#windows.delete(subject);
    }
    // Still too many running windows: the oldest tenth (first inserted, so first started) go, so that the next
    // inserts do not scan the table again at once.
    const keep = Math.floor(this.#maxSubjects * 0.9);
    for (const subject of this.#windows.keys()) {
      if (this.#windows.size <= keep) break;
      this.#windows.delete(subject);
    }
  }
}
