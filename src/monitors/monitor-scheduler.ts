// The monitors' ticker on each instance: claims monitors whose next run is due, queues a check per target on the batch
// work queue and advances their next run, in one transaction per claim (exclusive across instances).
import type { Logger } from 'pino';
import type { Clock } from '../time/clock.js';
import { PollingLoop } from '../time/polling-loop.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NewWork, Tx } from '../batches/work-queue.js';
import type { DueMonitor, MonitorStore } from './monitor-store.js';
import { nextRunAt } from './schedule.js';

export interface MonitorSchedulerOptions {
  store: Pick<MonitorStore, 'claimDue'>;
  enqueue: (tx: Tx, work: readonly NewWork[]) => Promise<void>;
  clock: Clock;
  /** How often due monitors are looked for (≤ 1 s: a check starts within about that of its due time). */
  tickMs: number;
  /** Monitors per claim transaction. */
  claimLimit?: number;
  /** Checks were queued: the dispatcher's wake. */
  onQueued?: () => void;
  logger?: Pick<Logger, 'info' | 'warn'>;
  metrics?: Pick<Metrics, 'monitorChecksScheduled'>;
}

/**
 * The next run after a due one: from the schedule, after `now` when the instance was down past runs (missed runs
 * are not made up in a burst; the next one on the schedule is taken).
 */
export function advance(monitor: DueMonitor, now: number): string {
  const after = new Date(Math.max(now, Date.parse(monitor.nextRunAt)));
  return nextRunAt(monitor.schedule, monitor.id, new Date(monitor.anchorAt), after).toISOString();
}

export class MonitorScheduler {
  readonly #o: MonitorSchedulerOptions;
  readonly #limit: number;
  readonly #loop: PollingLoop;
  #failing = false;
  #stopping = false;

  constructor(options: MonitorSchedulerOptions) {
    this.#o = options;
    this.#limit = options.claimLimit ?? 500;
    this.#loop = new PollingLoop({
      clock: options.clock,
      intervalMs: options.tickMs,
      step: async () => {
        await this.tick();
        if (this.#failing) this.#o.logger?.info('monitor scheduler: recovered');
        this.#failing = false;
        return false;
      },
      onError: (error) => {
        if (!this.#failing) {
          const e = error as Error & { code?: unknown };
          this.#o.logger?.warn({ error_name: e.name, error_code: e.code }, 'monitor scheduler: failing; will retry');
        }
        this.#failing = true;
      },
    });
  }

  start(): void {
    this.#stopping = false;
    this.#loop.start();
  }

  /** A monitor was created or resumed: look now rather than at the next tick. */
  wake(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#loop.stop();
  }

  /** Claims until nothing is due (tests and the loop's step). Returns what was claimed. */
  async tick(): Promise<{ monitors: number; queued: number; skipped: number }> {
    const total = { monitors: 0, queued: 0, skipped: 0 };
    for (;;) {
      const now = this.#o.clock.now();
      const claimed = await this.#o.store.claimDue({
        now: new Date(now).toISOString(),
        limit: this.#limit,
        next: (monitor) => advance(monitor, now),
        enqueue: this.#o.enqueue,
      });
      total.monitors += claimed.monitors;
      total.queued += claimed.queued;
      total.skipped += claimed.skipped;
      this.#o.metrics?.monitorChecksScheduled('queued', claimed.queued);
      this.#o.metrics?.monitorChecksScheduled('skipped', claimed.skipped);
      if (claimed.queued > 0) this.#o.onQueued?.();
      if (claimed.monitors < this.#limit || this.#stopping) return total;
    }
  }
}
