// A server killed (SIGKILL) mid-call, end to end: the next instance frees the dead one's credits and slots by its stale
// heartbeat, well within 60 s, charges nothing for the interrupted call, and never answers credits_exhausted for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { adminDatabaseUrl, databaseUrl, testRedisUrl, deleteRedisKeysUnder } from '../support/backends.js';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type ApiAnswer, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const fastPath = '/c/c-/kb/kb01/kb011427/720001';
const hangingPath = '/c/c-/kb/kb01/kb011427/720002';
/** Hangs at its first request of each test (the instance is killed during it), then answers. */
const hangsOncePath = '/c/c-/kb/kb01/kb011427/720003';
let hangNext = true;
const html = { 'content-type': 'text/html; charset=utf-8' };
const adminUrl = adminDatabaseUrl;
const database = `kumo_liveness_${randomBytes(6).toString('hex')}`;
const redisPrefix = `kumo-liveness-${randomBytes(6).toString('hex')}`;
// Production defaults are a 10 s heartbeat and 30 s staleness (freed within 40 s); scaled down so the test takes
// seconds. The dead instance is detected by its heartbeat alone: the default reservation expiry is minutes away.
const staleMs = 1_500;
const liveness = { KUMO_HEARTBEAT_INTERVAL_MS: '250', KUMO_INSTANCE_STALE_MS: String(staleMs) };

let origin: Origin;
const started: KumoProcess[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, probe: () => Promise<ApiAnswer>, ok: (res: ApiAnswer) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  let last: ApiAnswer;
  do {
    last = await probe();
    if (ok(last)) return last;
    await sleep(100);
  } while (Date.now() < deadline);
  throw new Error(`${what}: still ${JSON.stringify(last.body)} after ${ms} ms`);
}

/** Starts an instance (kept for cleanup) and makes a Free key on it with a credit limit of 1 and a concurrency of 1. */
async function startWithLimitedKey(
  env: Record<string, string>,
  timing: Record<string, string>,
): Promise<{ first: KumoProcess; key: string }> {
  const first = await startKumo({ ...env, ...timing });
  started.push(first);
  const created = await kumoCli(
    first.dataDir,
    ['keys', 'create', '--plan', 'free', '--credits', '1', '--concurrency', '1', '--json'],
    env,
  );
  return { first, key: created.key as string };
}

/**
 * Starts an instance, takes a key with a credit limit of 1 and a concurrency of 1, leaves a call of that key hanging in
 * its fetch, SIGKILLs the instance, and starts a new one (a new instance id) on the same backends.
 */
async function killMidCall(
  env: Record<string, string>,
  timing: Record<string, string> = liveness,
): Promise<{ next: KumoProcess; key: string; killedAt: number }> {
  const { first, key } = await startWithLimitedKey(env, timing);
  const before = origin.hits(hangingPath);
  const pending = scrape(first.baseUrl, { url: item('720002') }, key).catch(() => null);
  for (let i = 0; i < 200 && origin.hits(hangingPath) === before; i++) await sleep(25);
  expect(origin.hits(hangingPath)).toBe(before + 1);

  // The call holds the key's only credit and only slot.
  const held = await call(first.baseUrl, '/v1/usage', key);
  expect(held.body.key).toMatchObject({ used: 0, reserved: 1, concurrency_in_use: 1 });

  await first.kill();
  const killedAt = Date.now();
  await pending;
  const next = await startKumo({ ...env, ...timing }, { dataDir: first.dataDir });
  started.push(next);
  return { next, key, killedAt };
}

async function expectFreedAndServed(next: KumoProcess, key: string, killedAt: number): Promise<void> {
  const usage = await waitFor(
    'the dead instance’s credit and slot',
    () => call(next.baseUrl, '/v1/usage', key),
    (res) => res.body?.key?.reserved === 0 && res.body?.key?.concurrency_in_use === 0,
    30_000,
  );
  expect(Date.now() - killedAt).toBeLessThan(60_000);
  // Nothing was charged for the call the kill interrupted.
  expect(usage.body.key.used).toBe(0);
  expect(usage.body.credits.used).toBe(0);
  expect(usage.body.concurrency.in_use).toBe(0);

  // The credit the dead process held is the key's only one: a new call gets it, not credits_exhausted.
  const res = await scrape(next.baseUrl, { url: item('720001') }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.cost_units).toBe(1);
  const after = await call(next.baseUrl, '/v1/usage', key);
  expect(after.body.key).toMatchObject({ used: 1, reserved: 0, concurrency_in_use: 0 });
}

/**
 * Waits until the killed instance is dead by its heartbeat and the slot it held is seen free. Until the heartbeat is
 * stale the holder may be alive (a slow call on a live instance); past it, it is dead. The slot is a concurrency
 * matter, not this file's: in shared mode only a sweep frees it, which a loaded machine may run late, and a call before
 * that is rightly `concurrency_limited` (Retry-After: 1). The dead call's credit is not waited for.
 */
async function untilDeadSlotFree(next: KumoProcess, key: string, killedAt: number): Promise<void> {
  await sleep(Math.max(0, killedAt + staleMs + 200 - Date.now()));
  await waitFor(
    'the dead instance’s slot',
    () => call(next.baseUrl, '/v1/usage', key),
    (res) => res.body?.concurrency?.in_use === 0 && res.body?.key?.concurrency_in_use === 0,
    30_000,
  );
}

/**
 * Once the dead instance's slot is free, whether or not a sweep freed its credit yet: the call must not be refused for
 * the dead credit.
 */
async function expectNoFalseExhaustion(next: KumoProcess, key: string, killedAt: number): Promise<void> {
  await untilDeadSlotFree(next, key, killedAt);
  const res = await scrape(next.baseUrl, { url: item('720001') }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await call(next.baseUrl, '/v1/usage', key)).body.key).toMatchObject({ used: 1, reserved: 0 });
}

/**
 * A call with an Idempotency-Key is in flight on an instance that is SIGKILLed; the client retries it on another
 * instance. Once the dead one's heartbeat is stale (the bound the credit sweep uses), the retry takes the key over and
 * is served, charged exactly once, instead of 409 until the claim's hold (fetch deadline + 2 min) runs out.
 */
async function expectKilledKeyTakenOver(env: Record<string, string>): Promise<void> {
  const { first, key } = await startWithLimitedKey(env, liveness);
  const body = { url: item('720003') };
  const order = { 'idempotency-key': 'order-killed' };
  hangNext = true;
  const before = origin.hits(hangsOncePath);
  const pending = scrape(first.baseUrl, body, key, order).catch(() => null);
  for (let i = 0; i < 200 && origin.hits(hangsOncePath) === before; i++) await sleep(25);
  expect(origin.hits(hangsOncePath)).toBe(before + 1);
  await first.kill();
  const killedAt = Date.now();
  await pending;
  const next = await startKumo({ ...env, ...liveness }, { dataDir: first.dataDir });
  started.push(next);

  await untilDeadSlotFree(next, key, killedAt);
  const retry = await scrape(next.baseUrl, body, key, order);
  expect(retry.status, JSON.stringify(retry.body)).toBe(200);
  expect(retry.body.cost_units).toBe(1);
  expect(retry.headers.get('idempotent-replayed')).toBeNull();
  // The key's one credit: the dead call's reservation was freed, the retry's charged, and only once.
  const usage = await waitFor(
    'the dead call’s reservation',
    () => call(next.baseUrl, '/v1/usage', key),
    (res) => res.body?.key?.reserved === 0,
    30_000,
  );
  expect(usage.body.key).toMatchObject({ used: 1, reserved: 0 });
  // The key is now the retry's, completed: one more retry is a free replay.
  const replay = await scrape(next.baseUrl, body, key, order);
  expect(replay.status, JSON.stringify(replay.body)).toBe(200);
  expect(replay.body.cost_units).toBe(0);
  expect((await call(next.baseUrl, '/v1/usage', key)).body.key).toMatchObject({ used: 1, reserved: 0 });
}

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', fastPath, { status: 200, headers: html, body: itemPage() });
  origin.route('GET', hangingPath, () => {
    // Never answers: the instance is killed while this call is in flight.
  });
  origin.route('GET', hangsOncePath, (_req, res) => {
    if (hangNext) {
      hangNext = false;
      return;
    }
    res.writeHead(200, html).end(itemPage());
  });
});

afterAll(async () => {
  for (const k of started) {
    await k.stop();
    await k.cleanup();
  }
  await origin?.close();
});

describe('embedded mode (SQLite, in-process limits)', () => {
  const env = () => ({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });

  it('the next instance frees the killed one’s credit within the bound and charges nothing for it', async () => {
    const { next, key, killedAt } = await killMidCall(env());
    await expectFreedAndServed(next, key, killedAt);
  });

  it('a key whose only credit a dead process holds is served, not told credits_exhausted', async () => {
    const { next, key, killedAt } = await killMidCall(env());
    await expectNoFalseExhaustion(next, key, killedAt);
  });

  it('a retry of a call the kill interrupted takes its Idempotency-Key over once the bound passes, charged once', async () => {
    await expectKilledKeyTakenOver(env());
  });
});

describe('embedded mode: a restart frees what the killed process held at once, not after the staleness bound', () => {
  const env = () => ({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
  // Production-like bounds: by its heartbeat alone the killed instance would look alive for a minute.
  const slowLiveness = { KUMO_HEARTBEAT_INTERVAL_MS: '500', KUMO_INSTANCE_STALE_MS: '60000' };

  it('straight after the restart the key’s only credit and slot are free and a call is served', async () => {
    const { next, key, killedAt } = await killMidCall(env(), slowLiveness);
    const usage = await call(next.baseUrl, '/v1/usage', key);
    expect(usage.body.key).toMatchObject({ used: 0, reserved: 0, concurrency_in_use: 0 });
    const res = await scrape(next.baseUrl, { url: item('720001') }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Far inside the 60 s the heartbeat would have taken.
    expect(Date.now() - killedAt).toBeLessThan(30_000);
  });

  it('two live processes on one data folder: neither frees the other’s call; the survivor frees a killed one’s', async () => {
    const { first, key } = await startWithLimitedKey(env(), slowLiveness);
    const before = origin.hits(hangingPath);
    const pending = scrape(first.baseUrl, { url: item('720002') }, key).catch(() => null);
    for (let i = 0; i < 200 && origin.hits(hangingPath) === before; i++) await sleep(25);
    expect(origin.hits(hangingPath)).toBe(before + 1);

    // A second process on the same folder, while the first is alive and its call in flight: the credit stays held.
    const second = await startKumo({ ...env(), ...slowLiveness }, { dataDir: first.dataDir });
    started.push(second);
    await sleep(1_500); // three of the second's sweeps
    expect((await call(second.baseUrl, '/v1/usage', key)).body.key).toMatchObject({ reserved: 1 });
    expect((await scrape(second.baseUrl, { url: item('720001') }, key)).body.code).toBe('concurrency_limited');

    // The first is killed: the second frees its credit on its next sweep, not a minute later.
    await first.kill();
    const killedAt = Date.now();
    await pending;
    await waitFor(
      'the killed sibling’s credit',
      () => call(second.baseUrl, '/v1/usage', key),
      (res) => res.body?.key?.reserved === 0,
      15_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    const res = await scrape(second.baseUrl, { url: item('720001') }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cost_units).toBe(1);
  });
});

describe('shared mode (PostgreSQL, Redis)', () => {
  const env = () => ({
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: testRedisUrl,
    KUMO_REDIS_KEY_PREFIX: redisPrefix,
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
  });

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
  });

  afterAll(async () => {
    for (const k of started.splice(0)) {
      await k.stop();
      await k.cleanup();
    }
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
    await deleteRedisKeysUnder(redisPrefix);
  });

  it('the next instance frees the killed one’s credit and Redis slot within the bound, charging nothing', async () => {
    const { next, key, killedAt } = await killMidCall(env());
    await expectFreedAndServed(next, key, killedAt);
  });

  it('a key whose only credit and slot a dead instance holds is served, not told credits_exhausted', async () => {
    const { next, key, killedAt } = await killMidCall(env());
    await expectNoFalseExhaustion(next, key, killedAt);
  });

  it('a retry on another instance takes a killed call’s Idempotency-Key over once the bound passes, charged once', async () => {
    await expectKilledKeyTakenOver(env());
  });
});
