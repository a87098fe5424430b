// The batch API over real HTTP on the built server (embedded SQLite, its own secrets.key, the dispatcher running items
// against a local origin through KUMO_CONNECT_TO): submit with a refused item, wait for the items, poll them (the
// handover charges each once), read them again free, see the events, and cancel a batch with an item running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, call, kumoCli, type ApiAnswer, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
let kumo: KumoProcess;
/** Answers of held pages, sent when the test says (items stay running for as long as it needs). */
const held: (() => void)[] = [];

beforeAll(async () => {
  origin = await startOrigin();
  for (const id of ['600001', '600002', '600003']) {
    origin.route('GET', `/c/c-/kb/kb01/kb011427/${id}`, { status: 200, headers: html, body: itemPage() });
  }
  origin.route('GET', '/c/c-/kb/kb01/kb011427/600009', (_req, res) => {
    held.push(() => res.writeHead(200, html).end(itemPage()));
  });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
    // One item of the host at a time, so the held one keeps the rest of its batch queued.
    KUMO_HOST_MAX_IN_FLIGHT: '1',
  });
});

afterAll(async () => {
  for (const release of held) release();
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

async function send(key: string, method: string, pathname: string, body?: unknown): Promise<ApiAnswer> {
  const response = await fetch(`${kumo.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function newKey(): Promise<string> {
  return (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--json'])).key as string;
}

/** Polls the batch until `done` says so (the dispatcher runs on its own schedule; the test's timeout bounds this). */
async function waitFor(key: string, batchId: string, done: (batch: any) => boolean): Promise<any> {
  for (;;) {
    const { body } = await send(key, 'GET', `/v1/batches/${batchId}`);
    if (done(body.batch)) return body.batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const used = async (key: string): Promise<number> =>
  ((await call(kumo.baseUrl, '/v1/usage', key)).body.credits as { used: number }).used;

describe('batches over HTTP', () => {
  it('runs the items, charges each once at the first page that returns it, and serves it again free', async () => {
    const key = await newKey();
    const submitted = await send(key, 'POST', '/v1/batches', {
      items: [
        { url: item('600001'), ref: 'a' },
        { url: 'https://shop.example.net/x' },
        { url: item('600002'), ref: 'b' },
        { url: item('600003'), ref: 'c' },
      ],
      results: { retain_hours: 24 },
    });
    expect(submitted.status).toBe(202);
    const batchId = submitted.body.batch.id as string;
    expect(submitted.body.batch.rejected).toEqual([
      { index: 1, url: 'https://shop.example.net/x', code: 'site_not_supported' },
    ]);

    const ready = await waitFor(key, batchId, (b) => b.counts.ready === 3);
    expect(ready).toMatchObject({ status: 'completed', credits: { charged: 0, held: 3 } });
    expect(await used(key)).toBe(0);

    const page = await send(key, 'GET', `/v1/batches/${batchId}/items`);
    expect(page.status).toBe(200);
    expect(
      (page.body.items as { index: number; ref: string; state: string; cost_units: number }[]).map((i) => [
        i.index,
        i.ref,
        i.state,
        i.cost_units,
      ]),
    ).toEqual([
      [0, 'a', 'delivered', 1],
      [2, 'b', 'delivered', 1],
      [3, 'c', 'delivered', 1],
    ]);
    for (const i of page.body.items) {
      expect(i.result).toMatchObject({
        resolved_site: 'ikebe_gakki',
        page_type: 'item',
        data: { title: expect.any(String) },
      });
      expect(i.result.request_id).toBeUndefined();
    }
    expect(await used(key)).toBe(3);
    const again = await send(key, 'GET', `/v1/batches/${batchId}/items`);
    expect((again.body.items as { result?: unknown }[]).every((i) => i.result !== undefined)).toBe(true);
    expect(await used(key)).toBe(3);
    expect((await send(key, 'GET', `/v1/batches/${batchId}`)).body.batch).toMatchObject({
      counts: { delivered: 3, ready: 0 },
      credits: { charged: 3, held: 0 },
    });

    const events = await send(key, 'GET', `/v1/events?batch_id=${batchId}`);
    const types = (events.body.events as { type: string }[]).map((e) => e.type);
    expect(types.filter((t) => t === 'item.succeeded')).toHaveLength(3);
    expect(types).toContain('batch.completed');
  });

  it('cancels the queued items of a batch at once, free; its running item finishes, its result discarded, free', async () => {
    const key = await newKey();
    const submitted = await send(key, 'POST', '/v1/batches', {
      items: [{ url: item('600009') }, { url: item('600001') }, { url: item('600002') }],
    });
    const batchId = submitted.body.batch.id as string;
    await waitFor(key, batchId, (b) => b.counts.running === 1);
    const cancelled = await send(key, 'DELETE', `/v1/batches/${batchId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      cancelled: 2,
      batch: { status: 'cancelling', counts: { cancelled: 2, running: 1 } },
    });
    // The running item's request reaches the origin after its robots.txt and politeness turn: wait for it there.
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const release of held.splice(0)) release();
    const done = await waitFor(key, batchId, (b) => b.status === 'cancelled');
    // The running item finished after the DELETE: never handed over (ready until the sweep expires it, or expired).
    expect(done.counts).toMatchObject({ cancelled: 2, running: 0, delivered: 0 });
    expect(done.counts.ready + done.counts.expired).toBe(1);
    const items = await send(key, 'GET', `/v1/batches/${batchId}/items`);
    expect((items.body.items as { result?: unknown }[]).every((i) => i.result === undefined)).toBe(true);
    expect(await used(key)).toBe(0);
  });
});
