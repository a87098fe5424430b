// Backend outages mid-run, end to end: PostgreSQL and Redis cut through TCP proxies, SQLite write-locked by another
// process. The server stays up, answers 503 unavailable with Retry-After, charges nothing, and heals by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import {
  adminDatabaseUrl,
  databaseUrl,
  deleteRedisKeysUnder,
  endpointOf,
  testRedisUrl,
  throughPort,
} from '../support/backends.js';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, type ApiAnswer, type KumoProcess } from '../support/kumo-process.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const fastPath = '/c/c-/kb/kb01/kb011427/710001';
const slowPath = '/c/c-/kb/kb01/kb011427/710002';
const html = { 'content-type': 'text/html; charset=utf-8' };
const adminUrl = adminDatabaseUrl;
const database = `kumo_outage_${randomBytes(6).toString('hex')}`;
const redisPrefix = `kumo-outage-${randomBytes(6).toString('hex')}`;
// Short heartbeats so that releases which failed during an outage are retried within the test's patience.
const fastLiveness = { KUMO_HEARTBEAT_INTERVAL_MS: '200', KUMO_INSTANCE_STALE_MS: '5000' };

let origin: Origin;
/** Responses of slow-page requests the test has not let go yet. */
const heldSlow: (() => void)[] = [];
const started: KumoProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T;
  do {
    last = await probe();
    if (ok(last)) return last;
    await sleep(100);
  } while (Date.now() < deadline);
  throw new Error(`${what}: still ${JSON.stringify(last)} after ${ms} ms`);
}

function expectUnavailable(res: ApiAnswer): void {
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.body.code).toBe('unavailable');
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body.request_id).toBe(res.headers.get('request-id'));
  // Nothing of the driver's error leaves: no address, no errno, no SQL.
  expect(JSON.stringify({ ...res.body, request_id: undefined })).not.toMatch(
    /ECONN|5432|6379|127\.0\.0\.1|SQLITE|locked|terminated/i,
  );
}

/** The process is up, answers its liveness probe, and never hit a last-resort handler. */
async function expectStillServing(kumo: KumoProcess): Promise<void> {
  expect((await call(kumo.baseUrl, '/healthz', null)).status).toBe(200);
  expect(kumo.output()).not.toMatch(/unhandled rejection|uncaught exception|exited/i);
}

/** A slow call that is inside its fetch (credit reserved, slot held), with a function that lets the origin answer. */
async function slowCallInFlight(kumo: KumoProcess): Promise<{ answer: Promise<ApiAnswer>; letGo: () => void }> {
  const before = origin.hits(slowPath);
  const answer = scrape(kumo.baseUrl, { url: item('710002') });
  await waitFor(
    'slow call reaching the origin',
    async () => origin.hits(slowPath),
    (hits) => hits > before,
    10_000,
  );
  return { answer, letGo: () => heldSlow.shift()?.() };
}

interface Outage {
  kumo: KumoProcess;
  cut: () => Promise<void> | void;
  restore: () => Promise<void> | void;
  /** Which /readyz check must report the outage. */
  check: string;
  /** The backend still answers reads (SQLite under another process's write lock). */
  readsWork?: boolean;
  /** Credits the ledger charged for these request ids, read from the database directly. */
  charged: (requestIds: string[]) => Promise<number>;
}

/**
 * The scenario every backend goes through: serving → a call in flight when the backend goes → calls while it is
 * gone → it comes back → serving again, with the ledger checked at the end.
 */
async function runOutage(o: Outage, inFlightOutcome: 'unavailable' | 'completed'): Promise<void> {
  const { kumo } = o;
  const usedBefore = (await call(kumo.baseUrl, '/v1/usage')).body.credits.used as number;
  const ok = await scrape(kumo.baseUrl, { url: item('710001') });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  const charged: string[] = [ok.body.request_id];
  const refused: string[] = [];

  // The backend goes while a call is inside its fetch: the reset socket case.
  const slow = await slowCallInFlight(kumo);
  await o.cut();
  slow.letGo();
  const interrupted = await slow.answer;
  if (inFlightOutcome === 'unavailable') {
    expectUnavailable(interrupted);
    refused.push(interrupted.body.request_id);
  } else {
    // Redis only guards the slot; the ledger is reachable, so the call completes and is charged exactly once.
    expect(interrupted.status, JSON.stringify(interrupted.body)).toBe(200);
    expect(interrupted.body.cost_units).toBe(1);
    charged.push(interrupted.body.request_id);
  }

  // While it is gone: every call is a 503 with Retry-After, none reaches the origin, the process stays up.
  const hitsBefore = origin.hits(fastPath);
  for (let i = 0; i < 3; i++) {
    const res = await scrape(kumo.baseUrl, { url: item('710001') });
    expectUnavailable(res);
    refused.push(res.body.request_id);
  }
  expect(origin.hits(fastPath)).toBe(hitsBefore);
  // Every endpoint that needs the backend says the same (usage reads the ledger and the slots); a write-locked SQLite
  // file still serves reads.
  const usageDuring = await call(kumo.baseUrl, '/v1/usage');
  if (o.readsWork) expect(usageDuring.status).toBe(200);
  else expectUnavailable(usageDuring);
  expect((await call(kumo.baseUrl, '/v1/sites', null)).status).toBe(200);
  const unready = await call(kumo.baseUrl, '/readyz', null);
  expect(unready.status).toBe(503);
  expect(Number(unready.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(unready.body).toMatchObject({ status: 'unavailable', checks: { [o.check]: { status: 'unavailable' } } });
  expect(unready.body.request_id).toBe(unready.headers.get('request-id'));
  await expectStillServing(kumo);

  // It comes back: service resumes without a restart.
  await o.restore();
  const healed = await waitFor(
    'a call after the backend returned',
    () => scrape(kumo.baseUrl, { url: item('710001') }),
    (res) => res.status === 200,
  );
  charged.push(healed.body.request_id);
  await waitFor(
    '/readyz after the backend returned',
    () => call(kumo.baseUrl, '/readyz', null),
    (res) => res.status === 200,
  );

  // Nothing is charged for the refused calls; credits and slots held when it went are handed back.
  expect(await o.charged(refused)).toBe(0);
  expect(await o.charged(charged)).toBe(charged.length);
  const usage = await waitFor(
    'reservations and slots handed back',
    () => call(kumo.baseUrl, '/v1/usage'),
    (res) => res.body?.credits?.reserved === 0 && res.body?.concurrency?.in_use === 0,
  );
  expect(usage.body.credits.used - usedBefore).toBe(charged.length);
  await expectStillServing(kumo);
}

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', fastPath, { status: 200, headers: html, body: itemPage() });
  origin.route('GET', slowPath, (_req, res) => {
    heldSlow.push(() => res.writeHead(200, html).end(itemPage()));
  });
});

afterAll(async () => {
  for (const k of started) {
    await k.stop();
    await k.cleanup();
  }
  for (const letGo of heldSlow.splice(0)) letGo();
  await origin?.close();
});

describe('shared mode: PostgreSQL and Redis behind proxies that the test cuts', () => {
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let kumo: KumoProcess;
  let admin: pg.Client;

  const charged = async (ids: string[]) => {
    const { rows } = await admin.query<{ n: string }>(
      'SELECT coalesce(sum(credits), 0) AS n FROM credit_ledger WHERE request_id = ANY($1)',
      [ids],
    );
    return Number(rows[0]!.n);
  };

  beforeAll(async () => {
    const setup = new pg.Client({ connectionString: adminUrl });
    await setup.connect();
    await setup.query(`CREATE DATABASE ${database}`);
    await setup.end();
    pgProxy = await startTcpProxy(endpointOf(adminDatabaseUrl));
    redisProxy = await startTcpProxy(endpointOf(testRedisUrl));
    kumo = await startKumo({
      DATABASE_URL: throughPort(databaseUrl(database), pgProxy.port),
      REDIS_URL: throughPort(testRedisUrl, redisProxy.port),
      KUMO_REDIS_KEY_PREFIX: redisPrefix,
      KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
      ...fastLiveness,
    });
    started.push(kumo);
    admin = new pg.Client({ connectionString: databaseUrl(database) });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await kumo?.stop();
    await pgProxy?.close();
    await redisProxy?.close();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await cleanup.end();
    await deleteRedisKeysUnder(redisPrefix);
  });

  it('PostgreSQL drops mid-run (a call in flight included): 503 unavailable, nothing charged, heals', async () => {
    await runOutage(
      { kumo, cut: () => pgProxy.cut(), restore: () => pgProxy.restore(), check: 'storage', charged },
      'unavailable',
    );
  });

  it('Redis drops mid-run (a call in flight included): 503 unavailable, nothing charged, heals', async () => {
    await runOutage(
      { kumo, cut: () => redisProxy.cut(), restore: () => redisProxy.restore(), check: 'limits', charged },
      'completed',
    );
  });
});

describe('embedded mode: the SQLite file write-locked by another process past the busy timeout', () => {
  let kumo: KumoProcess;
  let holder: ChildProcess | null = null;
  let file: string;

  /**
   * The fault: another process (a backup, a stuck CLI, an operator's sqlite3 shell) takes the write lock and keeps it.
   * Kumo's writes wait KUMO_SQLITE_BUSY_TIMEOUT_MS, then fail with SQLITE_BUSY; reads go on (WAL).
   */
  const lock = async () => {
    holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(process.argv[1]);
         db.exec('BEGIN IMMEDIATE');
         process.stdout.write('locked\\n');
         process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`,
        file,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder!.stdout!.once('data', () => resolve()));
  };
  const unlock = async () => {
    const exited = new Promise<void>((resolve) => holder!.once('exit', () => resolve()));
    holder!.stdin!.write('go\n');
    await exited;
    holder = null;
  };
  const charged = async (ids: string[]) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      let total = 0;
      for (const id of ids) {
        const row = db.prepare('SELECT credits FROM credit_ledger WHERE request_id = ?').get(id) as
          { credits: number } | undefined;
        total += row?.credits ?? 0;
      }
      return total;
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    kumo = await startKumo({
      KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
      KUMO_SQLITE_BUSY_TIMEOUT_MS: '300',
      ...fastLiveness,
      // Each failed heartbeat holds the one SQLite connection for the busy timeout; beat less often than that.
      KUMO_HEARTBEAT_INTERVAL_MS: '1000',
    });
    started.push(kumo);
    file = path.join(kumo.dataDir, 'kumo.sqlite');
  });

  afterAll(async () => {
    if (holder) holder.kill('SIGKILL');
  });

  it('a write lock held by another process: 503 unavailable (a call in flight included), nothing charged, heals', async () => {
    await runOutage({ kumo, cut: lock, restore: unlock, check: 'storage', readsWork: true, charged }, 'unavailable');
  });
});
