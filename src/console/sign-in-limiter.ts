// Sign-in brute-force bound: failed attempts counted per client address and per key prefix in a fixed window.
import { systemClock, type Clock } from '../time/clock.js';

export interface SignInLimiterOptions {
  /** Failed attempts allowed per address, and per key prefix, in one window. */
  maxFailures: number;
  windowMs: number;
  /** Windows are measured on it (default the system clock). */
  clock?: Clock;
  /** How many distinct subjects are remembered; the oldest windows are dropped past it (bounded memory). */
  maxSubjects?: number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * In-process: with several instances each counts its own, so the bound is per instance (docs/console.md). A 256-bit
 * key cannot be guessed in any case; the bound keeps a guesser from turning the sign-in form into a load generator.
 */
export class SignInLimiter {
  /**
   * Subjects still under the bound, and subjects locked out, kept apart: a flood of failures from fresh (spoofed or
   * rotating) addresses fills and evicts only the first table, so it cannot cheaply push out an existing lockout.
   * Each table is kept in order of last failure and bounded by maxSubjects.
   */
  readonly #counting = new Map<string, Window>();
  readonly #locked = new Map<string, Window>();
  readonly #options: Required<SignInLimiterOptions>;

  constructor(options: SignInLimiterOptions) {
    this.#options = { clock: systemClock, maxSubjects: 100_000, ...options };
  }

  /** Seconds until the first of these subjects may try again, or 0 when none is locked out. */
  retryAfterSeconds(subjects: readonly string[]): number {
    const now = this.#options.clock.now();
    let wait = 0;
    for (const subject of subjects) {
      const window = this.#current(this.#locked, subject, now);
      if (window) wait = Math.max(wait, Math.ceil((window.startedAt + this.#options.windowMs - now) / 1000));
    }
    return wait;
  }

  recordFailure(subjects: readonly string[]): void {
    const now = this.#options.clock.now();
    for (const subject of subjects) {
      const locked = this.#current(this.#locked, subject, now);
      if (locked) {
        locked.failures += 1;
        continue;
      }
      const window = this.#current(this.#counting, subject, now) ?? { startedAt: now, failures: 0 };
      window.failures += 1;
      this.#counting.delete(subject);
      if (window.failures >= this.#options.maxFailures) {
        this.#locked.set(subject, window);
        this.#bound(this.#locked, now);
      } else {
        this.#counting.set(subject, window);
        this.#bound(this.#counting, now);
      }
    }
  }

  /** Drops ended windows first, then the stalest, until the table is within maxSubjects. */
  #bound(table: Map<string, Window>, now: number): void {
    if (table.size <= this.#options.maxSubjects) return;
    for (const [subject, window] of table) {
      if (now - window.startedAt >= this.#options.windowMs) table.delete(subject);
    }
    while (table.size > this.#options.maxSubjects) table.delete(table.keys().next().value!);
  }

  #current(table: Map<string, Window>, subject: string, now: number): Window | null {
    const window = table.get(subject);
    if (!window) return null;
    if (now - window.startedAt >= this.#options.windowMs) {
      table.delete(subject);
      return null;
    }
    // A window that starts in the future (the wall clock stepped back) starts now: none lasts longer than windowMs.
    window.startedAt = Math.min(window.startedAt, now);
    return window;
  }
}
