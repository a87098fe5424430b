// Credits and concurrency over real HTTP: the Free allowance to the last credit, parallel calls, a kill -9 mid-call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
const started: KumoProcess[] = [];

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
