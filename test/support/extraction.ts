// Extraction pools for tests: one per test file that builds a ScrapeService by hand (the production path, with roomy
// budgets), and pools of the gated worker, whose pages a test can hold in a worker.
import { afterAll, beforeAll } from 'vitest';
import type { KumoError } from '../../src/errors.js';
import {
  WorkerExtractionPool,
  type WorkerExtractionPoolOptions,
  type WorkerLoss,
} from '../../src/scrape/extraction-pool.js';
import type { OutputLimits } from '../../src/scrape/produce.js';
import { ManualClock } from '../../src/time/clock.js';

/** Registers the file's pool start and close; read `.pool` inside tests and hooks. */
export function useExtractionPool(): { readonly pool: WorkerExtractionPool } {
  let pool: WorkerExtractionPool | undefined;
  beforeAll(() => {
    pool = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 20_000,
      maxHeapMb: 256,
      limits: { maxRows: 10_000, maxBytes: 20 * 1024 * 1024 },
    });
  });
  afterAll(async () => {
    await pool?.close();
  });
  return {
    get pool() {
      if (!pool) throw new Error('the extraction pool starts in beforeAll');
      return pool;
    },
  };
}

/** A pool of the gated worker (test/support/gated-extraction-worker.ts): a page whose final URL ends in `#hold-n`
 * stays in its worker until `release(n)`; `taken()` counts the pages any worker took. Time is a ManualClock. */
export function gatedExtractionPool(options: Partial<WorkerExtractionPoolOptions> & { size: number }) {
  const gate = new Int32Array(new SharedArrayBuffer(4 * 32));
  const clock = new ManualClock();
  const lost: WorkerLoss[] = [];
  const pool = new WorkerExtractionPool({
    deadlineMs: 60_000,
    maxHeapMb: 128,
    limits: { maxRows: 10, maxBytes: 1e6, gate: gate.buffer } as OutputLimits,
    workerUrl: new URL('../../test/support/gated-extraction-worker.ts', import.meta.url),
    heavyPageBytes: 4096,
    clock,
    onWorkerLost: (reason) => lost.push(reason),
    ...options,
  });
  let hold = 4;
  return {
    pool,
    clock,
    lost,
    /** The next gate index of a held page: give it a page whose final URL ends in `#hold-${n}`. */
    nextHold: () => hold++,
    state: (n: number) => Atomics.load(gate, n),
    release: (n: number) => Atomics.store(gate, n, 2),
    taken: () => Atomics.load(gate, 3),
    ready: () => until(() => pool.readyWorkers === pool.size),
  };
}

/** Polls until `condition` holds; fails the test (rather than hanging it) when it never does. */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const end = performance.now() + 20_000;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`${what} never held`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The promise's outcome, or 'still waiting' if it is not settled long after it should be (a generous bound: the
 * passing path never comes near it, it only turns a hang into a failure). */
export function settled<T>(promise: Promise<T>): Promise<T | string> {
  return Promise.race([
    promise.then(
      (value) => value,
      (error: KumoError) => error.code,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 20_000).unref()),
  ]);
}
