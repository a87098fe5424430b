// KyselyResultCache on SQLite (the embedded default): the shared contract on a real file, and deleted answers gone from it.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeResultCacheContract } from './result-cache.contract.js';
import { KyselyResultCache } from './kysely-result-cache.js';
import { createSqliteStorage, truncateWriteAheadLog } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';

let dir: string;
let storage: KyselyStorage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-result-cache-'));
  storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
  await storage.migrate();
});
afterAll(async () => {
  await storage?.close();
  await rm(dir, { recursive: true, force: true });
});

describeResultCacheContract('sqlite', async () => {
  await sql`DELETE FROM result_cache`.execute(storage.db);
  return {
    cache: new KyselyResultCache({ db: storage.db, afterDelete: truncateWriteAheadLog }),
    close: async () => undefined,
  };
});

describe('sqlite specifics', () => {
  it('an entry swept is gone from the database file and its write-ahead log, not only from queries', async () => {
    await sql`DELETE FROM result_cache`.execute(storage.db);
    const cache = new KyselyResultCache({ db: storage.db, afterDelete: truncateWriteAheadLog });
    const marker = `CACHE-MARKER-${Date.now()}`;
    const entry = {
      accountId: 'acc_a',
      key: 'k1',
      url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/1',
      siteId: 'ikebe_gakki',
      pageType: 'item',
      requestId: 'req_1',
      fetchedAt: '2026-01-15T03:00:00.000Z',
      expiresAt: '2026-01-15T04:00:00.000Z',
      answer: {
        data: { title: `${marker} ${'padding '.repeat(2_000)}` },
        warnings: [],
        extractor: { id: 'ikebe_gakki/item', version: 1, coverage: 'stable', provenance: {} },
        fetch_summary: {
          status: 'completed' as const,
          attempts: 1,
          route: 'http' as const,
          http_status: 200,
          final_url: null,
          charset: 'utf-8',
          bytes: 1,
          elapsed_ms: 1,
        },
      },
    };
    const onDisk = async () => {
      const found: string[] = [];
      for (const name of await readdir(dir))
        if ((await readFile(join(dir, name))).includes(Buffer.from(marker))) found.push(name);
      return found;
    };
    await cache.put(entry);
    expect((await onDisk()).length).toBeGreaterThan(0);
    expect(await cache.sweepExpired('2026-01-15T04:00:00.000Z')).toBe(1);
    expect(await onDisk()).toEqual([]);
  });
});
