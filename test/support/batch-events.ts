// Waits, on PostgreSQL, until GET /v1/events may list every batch event written so far (KyselyBatchStore.events()).
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { KumoDatabase } from '../../src/storage/kysely/schema.js';

/**
 * PostgreSQL lists an event only once every transaction older than its own has ended, in the whole cluster: another
 * test file's open transaction (a migration, a held lock) holds a just-committed event back for a moment. A test that
 * lists what it has just written waits for that first; a condition, polled, bounded so a stuck transaction fails the
 * test instead of hanging it. SQLite lists a commit at once.
 */
export async function untilEventsListable(db: Kysely<KumoDatabase>, timeoutMs = 60_000): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ listable: boolean }>`
      SELECT coalesce(max(tx_order), 0) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS listable
      FROM batch_events`.execute(db);
    if (rows[0]!.listable) return;
    if (Date.now() > deadline)
      throw new Error(`batch events still held back by an open transaction after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
