// Sign-in brute-force bound: failed attempts counted per client address and per key prefix in a fixed window.

export interface SignInLimiterOptions {
  /** Failed attempts allowed per address, and per key prefix, in one window. */
  maxFailures: number;
  windowMs: number;
  clock?: () => number;
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
  readonly #windows = new Map<string, Window>();
  readonly #options: Required<SignInLimiterOptions>;

  constructor(options: SignInLimiterOptions) {
    this.#options = { clock: () => Date.now(), maxSubjects: 100_000, ...options };
  }

  /** Seconds until the first of these subjects may try again, or 0 when none is locked out. */
  retryAfterSeconds(subjects: readonly string[]): number {
    const now = this.#options.clock();
    let wait = 0;
    for (const subject of subjects) {
      const window = this.#current(subject, now);
      if (window && window.failures >= this.#options.maxFailures) {
        wait = Math.max(wait, Math.ceil((window.startedAt + this.#options.windowMs - now) / 1000));
      }
    }
    return wait;
  }

  recordFailure(subjects: readonly string[]): void {
    const now = this.#options.clock();
    for (const subject of subjects) {
      const window = this.#current(subject, now) ?? { startedAt: now, failures: 0 };
      window.failures += 1;
      // Re-inserting keeps the map in order of last failure, so the eviction below drops the stalest first.
      this.#windows.delete(subject);
      this.#windows.set(subject, window);
    }
    while (this.#windows.size > this.#options.maxSubjects) {
      this.#windows.delete(this.#windows.keys().next().value!);
    }
  }

  #current(subject: string, now: number): Window | null {
    const window = this.#windows.get(subject);
    if (!window) return null;
    if (now - window.startedAt >= this.#options.windowMs) {
      this.#windows.delete(subject);
      return null;
    }
    return window;
  }
}
