// `npm run bench:monitors`: the monitor scheduler's stampede (research §2.6: 10,000 monitors × 1 target due in the
// same minute, claimed and queued in ≤ 10 s on SQLite and PostgreSQL) and the diff + rule engine's µs per check
// (≤ 0.1 ms; bench/monitor-rules.ts). The monitors go straight into the tables (test/support/monitors.ts), on 5 hosts
// and 4 accounts, each due at a second of one minute; then the clock reads that minute's end and MonitorScheduler.tick
// claims them all, each claim's checks enqueued on the real work queue in its transaction (SqliteWorkQueue; pg-boss
// on PostgreSQL, a scratch database created and dropped). Timed from the first claim to the last commit; checked
// after (one check and one queue row per monitor, every next run advanced). Runs on Node 24's own TypeScript stripping
// against dist/. Options: --monitors N (10,000), --instances N (schedulers ticking at once on PostgreSQL, default 1;
// SQLite has one writer), --claim-limit N (monitors per claim transaction, default the scheduler's), --only
// pg,sqlite,rules, --profile (time per statement kind, the enqueue and the schedule), --checks and --rounds (rules).
import './source-imports.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
} from 'kysely';
import type { UnknownRow } from 'kysely';
import type * as PostgresStorageModule from '../src/storage/postgres/postgres-storage.ts';
import type * as SqliteStorageModule from '../src/storage/sqlite/sqlite-storage.ts';
import type * as PgBossQueueModule from '../src/batches/pg-boss-work-queue.ts';
import type * as SqliteQueueModule from '../src/batches/sqlite-work-queue.ts';
import type * as MonitorStoreModule from '../src/monitors/kysely-monitor-store.ts';
import type * as SchedulerModule from '../src/monitors/monitor-scheduler.ts';
import type * as ClockModule from '../src/time/clock.ts';
import type { ClaimDueOptions, MonitorStore } from '../src/monitors/monitor-store.ts';
import type { MonitorSchedule } from '../src/monitors/model.ts';
import type { WorkQueue } from '../src/batches/work-queue.ts';
import type { KyselyStorage } from '../src/storage/kysely/kysely-storage.ts';
import { countOption } from './load.ts';

const { values: args } = parseArgs({
  options: {
    monitors: { type: 'string', default: '10000' },
    instances: { type: 'string', default: '1' },
    'claim-limit': { type: 'string' },
    only: { type: 'string', default: 'pg,sqlite,rules' },
    profile: { type: 'boolean', default: false },
    checks: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '5' },
  },
});
const monitorCount = countOption('monitors', args.monitors);
const instances = countOption('instances', args.instances);
const claimLimit = args['claim-limit'] === undefined ? undefined : countOption('claim-limit', args['claim-limit']);
const only = new Set(args.only.split(','));

const root = path.resolve(import.meta.dirname, '..');
const dist = (file: string) => path.join(root, 'dist', file);
const { createPostgresStorage } = (await import(
  dist('storage/postgres/postgres-storage.js')
)) as typeof PostgresStorageModule;
const { createSqliteStorage } = (await import(dist('storage/sqlite/sqlite-storage.js'))) as typeof SqliteStorageModule;
const { PgBossWorkQueue } = (await import(dist('batches/pg-boss-work-queue.js'))) as typeof PgBossQueueModule;
const { SqliteWorkQueue } = (await import(dist('batches/sqlite-work-queue.js'))) as typeof SqliteQueueModule;
const { KyselyMonitorStore } = (await import(dist('monitors/kysely-monitor-store.js'))) as typeof MonitorStoreModule;
const { MonitorScheduler } = (await import(dist('monitors/monitor-scheduler.js'))) as typeof SchedulerModule;
const { ManualClock } = (await import(dist('time/clock.js'))) as typeof ClockModule;
const { insertMonitors } = await import('../test/support/monitors.ts');

const adminUrl = process.env.KUMO_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const hosts = ['www.yodobashi.com', 'item.rakuten.co.jp', 'www.biccamera.com', 'www.ikebe-gakki.com', 'kakaku.com'];
const accounts = ['acc_bench0', 'acc_bench1', 'acc_bench2', 'acc_bench3'];
const schedule: MonitorSchedule = { every_minutes: 60, cron: null, timezone: 'Asia/Tokyo', calendar: null };
/** The stampede's minute starts here; the monitors were made an hour before. */
const minuteStart = Date.parse('2026-11-27T00:00:00.000Z');

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Milliseconds and counts by name, for --profile. */
class Tally {
  readonly ms = new Map<string, number>();
  readonly count = new Map<string, number>();
  add(name: string, ms: number): void {
    this.ms.set(name, (this.ms.get(name) ?? 0) + ms);
    this.count.set(name, (this.count.get(name) ?? 0) + 1);
  }
  lines(totalMs: number): string[] {
    return [...this.ms]
      .sort((a, b) => b[1] - a[1])
      .map(
        ([name, ms]) =>
          `  ${name}: ${(ms / 1000).toFixed(2)} s (${((ms / totalMs) * 100).toFixed(0)} %), ` +
          `${this.count.get(name)} × ${(ms / this.count.get(name)!).toFixed(2)} ms`,
      );
  }
}

/** A statement's kind and table, from Kysely's operation node. */
function statementName(node: RootOperationNode): string {
  const named = node as unknown as {
    from?: { froms: { table?: { identifier?: { name: string } } }[] };
    into?: { table: { identifier: { name: string } } };
    table?: { table?: { identifier?: { name: string } } };
  };
  const table =
    named.from?.froms[0]?.table?.identifier?.name ??
    named.into?.table.identifier.name ??
    named.table?.table?.identifier?.name ??
    '?';
  // The store's only raw statement in a claim is the next runs' UPDATE … FROM (VALUES …).
  if (node.kind === 'RawNode') return 'update monitors (raw: next runs from values)';
  return `${node.kind.replace('QueryNode', '').toLowerCase()} ${table}`;
}

/**
 * Times every statement the store's Kysely runs, from its compilation to its result (the round trip). Statements the
 * queue runs on the same transaction through pg-boss (raw SQL) pass no plugin: the enqueue is timed as a whole.
 */
class StatementTimer implements KyselyPlugin {
  readonly #started = new WeakMap<object, { at: number; name: string }>();
  readonly tally: Tally;
  constructor(tally: Tally) {
    this.tally = tally;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#started.set(args.queryId, { at: performance.now(), name: statementName(args.node) });
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const started = this.#started.get(args.queryId);
    if (started) this.tally.add(started.name, performance.now() - started.at);
    return args.result;
  }
}

interface Instance {
  storage: KyselyStorage;
  queue: WorkQueue;
}

async function stampede(name: string, made: Instance[], queueRows: () => Promise<number>): Promise<void> {
  const [first] = made;
  await insertMonitors(
    first!.storage.db,
    Array.from({ length: monitorCount }, (_, i) => ({
      accountId: accounts[i % accounts.length]!,
      host: hosts[Math.floor(i / accounts.length) % hosts.length]!,
      schedule,
      createdAt: new Date(minuteStart - 3_600_000),
      dueAt: new Date(minuteStart + (i % 60) * 1000),
    })),
  );
  const clock = new ManualClock(minuteStart + 60_000);
  const tally = new Tally();
  const schedulers = made.map(({ storage, queue }) => {
    const db = args.profile ? storage.db.withPlugin(new StatementTimer(tally)) : storage.db;
    const store = new KyselyMonitorStore({ db, ledger: storage.ledger, requests: storage.requests }, { clock });
    // The claim as the scheduler makes it; with --profile its schedule step and its enqueue are timed apart.
    const claims: Pick<MonitorStore, 'claimDue'> = {
      claimDue: async (options: ClaimDueOptions) => {
        const t0 = performance.now();
        try {
          if (!args.profile) return await store.claimDue(options);
          return await store.claimDue({
            ...options,
            next: (monitor) => {
              const t = performance.now();
              const next = options.next(monitor);
              tally.add('schedule (nextRunAt)', performance.now() - t);
              return next;
            },
            enqueue: async (tx, work) => {
              const t = performance.now();
              await options.enqueue(tx, work);
              tally.add('enqueue (work queue)', performance.now() - t);
            },
          });
        } finally {
          tally.add('claimDue', performance.now() - t0);
        }
      },
    };
    return new MonitorScheduler({
      store: claims,
      enqueue: (tx, work) => queue.enqueue(tx, work),
      clock,
      tickMs: 1_000,
      ...(claimLimit === undefined ? {} : { claimLimit }),
    });
  });
  const t0 = performance.now();
  const ticks = await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
  const seconds = (performance.now() - t0) / 1000;
  const claimed = ticks.reduce((sum, tick) => sum + tick.monitors, 0);
  const queued = ticks.reduce((sum, tick) => sum + tick.queued, 0);

  // The check, not timed: a queued check and a queue row per monitor, none left due.
  const db = first!.storage.db;
  const checks = await db
    .selectFrom('monitor_checks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .execute();
  const distinct = await db
    .selectFrom('monitor_checks')
    .select((eb) => eb.fn.count<number>('monitor_id').distinct().as('n'))
    .execute();
  const due = await db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('next_run_at', '<=', new Date(clock.now()).toISOString())
    .execute();
  const rows = await queueRows();
  const ok =
    claimed === monitorCount &&
    queued === monitorCount &&
    Number(checks[0]!.n) === monitorCount &&
    Number(distinct[0]!.n) === monitorCount &&
    Number(due[0]!.n) === 0 &&
    rows === monitorCount;
  const limit = claimLimit ?? 500;
  console.log(
    `${name}: ${monitorCount.toLocaleString('en')} monitors due in one minute (${hosts.length} hosts, ` +
      `${accounts.length} accounts), ${made.length} scheduler${made.length === 1 ? '' : 's'}, claims of ${limit}: ` +
      `claimed and queued in ${seconds.toFixed(2)} s (${Math.round(queued / seconds).toLocaleString('en')} checks/s)` +
      (made.length > 1 ? `; per scheduler ${ticks.map((tick) => tick.monitors).join(' / ')}` : ''),
  );
  console.log(
    `${name}: check: ${Number(checks[0]!.n)} checks for ${Number(distinct[0]!.n)} monitors, ${rows} queue rows, ` +
      `${Number(due[0]!.n)} monitors still due: ${ok ? 'as expected' : 'WRONG'}`,
  );
  if (!ok) process.exitCode = 1;
  if (args.profile) {
    const total = tally.ms.get('claimDue')!;
    tally.ms.delete('claimDue');
    const counted = [...tally.ms].filter(([n]) => n !== 'schedule (nextRunAt)').reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`${name}: profile, ${tally.count.get('claimDue')} claims, ${(total / 1000).toFixed(2)} s in claimDue:`);
    for (const line of tally.lines(total)) console.log(line);
    console.log(
      `  the rest (BEGIN, COMMIT, JS between statements): ${((total - counted) / 1000).toFixed(2)} s ` +
        `(${(((total - counted) / total) * 100).toFixed(0)} %); schedule is inside it`,
    );
  }
}

if (only.has('pg')) {
  const name = `kumo_bench_monitors_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const made: Instance[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      const storage = await createPostgresStorage({ url: url.href, poolSize: 4, queryTimeoutMs: 60_000 });
      const queue = new PgBossWorkQueue({ db: storage.db, url: url.href });
      made.push({ storage, queue });
      if (i === 0) await storage.migrate();
      await queue.start();
    }
    await stampede('PostgreSQL (pg-boss)', made, async () => {
      const lanes = await made[0]!.storage.db
        .selectFrom('work_lanes')
        .select((eb) => eb.fn.sum<number>('queued').as('n'))
        .execute();
      return Number(lanes[0]!.n);
    });
  } finally {
    for (const { queue, storage } of made) {
      await queue.close();
      await storage.close();
    }
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (only.has('sqlite')) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-bench-monitors-'));
  const storage = await createSqliteStorage({ path: path.join(dir, 'kumo.sqlite') });
  const queue = new SqliteWorkQueue({ db: storage.db });
  try {
    await storage.migrate();
    await stampede('SQLite', [{ storage, queue }], async () => {
      const rows = await storage.db
        .selectFrom('work_queue')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute();
      return Number(rows[0]!.n);
    });
  } finally {
    await queue.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (only.has('rules')) {
  const { measureRules } = await import('./monitor-rules.ts');
  measureRules(countOption('checks', args.checks), countOption('rounds', args.rounds));
}
