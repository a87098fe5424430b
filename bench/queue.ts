// `npm run bench:queue`: the work queue under a backlog. 1,000,000 items queued on one host for one account, submitted
// as real Growth-sized batches of 50,000 (KyselyBatchStore.create, queue rows enqueued in the create's transaction;
// with --batches fewer, the rest are bare queue rows, bulk enqueued), then claim + finish one at a time, real items run
// through the store, with the batch status (BatchStore.get, what GET /v1/batches/{id} answers from) read between them:
// claim, finish and status latencies (p50/p99/max) on PostgreSQL (pg-boss) and SQLite, and the status's counts checked
// against the batch's items. Runs on Node 24's own TypeScript stripping against dist/; options: --items N (default
// 1,000,000), --batches N (how many are real batches, default all), --claims N (default 3,000), --reads N (status
// reads, default 1,000), --only pg,sqlite.
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
import type * as BatchStoreModule from '../src/batches/kysely-batch-store.ts';
import type * as BatchTypesModule from '../src/batches/batch-store.ts';
import type * as BatchServiceModule from '../src/batches/batch-service.ts';
import type * as SecretsModule from '../src/secrets/aes-gcm-secrets.ts';
import type * as IdsModule from '../src/accounts/ids.ts';
import type * as PeriodModule from '../src/accounts/period.ts';
import type { NewBatchItem, RunOutcome } from '../src/batches/batch-store.ts';
import type { NewWork, WorkQueue } from '../src/batches/work-queue.ts';
import type { KyselyStorage } from '../src/storage/kysely/kysely-storage.ts';
import type { HoldTransaction } from '../src/storage/kysely/kysely-credit-ledger.ts';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    batches: { type: 'string', default: 'all' },
    claims: { type: 'string', default: '3000' },
    reads: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'pg,sqlite' },
  },
});
const items = Number(args.items);
const claims = Number(args.claims);
const reads = Number(args.reads);
const root = path.resolve(import.meta.dirname, '..');
const dist = (file: string) => path.join(root, 'dist', file);
const { createPostgresStorage, commitWithoutWaiting } = (await import(
  dist('storage/postgres/postgres-storage.js')
)) as typeof PostgresStorageModule;
const { createSqliteStorage, holdWithoutFsync } = (await import(
  dist('storage/sqlite/sqlite-storage.js')
)) as typeof SqliteStorageModule;
const { PgBossWorkQueue } = (await import(dist('batches/pg-boss-work-queue.js'))) as typeof PgBossQueueModule;
const { SqliteWorkQueue } = (await import(dist('batches/sqlite-work-queue.js'))) as typeof SqliteQueueModule;
const { KyselyBatchStore } = (await import(dist('batches/kysely-batch-store.js'))) as typeof BatchStoreModule;
const { itemStates } = (await import(dist('batches/batch-store.js'))) as typeof BatchTypesModule;
const { batchItemLimits } = (await import(dist('batches/batch-service.js'))) as typeof BatchServiceModule;
const { AesGcmSecrets } = (await import(dist('secrets/aes-gcm-secrets.js'))) as typeof SecretsModule;
const { newId } = (await import(dist('accounts/ids.js'))) as typeof IdsModule;
const { periodOf } = (await import(dist('accounts/period.js'))) as typeof PeriodModule;

const adminUrl = process.env.KUMO_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const host = 'backlog.example';
/** The backlog's owner, plus three accounts with a little work each: the claim picks a lane among four. */
const accounts = ['acc_backlog', 'acc_small1', 'acc_small2', 'acc_small3'];
const enqueueChunk = 10_000;
/** A real batch is as large as a plan allows (Growth); a smaller --items makes it smaller. */
const batchSize = Math.min(batchItemLimits.growth, items);
/** How many of the backlog account's items are real batches (the first is the one whose status is read); the rest are bare queue rows. */
const realBatches = Math.max(
  1,
  Math.min(args.batches === 'all' ? Infinity : Number(args.batches), Math.floor(items / batchSize)),
);
const secrets = new AesGcmSecrets(randomBytes(32));

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

/** The backlog account (Growth) and its key, as a real submitter has them; the batch rows point at both. */
async function createSubmitter(storage: KyselyStorage): Promise<string> {
  const createdAt = new Date().toISOString();
  const keyId = newId('key');
  await storage.accounts.create({ id: accounts[0]!, plan: 'growth', overageCapCredits: 0, createdAt });
  await storage.keys.create({
    id: keyId,
    lineageId: keyId,
    accountId: accounts[0]!,
    displayPrefix: 'kumo_live_bench',
    hash: newId('hash').toLowerCase(),
    sites: null,
    operations: null,
    outputs: null,
    monthlyCreditLimit: null,
    concurrencyLimit: null,
    createdAt,
    revokedAt: null,
    expiresAt: null,
  });
  return keyId;
}

/** One real submission as batch-service `submit` makes it: the batch, its items (URLs sealed) and its queue rows, in one transaction. */
async function submitBatch(
  store: InstanceType<typeof KyselyBatchStore>,
  queue: WorkQueue,
  keyId: string,
): Promise<{ id: string; box: ReturnType<typeof secrets.newDataKey>['box'] }> {
  const now = new Date();
  const id = newId('bat', now.getTime());
  const { box, sealed } = secrets.newDataKey(id);
  const batchItems: NewBatchItem[] = Array.from({ length: batchSize }, (_, index) => {
    const itemId = newId('itm', now.getTime());
    const url = `https://${host}/item/${id}/${index}`;
    return {
      id: itemId,
      index,
      ref: null,
      url,
      urlSealed: box.seal(url, `url:${itemId}`),
      host,
      siteId: 'ikebe_gakki',
      pageType: 'item',
      route: 'http',
      params: null,
      costMax: 1,
    };
  });
  const outcome = await store.create(
    {
      id,
      accountId: accounts[0]!,
      keyId,
      params: { mode: 'html_json', work_type: 'auto', include_html: false, render_js: false },
      webhook: null,
      retainHours: null,
      resultsExpireAt: new Date(now.getTime() + 24 * 3_600_000).toISOString(),
      maxCredits: null,
      estimate: { costUnitsMax: batchSize, etaS: batchSize },
      rejected: [],
      dataKeySealed: sealed,
      createdAt: now.toISOString(),
      sealed: true,
    },
    batchItems,
    (tx) =>
      queue.enqueue(
        tx,
        batchItems.map((item) => ({ id: item.id, groupId: id, accountId: accounts[0]!, host, order: item.index })),
      ),
  );
  if (outcome.outcome !== 'created') throw new Error(`batch create: ${outcome.outcome}`);
  return { id, box };
}

function summary(values: number[]): string {
  values.sort((a, b) => a - b);
  return `p50 ${ms(percentile(values, 50))} ms, p99 ${ms(percentile(values, 99))} ms, max ${ms(values.at(-1)!)} ms`;
}

async function measure(
  name: string,
  storage: KyselyStorage,
  queue: WorkQueue,
  runTransaction: HoldTransaction,
): Promise<void> {
  // As services.ts builds it: an item run's writes commit without waiting for the disk (decision 0023).
  const store = new KyselyBatchStore(storage, { runTransaction });
  const keyId = await createSubmitter(storage);
  const started = performance.now();
  const batches = new Map<string, ReturnType<typeof secrets.newDataKey>['box']>();
  for (let n = 0; n < realBatches; n++) {
    const { id, box } = await submitBatch(store, queue, keyId);
    batches.set(id, box);
  }
  const createS = (performance.now() - started) / 1000;
  const measured = [...batches.keys()][0]!;
  const bare = items - realBatches * batchSize;
  for (let from = 0; from < bare; from += enqueueChunk) {
    const count = Math.min(enqueueChunk, bare - from);
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
  const enqueueS = (performance.now() - started) / 1000 - createS;
  const depth = await queue.depth(host);
  console.log(
    `${name}: ${realBatches} real batch(es) of ${batchSize.toLocaleString('en')} items (KyselyBatchStore.create, queue rows in its transaction) in ${createS.toFixed(1)} s; ` +
      `${(bare + 3_000).toLocaleString('en')} bare queue rows in ${enqueueS.toFixed(1)} s (${Math.round((bare + 3_000) / enqueueS).toLocaleString('en')} items/s); queued ${depth.toLocaleString('en')}`,
  );

  const claimMs: number[] = [];
  const finishMs: number[] = [];
  // The claims that found a real batch item: claimed as the dispatcher claims (marked running in the claim's
  // transaction), its credit reserved, its outcome written with the queue's finish (6 in 7 ready, 1 in 7 not_found).
  const runClaimMs: number[] = [];
  const reserveMs: number[] = [];
  const outcomeMs: number[] = [];
  const statusMs: number[] = [];
  const holder = 'ins_bench';
  const served = new Map<string, number>();
  const period = periodOf(new Date());
  let statusReads = 0;
  let lastCounts: Record<string, number> | null = null;
  for (let i = 0; i < claims; i++) {
    const requestId = newId('req');
    let run = false;
    const t0 = performance.now();
    const work = await queue.claim(host, holder, {
      onClaimed: async (tx, claimed) => {
        if (!batches.has(claimed.groupId)) return true;
        run = (await store.markRunning(tx, claimed.id, holder, requestId, new Date().toISOString())) !== null;
        return run;
      },
    });
    const t1 = performance.now();
    if (!work) throw new Error('the backlog ran dry');
    served.set(work.accountId, (served.get(work.accountId) ?? 0) + 1);
    if (!batches.has(work.groupId)) {
      const done = await storage.db.transaction().execute((tx) => queue.finish(tx, work.id, holder));
      const t2 = performance.now();
      if (!done) throw new Error('finish refused');
      claimMs.push(t1 - t0);
      finishMs.push(t2 - t1);
    } else {
      if (!run) throw new Error('markRunning refused');
      const reserved = await store.reserve(work.id, holder, {
        requestId,
        period,
        cost: 1,
        accountLimit: 1_000_000_000,
        keyLimit: null,
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
      });
      const t2 = performance.now();
      if (!reserved.ok) throw new Error(`reserve refused: ${JSON.stringify(reserved)}`);
      const record = {
        requestId,
        accountId: work.accountId,
        keyId,
        siteId: 'ikebe_gakki',
        pageType: 'item',
        url: `https://${host}/item`,
        attempts: 1,
        latencyMs: 400,
        artifactId: null,
        createdAt: new Date().toISOString(),
      };
      const outcome: RunOutcome =
        runClaimMs.length % 7 === 6
          ? {
              state: 'not_found',
              requestId,
              error: { code: 'not_found', status: 404, retryable: false },
              record: {
                ...record,
                status: 'not_found',
                errorCode: 'not_found',
                httpStatus: 404,
                route: 'http',
                costUnits: 0,
              },
            }
          : {
              state: 'ready',
              requestId,
              costUnits: 1,
              route: 'http',
              sealResult: () => batches.get(work.groupId)!.seal(JSON.stringify({ data: { title: 'x' } }), work.id),
              record: { ...record, status: 'completed', errorCode: null, httpStatus: 200, route: 'http', costUnits: 0 },
            };
      const done = await store.finishRun(work.id, holder, outcome, (tx) => queue.finish(tx, work.id, holder));
      const t3 = performance.now();
      if (!done) throw new Error('finishRun refused');
      claimMs.push(t1 - t0);
      finishMs.push(t3 - t2);
      runClaimMs.push(t1 - t0);
      reserveMs.push(t2 - t1);
      outcomeMs.push(t3 - t2);
    }
    // The status reads, spread evenly through the loop: each one the row GET /v1/batches/{id} answers from.
    while (statusReads < Math.round(((i + 1) * reads) / claims)) {
      const t4 = performance.now();
      const batch = await store.get(measured, accounts[0]!);
      statusMs.push(performance.now() - t4);
      if (!batch) throw new Error('the batch is gone');
      lastCounts = { ...batch.counts };
      statusReads++;
    }
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
  const t5 = performance.now();
  await queue.depth(host);
  const depthMs = performance.now() - t5;
  const ran = runClaimMs.length;
  console.log(
    `${name}: ${claims} claims, claim ${summary(claimMs)}; finish ${summary(finishMs)}; depth ${ms(depthMs)} ms; ` +
      `served ${[...served].map(([a, n]) => `${a}=${n}`).join(' ')}`,
  );
  if (ran > 0) {
    console.log(
      `${name}: of them ${ran} real batch items: claim + markRunning ${summary(runClaimMs)}; reserve ${summary(reserveMs)}; ` +
        `outcome (finishRun + finish) ${summary(outcomeMs)}`,
    );
  }
  console.log(
    `${name}: batch status (BatchStore.get, ${statusMs.length} reads between the claims) ${summary(statusMs)}`,
  );
  // The check, not timed: the maintained counts against the batch's items counted.
  const counted = await store.countedStates(measured);
  const final = (await store.get(measured, accounts[0]!))!;
  const mismatched = itemStates.filter((state) => final.counts[state] !== (counted[state] ?? 0));
  const total = Object.values(counted).reduce((a, b) => a + b, 0);
  if (final.counts.total !== total) mismatched.push('total' as never);
  const shown = Object.entries(counted)
    .map(([state, n]) => `${state} ${n.toLocaleString('en')}`)
    .join(', ');
  console.log(
    `${name}: check, count(*) group by state of ${measured}: ${shown}; status counts ${mismatched.length === 0 ? 'equal' : `DIFFER (${mismatched.join(', ')})`}` +
      `; last timed read said queued ${lastCounts?.['queued']?.toLocaleString('en')}, ready ${lastCounts?.['ready']}, not_found ${lastCounts?.['not_found']}`,
  );
  if (mismatched.length > 0) process.exitCode = 1;
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
    await measure('PostgreSQL (pg-boss)', storage, queue, commitWithoutWaiting);
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
    await measure('SQLite', storage, queue, holdWithoutFsync);
  } finally {
    await queue.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}
