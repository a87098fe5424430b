// `npm run bench:queue`: the work queue under a backlog. 1,000,000 items queued on one host (bulk enqueue), then claim
// + finish one at a time; claim and finish latencies (p50/p99/max) on PostgreSQL (pg-boss) and SQLite. Runs on Node
// 24's own TypeScript stripping against dist/; options: --items N (default 1,000,000), --claims N (default 3,000),
// --only pg,sqlite.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type * as PostgresStorageModule from '../src/storage/postgres/postgres-storage.ts';
import type * as SqliteStorageModule from '../src/storage/sqlite/sqlite-storage.ts';
import type * as PgBossQueueModule from '../src/batches/pg-boss-work-queue.ts';
import type * as SqliteQueueModule from '../src/batches/sqlite-work-queue.ts';
import type { NewWork, WorkQueue } from '../src/batches/work-queue.ts';
import type { KyselyStorage } from '../src/storage/kysely/kysely-storage.ts';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    claims: { type: 'string', default: '3000' },
    only: { type: 'string', default: 'pg,sqlite' },
  },
});
const items = Number(args.items);
const claims = Number(args.claims);
const root = path.resolve(import.meta.dirname, '..');
const dist = (file: string) => path.join(root, 'dist', file);
const { createPostgresStorage } = (await import(
  dist('storage/postgres/postgres-storage.js')
)) as typeof PostgresStorageModule;
const { createSqliteStorage, holdWithoutFsync } = (await import(
  dist('storage/sqlite/sqlite-storage.js')
)) as typeof SqliteStorageModule;
const { PgBossWorkQueue } = (await import(dist('batches/pg-boss-work-queue.js'))) as typeof PgBossQueueModule;
const { SqliteWorkQueue } = (await import(dist('batches/sqlite-work-queue.js'))) as typeof SqliteQueueModule;

const adminUrl = process.env.KUMO_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const host = 'backlog.example';
/** The backlog's owner, plus three accounts with a little work each: the claim picks a lane among four. */
const accounts = ['acc_backlog', 'acc_small1', 'acc_small2', 'acc_small3'];
const enqueueChunk = 10_000;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (value: number) => value.toFixed(2);

async function measure(name: string, storage: KyselyStorage, queue: WorkQueue): Promise<void> {
  const started = performance.now();
  for (let from = 0; from < items; from += enqueueChunk) {
    const count = Math.min(enqueueChunk, items - from);
    const work: NewWork[] = Array.from({ length: count }, (_, i) => ({
      id: `itm_${from + i}`,
      groupId: `bat_${Math.floor((from + i) / 50_000)}`,
      accountId: accounts[0]!,
      host,
      order: from + i,
    }));
    await storage.db.transaction().execute((tx) => queue.enqueue(tx, work));
  }
  for (const [n, accountId] of accounts.slice(1).entries()) {
    const work = Array.from({ length: 1_000 }, (_, i) => ({
      id: `itm_s${n}_${i}`,
      groupId: `bat_s${n}`,
      accountId,
      host,
      order: i,
    }));
    await storage.db.transaction().execute((tx) => queue.enqueue(tx, work));
  }
  const enqueueS = (performance.now() - started) / 1000;
  const depth = await queue.depth(host);
  console.log(
    `${name}: enqueued ${depth.toLocaleString('en')} in ${enqueueS.toFixed(1)} s (${Math.round(depth / enqueueS).toLocaleString('en')} items/s)`,
  );

  const claimMs: number[] = [];
  const finishMs: number[] = [];
  const holder = 'ins_bench';
  const served = new Map<string, number>();
  for (let i = 0; i < claims; i++) {
    const t0 = performance.now();
    const work = await queue.claim(host, holder);
    const t1 = performance.now();
    if (!work) throw new Error('the backlog ran dry');
    served.set(work.accountId, (served.get(work.accountId) ?? 0) + 1);
    const done = await storage.db.transaction().execute((tx) => queue.finish(tx, work.id, holder));
    const t2 = performance.now();
    if (!done) throw new Error('finish refused');
    claimMs.push(t1 - t0);
    finishMs.push(t2 - t1);
  }
  // The floor under the same load: a write transaction of one statement (one lane row) and its commit.
  const floorMs: number[] = [];
  for (let i = 0; i < claims; i++) {
    const t0 = performance.now();
    await storage.db.transaction().execute((tx) =>
      tx
        .updateTable('work_lanes')
        .set((eb) => ({ queued: eb('queued', '+', 0) }))
        .where('host', '=', host)
        .where('account_id', '=', accounts[0]!)
        .execute(),
    );
    floorMs.push(performance.now() - t0);
  }
  floorMs.sort((a, b) => a - b);
  console.log(
    `${name}: floor (one-UPDATE write transaction) p50 ${ms(percentile(floorMs, 50))} ms, p99 ${ms(percentile(floorMs, 99))} ms`,
  );
  const t3 = performance.now();
  await queue.depth(host);
  const depthMs = performance.now() - t3;
  claimMs.sort((a, b) => a - b);
  finishMs.sort((a, b) => a - b);
  console.log(
    `${name}: ${claims} claims, claim p50 ${ms(percentile(claimMs, 50))} ms, p99 ${ms(percentile(claimMs, 99))} ms, max ${ms(claimMs.at(-1)!)} ms; ` +
      `finish p50 ${ms(percentile(finishMs, 50))} ms, p99 ${ms(percentile(finishMs, 99))} ms; depth ${ms(depthMs)} ms; ` +
      `served ${[...served].map(([a, n]) => `${a}=${n}`).join(' ')}`,
  );
}

if (args.only.includes('pg')) {
  const name = `kumo_bench_queue_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const storage = await createPostgresStorage({ url: url.href, poolSize: 4, queryTimeoutMs: 60_000 });
  const queue = new PgBossWorkQueue({ db: storage.db, url: url.href });
  try {
    await storage.migrate();
    await queue.start();
    await measure('PostgreSQL (pg-boss)', storage, queue);
  } finally {
    await queue.close();
    await storage.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (args.only.includes('sqlite')) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-bench-queue-'));
  const storage = await createSqliteStorage({ path: path.join(dir, 'kumo.sqlite') });
  // Claims commit as reservations do (synchronous=NORMAL; see SqliteWorkQueueOptions.transaction).
  const queue = new SqliteWorkQueue({ db: storage.db, transaction: holdWithoutFsync });
  try {
    await storage.migrate();
    await measure('SQLite', storage, queue);
  } finally {
    await queue.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}
