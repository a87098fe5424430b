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
import { bounded } from '../support/bounded.js';

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
async function slowCallInFlight(
  kumo: KumoProcess,
  params: Record<string, unknown> = {},
): Promise<{ answer: Promise<ApiAnswer>; letGo: () => void }> {
  const before = origin.hits(slowPath);
  const answer = scrape(kumo.baseUrl, { url: item('710002'), params });
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
  /** A silent backend (a stall): every answer that needs it must still come within this many ms. */
  answersWithinMs?: number;
}

/** Awaits an answer, failing (instead of hanging the test) when it takes longer than `ms`. */
async function within<T>(what: string, ms: number | undefined, answer: Promise<T>): Promise<T> {
  if (ms === undefined) return answer;
  const started = Date.now();
  try {
    return await bounded(what, ms, answer);
  } finally {
    expect(Date.now() - started, what).toBeLessThan(ms);
  }
}

/**
 * The scenario every backend goes through: serving → a call in flight when the backend goes → calls while it is
 * gone → it comes back → serving again, with the ledger checked at the end.
 */
async function runOutage(o: Outage, inFlightOutcome: 'unavailable' | 'completed'): Promise<void> {
  const { kumo, answersWithinMs: bound } = o;
  const usedBefore = (await call(kumo.baseUrl, '/v1/usage')).body.credits.used as number;
  const ok = await scrape(kumo.baseUrl, { url: item('710001') });
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  const charged: string[] = [ok.body.request_id];
  const refused: string[] = [];

  // The backend goes while a call is inside its fetch: the reset socket case.
  const slow = await slowCallInFlight(kumo);
  await o.cut();
  slow.letGo();
  const interrupted = await within('the call in flight', bound, slow.answer);
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
    const res = await within('a call during the outage', bound, scrape(kumo.baseUrl, { url: item('710001') }));
    expectUnavailable(res);
    refused.push(res.body.request_id);
  }
  expect(origin.hits(fastPath)).toBe(hitsBefore);
  // Every endpoint that needs the backend says the same (usage reads the ledger and the slots); a write-locked SQLite
  // file still serves reads.
  const usageDuring = await within('/v1/usage during the outage', bound, call(kumo.baseUrl, '/v1/usage'));
  if (o.readsWork) expect(usageDuring.status).toBe(200);
  else expectUnavailable(usageDuring);
  expect((await call(kumo.baseUrl, '/v1/sites', null)).status).toBe(200);
  const unready = await within('/readyz during the outage', bound, call(kumo.baseUrl, '/readyz', null));
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

// Scaled-down PostgreSQL bounds (defaults 3 s + 5 s): one operation on a silent database gives up within 2 s, and a
// call makes at most three after meeting the silence (the failed step, the settlement that releases, the plain
// release), so it answers within about 6 s (docs/architecture.md, "Backend outages").
const pgBounds = { KUMO_PG_CONNECT_TIMEOUT_MS: '1000', KUMO_PG_QUERY_TIMEOUT_MS: '1000' };
const stalledAnswerMs = 15_000;

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
      ...pgBounds,
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

  it('PostgreSQL drops while a call keeps its artifact there: 503 unavailable, nothing charged, no artifact', async () => {
    // After the fetch the first database write of the call is the artifact's: the outage meets the save.
    const slow = await slowCallInFlight(kumo, { store_artifact: true });
    pgProxy.cut();
    slow.letGo();
    const answer = await slow.answer;
    expectUnavailable(answer);
    pgProxy.restore();
    await waitFor(
      '/readyz after PostgreSQL returned',
      () => call(kumo.baseUrl, '/readyz', null),
      (res) => res.status === 200,
    );
    expect(await charged([answer.body.request_id])).toBe(0);
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM artifacts WHERE request_id = $1', [
      answer.body.request_id,
    ]);
    expect(Number(rows[0]!.n)).toBe(0);
    await waitFor(
      'the reservation handed back',
      () => call(kumo.baseUrl, '/v1/usage'),
      (res) => res.body?.credits?.reserved === 0 && res.body?.concurrency?.in_use === 0,
    );
  });

  it('the COMMIT of a charge lands but its answer is lost: 200 with the body, charged once, artifact kept', async () => {
    let sprung = false;
    // Only the settlement's transaction writes credit_ledger: its COMMIT reaches PostgreSQL, the answer never returns.
    void pgProxy.loseCommitAnswer('credit_ledger').then(() => (sprung = true));
    const res = await scrape(kumo.baseUrl, { url: item('710001'), params: { store_artifact: true } });
    expect(sprung).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'ikebe_gakki', cost_units: 2 });
    expect(res.body.data).not.toBeNull();
    const id = res.body.request_id as string;
    const { rows } = await admin.query<{ credits: number }>('SELECT credits FROM credit_ledger WHERE request_id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ credits: 2 }]);
    expect((await call(kumo.baseUrl, `/v1/requests/${id}`)).body).toMatchObject({
      status: 'completed',
      cost_units: 2,
      artifact_id: res.body.artifact.id,
    });
    const artifact = await call(kumo.baseUrl, `/v1/artifacts/${res.body.artifact.id}`);
    expect(artifact.status, JSON.stringify(artifact.body)).toBe(200);
    expect(artifact.body.request_id).toBe(id);
    await waitFor(
      'the reservation settled',
      () => call(kumo.baseUrl, '/v1/usage'),
      (usage) => usage.body?.credits?.reserved === 0,
    );
  });

  it('the COMMIT of a charge is lost and PostgreSQL stays out of reach through the read-back: 200, then charged once with its row', async () => {
    let sprung = false;
    // The COMMIT never reaches PostgreSQL (it rolls back), and the database is gone before the read-back can ask.
    void pgProxy.loseCommit('credit_ledger').then(() => {
      sprung = true;
      pgProxy.cut();
    });
    const res = await scrape(kumo.baseUrl, { url: item('710001'), params: { store_artifact: true } });
    expect(sprung).toBe(true);
    // Served: a charge that may land never comes with its answer withheld.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ resolved_site: 'ikebe_gakki', cost_units: 2 });
    expect(res.body.data).not.toBeNull();
    const id = res.body.request_id as string;
    pgProxy.restore();
    // Once the database is back, the same commit is settled again: one charge, with the call's row.
    const { rows } = await waitFor(
      'the charge settled',
      () => admin.query<{ credits: number }>('SELECT credits FROM credit_ledger WHERE request_id = $1', [id]),
      (result) => result.rows.length > 0,
      30_000,
    );
    expect(rows).toEqual([{ credits: 2 }]);
    expect((await call(kumo.baseUrl, `/v1/requests/${id}`)).body).toMatchObject({
      status: 'completed',
      cost_units: 2,
      artifact_id: res.body.artifact.id,
    });
    expect((await call(kumo.baseUrl, `/v1/artifacts/${res.body.artifact.id}`)).status).toBe(200);
    await waitFor(
      'the reservation settled',
      () => call(kumo.baseUrl, '/v1/usage'),
      (usage) => usage.body?.credits?.reserved === 0,
    );
    await expectStillServing(kumo);
  });

  it('PostgreSQL goes silent mid-call (no reset): every answer within the bound, 503, nothing charged, heals', async () => {
    await runOutage(
      {
        kumo,
        cut: () => pgProxy.stall(),
        restore: () => pgProxy.restore(),
        check: 'storage',
        charged,
        answersWithinMs: stalledAnswerMs,
      },
      'unavailable',
    );
  });

  it('Redis goes silent for 6 s with calls refused meanwhile: no slot stays taken after it returns', async () => {
    const scrapeOnce = () => scrape(kumo.baseUrl, { url: item('710001') });
    expect((await scrapeOnce()).status).toBe(200);
    redisProxy.stall();
    const stalledAt = Date.now();
    // Calls that try to take a slot while Redis is silent: refused (the acquire times out), but their scripts
    // wait in the connection and run when it returns, each taking a slot for the whole lease (90 s).
    const refused = await Promise.all(Array.from({ length: 3 }, scrapeOnce));
    for (const res of refused) expectUnavailable(res);
    await sleep(Math.max(0, stalledAt + 6_000 - Date.now()));
    redisProxy.restore();
    const returnedAt = Date.now();
    await waitFor(
      'slots handed back after Redis returned',
      () => call(kumo.baseUrl, '/v1/usage'),
      (res) => res.status === 200 && res.body?.concurrency?.in_use === 0,
      10_000,
    );
    expect(Date.now() - returnedAt).toBeLessThan(10_000);
    expect((await scrapeOnce()).status).toBe(200);
    await expectStillServing(kumo);
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
