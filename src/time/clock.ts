// Time as a dependency: the one `Clock` that components with deadlines, spacing or cooldowns take as their `clock` option.
/** A timer set through a `Clock`; only that clock can clear it. */
export interface ClockTimer {
  readonly id: number | NodeJS.Timeout;
}

export interface TimerOptions {
  /**
   * The timer does not keep the process alive (Node's `unref`): for a bound that only matters while something else
   * runs (a page waiting for a worker), so that a CLI or a test ends when its work is done. A `ManualClock` ignores it.
   */
  unref?: boolean;
}

/**
 * What a component needs of time. Production passes `systemClock`; tests pass a `ManualClock` and move it, so an
 * assertion about "after the cooldown" or "before the deadline" never depends on how loaded the machine is.
 */
export interface Clock {
  /** Milliseconds since the epoch: the wall clock, the one deadlines (`deadlineAt`) and stored times are written in. */
  now(): number;
  /** Runs `fn` once `ms` have passed on this clock. */
  setTimeout(fn: () => void, ms: number, options?: TimerOptions): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
  /** Resolves once `ms` have passed; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Node's own timers and `Date.now()`. Not a monotonic reading: every `deadlineAt` in the code (some made by callers
 * that take no clock) and every time stored in the database is wall-clock time, and a monotonic clock stops while a
 * machine is suspended, so it would drift from both; the waits themselves run on Node's monotonic timers.
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number, options?: TimerOptions): ClockTimer => {
    const id = setTimeout(fn, Math.max(0, ms));
    if (options?.unref) id.unref();
    return { id };
  },
  clearTimeout: (timer: ClockTimer | undefined) => {
    if (timer) clearTimeout(timer.id);
  },
  sleep: (ms: number, signal?: AbortSignal) => sleepOn(systemClock, ms, signal),
});

/**
 * A deadline set `nominalMs` ahead, kept at most that far from `now`. `systemClock` is the wall clock, which may be
 * stepped back (NTP, a restored VM): a deadline set before the step would then lie further away than the wait it
 * stands for. Pulled back here, what is left of a wait is never more than its nominal length.
 */
export function withinNominal(until: number, nominalMs: number, now: number): number {
  return Math.min(until, now + nominalMs);
}

/** A sleep made of a clock's own timer, so a `ManualClock` wakes it when moved past its end. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The signal's reason as an Error (an abort without one, or with a non-Error, gets an AbortError). */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}

interface ManualTimer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A clock that moves only when told. `advance(ms)` runs every timer that falls due, in order of due time, with
 * `now()` reading each timer's due time while it runs (as a real clock would), then settles pending promise jobs.
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: ManualTimer[] = [];

  constructor(startMs = Date.UTC(2026, 0, 15, 3, 0, 0)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number, _options?: TimerOptions): ClockTimer {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    return { id: timer.id };
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (!timer) return;
    this.#timers = this.#timers.filter((t) => t.id !== timer.id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Steps the reading back by `ms`, as NTP may step a wall clock; the timers set still fire after the time they were
   * set for (Node's timers are monotonic), so their due times move back with it.
   */
  stepBack(ms: number): void {
    this.#now -= ms;
    for (const timer of this.#timers) timer.at -= ms;
  }

  /** Moves time forward by `ms`, running what falls due; awaits microtasks between timers so chained waits proceed. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settle();
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets promise chains started by a timer run before the next timer fires. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
