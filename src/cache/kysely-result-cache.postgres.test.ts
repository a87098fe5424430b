// KyselyResultCache on PostgreSQL (shared mode): the shared contract against the real server.
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { describeResultCacheContract } from './result-cache.contract.js';
import { KyselyResultCache } from './kysely-result-cache.js';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';

let scratch: ScratchDatabase;
let storage: KyselyStorage;

beforeAll(async () => {
  scratch = await createScratchDatabase('kumo_result_cache');
  storage = await createPostgresStorage({ url: scratch.url, poolSize: 4 });
  await storage.migrate();
});
afterAll(async () => {
  await storage?.close();
  await scratch?.drop();
});

describeResultCacheContract('postgres', async () => {
  await sql`DELETE FROM result_cache`.execute(storage.db);
  return { cache: new KyselyResultCache({ db: storage.db }), close: async () => undefined };
});
