// SQLite storage: the shared contract in memory and on a file, plus what only a file can show (reopen, other processes).
import { mkdir, mkdtemp, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStorageContract, type StorageProbe } from '../storage.contract.js';
import { Kysely, type DatabaseConnection } from 'kysely';
import { outageClassifyingDialect } from '../kysely/outage-dialect.js';
import { KyselyStorage } from '../kysely/kysely-storage.js';
import type { KumoDatabase } from '../kysely/schema.js';
import { NodeSqliteDatabase } from './node-sqlite-database.js';
import { NodeSqliteDialect } from './node-sqlite-dialect.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { createSqliteStorage, holdWithoutFsync, sqliteJstDay } from './sqlite-storage.js';
import { ThreadFdatasync } from './wal-sync.js';
import { newId } from '../../accounts/ids.js';
import { isKumoError } from '../../errors.js';
import type { ReserveRequest } from '../storage.js';
import { completedRequest, insertRowBefore0014 } from '../../../test/support/request-records.js';

const probe: StorageProbe<KyselyStorage> = {
  ledgerCredits: async (storage, accountId) => (await storage.ledger.entries(accountId)).map((e) => e.credits),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-sqlite-storage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeStorageContract('sqlite :memory:', () => createSqliteStorage({ path: ':memory:' }), probe);
describeStorageContract('sqlite file', () => createSqliteStorage({ path: join(dir, `${newId('db')}.sqlite`) }), probe);

async function seeded(storage: KyselyStorage): Promise<{ accountId: string; keyId: string }> {
  const accountId = newId('acc');
  const keyId = newId('key');
  const createdAt = new Date().toISOString();
  await storage.accounts.create({ id: accountId, plan: 'free', overageCapCredits: 0, createdAt });
  // The columns of 0001_initial only: upgrade tests seed databases made by older migrations with this.
  await sql`INSERT INTO api_keys (id, account_id, display_prefix, hash, created_at)
    VALUES (${keyId}, ${accountId}, 'kumo_live_abcd', ${keyId}, ${createdAt})`.execute(storage.db);
  return { accountId, keyId };
}

function reserveRequest(ids: { accountId: string; keyId: string }, cost = 1): ReserveRequest {
  return {
    requestId: newId('req'),
    ...ids,
    period: '2026-05',
    cost,
    accountLimit: 500,
    keyLimit: null,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

/** A batch event row as 0009 defines it (the columns every version has). */
async function insertEventRow(storage: KyselyStorage, id: string, sequence: number): Promise<void> {
  const at = new Date().toISOString();
  await sql`INSERT INTO batch_events (id, account_id, batch_id, type, sequence, created_at, expires_at, delivery_state)
    VALUES (${id}, 'acc_x', 'bat_x', 'item.succeeded', ${sequence}, ${at}, ${at}, 'none')`.execute(storage.db);
}

/** A new database file migrated only up to the migration before `migration` (which must exist), to upgrade later. */
async function storageBefore(migration: string): Promise<{ file: string; old: KyselyStorage }> {
  const file = join(dir, `${newId('upgrade')}.sqlite`);
  await createSqliteStorage({ path: file }).then((s) => s.close()); // creates the file with its mode
  expect(sqliteMigrations[migration]).toBeDefined();
  const before = Object.fromEntries(Object.entries(sqliteMigrations).filter(([name]) => name < migration));
  const old = new KyselyStorage({
    db: new Kysely<KumoDatabase>({ dialect: new NodeSqliteDialect({ database: new NodeSqliteDatabase(file, {}) }) }),
    migrations: before,
    ledger: { holder: 'test:1' },
    jstDay: sqliteJstDay,
  });
  return { file, old };
}

describe('sqlite file durability', () => {
  it('a committed charge survives close and reopen', async () => {
    const file = join(dir, 'reopen.sqlite');
    const first = await createSqliteStorage({ path: file });
    await first.migrate();
    const ids = await seeded(first);
    const r = reserveRequest(ids, 2);
    await first.ledger.reserve(r);
    await first.ledger.commit(r.requestId, 2);
    await first.close();

    const second = await createSqliteStorage({ path: file });
    await second.migrate();
    expect(await second.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 2, reserved: 0 });
    expect((await second.ledger.entries(ids.accountId)).map((e) => e.credits)).toEqual([2]);
    expect(await second.accounts.get(ids.accountId)).not.toBeNull();
    await second.close();
  });

  it('a committed charge is visible to the next process even when this one never closed (killed)', async () => {
    const file = join(dir, 'killed.sqlite');
    const killed = await createSqliteStorage({ path: file });
    await killed.migrate();
    const ids = await seeded(killed);
    const r = reserveRequest(ids, 1);
    await killed.ledger.reserve(r);
    await killed.ledger.commit(r.requestId, 1);
    // No close(): the WAL is neither checkpointed nor removed, as after kill -9.

    const next = await createSqliteStorage({ path: file });
    await next.migrate();
    expect(await next.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 1, reserved: 0 });
    await next.close();
    await killed.close();
  });

  it('a hold commits without waiting for the disk; every other transaction waits for it', async () => {
    const storage = await createSqliteStorage({ path: join(dir, `${newId('db')}.sqlite`) });
    await storage.migrate();
    const ids = await seeded(storage);
    const level = sql<{ synchronous: number }>`pragma synchronous`;
    const levelOf = async (db: Kysely<KumoDatabase>) => (await level.execute(db)).rows[0]!.synchronous;
    expect(await levelOf(storage.db)).toBe(2); // FULL
    // Inside a hold's transaction: NORMAL (1); FULL again after it, whether it committed or threw.
    expect(await holdWithoutFsync(storage.db, (trx) => levelOf(trx))).toBe(1);
    expect(await levelOf(storage.db)).toBe(2);
    await expect(
      holdWithoutFsync(storage.db, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await levelOf(storage.db)).toBe(2);
    // The ledger's reserve goes through it, granted or refused, and leaves FULL for the settlement.
    const r = reserveRequest(ids, 1);
    expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
    expect(await levelOf(storage.db)).toBe(2);
    expect(await storage.ledger.reserve({ ...reserveRequest(ids, 1), accountLimit: 0 })).toMatchObject({ ok: false });
    expect(await levelOf(storage.db)).toBe(2);
    expect(await storage.ledger.commit(r.requestId, 1)).toBe(true);
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 1, reserved: 0 });
    await storage.close();
  });

  it('group commit: a charging settlement commits without an fsync and answers only once its log is flushed', async () => {
    let flushes = 0;
    let finishFlush: () => void = () => undefined;
    const flushFile = () => ({
      flush: async () => {
        flushes++;
        await new Promise<void>((resolve) => (finishFlush = resolve));
      },
      close: () => Promise.resolve(),
    });
    const storage = await createSqliteStorage({ path: join(dir, `${newId('db')}.sqlite`), flushFile });
    await storage.migrate();
    const ids = await seeded(storage);
    const r = reserveRequest(ids, 1);
    await storage.ledger.reserve(r);
    let settled = false;
    const settling = storage
      .settle({ ledger: { commit: 1 }, record: completedRequest(ids, { requestId: r.requestId }) })
      .then((outcome) => {
        settled = outcome === 'committed';
      });
    while (flushes === 0) await new Promise((resolve) => setImmediate(resolve));
    // Committed (a reader sees the charge), but not answered until the disk has it.
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 1, reserved: 0 });
    expect(settled).toBe(false);
    finishFlush();
    await settling;
    expect(settled).toBe(true);
    // A settlement that charges nothing does not wait for the disk.
    const free = reserveRequest(ids, 1);
    await storage.ledger.reserve(free);
    const released = {
      ...completedRequest(ids, { requestId: free.requestId }),
      status: 'failed',
      errorCode: 'fetch_failed',
      costUnits: 0,
    };
    expect(await storage.settle({ ledger: 'release', record: released })).toBe('committed');
    expect(flushes).toBe(1);
    // Twelve calls settling at once share the flushes: far fewer than one each, and every charge is there.
    const burst = Array.from({ length: 12 }, () => reserveRequest(ids, 1));
    for (const b of burst) await storage.ledger.reserve(b);
    const all = Promise.all(
      burst.map((b) =>
        storage.settle({ ledger: { commit: 1 }, record: completedRequest(ids, { requestId: b.requestId }) }),
      ),
    );
    const release = setInterval(() => finishFlush(), 5);
    expect(await all).toEqual(burst.map(() => 'committed'));
    clearInterval(release);
    expect(flushes - 1).toBeLessThanOrEqual(3);
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 13, reserved: 0 });
    await storage.close();
  });

  it('group commit: a failed flush leaves the charge standing and answered, and later settlements commit FULL', async () => {
    let flushes = 0;
    const failures: Error[] = [];
    const storage = await createSqliteStorage({
      path: join(dir, `${newId('db')}.sqlite`),
      flushFile: () => ({
        flush: () => {
          flushes++;
          return Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' }));
        },
        close: () => Promise.resolve(),
      }),
      onFlushFailure: (error) => failures.push(error),
    });
    await storage.migrate();
    const ids = await seeded(storage);
    const first = reserveRequest(ids, 1);
    await storage.ledger.reserve(first);
    // Committed and seen by every reader: the call is answered, charged once (never charged and refused).
    expect(
      await storage.settle({ ledger: { commit: 1 }, record: completedRequest(ids, { requestId: first.requestId }) }),
    ).toBe('committed');
    expect(failures.map((e) => e.message)).toEqual(['EIO']);
    const second = reserveRequest(ids, 1);
    await storage.ledger.reserve(second);
    expect(
      await storage.settle({ ledger: { commit: 1 }, record: completedRequest(ids, { requestId: second.requestId }) }),
    ).toBe('committed');
    // No second flush and no second report: the second charge went through SQLite's own durable commit.
    expect(flushes).toBe(1);
    expect(failures).toHaveLength(1);
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 2, reserved: 0 });
    expect((await storage.ledger.entries(ids.accountId)).map((e) => e.credits)).toEqual([1, 1]);
    await storage.close();
  });

  it('group commit flushes the log SQLite really writes, beside the file a symbolic link points to', async () => {
    const realDir = join(dir, `real-${newId('d')}`);
    const linkDir = join(dir, `link-${newId('d')}`);
    await mkdir(realDir);
    await symlink(realDir, linkDir);
    const flushed: string[] = [];
    const storage = await createSqliteStorage({
      path: join(linkDir, 'kumo.sqlite'),
      flushFile: (walPath) => {
        flushed.push(walPath);
        return new ThreadFdatasync(walPath);
      },
    });
    await storage.migrate();
    expect(flushed).toEqual([join(await realpath(realDir), 'kumo.sqlite-wal')]);
    const ids = await seeded(storage);
    const r = reserveRequest(ids, 1);
    await storage.ledger.reserve(r);
    await expect(
      storage.settle({
        ledger: { commit: 1 },
        record: completedRequest(ids, { requestId: r.requestId }),
      }),
    ).resolves.toBe('committed');
    await storage.close();
  });

  it('frees the reservations of a killed process by its stale heartbeat, even while its pid still exists', async () => {
    // Liveness is the heartbeat only (issue 7): a zombie or a reused pid still answers kill(pid, 0), so the old
    // pid check held such credits until expiry. Here the "dead" holder is this very process's pid, which is alive.
    const file = join(dir, 'orphans.sqlite');
    const deadId = `ins_dead_${process.pid}`;
    const dead = await createSqliteStorage({ path: file, holder: deadId });
    await dead.migrate();
    const ids = await seeded(dead);
    await dead.instances.heartbeat(deadId, new Date(Date.now() - 60_000).toISOString());
    const orphan = reserveRequest(ids, 2);
    await dead.ledger.reserve(orphan);
    await dead.close();

    const alive = await createSqliteStorage({ path: file });
    const mine = reserveRequest(ids, 1);
    await alive.ledger.reserve(mine);
    expect(await alive.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 3 });
    // Neither reservation has expired; only the one whose owner stopped beating 60 s ago is freed.
    expect(await alive.ledger.releaseExpired(new Date().toISOString())).toBe(0);
    expect(await alive.ledger.releaseOrphaned(new Date(Date.now() - 30_000).toISOString())).toBe(1);
    expect(await alive.ledger.reservationState(orphan.requestId)).toBe('released');
    expect(await alive.ledger.reservationState(mine.requestId)).toBe('reserved');
    expect(await alive.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 1 });
    await alive.close();
  });

  it('waits for another process holding the write lock instead of failing', async () => {
    const file = join(dir, 'shared.sqlite');
    const storage = await createSqliteStorage({ path: file });
    await storage.migrate();
    const ids = await seeded(storage);
    // A second connection on its own thread, like the `kumo` CLI writing while the server runs.
    const worker = new Worker(
      `const { DatabaseSync } = require('node:sqlite');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new DatabaseSync(workerData);
       db.exec('BEGIN IMMEDIATE');
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true, workerData: file },
    );
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));
    const started = performance.now();
    expect(await storage.ledger.reserve(reserveRequest(ids))).toEqual({ ok: true });
    expect(performance.now() - started).toBeGreaterThan(100);
    await new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await storage.close();
  });

  it('a write lock held past the busy timeout is `unavailable` (503), and writes resume when it is let go', async () => {
    // The SQLite fault Kumo treats as an outage: another process (a backup, a stuck `kumo` CLI, an operator's
    // sqlite3 shell) holds the write lock longer than KUMO_SQLITE_BUSY_TIMEOUT_MS. Readers go on (WAL).
    const file = join(dir, 'locked.sqlite');
    const storage = await createSqliteStorage({ path: file, busyTimeoutMs: 100 });
    await storage.migrate();
    const ids = await seeded(storage);
    // A call that reserved before the lock and ends while it is held.
    const ending = reserveRequest(ids, 2);
    expect(await storage.ledger.reserve(ending)).toEqual({ ok: true });
    const worker = new Worker(
      `const { DatabaseSync } = require('node:sqlite');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new DatabaseSync(workerData);
       db.exec('BEGIN IMMEDIATE');
       parentPort.postMessage('locked');
       parentPort.once('message', () => { db.exec('COMMIT'); db.close(); parentPort.postMessage('free'); });`,
      { eval: true, workerData: file },
    );
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));
    const failedRelease = await storage.ledger.release(ending.requestId).catch((e: unknown) => e);
    expect(isKumoError(failedRelease) && failedRelease.code).toBe('unavailable');
    const r = reserveRequest(ids);
    const error = await storage.ledger.reserve(r).catch((e: unknown) => e);
    expect(isKumoError(error) && error.code).toBe('unavailable');
    expect(isKumoError(error) && error.extras.retryAfterSeconds).toBeGreaterThan(0);
    expect(await storage.accounts.get(ids.accountId)).not.toBeNull();
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 2 });

    worker.postMessage('release');
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));
    expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
    // The sweep retries the release that failed, so the ended call's credits come back without waiting for expiry.
    expect(await storage.ledger.releaseOrphaned(new Date(Date.now() - 30_000).toISOString())).toBe(1);
    expect(await storage.ledger.reservationState(ending.requestId)).toBe('released');
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 1 });
    await worker.terminate();
    await storage.close();
  });

  it('a reserve whose commit landed but whose answer was lost (unavailable) is freed by the next sweep', async () => {
    // A connection that dies right after COMMIT reached the database: the reservation exists, the caller was told
    // `unavailable`, believes it holds nothing, and will never release it.
    const fault = { armed: false, rollbackFails: false };
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const base = new NodeSqliteDialect({ database: new NodeSqliteDatabase(':memory:', {}) });
    const dialect = outageClassifyingDialect({
      createQueryCompiler: () => base.createQueryCompiler(),
      createAdapter: () => base.createAdapter(),
      createIntrospector: (db) => base.createIntrospector(db),
      createDriver: () => {
        const inner = base.createDriver();
        return new Proxy(inner, {
          get(target, property) {
            if (property === 'commitTransaction') {
              return async (connection: DatabaseConnection) => {
                await target.commitTransaction(connection);
                if (!fault.armed) return;
                fault.armed = false;
                fault.rollbackFails = true;
                throw reset();
              };
            }
            if (property === 'rollbackTransaction') {
              return async (connection: DatabaseConnection) => {
                if (!fault.rollbackFails) return target.rollbackTransaction(connection);
                fault.rollbackFails = false;
                throw reset();
              };
            }
            const value: unknown = Reflect.get(target, property);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
      },
    });
    const storage = new KyselyStorage({
      db: new Kysely<KumoDatabase>({ dialect }),
      migrations: sqliteMigrations,
      ledger: { holder: newId('ins') },
      jstDay: sqliteJstDay,
    });
    await storage.migrate();
    const ids = await seeded(storage);
    const lost = reserveRequest(ids, 2);
    fault.armed = true;
    const error = await storage.ledger.reserve(lost).catch((e: unknown) => e);
    expect(isKumoError(error) && error.code).toBe('unavailable');
    expect(await storage.ledger.reservationState(lost.requestId)).toBe('reserved');
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 2 });

    // The holder is this live instance, so only the retry list can free it, long before the ~150 s expiry.
    expect(await storage.ledger.releaseOrphaned(new Date(Date.now() - 30_000).toISOString())).toBe(1);
    expect(await storage.ledger.reservationState(lost.requestId)).toBe('released');
    expect(await storage.ledger.accountUsage(ids.accountId, '2026-05')).toEqual({ used: 0, reserved: 0 });
    // Released once: a second sweep has nothing left to do.
    expect(await storage.ledger.releaseOrphaned(new Date(Date.now() - 30_000).toISOString())).toBe(0);
    await storage.close();
  });

  it('creates the file readable by its owner only', async () => {
    const file = join(dir, 'mode.sqlite');
    const storage = await createSqliteStorage({ path: file });
    await storage.migrate();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await storage.close();
  });
});

describe('sqlite schema', () => {
  it('keeps the ledger append-only', async () => {
    const storage = await createSqliteStorage({ path: ':memory:' });
    await storage.migrate();
    const ids = await seeded(storage);
    const r = reserveRequest(ids);
    await storage.ledger.reserve(r);
    await storage.ledger.commit(r.requestId, 1);
    await expect(sql`UPDATE credit_ledger SET credits = 0`.execute(storage.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM credit_ledger`.execute(storage.db)).rejects.toThrow(/append-only/);
    await storage.close();
  });

  it("0006_key_lineage upgrades a file made by 0001-0005: each key starts its own line, with this month's spend", async () => {
    const { file, old } = await storageBefore('0006_key_lineage');
    await old.migrate();
    const ids = await seeded(old);
    await sql`INSERT INTO credit_counters (subject, period, used, reserved)
      VALUES (${`key:${ids.keyId}`}, '2026-05', 4, 0)`.execute(old.db);
    await old.close();
    const upgraded = await createSqliteStorage({ path: file });
    await upgraded.migrate();
    expect((await upgraded.keys.get(ids.keyId))?.lineageId).toBe(ids.keyId);
    expect(await upgraded.ledger.keyUsage(ids.keyId, '2026-05')).toEqual({ used: 4, reserved: 0 });
    const { rows } = await sql<{ lineage_id: string }>`SELECT lineage_id FROM api_keys`.execute(upgraded.db);
    expect(rows).toEqual([{ lineage_id: ids.keyId }]);
    await upgraded.close();
  });

  it('0012_event_order upgrades a file made by 0001-0011: old events first in id order, each new one after them', async () => {
    const { file, old } = await storageBefore('0012_event_order');
    await old.migrate();
    const t = Date.now();
    const [a, b] = [newId('evt', t + 1_000), newId('evt', t + 2_000)];
    for (const [id, sequence] of [
      [b, 2],
      [a, 1],
    ] as const)
      await insertEventRow(old, id, sequence);
    await old.close();
    const upgraded = await createSqliteStorage({ path: file });
    await upgraded.migrate();
    // Written after the upgrade with smaller ids (another clock), yet numbered after every older event, in write order.
    const [c, d] = [newId('evt', t + 500), newId('evt', t)];
    await insertEventRow(upgraded, c, 3);
    await insertEventRow(upgraded, d, 4);
    const { rows } = await sql<{ id: string; tx_order: number }>`
      SELECT id, tx_order FROM batch_events ORDER BY tx_order, id`.execute(upgraded.db);
    expect(rows).toEqual([
      { id: a, tx_order: 0 },
      { id: b, tx_order: 0 },
      { id: c, tx_order: 1 },
      { id: d, tx_order: 2 },
    ]);
    await upgraded.close();
  });

  it('0004_review_approvals upgrades a file made by 0001-0003: accounts kept, none approved; a half revocation is refused', async () => {
    const { file, old } = await storageBefore('0004_review_approvals');
    await old.migrate();
    const ids = await seeded(old);
    await old.close();
    const upgraded = await createSqliteStorage({ path: file });
    await upgraded.migrate();
    expect((await upgraded.accounts.get(ids.accountId))?.approvedSites).toEqual([]);
    const at = new Date().toISOString();
    await expect(
      sql`INSERT INTO review_approvals (id, account_id, site_id, approved_by, approved_at, revoked_by)
        VALUES ('apr_x', ${ids.accountId}, 'mercari', 'Aiko', ${at}, 'Ken')`.execute(upgraded.db),
    ).rejects.toThrow(/CHECK/);
    await upgraded.close();
  });

  it('0003_settlement upgrades a file made by 0001: rows kept, old 0 and not_found statuses become null, null accepted', async () => {
    const file = join(dir, `${newId('upgrade')}.sqlite`);
    await createSqliteStorage({ path: file }).then((s) => s.close()); // creates the file with its mode
    const old = new KyselyStorage({
      db: new Kysely<KumoDatabase>({ dialect: new NodeSqliteDialect({ database: new NodeSqliteDatabase(file, {}) }) }),
      migrations: { '0001_initial': sqliteMigrations['0001_initial']! },
      ledger: { holder: 'test:1' },
      jstDay: sqliteJstDay,
    });
    await old.migrate();
    const ids = await seeded(old);
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
    await insertRowBefore0014(old.db, row);
    await insertRowBefore0014(old.db, {
      ...row,
      requestId: newId('req'),
      status: 'completed',
      errorCode: null,
      httpStatus: 200,
    });
    // Before 0003 a not_found row recorded Kumo's own 200, not the target's 404/410: unknown, so null.
    const notFound = { ...row, requestId: newId('req'), status: 'not_found', errorCode: null, httpStatus: 200 };
    await insertRowBefore0014(old.db, notFound);
    await old.close();

    const upgraded = await createSqliteStorage({ path: file });
    await upgraded.migrate();
    expect(await upgraded.requests.get(row.requestId, ids.accountId)).toEqual({ ...row, httpStatus: null });
    expect(await upgraded.requests.get(notFound.requestId, ids.accountId)).toEqual({ ...notFound, httpStatus: null });
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM requests WHERE http_status = 200`.execute(
      upgraded.db,
    );
    expect(rows[0]!.n).toBe(1);
    const fresh = { ...row, requestId: newId('req'), httpStatus: null };
    await upgraded.requests.insert(fresh);
    expect(await upgraded.requests.get(fresh.requestId, ids.accountId)).toEqual(fresh);
    await upgraded.close();
  });

  it('idempotency_keys has no column that could hold a response or extracted data', async () => {
    const storage = await createSqliteStorage({ path: ':memory:' });
    await storage.migrate();
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info('idempotency_keys')`.execute(
      storage.db,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(
      [
        'account_id',
        'idempotency_key',
        'body_hash',
        'request_id',
        'state',
        'created_at',
        'expires_at',
        'held_until',
        'holder',
        'replays',
      ].sort(),
    );
    await storage.close();
  });

  it('has no column that could hold a page body, HTML or extracted JSON', async () => {
    const storage = await createSqliteStorage({ path: ':memory:' });
    await storage.migrate();
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info('requests')`.execute(storage.db);
    expect(rows.map((r) => r.name).sort()).toEqual(
      [
        'request_id',
        'account_id',
        'key_id',
        'site_id',
        'page_type',
        'url',
        'status',
        'error_code',
        'http_status',
        'attempts',
        'route',
        'cost_units',
        'latency_ms',
        'artifact_id',
        'created_at',
        // hit | miss | bypass (0014): where the answer came from, not the answer.
        'cache_state',
      ].sort(),
    );
    await storage.close();
  });
});
