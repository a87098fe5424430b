// Credits and concurrency over real HTTP: the Free allowance to the last credit, parallel calls, a kill -9 mid-call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
const started: KumoProcess[] = [];
/** Calls to the gated page wait here until the test lets them through. */
const gated: (() => void)[] = [];

async function kumoFor(env: Record<string, string> = {}, dataDir?: string): Promise<KumoProcess> {
  const k = await startKumo(
    { KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }), ...env },
    dataDir ? { dataDir } : {},
  );
  started.push(k);
  return k;
}

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/200001', { status: 200, headers: html, body: itemPage() });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/200002', (_req, res) => {
    // Slow enough that parallel calls overlap.
    setTimeout(() => res.writeHead(200, html).end(itemPage()), 150);
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/200004', (_req, res) => {
    // Slow enough that a burst of 40 overlaps the calls that got a slot.
    setTimeout(() => res.writeHead(200, html).end(itemPage()), 300);
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/200005', (_req, res) => {
    gated.push(() => res.writeHead(200, html).end(itemPage()));
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/200003', () => {
    // Never answers: the server is killed while this call is in flight.
  });
});

afterAll(async () => {
  for (const k of started) {
    await k.stop();
    await k.cleanup();
  }
  await origin?.close();
});

describe('the Free plan', () => {
  it('serves 500 calls, refuses the 501st with 429 credits_exhausted, and charges nothing for it', async () => {
    const kumo = await kumoFor();
    let ok = 0;
    // Two at a time: the Free plan's concurrency.
    const worker = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const res = await scrape(kumo.baseUrl, { url: item('200001') });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.cost_units).toBe(1);
        ok++;
      }
    };
    await Promise.all([worker(250), worker(250)]);
    expect(ok).toBe(500);

    const hitsBefore = origin.hits('/c/c-/kb/kb01/kb011427/200001');
    const refused = await scrape(kumo.baseUrl, { url: item('200001') });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('credits_exhausted');
    const retryAfter = Number(refused.headers.get('retry-after'));
    const resetsAt = Date.parse(refused.body.resets_at);
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.now() + retryAfter * 1000 - resetsAt)).toBeLessThan(5_000);
    expect(new Date(resetsAt).toISOString()).toMatch(/T15:00:00\.000Z$/); // midnight JST
    expect(origin.hits('/c/c-/kb/kb01/kb011427/200001')).toBe(hitsBefore);
    expect(refused.headers.get('x-credits-remaining')).toBe('0');

    const usage = await call(kumo.baseUrl, '/v1/usage');
    expect(usage.body.credits).toMatchObject({ used: 500, reserved: 0, remaining: 0 });
  });
});

describe('concurrency', () => {
  it('50 parallel calls against a key with concurrency 2: never more than 2 at once, no credit lost or doubled', async () => {
    const kumo = await kumoFor();
    const key = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--concurrency', '2', '--json']);
    origin.resetPeak();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => scrape(kumo.baseUrl, { url: item('200002') }, key.key)),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok.length + limited.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(origin.inFlightMax()).toBeLessThanOrEqual(2);
    for (const a of limited) {
      expect(a.body.code).toBe('concurrency_limited');
      expect(a.headers.get('retry-after')).toBe('1');
    }
    const usage = await call(kumo.baseUrl, '/v1/usage', key.key);
    expect(usage.body.credits.used).toBe(ok.length);
    expect(usage.body.credits.reserved).toBe(0);
    expect(usage.body.key.concurrency_in_use).toBe(0);
  });

  it("a key's own monthly credit limit is enforced", async () => {
    const kumo = await kumoFor();
    const key = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--credits', '3', '--json']);
    for (let i = 0; i < 3; i++) expect((await scrape(kumo.baseUrl, { url: item('200001') }, key.key)).status).toBe(200);
    const refused = await scrape(kumo.baseUrl, { url: item('200001') }, key.key);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('credits_exhausted');
    // A call that costs 2 is refused up front when 1 is left.
    const key2 = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--credits', '2', '--json']);
    expect((await scrape(kumo.baseUrl, { url: item('200001') }, key2.key)).status).toBe(200);
    const costly = await scrape(kumo.baseUrl, { url: item('200001'), params: { store_artifact: true } }, key2.key);
    expect(costly.status).toBe(429);
    expect(costly.body.code).toBe('credits_exhausted');
  });

  it('rotating a key does not reset its monthly credit limit: the new key starts from what the old one spent', async () => {
    const kumo = await kumoFor();
    const key = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--credits', '3', '--json']);
    for (let i = 0; i < 2; i++) expect((await scrape(kumo.baseUrl, { url: item('200001') }, key.key)).status).toBe(200);
    const rotated = await kumoCli(kumo.dataDir, ['keys', 'rotate', key.key_id, '--json']);
    expect(rotated.replaces).toBe(key.key_id);
    expect((await scrape(kumo.baseUrl, { url: item('200001') }, rotated.key)).status).toBe(200);
    const refused = await scrape(kumo.baseUrl, { url: item('200001') }, rotated.key);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('credits_exhausted');
    // And rotating once more changes nothing: the line, not the key id, has spent its 3 credits.
    const again = await kumoCli(kumo.dataDir, ['keys', 'rotate', rotated.key_id, '--json']);
    expect((await scrape(kumo.baseUrl, { url: item('200001') }, again.key)).body.code).toBe('credits_exhausted');
    const usage = await call(kumo.baseUrl, '/v1/usage', again.key);
    expect(usage.status).toBe(200);
    expect(usage.body.key).toMatchObject({ key_id: again.key_id, credit_limit: 3, used: 3, remaining: 0 });
  });
});

describe('a process killed mid-call', () => {
  // Liveness is the instance heartbeat now (issue 7), not the pid: the credit comes back once the dead instance's
  // heartbeat is stale (here 1.5 s; 30 s by default), no longer at the very first start-up sweep.
  const liveness = { KUMO_HEARTBEAT_INTERVAL_MS: '250', KUMO_INSTANCE_STALE_MS: '1500' };

  it('loses no credit and charges nothing for the interrupted call', async () => {
    const first = await kumoFor(liveness);
    expect((await scrape(first.baseUrl, { url: item('200001') })).status).toBe(200);
    const pending = scrape(first.baseUrl, { url: item('200003') }).catch(() => null);
    // Wait until the call is inside the fetch (its credit reserved, its slot held).
    for (let i = 0; i < 100 && origin.hits('/c/c-/kb/kb01/kb011427/200003') === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(origin.hits('/c/c-/kb/kb01/kb011427/200003')).toBe(1);
    await first.kill();
    await pending;

    const second = await kumoFor(liveness, first.dataDir);
    let usage = await call(second.baseUrl, '/v1/usage');
    for (let i = 0; i < 100 && usage.body.credits.reserved !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      usage = await call(second.baseUrl, '/v1/usage');
    }
    expect(usage.body.credits).toMatchObject({ used: 1, reserved: 0, remaining: 499 });
    expect(usage.body.concurrency.in_use).toBe(0);
    expect((await scrape(second.baseUrl, { url: item('200001') })).status).toBe(200);
  });
});

/**
 * Bursts of 40 parallel calls on a key with 3 credits and concurrency 2, until the credits are spent. Issue 7: a burst
 * must not be told credits_exhausted because of reservations held by calls that are then refused for concurrency (or
 * by the calls in flight beside it): exhaustion is only an answer once the committed credits are used up.
 */
async function burstUntilSpent(kumo: KumoProcess, env: Record<string, string> = {}): Promise<void> {
  const key = await kumoCli(
    kumo.dataDir,
    ['keys', 'create', '--plan', 'starter', '--credits', '3', '--concurrency', '2', '--json'],
    env,
  );
  let ok = 0;
  for (let burst = 0; burst < 8 && ok < 3; burst++) {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => scrape(kumo.baseUrl, { url: item('200004') }, key.key)),
    );
    const codes = answers.map((a) => (a.status === 200 ? 'ok' : String(a.body?.code)));
    for (const code of codes) expect(['ok', 'concurrency_limited', 'credits_exhausted']).toContain(code);
    ok += codes.filter((c) => c === 'ok').length;
    const usage = await call(kumo.baseUrl, '/v1/usage', key.key);
    expect(usage.body.key).toMatchObject({ used: ok, reserved: 0, concurrency_in_use: 0 });
    // Used only grows, so an exhaustion answered in this burst means the 3 credits were spent by its end.
    if (codes.includes('credits_exhausted')) expect(ok, codes.join(',')).toBe(3);
    for (const a of answers.filter((x) => x.body?.code === 'concurrency_limited')) {
      expect(a.headers.get('retry-after')).toBe('1');
    }
  }
  expect(ok).toBe(3);
  const spent = await scrape(kumo.baseUrl, { url: item('200004') }, key.key);
  expect(spent.status).toBe(429);
  expect(spent.body.code).toBe('credits_exhausted');
  expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(60);
  const usage = await call(kumo.baseUrl, '/v1/usage', key.key);
  expect(usage.body.key).toMatchObject({ used: 3, reserved: 0, remaining: 0 });
}

/**
 * The last credit reserved by a call in flight is not an exhaustion: with 2 of 3 credits charged and the third held
 * by a call the origin keeps waiting, a burst that gets the second slot must hear concurrency_limited, never
 * credits_exhausted (the held credit may yet come back). Once that call is charged, exhaustion is the answer.
 */
async function heldIsNotExhausted(kumo: KumoProcess, env: Record<string, string> = {}): Promise<void> {
  const key = await kumoCli(
    kumo.dataDir,
    ['keys', 'create', '--plan', 'starter', '--credits', '3', '--concurrency', '2', '--json'],
    env,
  );
  for (let i = 0; i < 2; i++) expect((await scrape(kumo.baseUrl, { url: item('200001') }, key.key)).status).toBe(200);
  const path = '/c/c-/kb/kb01/kb011427/200005';
  const before = origin.hits(path);
  const last = scrape(kumo.baseUrl, { url: item('200005') }, key.key);
  while (origin.hits(path) === before) await new Promise((r) => setTimeout(r, 10));

  const answers = await Promise.all(
    Array.from({ length: 40 }, () => scrape(kumo.baseUrl, { url: item('200001') }, key.key)),
  );
  for (const a of answers) {
    expect(a.status).toBe(429);
    expect(a.body.code).toBe('concurrency_limited');
    expect(a.headers.get('retry-after')).toBe('1');
  }
  expect((await call(kumo.baseUrl, '/v1/usage', key.key)).body.key).toMatchObject({ used: 2, reserved: 1 });

  gated.splice(0).forEach((release) => release());
  expect((await last).status).toBe(200);
  const spent = await scrape(kumo.baseUrl, { url: item('200001') }, key.key);
  expect(spent.status).toBe(429);
  expect(spent.body.code).toBe('credits_exhausted');
  expect((await call(kumo.baseUrl, '/v1/usage', key.key)).body.key).toMatchObject({ used: 3, reserved: 0 });
}

describe('a burst on a narrow key (3 credits, concurrency 2)', () => {
  it('SQLite: no credits_exhausted while credits remain; exactly 3 charged; then a real exhaustion', async () => {
    await burstUntilSpent(await kumoFor());
  });

  it('SQLite: credits held by a call in flight answer concurrency_limited, not credits_exhausted', async () => {
    await heldIsNotExhausted(await kumoFor());
  });

  describe('PostgreSQL + Redis', () => {
    const database = `kumo_e2e_credits_${randomBytes(6).toString('hex')}`;
    const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    const adminQuery = async (statement: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    beforeAll(async () => adminQuery(`CREATE DATABASE ${database}`));
    afterAll(async () => {
      for (const k of started.splice(0)) {
        await k.stop();
        await k.cleanup();
      }
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });

    it('no credits_exhausted while credits remain; exactly 3 charged; then a real exhaustion', async () => {
      await burstUntilSpent(await kumoFor(env), env);
    });

    it('credits held by a call in flight answer concurrency_limited, not credits_exhausted', async () => {
      await heldIsNotExhausted(await kumoFor(env), env);
    });
  });
});
