// Idempotency-Key over real HTTP: a retry of the same body is charged at most once (and replayed free at most twice),
// another body is a 422, a key in flight is a 409, and a failed call leaves its key reusable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, call, kumoCli, type ApiAnswer, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
let kumo: KumoProcess;
let failuresLeft = 0;
/** Answers of the held page (500004), sent when the test says. */
const held: (() => void)[] = [];

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/500001', { status: 200, headers: html, body: itemPage() });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/500002', (_req, res) => {
    setTimeout(() => res.writeHead(200, html).end(itemPage()), 400);
  });
  // Answered only when the test lets it go: the call is in flight for as long as the test needs, however slow the machine.
  origin.route('GET', '/c/c-/kb/kb01/kb011427/500004', (_req, res) => {
    held.push(() => res.writeHead(200, html).end(itemPage()));
  });
  // Fails while failuresLeft > 0 (every attempt of a call), then serves.
  origin.route('GET', '/c/c-/kb/kb01/kb011427/500003', (_req, res) => {
    if (failuresLeft > 0) {
      failuresLeft--;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
    } else {
      res.writeHead(200, html).end(itemPage());
    }
  });
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

async function post(key: string, body: unknown, idempotencyKey?: string): Promise<ApiAnswer> {
  const response = await fetch(`${kumo.baseUrl}/v1/scrape`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function newKey(): Promise<string> {
  return (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--json'])).key as string;
}

const used = async (key: string): Promise<{ used: number; reserved: number }> =>
  (await call(kumo.baseUrl, '/v1/usage', key)).body.credits as { used: number; reserved: number };

describe('Idempotency-Key', () => {
  it('a retry with the same key and body runs again, costs 0, says Idempotent-Replayed, and the ledger is unchanged', async () => {
    const key = await newKey();
    const hits = origin.hits('/c/c-/kb/kb01/kb011427/500001');
    const first = await post(key, { url: item('500001') }, 'order-1');
    expect(first.status).toBe(200);
    expect(first.body.cost_units).toBe(1);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // Same body, keys in another order and whitespace: the same request.
    const retry = await post(key, `{ "params": {"mode": "html_json"},  "url": "${item('500001')}" }`, 'order-1');
    expect(retry.status).toBe(200);
    expect(retry.body.cost_units).toBe(0);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    // Nothing of the first answer is stored, so the retry fetched the page again.
    expect(origin.hits('/c/c-/kb/kb01/kb011427/500001')).toBe(hits + 2);
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });

    const row = await call(kumo.baseUrl, `/v1/requests/${retry.body.request_id}`, key);
    expect(row.body).toMatchObject({ status: 'completed', cost_units: 0 });
  });

  it('a completed key is replayed free twice; the third replay is 422 idempotency_key_spent, unrun and free', async () => {
    const key = await newKey();
    const path = '/c/c-/kb/kb01/kb011427/500001';
    const first = await post(key, { url: item('500001') }, 'order-cap');
    expect(first.body.cost_units).toBe(1);
    const hits = origin.hits(path);
    for (let i = 0; i < 2; i++) {
      const replay = await post(key, { url: item('500001') }, 'order-cap');
      expect(replay.status).toBe(200);
      expect(replay.body.cost_units).toBe(0);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    const spent = await post(key, { url: item('500001') }, 'order-cap');
    expect(spent.status).toBe(422);
    expect(spent.headers.get('content-type')).toContain('application/problem+json');
    expect(spent.body).toMatchObject({ code: 'idempotency_key_spent', original_request_id: first.body.request_id });
    // Refused before the fetch: the target saw the two replays only, and the ledger holds the one charge.
    expect(origin.hits(path)).toBe(hits + 2);
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });
    const row = await call(kumo.baseUrl, `/v1/requests/${spent.body.request_id}`, key);
    expect(row.body).toMatchObject({ error_code: 'idempotency_key_spent', cost_units: 0 });
  });

  it('the same key with another body is 422 idempotency_conflict and costs nothing', async () => {
    const key = await newKey();
    expect((await post(key, { url: item('500001') }, 'order-2')).status).toBe(200);
    const other = await post(key, { url: item('500001'), params: { store_artifact: true } }, 'order-2');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_conflict');
    expect(other.headers.get('content-type')).toContain('application/problem+json');
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });
  });

  it('a second call with the key while the first is in flight is 409 idempotency_key_in_use with Retry-After', async () => {
    const key = await newKey();
    const path = '/c/c-/kb/kb01/kb011427/500004';
    const before = origin.hits(path);
    const first = post(key, { url: item('500004') }, 'order-3');
    while (origin.hits(path) === before) await new Promise((r) => setTimeout(r, 10));
    // The first call's page is held at the origin until the second is answered (a 400 ms delay could run out first).
    const second = await post(key, { url: item('500004') }, 'order-3').finally(() => held.shift()?.());
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('idempotency_key_in_use');
    expect(second.headers.get('retry-after')).toBe('1');
    expect((await first).status).toBe(200);
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });
  });

  it('replays refused before they ran (429: no free slot) use none of the replays; the key stays replayable', async () => {
    const { key } = await kumoCli(kumo.dataDir, [
      'keys',
      'create',
      '--plan',
      'starter',
      '--concurrency',
      '1',
      '--json',
    ]);
    const path = '/c/c-/kb/kb01/kb011427/500001';
    const first = await post(key, { url: item('500001') }, 'order-busy');
    expect(first.body.cost_units).toBe(1);
    // The key's only slot is taken by a call held at the origin.
    const heldPath = '/c/c-/kb/kb01/kb011427/500004';
    const before = origin.hits(heldPath);
    const holding = post(key, { url: item('500004') });
    while (origin.hits(heldPath) === before) await new Promise((r) => setTimeout(r, 10));
    const hits = origin.hits(path);
    try {
      for (let i = 0; i < 3; i++) {
        const busy = await post(key, { url: item('500001') }, 'order-busy');
        expect(busy.status, JSON.stringify(busy.body)).toBe(429);
        expect(busy.body.code).toBe('concurrency_limited');
      }
    } finally {
      held.shift()?.();
    }
    expect((await holding).status).toBe(200);
    expect(origin.hits(path)).toBe(hits);
    // Both replays are still there for the retries that run.
    for (let i = 0; i < 2; i++) {
      const replay = await post(key, { url: item('500001') }, 'order-busy');
      expect(replay.status, JSON.stringify(replay.body)).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect((await post(key, { url: item('500001') }, 'order-busy')).body.code).toBe('idempotency_key_spent');
    expect(await used(key)).toMatchObject({ used: 2, reserved: 0 });
  });

  it("calls refused for a key's scope (403) neither use a replay nor take the key's claim", async () => {
    const created = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'starter', '--json']);
    const full = created.key as string;
    // Another key of the same account, narrowed to another site.
    const narrowed = (
      await kumoCli(kumo.dataDir, ['keys', 'create', '--account', created.account_id, '--sites', 'kakaku', '--json'])
    ).key as string;
    const body = { url: item('500001') };
    // A fresh key refused first leaves no claim: the key is then claimed (and charged) by the full key's call.
    expect((await post(narrowed, body, 'order-scope')).body.code).toBe('key_scope_denied');
    const first = await post(full, body, 'order-scope');
    expect(first.status).toBe(200);
    expect(first.body.cost_units).toBe(1);
    for (let i = 0; i < 3; i++) {
      const denied = await post(narrowed, body, 'order-scope');
      expect(denied.status, JSON.stringify(denied.body)).toBe(403);
      expect(denied.body.code).toBe('key_scope_denied');
    }
    for (let i = 0; i < 2; i++) {
      const replay = await post(full, body, 'order-scope');
      expect(replay.status, JSON.stringify(replay.body)).toBe(200);
      expect(replay.body.cost_units).toBe(0);
    }
    expect((await post(full, body, 'order-scope')).body.code).toBe('idempotency_key_spent');
    expect(await used(full)).toMatchObject({ used: 1, reserved: 0 });
  });

  it('10 parallel calls with one key are charged once in total', async () => {
    const key = await newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(key, { url: item('500002') }, 'order-4')));
    const charged = answers.filter((a) => a.status === 200 && a.body.cost_units > 0);
    expect(charged).toHaveLength(1);
    for (const a of answers) {
      if (a !== charged[0]) expect([409, 200]).toContain(a.status);
      if (a.status === 200 && a !== charged[0]) expect(a.body.cost_units).toBe(0);
    }
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });
  });

  it('a failed first call leaves the key reusable; the retry that completes is charged once', async () => {
    const key = await newKey();
    failuresLeft = 100;
    const failed = await post(key, { url: item('500003') }, 'order-5');
    expect(failed.status).toBe(502);
    failuresLeft = 0;
    const retry = await post(key, { url: item('500003') }, 'order-5');
    expect(retry.status).toBe(200);
    expect(retry.body.cost_units).toBe(1);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await used(key)).toMatchObject({ used: 1, reserved: 0 });
  });

  it('keys belong to an account: another account may use the same key for another body', async () => {
    const [a, b] = [await newKey(), await newKey()];
    expect((await post(a, { url: item('500001') }, 'shared-key')).body.cost_units).toBe(1);
    const other = await post(b, { url: item('500001'), params: { include_html: true } }, 'shared-key');
    expect(other.status).toBe(200);
    expect(other.body.cost_units).toBe(1);
  });

  it.each([
    ['too long', 'x'.repeat(256)],
    ['not printable ASCII', 'caf\u00e9'],
  ])('a key that is %s is 400 invalid_request', async (_name, idempotencyKey) => {
    const key = await newKey();
    const res = await fetch(`${kumo.baseUrl}/v1/scrape`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ url: item('500001') }),
    }).catch(() => null);
    // fetch refuses to send a header outside ISO-8859-1; what it sends must be refused by Kumo.
    if (res) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_request');
    }
    expect(await used(key)).toMatchObject({ used: 0, reserved: 0 });
  });
});
