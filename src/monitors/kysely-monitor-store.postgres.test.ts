// The MonitorStore contract on PostgreSQL (shared mode): each test in a scratch database of its own, dropped afterwards.
import { afterAll } from 'vitest';
import { commitWithoutWaiting, createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';
import { describeMonitorStoreContract } from './monitor-store.contract.js';

const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const scratch of scratches) await scratch.drop();
});

describeMonitorStoreContract('postgres', async () => {
  const scratch = await createScratchDatabase('kumo_monitor_store_test');
  scratches.push(scratch);
  return {
    storage: await createPostgresStorage({ url: scratch.url, poolSize: 10 }),
    file: null,
    runTransaction: commitWithoutWaiting,
  };
});
