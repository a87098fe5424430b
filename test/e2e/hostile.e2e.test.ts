// Hostile pages and answers through the built server: a million nested elements and a 5 MB unclosed document end
// in 502 content_too_complex (or an honest answer) at no charge, while /healthz and a normal call stay fast;
// one account looping on a hostile page neither starves another account's calls nor costs more than two workers' deadlines;
// a 50,000-row e-Stat table is cut to the row cap, and an answer past the byte cap is output_too_large, free.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const ikebe = 'https://www.ikebe-gakki.com';
const estat = 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData';
// Long enough for a legitimate 50,000-row table on a loaded machine; a hostile page needs minutes.
const deadlineMs = 6_000;
/**
 * What "stays responsive" means here, with room for a loaded 2-core machine (two workers burn both cores on the
 * hostile pages while a neighbour test file may be rendering in Chromium): a parse on the event loop would hold
 * every probe for minutes, a third of the deadline is still told from that at a glance.
 */
const boundMs = 2_000;

const html = { 'content-type': 'text/html; charset=utf-8' };
/** 1,000,000 nested elements, 5 MB: minutes of single-threaded parsing before the pool existed. */
const millionDeep = `<html><body>${'<div>'.repeat(1_000_000)}x</body></html>`;
/** 5 MB of elements that are never closed, with attributes, so every one stays open in the tree. */
const unclosed = `<!DOCTYPE html><html><head><title>t</title></head><body>${'<span class="a"><b>x'.repeat((5 * 2 ** 20) / 20)}`;

/** An item page of 1.2 MiB, under the 2 MiB output cap in raw bytes; its HTML doubles inside the JSON answer. */
const escapedPage = itemPage().replace(
  '</body>',
  `<p title="${'\\\\'.repeat(0.2 * 2 ** 20)}">${'\\\\"'.repeat(0.5 * 2 ** 20)}</p></body>`,
);

function estatTable(rows: number, extraRowBytes = 0) {
  const pad = 'x'.repeat(extraRowBytes);
  return JSON.stringify({
    GET_STATS_DATA: {
      RESULT: { STATUS: 0 },
      STATISTICAL_DATA: {
        TABLE_INF: { '@id': '0003000001', TITLE: '生成された表' },
        CLASS_INF: {
          CLASS_OBJ: ['cat01', 'area'].map((id) => ({
            '@id': id,
            '@name': '長い分類名'.repeat(100),
            CLASS: Array.from({ length: 100 }, (_, i) => ({ '@code': String(i), '@name': `${'名'.repeat(300)}${i}` })),
          })),
        },
        DATA_INF: {
          VALUE: Array.from({ length: rows }, (_, i) => ({
            '@cat01': String(i % 100),
            '@area': String(Math.floor(i / 100) % 100),
            '@unit': '人',
            $: `${i}${pad}`,
          })),
        },
      },
    },
  });
}

let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/760001', { status: 200, headers: html, body: millionDeep });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/760002', { status: 200, headers: html, body: unclosed });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/760003', { status: 200, headers: html, body: itemPage() });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/760004', { status: 200, headers: html, body: escapedPage });
  // Other bytes than 760001's, which the first test has already cost a worker's deadline once (a first strike).
  origin.route('GET', '/c/c-/kb/kb01/kb011427/760005', {
    status: 200,
    headers: html,
    body: millionDeep.replace('x', 'y'),
  });
  const json = { 'content-type': 'application/json;charset=utf-8' };
  origin.route('GET', '/rest/3.0/app/json/getStatsData', (req, res) => {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('statsDataId');
    res.writeHead(200, json).end(id === 'wide' ? estatTable(5_000, 500) : estatTable(50_000));
  });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url, 'api.e-stat.go.jp': origin.url }),
    KUMO_BOOTSTRAP_PLAN: 'growth',
    KUMO_EXTRACT_WORKERS: '3',
    KUMO_EXTRACT_DEADLINE_MS: String(deadlineMs),
    KUMO_OUTPUT_MAX_ROWS: '10000',
    KUMO_OUTPUT_MAX_BYTES: String(2 * 1024 * 1024),
  });
  // Warm: the workers are loaded and the first call's costs are paid before anything is timed.
  const warm = await scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/760003` });
  expect(warm.status).toBe(200);
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

const used = async (key?: string) =>
  (await call(kumo.baseUrl, '/v1/usage', key)).body.credits as { used: number; reserved: number };

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe('hostile pages through the built server', () => {
  it('answers content_too_complex (or honestly) at no charge while /healthz and a normal call stay fast', async () => {
    const before = await used();
    let hostileDone = false;
    const hostile = Promise.all([
      scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/760001` }),
      scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/760002` }),
    ]).finally(() => (hostileDone = true));

    // Probes while the hostile pages are being parsed: each must answer within the bound.
    const health: number[] = [];
    const normal: number[] = [];
    await new Promise((resolve) => setTimeout(resolve, 300));
    while (!hostileDone) {
      const h = await timed(() => call(kumo.baseUrl, '/healthz', null));
      expect(h.value.status).toBe(200);
      health.push(h.ms);
      const n = await timed(() => scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/760003` }));
      expect(n.value.status).toBe(200);
      expect(n.value.body.data.price).toBe(2200);
      normal.push(n.ms);
    }
    const [deep, open] = await hostile;

    expect(deep.status).toBe(502);
    expect(deep.body.code).toBe('content_too_complex');
    expect(deep.headers.get('content-type')).toContain('application/problem+json');
    // The unclosed document may be parsed within the deadline; then the honest answer is that it is no product.
    if (open.status === 502 && open.body.code === 'content_too_complex') {
      expect(open.body.detail).toContain(String(deadlineMs));
    } else {
      expect([200, 502]).toContain(open.status);
      if (open.status === 502) expect(open.body.code).toBe('extraction_failed');
    }

    expect(health.length).toBeGreaterThan(0);
    expect(Math.max(...health)).toBeLessThan(boundMs);
    expect(Math.max(...normal)).toBeLessThan(boundMs);
    // The lost worker is logged by reason only: no page content, no stack.
    expect(kumo.output()).toMatch(/"reason":"deadline".*extraction worker replaced/);
    expect(kumo.output()).not.toContain('<div><div>');
    expect(kumo.output()).not.toMatch(/\n\s+at /);
    const after = await used();
    // Only the normal calls were charged (1 each), and nothing is left reserved.
    expect(after.used - before.used).toBe(normal.length + (open.status === 200 ? 1 : 0));
    expect(after.reserved).toBe(0);
  });

  it('cuts a 50,000-row e-Stat table to the row cap and says so in warnings', async () => {
    const before = await used();
    const res = await scrape(kumo.baseUrl, { url: `${estat}?appId=k&statsDataId=0003000001` });
    expect(res.status).toBe(200);
    expect(res.body.data.rows).toHaveLength(10_000);
    expect(res.body.warnings).toContain('rows_truncated:rows:10000/50000');
    expect(res.body.data.rows[1].classes).toEqual({ cat01: '1', area: '0' });
    expect(res.body.cost_units).toBe(1);
    expect((await used()).used - before.used).toBe(1);
  });

  it('refuses an answer past the byte cap with output_too_large, free of charge', async () => {
    const before = await used();
    const res = await scrape(kumo.baseUrl, { url: `${estat}?appId=k&statsDataId=wide` });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('output_too_large');
    const after = await used();
    expect(after.used).toBe(before.used);
    expect(after.reserved).toBe(0);
  });

  it('counts the served HTML as JSON: a page under the byte cap whose escaped HTML is over it is output_too_large, free', async () => {
    expect(Buffer.byteLength(escapedPage)).toBeLessThan(2 * 1024 * 1024);
    const before = await used();
    const url = `${ikebe}/c/c-/kb/kb01/kb011427/760004`;
    const res = await scrape(kumo.baseUrl, { url, params: { include_html: true } });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('output_too_large');
    const after = await used();
    expect(after.used).toBe(before.used);
    expect(after.reserved).toBe(0);
    // The same page without its HTML is served, and charged.
    const plain = await scrape(kumo.baseUrl, { url });
    expect(plain.status).toBe(200);
    expect((await used()).used - after.used).toBe(1);
  });

  it("keeps another account's calls served at near-normal latency while one account loops on a hostile page", async () => {
    // B: an account of its own.
    const other = ((await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string })
      .key;
    const hostileUrl = `${ikebe}/c/c-/kb/kb01/kb011427/760005`;
    const [aBefore, bBefore] = [await used(), await used(other)];
    const lostBefore = kumo.output().match(/extraction worker replaced/g)?.length ?? 0;
    // A loops four wide, more than the three workers: before the pool was shared it held them all for the deadline.
    let stop = false;
    const answers: { status: number; code: string; ms: number }[] = [];
    const loop = async () => {
      while (!stop) {
        const a = await timed(() => scrape(kumo.baseUrl, { url: hostileUrl }));
        answers.push({ status: a.value.status, code: a.value.body.code, ms: a.ms });
      }
    };
    const loops = [1, 2, 3, 4].map(loop);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const normal: number[] = [];
    // B's calls through the first two hostile pages' whole deadlines (one deadline loss may be load, so a page is
    // remembered after its second) and past them.
    const until = performance.now() + deadlineMs * 2.5;
    while (performance.now() < until) {
      const n = await timed(() => scrape(kumo.baseUrl, { url: `${ikebe}/c/c-/kb/kb01/kb011427/760003` }, other));
      expect(n.value.status).toBe(200);
      normal.push(n.ms);
    }
    stop = true;
    await Promise.all(loops);

    expect(Math.max(...normal)).toBeLessThan(boundMs);
    // Every one of A's calls is content_too_complex; the page cost a worker twice, one at a time (A's share of the
    // heavy turns), and its repeats were then refused at once.
    expect(new Set(answers.map((a) => `${a.status} ${a.code}`))).toEqual(new Set(['502 content_too_complex']));
    expect(answers.length).toBeGreaterThan(8);
    expect((kumo.output().match(/extraction worker replaced/g)?.length ?? 0) - lostBefore).toBe(2);
    const slow = answers.filter((a) => a.ms >= boundMs).length;
    // The two that ran, and the copies that had waited behind them (at most one per loop) when it was remembered.
    expect(slow).toBeLessThanOrEqual(2 + 4);
    expect(answers.length - slow).toBeGreaterThan(4);
    for (let i = 0; i < 3; i++) {
      const repeat = await timed(() => scrape(kumo.baseUrl, { url: hostileUrl }));
      expect(repeat.value.body.code).toBe('content_too_complex');
      expect(repeat.ms).toBeLessThan(boundMs);
    }
    expect((kumo.output().match(/extraction worker replaced/g)?.length ?? 0) - lostBefore).toBe(2);
    // A was charged nothing, B one credit a call.
    const [aAfter, bAfter] = [await used(), await used(other)];
    expect(aAfter.used - aBefore.used).toBe(0);
    expect(bAfter.used - bBefore.used).toBe(normal.length);
    expect(aAfter.reserved + bAfter.reserved).toBe(0);
  });
});
