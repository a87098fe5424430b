// The heartbeat of one server instance and the sweep of what dead instances held (docs/architecture.md, liveness).
import type { Logger } from 'pino';
import type { Storage } from '../storage/storage.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { InstanceLocks } from './instance-locks.js';

export interface InstanceLivenessOptions {
  /** `ins_…`, new at every start: a restarted process is a new instance, its predecessor a dead one. */
  instanceId: string;
  storage: { instances: Storage['instances']; ledger: Pick<Storage['ledger'], 'releaseOrphaned' | 'foreignHolders'> };
  limiter: Pick<ConcurrencyLimiter, 'heartbeat' | 'releaseOrphaned'>;
  heartbeatIntervalMs: number;
  /** A heartbeat older than this marks its instance dead. */
  staleAfterMs: number;
  /**
   * Embedded mode: the lock files that tell at once which instances on this data folder have ended, so a restart
   * frees what its killed predecessor held before taking calls instead of after `staleAfterMs`.
   */
  locks?: Pick<InstanceLocks, 'deadAmong' | 'forget' | 'listed'>;
  /**
   * What else dead instances held that this sweep gives back (the batch items they were running go back to the
   * queue): called every tick with the same bound and the same known-dead instances as the reservations; returns how
   * many it freed.
   */
  releaseOrphaned?: (staleBefore: string, deadHolders: readonly string[]) => Promise<number>;
  logger: Logger;
  clock?: () => Date;
}

type Step = 'storage heartbeat' | 'limits heartbeat' | 'storage sweep' | 'work sweep' | 'limits sweep';

/**
 * Every interval: record that this instance is alive (a row in `instances`, a key in Redis), then free the credit
 * reservations and concurrency slots of instances whose heartbeat is stale, and retry releases that failed during an
 * outage. Each step fails on its own (a Redis outage does not stop the database heartbeat), and a failing step is
 * logged when it starts and stops failing, not at every tick.
 */
export class InstanceLiveness {
  readonly #o: InstanceLivenessOptions;
  readonly #clock: () => Date;
  readonly #failing = new Set<Step>();
  #timer: NodeJS.Timeout | null = null;
  #tick: Promise<void> | null = null;

  constructor(options: InstanceLivenessOptions) {
    this.#o = options;
    this.#clock = options.clock ?? (() => new Date());
  }

  get instanceId(): string {
    return this.#o.instanceId;
  }

  /** Beats and sweeps once before the server takes calls, then on every interval. */
  async start(): Promise<void> {
    await this.tick();
    this.#timer = setInterval(() => void this.tick(), this.#o.heartbeatIntervalMs);
    this.#timer.unref();
  }

  /** One heartbeat and one sweep; a tick still running is joined rather than overlapped. */
  tick(): Promise<void> {
    this.#tick ??= this.#run().finally(() => (this.#tick = null));
    return this.#tick;
  }

  /** A clean stop: the instance row goes, so nothing it might still hold waits to turn stale. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#tick;
    await this.#o.storage.instances.remove(this.#o.instanceId).catch(() => undefined);
  }

  async #run(): Promise<void> {
    const { storage, limiter, instanceId } = this.#o;
    const now = this.#clock();
    await this.#step('storage heartbeat', () => storage.instances.heartbeat(instanceId, now.toISOString()));
    await this.#step('limits heartbeat', () => limiter.heartbeat());
    const staleBefore = new Date(now.getTime() - this.#o.staleAfterMs).toISOString();
    let work: number | undefined;
    const reservations = await this.#step('storage sweep', async () => {
      const { locks } = this.#o;
      // Holders of open reservations, and every lock file (an ended instance that held nothing leaves one too).
      const dead = locks
        ? locks.deadAmong([...new Set([...(await storage.ledger.foreignHolders()), ...locks.listed()])])
        : [];
      const released = await storage.ledger.releaseOrphaned(staleBefore, dead);
      const hook = this.#o.releaseOrphaned;
      if (hook) {
        work = await this.#step('work sweep', () => hook(staleBefore, dead));
        // A dead instance known only by its lock file is forgotten once all it held is back: not before.
        if (work === undefined) return released;
      }
      locks?.forget(dead);
      return released;
    });
    const slots = await this.#step('limits sweep', () => limiter.releaseOrphaned());
    if ((reservations ?? 0) > 0 || (slots ?? 0) > 0 || (work ?? 0) > 0) {
      this.#o.logger.info(
        { reservations: reservations ?? 0, slots: slots ?? 0, ...(work ? { work } : {}) },
        'liveness: freed what dead instances held',
      );
    }
  }

  async #step<T>(step: Step, operation: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await operation();
      if (this.#failing.delete(step)) this.#o.logger.info({ step }, 'liveness: recovered');
      return result;
    } catch (error) {
      if (!this.#failing.has(step)) {
        this.#failing.add(step);
        const e = error as Error & { code?: unknown };
        this.#o.logger.warn({ step, error_name: e.name, error_code: e.code }, 'liveness: failing; will retry');
      }
      return undefined;
    }
  }
}
