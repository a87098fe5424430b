// Time for batch results, driven from the test: the store's own `expire(now)` (KyselyBatchStore, the code the server's
// sweep calls) run against the test's database with a `now` past `results_expire_at`, as the sweep would run it that
// much later. Retention is at least one hour (DESIGN §5, `retain_hours` 1–72), and no product setting shortens it for
// tests: the server keeps its real clock, and the test stands in for the passing of time.
import { KyselyBatchStore } from '../../src/batches/kysely-batch-store.js';
import { createPostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { createSqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

export type ExpiryTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export async function expireResults(target: ExpiryTarget, now: number): Promise<number> {
  // The server already migrated the database; these connections only read and write rows.
  const storage =
    target.kind === 'sqlite'
      ? await createSqliteStorage({ path: target.path, busyTimeoutMs: 5_000 })
      : await createPostgresStorage({ url: target.url, poolSize: 2 });
  try {
    return await new KyselyBatchStore(storage).expire(new Date(now).toISOString());
  } finally {
    await storage.close();
  }
}
