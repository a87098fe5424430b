// The WorkQueue contract on SQLite, in a real file. The embedded default is one process with one connection (a second
// connection in the same process would block its event loop on SQLite's busy wait), so the "instances" here are two
// queues over the one storage, as the dispatcher and the sweeps share it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { describeWorkQueueContract } from './work-queue.contract.js';
import { SqliteWorkQueue } from './sqlite-work-queue.js';

describeWorkQueueContract('SqliteWorkQueue', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kumo-work-queue-'));
  const storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
  await storage.migrate();
  return {
    db: storage.db,
    open: async (clock) => {
      const queue = new SqliteWorkQueue({ db: storage.db, clock });
      await queue.start();
      return queue;
    },
    close: async () => {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
