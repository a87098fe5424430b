// The checkpointing thread: the log is copied into the database file by another connection, while the server's own
// connection checkpoints only past the backstop.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStorage } from './sqlite-storage.js';
import { backstopAutocheckpointPages } from './wal-checkpoint.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-checkpoint-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ThreadCheckpointer', () => {
  it('copies the log into the file off the event loop; the server connection keeps the backstop only', async () => {
    const file = join(dir, 'kumo.sqlite');
    const storage = await createSqliteStorage({ path: file, checkpointEveryMs: 20 });
    try {
      const level = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(storage.db);
      expect(level.rows[0]!.wal_autocheckpoint).toBe(backstopAutocheckpointPages);
      await sql`CREATE TABLE filler (b BLOB)`.execute(storage.db);
      const before = (await stat(file)).size;
      // About 2,500 pages: well past SQLite's default of 1,000, well under the backstop, so only the thread copies.
      for (let i = 0; i < 50; i++) {
        await storage.db.transaction().execute(async (tx) => {
          for (let j = 0; j < 50; j++) await sql`INSERT INTO filler (b) VALUES (${randomBytes(3_000)})`.execute(tx);
        });
      }
      let size = before;
      for (let i = 0; i < 200 && size < before + 7_000_000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        size = (await stat(file)).size;
      }
      expect(size).toBeGreaterThanOrEqual(before + 7_000_000);
      const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(storage.db);
      expect(Number(rows.rows[0]!.n)).toBe(2_500);
    } finally {
      await storage.close();
    }
  });

  it('close() returns only after the thread let go: a folder removed right after stays empty', async () => {
    const folder = await mkdtemp(join(dir, 'closed-'));
    // Closed at once, before the thread has (likely) even opened its connection: the case that recreated the files.
    const storage = await createSqliteStorage({ path: join(folder, 'kumo.sqlite'), checkpointEveryMs: 1 });
    await storage.close();
    for (const name of await readdir(folder)) await rm(join(folder, name));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readdir(folder)).toEqual([]);
  });

  it('is off unless asked for: SQLite checkpoints by itself at its default', async () => {
    const storage = await createSqliteStorage({ path: join(dir, 'plain.sqlite') });
    try {
      const level = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(storage.db);
      expect(level.rows[0]!.wal_autocheckpoint).toBe(1_000);
    } finally {
      await storage.close();
    }
  });
});
