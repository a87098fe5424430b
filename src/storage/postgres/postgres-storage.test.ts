// PostgreSQL storage: the shared contract against the real server, in a scratch database dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStorageContract, type StorageProbe } from '../storage.contract.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { KumoDatabase } from '../kysely/schema.js';
import { createPostgresStorage } from './postgres-storage.js';
import { postgresMigrations } from './postgres-migrations.js';
import { newId } from '../../accounts/ids.js';

const adminUrl = 'postgres://postgres@127.0.0.1:5432/test';
const database = `kumo_storage_test_${randomBytes(6).toString('hex')}`;
const url = `postgres://postgres@127.0.0.1:5432/${database}`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${database}`);
});
afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

const probe: StorageProbe<KyselyStorage> = {
  ledgerCredits: async (storage, accountId) => (await storage.ledger.entries(accountId)).map((e) => e.credits),
};

describeStorageContract('postgres', () => createPostgresStorage({ url, poolSize: 10 }), probe);

async function seed(storage: KyselyStorage): Promise<{ accountId: string; keyId: string }> {
  const accountId = newId('acc');
  const keyId = newId('key');
  const createdAt = new Date().toISOString();
  await storage.accounts.create({ id: accountId, plan: 'free', overageCapCredits: 0, createdAt });
  await storage.keys.create({
    id: keyId,
    accountId,
    displayPrefix: 'kumo_live_abcd',
    hash: keyId,
    sites: null,
    operations: null,
    outputs: null,
    monthlyCreditLimit: null,
    concurrencyLimit: null,
    createdAt,
    revokedAt: null,
    expiresAt: null,
  });
  return { accountId, keyId };
}

describe('postgres specifics', () => {
  it('0003_settlement upgrades a database made by 0001: rows kept, old 0 statuses become null, null accepted', async () => {
    const upgradeDb = `${database}_upgrade`;
    await admin(`CREATE DATABASE ${upgradeDb}`);
    const upgradeUrl = `postgres://postgres@127.0.0.1:5432/${upgradeDb}`;
    try {
      const old = new KyselyStorage({
        db: new Kysely<KumoDatabase>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: upgradeUrl, max: 1 }) }),
        }),
        migrations: { '0001_initial': postgresMigrations['0001_initial']! },
        ledger: { holder: 'test:1' },
      });
      await old.migrate();
      const ids = await seed(old);
      const row = {
        requestId: newId('req'),
        ...ids,
        siteId: null,
        pageType: null,
        url: null,
        status: 'failed',
        errorCode: 'fetch_failed',
        httpStatus: 0,
        attempts: 2,
        route: 'http',
        costUnits: 0,
        latencyMs: 5,
        artifactId: null,
        createdAt: '2026-05-01T00:00:00.000Z',
      };
      await old.requests.insert(row);
      await old.close();

      const upgraded = await createPostgresStorage({ url: upgradeUrl, poolSize: 1 });
      await upgraded.migrate();
      expect(await upgraded.requests.get(row.requestId, ids.accountId)).toEqual({ ...row, httpStatus: null });
      const fresh = { ...row, requestId: newId('req'), httpStatus: null };
      await upgraded.requests.insert(fresh);
      expect(await upgraded.requests.get(fresh.requestId, ids.accountId)).toEqual(fresh);
      await upgraded.close();
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${upgradeDb} WITH (FORCE)`);
    }
  });

  it('migrations from several instances at once apply once', async () => {
    const instances = await Promise.all(Array.from({ length: 3 }, () => createPostgresStorage({ url, poolSize: 2 })));
    await Promise.all(instances.map((s) => s.migrate()));
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM kumo_migration`.execute(instances[0]!.db);
    expect(Number(rows[0]!.n)).toBe(Object.keys(postgresMigrations).length);
    await Promise.all(instances.map((s) => s.close()));
  });

  it('reservations from two instances sharing the database never pass the limit', async () => {
    const a = await createPostgresStorage({ url, poolSize: 5 });
    const b = await createPostgresStorage({ url, poolSize: 5 });
    await a.migrate();
    const { accountId, keyId } = await seed(a);
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).ledger.reserve({
          requestId: newId('req'),
          accountId,
          keyId,
          period: '2026-05',
          cost: 1,
          accountLimit: 15,
          keyLimit: null,
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        }),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(15);
    expect(await b.ledger.accountUsage(accountId, '2026-05')).toEqual({ used: 0, reserved: 15 });
    await a.close();
    await b.close();
  });

  it('keeps the ledger append-only, TRUNCATE included', async () => {
    const storage = await createPostgresStorage({ url, poolSize: 1 });
    await storage.migrate();
    const { accountId, keyId } = await seed(storage);
    const requestId = newId('req');
    await storage.ledger.reserve({
      requestId,
      accountId,
      keyId,
      period: '2026-05',
      cost: 1,
      accountLimit: 1,
      keyLimit: null,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await storage.ledger.commit(requestId, 1)).toBe(true);
    await expect(sql`UPDATE credit_ledger SET credits = 0`.execute(storage.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM credit_ledger`.execute(storage.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE credit_ledger`.execute(storage.db)).rejects.toThrow(/append-only/);
    expect((await storage.ledger.entries(accountId)).map((e) => e.credits)).toEqual([1]);
    await storage.close();
  });
});
