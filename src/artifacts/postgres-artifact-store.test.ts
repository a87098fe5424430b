// The PostgreSQL ArtifactStore: the shared contract against the real server, compression, and outages as 503s.
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeArtifactStoreContract } from './artifact-store.contract.js';
import { PostgresArtifactStore } from './postgres-artifact-store.js';
import { createPostgresStorage } from '../storage/postgres/postgres-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { newId } from '../accounts/ids.js';
import { isKumoError } from '../errors.js';
import { admin, createScratchDatabase, type ScratchDatabase } from '../../test/support/backends.js';

let scratch: ScratchDatabase;
let storage: KyselyStorage;

beforeAll(async () => {
  scratch = await createScratchDatabase('kumo_artifacts_test');
  storage = await createPostgresStorage({ url: scratch.url, poolSize: 4 });
  await storage.migrate();
});
afterAll(async () => {
  await storage?.close();
  await scratch?.drop();
});

// The storage's pool is shared by every case (an artifact store opens nothing of its own); each case starts with no
// artifacts, as each filesystem case starts with an empty folder.
describeArtifactStoreContract('postgres', async ({ clock }) => {
  await sql`DELETE FROM artifacts`.execute(storage.db);
  return { store: new PostgresArtifactStore({ db: storage.db, clock }), close: async () => undefined };
});

const meta = () => ({
  id: newId('art'),
  accountId: 'acc_owner',
  requestId: newId('req'),
  url: 'https://www.ikebe-gakki.com/x',
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

/** A loopback port nothing listens on: every connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('postgres specifics', () => {
  it('stores the page compressed', async () => {
    const store = new PostgresArtifactStore({ db: storage.db });
    const m = meta();
    const html = `<table>${'<tr><td>2026-01-05</td><td>1,234.5</td></tr>'.repeat(20_000)}</table>`;
    await store.save(m, { html, data: { rows: 20_000 } });
    const { rows } = await sql<{
      bytes: number;
    }>`SELECT octet_length(html) AS bytes FROM artifacts WHERE id = ${m.id}`.execute(storage.db);
    expect(rows[0]!.bytes).toBeLessThan(html.length / 10);
    expect((await store.get(m.id, m.accountId))?.content.html).toBe(html);
  });

  it('a database that cannot be reached is unavailable (503, free) for every call, never a raw driver error', async () => {
    const down = await createPostgresStorage({
      url: `postgres://postgres@127.0.0.1:${await closedPort()}/kumo`,
      poolSize: 1,
      connectionTimeoutMs: 1_000,
    });
    const store = new PostgresArtifactStore({ db: down.db });
    try {
      const m = meta();
      const outcomes = await Promise.all([
        store.save(m, { html: '<p>x</p>', data: {} }).catch((e: unknown) => e),
        store.get(m.id, m.accountId).catch((e: unknown) => e),
        store.delete(m.id, m.accountId).catch((e: unknown) => e),
        store.sweepExpired(new Date()).catch((e: unknown) => e),
        store.checkWritable().catch((e: unknown) => e),
      ]);
      for (const outcome of outcomes) expect(isKumoError(outcome) && outcome.code).toBe('unavailable');
    } finally {
      await down.close();
    }
  });

  it('the readiness check fails on a server that takes no writes (a read-only standby after a failover)', async () => {
    const readOnly = await createScratchDatabase('kumo_artifacts_ro');
    try {
      const migrated = await createPostgresStorage({ url: readOnly.url, poolSize: 1 });
      await migrated.migrate();
      await migrated.close();
      // New sessions start read-only, as every session on a hot standby does.
      await admin(`ALTER DATABASE ${readOnly.name} SET default_transaction_read_only = on`);
      const standby = await createPostgresStorage({ url: readOnly.url, poolSize: 1 });
      try {
        const outcome = await new PostgresArtifactStore({ db: standby.db }).checkWritable().catch((e: unknown) => e);
        expect(isKumoError(outcome) && outcome.code).toBe('unavailable');
      } finally {
        await standby.close();
      }
    } finally {
      await readOnly.drop();
    }
  });
});
