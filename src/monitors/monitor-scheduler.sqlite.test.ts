// The monitor scheduler on a SQLite file: one instance (the embedded default has one writer), its SqliteWorkQueue.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { SqliteWorkQueue } from '../batches/sqlite-work-queue.js';
import { describeSchedulerScenarios } from './monitor-scheduler.contract.js';

describeSchedulerScenarios('sqlite file, 1 instance', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kumo-monitor-scheduler-'));
  const storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
  await storage.migrate();
  const queue = new SqliteWorkQueue({ db: storage.db });
  await queue.start();
  return {
    instances: [{ storage, queue }],
    queuedIds: async () => {
      const rows = await storage.db.selectFrom('work_queue').select('id').where('state', '=', 'queued').execute();
      return rows.map((row) => row.id);
    },
    close: async () => {
      await queue.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
