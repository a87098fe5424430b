// A background loop on an injected clock: runs a step, then waits its interval unless woken or the step asks to go on.
import type { Clock } from './clock.js';

export interface PollingLoopOptions {
  clock: Clock;
  /** The longest wait between steps when nothing wakes the loop. */
  intervalMs: number;
  /** One step; true runs the next one at once (there is more to do), false waits. */
  step: () => Promise<boolean>;
  /** A step threw: called with the error, then the loop waits its interval and goes on. */
  onError?: (error: unknown) => void;
}

export class PollingLoop {
  readonly #o: PollingLoopOptions;
  #running: Promise<void> | null = null;
  #stopped = false;
  #wakeup = new AbortController();

  constructor(options: PollingLoopOptions) {
    this.#o = options;
  }

  /** Starts the loop (idempotent): its first step runs at once. */
  start(): void {
    if (this.#running) return;
    this.#stopped = false;
    this.#running = this.#run();
  }

  /** Something is due: the next step runs now rather than at the end of the wait. */
  wake(): void {
    this.#wakeup.abort();
  }

  /** Stops after the step in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#running;
    this.#running = null;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let again = false;
      try {
        again = await this.#o.step();
      } catch (error) {
        this.#o.onError?.(error);
      }
      if (this.#stopped) break;
      if (again) continue;
      await this.#o.clock.sleep(this.#o.intervalMs, this.#wakeup.signal).catch(() => undefined);
      if (this.#wakeup.signal.aborted) this.#wakeup = new AbortController();
    }
  }
}
