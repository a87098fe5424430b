// A client that goes away before its answer: the fetch to the origin is aborted and nothing is charged or held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  origin = await startOrigin();
  // Never answers: the client gives up while Kumo waits for headers.
  origin.route('GET', '/c/c-/kb/kb01/kb011427/300001', () => undefined);
  // Headers at once, then the body trickles and never ends: the client gives up while Kumo reads the body.
  origin.route('GET', '/c/c-/kb/kb01/kb011427/300002', (_req, res) => {
    res.writeHead(200, html);
    res.write(itemPage().slice(0, 200));
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/300003', { status: 200, headers: html, body: itemPage() });
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts a call, waits until the origin has it, then drops the client connection. */
async function leaveMidCall(id: string, key: string, params: Record<string, unknown> = {}): Promise<void> {
  const path = `/c/c-/kb/kb01/kb011427/${id}`;
  const before = origin.hits(path);
  const client = new AbortController();
  const pending = fetch(`${kumo.baseUrl}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ url: item(id), params }),
    signal: client.signal,
  }).catch((error: unknown) => error);
  await until(() => origin.hits(path) > before);
  client.abort();
  await pending;
  // The origin sees its request end: Kumo aborted the fetch instead of waiting out its deadline.
  const request = origin.requests(path)[before]!;
  await until(() => request.endedAt !== undefined);
}

describe('a client that disconnects mid-call', () => {
  it.each([
    ['waiting for the headers', '300001'],
    ['reading a slow body', '300002'],
  ])('while Kumo is %s: the origin request is aborted, nothing charged or held', async (_name, id) => {
    const key = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--concurrency', '1', '--json']);
    await leaveMidCall(id, key.key, { store_artifact: true });

    // Settling runs right after the abort; give it a moment under load.
    let usage = await call(kumo.baseUrl, '/v1/usage', key.key);
    for (let i = 0; i < 50 && (usage.body.credits.reserved !== 0 || usage.body.concurrency.in_use !== 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      usage = await call(kumo.baseUrl, '/v1/usage', key.key);
    }
    expect(usage.body.credits).toMatchObject({ used: 0, reserved: 0 });
    expect(usage.body.concurrency.in_use).toBe(0);
    // No artifact outlives a call that was not charged.
    expect(await readdir(path.join(kumo.dataDir, 'artifacts')).catch(() => [])).toEqual([]);
    expect(kumo.output()).toContain('client closed the connection before the answer');

    // The slot came back: with concurrency 1 the next call is served and charged normally.
    const next = await scrape(kumo.baseUrl, { url: item('300003') }, key.key);
    expect(next.status).toBe(200);
    expect(next.body.cost_units).toBe(1);
    expect((await call(kumo.baseUrl, '/v1/usage', key.key)).body.credits).toMatchObject({ used: 1, reserved: 0 });
  });
});
