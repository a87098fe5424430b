// The WorkQueue contract on pg-boss in a real PostgreSQL database of its own: each "instance" is its own storage pool
// and its own pg-boss, as separate processes would have.
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { createScratchDatabase } from '../../test/support/backends.js';
import { describeWorkQueueContract } from './work-queue.contract.js';
import { PgBossWorkQueue } from './pg-boss-work-queue.js';

describeWorkQueueContract('PgBossWorkQueue', async () => {
  const database = await createScratchDatabase('kumo_work_queue');
  const storage = await createPostgresStorage({ url: database.url, poolSize: 4 });
  await storage.migrate();
  const storages: KyselyStorage[] = [storage];
  return {
    db: storage.db,
    open: async (clock) => {
      const own = await createPostgresStorage({ url: database.url, poolSize: 6 });
      storages.push(own);
      const queue = new PgBossWorkQueue({ db: own.db, url: database.url, clock });
      await queue.start();
      return queue;
    },
    close: async () => {
      for (const s of storages) await s.close();
      await database.drop();
    },
  };
});
