// The monitor scheduler on PostgreSQL: three instances, each with its own pool, store, scheduler and pg-boss work
// queue (as three servers have), on a scratch database of each test's own, dropped afterwards.
import { sql } from 'kysely';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import { PgBossWorkQueue } from '../batches/pg-boss-work-queue.js';
import { createScratchDatabase } from '../../test/support/backends.js';
import { describeSchedulerScenarios, type SchedulerInstance } from './monitor-scheduler.contract.js';

describeSchedulerScenarios('postgres, 3 instances', async () => {
  const scratch = await createScratchDatabase('kumo_monitor_scheduler_test');
  const instances: SchedulerInstance[] = [];
  for (let i = 0; i < 3; i++) {
    const storage = await createPostgresStorage({ url: scratch.url, poolSize: 3 });
    if (i === 0) await storage.migrate();
    const queue = new PgBossWorkQueue({ db: storage.db, url: scratch.url });
    // One after another: pg-boss installs its schema on the first start.
    await queue.start();
    instances.push({ storage, queue });
  }
  return {
    instances,
    queuedIds: async () => {
      const { rows } = await sql<{
        id: string;
      }>`select data->>'id' as id from pgboss.job where state = 'created'`.execute(instances[0]!.storage.db);
      return rows.map((row) => row.id);
    },
    close: async () => {
      for (const { queue, storage } of instances) {
        await queue.close();
        await storage.close();
      }
      await scratch.drop();
    },
  };
});
