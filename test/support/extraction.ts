// One worker pool per test file that builds a ScrapeService by hand: the production path, with roomy budgets.
import { afterAll, beforeAll } from 'vitest';
import { WorkerExtractionPool } from '../../src/scrape/extraction-pool.js';

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
