// The endpoint store contract on SQLite (in memory) and on a scratch PostgreSQL database.
import { afterAll, beforeAll } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';
import { describeWebhookEndpointStoreContract } from './webhook-endpoint-store.contract.js';

let sqlite: KyselyStorage;
let postgres: KyselyStorage;
let scratch: ScratchDatabase;

beforeAll(async () => {
  sqlite = await createSqliteStorage({ path: ':memory:' });
  await sqlite.migrate();
  scratch = await createScratchDatabase('kumo_webhooks_test');
  postgres = await createPostgresStorage({ url: scratch.url, poolSize: 4 });
  await postgres.migrate();
});
afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  await scratch?.drop();
});

describeWebhookEndpointStoreContract('sqlite', () => sqlite);
describeWebhookEndpointStoreContract('postgres', () => postgres);
