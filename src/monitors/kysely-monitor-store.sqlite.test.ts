// The MonitorStore contract on SQLite files (the embedded default).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { newId } from '../accounts/ids.js';
import { createSqliteStorage, holdWithoutFsync } from '../storage/sqlite/sqlite-storage.js';
import { describeMonitorStoreContract } from './monitor-store.contract.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-monitor-store-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeMonitorStoreContract('sqlite file', async () => {
  const file = join(dir, `${newId('db')}.sqlite`);
  return { storage: await createSqliteStorage({ path: file }), file, runTransaction: holdWithoutFsync };
});
