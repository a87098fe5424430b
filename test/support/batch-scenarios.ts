// The "Done means" scenarios of batches and signed webhooks (issue 20), written once and run on both backends by
// test/e2e/batches.e2e.test.ts (embedded SQLite) and batches-shared.e2e.test.ts (PostgreSQL + Redis).
import { expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  allItems,
  api,
  auditCharges,
  createEndpoint,
  getBatch,
  ikebeSite,
  serveItems,
  settled,
  sleep,
  submitBatch,
  submitLargeBatch,
  waitForBatch,
} from './batches.js';
import { holding, type BatchWorld } from './batch-world.js';
import { unpublishedWebhookBodies } from './openapi.js';
import { answers, startCountingListener, verifyAt, type Answer, type Delivery } from './webhook-receiver.js';

const hour = 3_600_000;

/** Item pages `from`…`from + n - 1` served by the world's origin; their URLs. */
function items(w: BatchWorld, from: number, n: number, options: { marker?: string; title?: string } = {}) {
  const site = ikebeSite(options);
  serveItems(w.origin, site, from, from + n);
  return Array.from({ length: n }, (_, i) => ({ url: site.url(from + i), ref: `ref-${from + i}` }));
}

/** Deliveries of one batch, oldest first. */
const ofBatch = (w: BatchWorld, batchId: string) => w.receiver.deliveries().filter((d) => d.batchId === batchId);

/** A policy answering each event's n-th attempt (1-based) with `byAttempt(n)`. */
function perEvent(byAttempt: (attempt: number) => Answer) {
  const attempts = new Map<string, number>();
  return (d: Delivery) => {
    const n = (attempts.get(d.webhookId) ?? 0) + 1;
    attempts.set(d.webhookId, n);
    return byAttempt(n);
  };
}

async function newEndpoint(w: BatchWorld, key: string, url: string) {
  const endpoint = await createEndpoint(w.instances[0]!.baseUrl, key, { url });
  w.receiver.secrets = [...w.receiver.secrets, endpoint.secret];
  return { ...endpoint, secretIndex: w.receiver.secrets.length - 1 };
}

async function count(w: BatchWorld, sql: string, params: unknown[]): Promise<number> {
  const [row] = await w.tables.rows<{ n: number | string }>(sql, params);
  return Number(row!.n);
}

export function signatureScenarios(world: () => BatchWorld): void {
  it('every delivery verifies with standardwebhooks; a changed byte, a 6-minute-old timestamp or another secret fail', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key, accountId } = await w.newKey('starter');
    const endpoint = await newEndpoint(w, key, w.hookUrl('/sig'));
    expect(endpoint.id).toMatch(/^whe_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    // Shown once: never again in a listing or a read.
    const listed = await api(base, 'GET', '/v1/webhook-endpoints', undefined, key);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret.slice(6));
    const read = await api(base, 'GET', `/v1/webhook-endpoints/${endpoint.id}`, undefined, key);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(endpoint.secret.slice(6));

    const submitted = await submitBatch(base, key, {
      items: items(w, 1000, 5),
      webhook: { endpoint_id: endpoint.id },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;
    expect(id).toMatch(/^bat_/);
    const done = await waitForBatch(base, key, id, 'all five delivered', (b) => b.counts.delivered === 5);
    await w.receiver.waitFor('batch.completed', () => ofBatch(w, id).some((d) => d.type === 'batch.completed'));
    expect(done.credits).toMatchObject({ charged: 5, held: 0 });

    const delivered = ofBatch(w, id);
    for (const d of delivered) {
      expect(d.verifiedBy, `${d.webhookId}: ${d.verifyError}`).toEqual([endpoint.secretIndex]);
      expect(d.webhookId).toMatch(/^evt_/);
      expect(d.webhookSignature).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(d.headers['content-type']).toContain('application/json');
      expect(d.headers['user-agent']).toBe('Kumo-Webhooks/1');
      expect(d.json.timestamp).toMatch(/\+09:00$/);
    }
    const succeeded = delivered.filter((d) => d.type === 'item.succeeded' && d.answer === answers.ok);
    expect(new Set(succeeded.map((d) => d.itemId)).size).toBe(5);
    for (const d of succeeded) {
      expect(d.full).toBe(true);
      expect(d.json.data).toMatchObject({ batch_id: id, cost_units: 1 });
      expect(d.json.data.result.data.price).toBe(2200);
      expect(d.json.data.request_id).toMatch(/^req_/);
    }
    // Per-batch sequence numbers: one per event, never reused.
    const sequences = new Map(delivered.map((d) => [d.webhookId, d.json.data.sequence as number]));
    expect(new Set(sequences.values()).size).toBe(sequences.size);

    const sample = succeeded[0]!;
    const genuine = verifyAt(endpoint.secret, sample);
    expect(genuine.ok).toBe(true);
    const at = sample.body.indexOf('2200');
    const tampered = `${sample.body.slice(0, at)}3${sample.body.slice(at + 1)}`;
    expect(Buffer.byteLength(tampered)).toBe(Buffer.byteLength(sample.body));
    expect(verifyAt(endpoint.secret, { ...sample, body: tampered }).ok).toBe(false);
    const sentAt = Number(sample.webhookTimestamp) * 1000;
    expect(verifyAt(endpoint.secret, sample, sentAt + 4 * 60_000).ok).toBe(true);
    expect(verifyAt(endpoint.secret, sample, sentAt + 6 * 60_000)).toMatchObject({ ok: false });
    const stranger = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifyAt(stranger, sample).ok).toBe(false);

    const audit = await auditCharges(w.tables, accountId);
    expect(audit).toMatchObject({ ledgerRows: 5, ledgerSum: 5, strayLedgerRows: 0, deliveredUncharged: 0 });
    expect(audit.openReservations).toBe(0);
    // A webhook batch without retention: results leave the buffer at the first handover.
    expect(await count(w, 'SELECT count(*) AS n FROM delivery_buffer WHERE batch_id = $1', [id])).toBe(0);
    // Reading the items afterwards charges nothing more.
    const listedItems = await allItems(base, key, id);
    expect(listedItems.map((i) => i.state)).toEqual(Array(5).fill('delivered'));
    expect((await auditCharges(w.tables, accountId)).ledgerRows).toBe(5);
  });

  it('after rotate-secret both the old and the new secret verify every delivery (within the 24 h grace)', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key } = await w.newKey('starter');
    const endpoint = await newEndpoint(w, key, w.hookUrl('/rotate'));
    const rotated = await api(base, 'POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, key);
    expect([200, 201]).toContain(rotated.status);
    const fresh = rotated.body.endpoint.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(endpoint.secret);
    w.receiver.secrets = [...w.receiver.secrets, fresh];
    const freshIndex = w.receiver.secrets.length - 1;

    const submitted = await submitBatch(base, key, { items: items(w, 1100, 2), webhook: { endpoint_id: endpoint.id } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;
    await waitForBatch(base, key, id, 'both delivered', (b) => b.counts.delivered === 2);
    const delivered = ofBatch(w, id);
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    for (const d of delivered) {
      expect(d.verifiedBy, d.verifyError ?? '').toEqual([endpoint.secretIndex, freshIndex]);
      expect(d.webhookSignature.split(' ')).toHaveLength(2);
    }
  });
}

export function handoverScenarios(world: () => BatchWorld): void {
  it('non-2xx answers are retried (Retry-After honoured) and the item is charged once, at the first 2xx', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key, accountId } = await w.newKey('starter');
    const endpoint = await newEndpoint(w, key, w.hookUrl('/retry'));
    w.answer(
      '/retry',
      perEvent((n) => (n === 1 ? answers.serverError : n === 2 ? answers.tooMany(2) : answers.ok)),
    );
    const submitted = await submitBatch(base, key, { items: items(w, 2000, 3), webhook: { endpoint_id: endpoint.id } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;

    // Between the 429 and the next attempt (at least 2 s later), the item is ready and nothing is charged for it.
    const seen = await w.receiver.waitFor('a second attempt', () =>
      ofBatch(w, id).some((d) => d.type === 'item.succeeded' && d.answer.kind === 'status' && d.answer.status === 429),
    );
    const second = seen.find(
      (d) => d.batchId === id && d.type === 'item.succeeded' && d.answer.kind === 'status' && d.answer.status === 429,
    )!;
    const [row] = await w.tables.rows<{ state: string; request_id: string }>(
      'SELECT state, request_id FROM batch_items WHERE id = $1',
      [second.itemId],
    );
    expect(row!.state).toBe('ready');
    expect(await count(w, 'SELECT count(*) AS n FROM credit_ledger WHERE request_id = $1', [row!.request_id])).toBe(0);

    const done = await waitForBatch(base, key, id, 'all three delivered', (b) => b.counts.delivered === 3);
    expect(done.credits).toMatchObject({ charged: 3, held: 0 });
    for (const itemId of new Set(
      ofBatch(w, id)
        .filter((d) => d.itemId)
        .map((d) => d.itemId),
    )) {
      const tries = ofBatch(w, id).filter((d) => d.itemId === itemId);
      expect(tries.map((d) => (d.answer.kind === 'status' ? d.answer.status : d.answer.kind))).toEqual([500, 429, 200]);
      expect(tries.every((d) => d.full)).toBe(true);
      expect(new Set(tries.map((d) => d.webhookId)).size).toBe(1);
      // Retry-After: 2 is honoured (a busy machine can only make the wait longer).
      expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(1_900);
    }
    const audit = await auditCharges(w.tables, accountId);
    expect(audit).toMatchObject({ ledgerRows: 3, ledgerSum: 3, strayLedgerRows: 0, deliveredUncharged: 0 });
    expect(audit.openReservations).toBe(0);
  });

  it('after 3 failed full deliveries (500, timeout, 500) deliveries are thin; a 2xx to thin charges nothing; GET charges once', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key, accountId } = await w.newKey('starter');
    const endpoint = await newEndpoint(w, key, w.hookUrl('/thin'));
    w.answer(
      '/thin',
      perEvent((n) =>
        n === 1 ? answers.serverError : n === 2 ? answers.hold : n === 3 ? answers.serverError : answers.ok,
      ),
    );
    const submitted = await submitBatch(base, key, { items: items(w, 3000, 2), webhook: { endpoint_id: endpoint.id } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;
    await w.receiver.waitFor(
      'a thin delivery per item answered 200',
      () =>
        ofBatch(w, id).filter((d) => d.type === 'item.succeeded' && !d.full && d.answer === answers.ok).length === 2,
      60_000,
    );
    for (const itemId of new Set(
      ofBatch(w, id)
        .filter((d) => d.itemId)
        .map((d) => d.itemId),
    )) {
      const tries = ofBatch(w, id).filter((d) => d.itemId === itemId);
      expect(tries.slice(0, 3).every((d) => d.full)).toBe(true);
      expect(tries.slice(3).every((d) => !d.full)).toBe(true);
      const thin = tries[3]!.json.data;
      expect(thin.result).toBeUndefined();
      expect(typeof thin.result_url).toBe('string');
      expect(tries[3]!.verifiedBy).toEqual([endpoint.secretIndex]);
    }
    // The 2xx to thin deliveries handed nothing over.
    const before = await getBatch(base, key, id);
    expect(before.counts).toMatchObject({ ready: 2, delivered: 0 });
    expect(before.credits).toMatchObject({ charged: 0, held: 2 });
    expect((await auditCharges(w.tables, accountId)).ledgerRows).toBe(0);

    // GET hands the results over and charges them, once.
    const page = await allItems(base, key, id);
    expect(page.map((i) => i.state)).toEqual(['delivered', 'delivered']);
    for (const item of page) expect(item.result.data.price).toBe(2200);
    await allItems(base, key, id);
    const after = await getBatch(base, key, id);
    expect(after.credits).toMatchObject({ charged: 2, held: 0 });
    const audit = await auditCharges(w.tables, accountId);
    expect(audit).toMatchObject({ ledgerRows: 2, ledgerSum: 2, strayLedgerRows: 0, deliveredUncharged: 0 });
    expect(audit.openReservations).toBe(0);
  });

  it('a receiver that never accepts a connection: the items expire at results_expire_at, cost 0, nothing held', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key, accountId } = await w.newKey('starter');
    const endpoint = await createEndpoint(base, key, { url: 'https://down.kumo-receiver.example/hook' });
    const submitted = await submitBatch(base, key, {
      items: items(w, 4000, 3),
      webhook: { endpoint_id: endpoint.id },
      results: { retain_hours: 1 },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;
    const expireAt = Date.parse(submitted.body.batch.results_expire_at as string);
    expect(expireAt - Date.now()).toBeGreaterThan(0.9 * hour);
    const ready = await waitForBatch(base, key, id, 'three ready', (b) => b.counts.ready === 3);
    expect(ready.credits).toMatchObject({ charged: 0, held: 3 });
    // Deliveries are being tried and refused at connect; a while of that charges nothing.
    await sleep(1_500);
    expect((await getBatch(base, key, id)).credits).toMatchObject({ charged: 0, held: 3 });

    // Expiry, as the server's sweep runs it once results_expire_at has passed.
    expect(await w.expire(expireAt + 1_000)).toBeGreaterThanOrEqual(3);
    const expired = await getBatch(base, key, id);
    expect(expired.counts).toMatchObject({ expired: 3, ready: 0, delivered: 0 });
    expect(expired.credits).toMatchObject({ charged: 0, held: 0 });
    expect(expired.status).toBe('completed');
    const audit = await auditCharges(w.tables, accountId);
    expect(audit).toMatchObject({ ledgerRows: 0, ledgerSum: 0, openReservations: 0 });
    const listed = await allItems(base, key, id);
    expect(listed.map((i) => [i.state, i.cost_units, i.result === undefined])).toEqual(
      Array(3).fill(['expired', 0, true]),
    );
    expect((await auditCharges(w.tables, accountId)).ledgerRows).toBe(0);
    const usage = await api(base, 'GET', '/v1/usage', undefined, key);
    expect(usage.body.credits).toMatchObject({ used: 0, reserved: 0 });
  });
}

/** Run after the scenarios above: what their receivers got, held to the OpenAPI document's `webhooks`. */
export function publishedBodyScenarios(world: () => BatchWorld): void {
  it('every body delivered so far is the published webhook body of its type, full and thin', async () => {
    const w = world();
    const bodies: unknown[] = w.receiver.deliveries().flatMap((d): unknown[] => (d.json === null ? [] : [d.json]));
    const types = new Set(bodies.map((b) => (b as { type: string }).type));
    // The scenarios above sent results both ways, and batch events: the check covers more than one shape.
    expect([...types]).toEqual(expect.arrayContaining(['item.succeeded', 'batch.completed']));
    expect(bodies.some((b) => 'result' in (b as { data: object }).data)).toBe(true);
    expect(bodies.some((b) => 'result_url' in (b as { data: object }).data)).toBe(true);
    expect(await unpublishedWebhookBodies(w.instances[0]!.baseUrl, bodies)).toEqual([]);
  });
}

export function storageScenarios(world: () => BatchWorld): void {
  it('a title marker is found at rest nowhere: after a webhook-only batch is delivered, and before and after a polled batch expires', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const marker = `KUMO-BATCH-MARKER-${randomBytes(6).toString('hex')}`;
    const { key } = await w.newKey('starter');
    const endpoint = await newEndpoint(w, key, w.hookUrl('/store'));

    const hooked = await submitBatch(base, key, {
      items: items(w, 5000, 3, { marker, title: `Marker ${marker}` }),
      webhook: { endpoint_id: endpoint.id },
    });
    expect(hooked.status, JSON.stringify(hooked.body)).toBe(202);
    const hookedId = hooked.body.batch.id as string;
    await waitForBatch(base, key, hookedId, 'webhook batch delivered', (b) => b.counts.delivered === 3);
    // The marker really went through: the receiver has it in every result.
    const received = ofBatch(w, hookedId).filter((d) => d.full && d.answer === answers.ok);
    expect(received.length).toBe(3);
    for (const d of received) expect(d.json.data.result.data.title).toContain(marker);
    expect(holding(await w.atRest(), marker)).toEqual([]);

    const polled = await submitBatch(base, key, {
      items: items(w, 5100, 3, { marker, title: `Marker ${marker}` }),
      results: { retain_hours: 1 },
    });
    expect(polled.status, JSON.stringify(polled.body)).toBe(202);
    const polledId = polled.body.batch.id as string;
    await waitForBatch(base, key, polledId, 'polled batch ready', (b) => b.counts.ready === 3);
    // During retention the buffer holds the results, as ciphertext only.
    expect(await count(w, 'SELECT count(*) AS n FROM delivery_buffer WHERE batch_id = $1', [polledId])).toBe(3);
    expect(holding(await w.atRest(), marker)).toEqual([]);
    const got = await allItems(base, key, polledId);
    for (const item of got) expect(item.result.data.title).toContain(marker);
    expect(holding(await w.atRest(), marker)).toEqual([]);

    await w.expire(Date.parse(polled.body.batch.results_expire_at as string) + 1_000);
    expect(await count(w, 'SELECT count(*) AS n FROM delivery_buffer WHERE batch_id = $1', [polledId])).toBe(0);
    // The data key is shredded: whatever copy of the ciphertext exists anywhere is unreadable now.
    expect(
      await count(w, 'SELECT count(*) AS n FROM batches WHERE id = $1 AND data_key_sealed IS NOT NULL', [polledId]),
    ).toBe(0);
    const afterExpiry = await allItems(base, key, polledId);
    for (const item of afterExpiry) expect(item.result).toBeUndefined();
    expect(holding(await w.atRest(), marker)).toEqual([]);
  });
}

export function ssrfScenarios(world: () => BatchWorld): void {
  it('endpoint URLs on loopback, private, link-local or metadata addresses are refused, with 0 connections', async () => {
    const w = world();
    const base = w.instances[0]!.baseUrl;
    const { key } = await w.newKey('starter');
    const v4 = await startCountingListener('127.0.0.1');
    const v6 = await startCountingListener('::1');
    try {
      const refused = [
        `https://127.0.0.1:${v4.port}/hook`,
        `https://localhost:${v4.port}/hook`,
        `https://2130706433:${v4.port}/hook`,
        `https://0.0.0.0:${v4.port}/hook`,
        `https://[::ffff:127.0.0.1]:${v4.port}/hook`,
        `https://[::1]:${v6.port}/hook`,
        'https://10.1.2.3/hook',
        'https://172.16.5.4/hook',
        'https://192.168.1.10/hook',
        'https://100.64.0.1/hook',
        'https://169.254.169.254/latest/meta-data/',
        'https://[fe80::1]/hook',
        'https://[fd00::1]/hook',
        `http://${new URL(w.hookUrl('/')).host}/hook`,
      ];
      for (const url of refused) {
        const res = await api(base, 'POST', '/v1/webhook-endpoints', { url }, key);
        expect([400, 422], `${url}: ${JSON.stringify(res.body)}`).toContain(res.status);
        expect(['invalid_url', 'destination_forbidden', 'invalid_request']).toContain(res.body.code);
      }
      expect(v4.connections + v6.connections).toBe(0);

      // A receiver that redirects to loopback: a failed delivery, never followed.
      const endpoint = await newEndpoint(w, key, w.hookUrl('/redirect'));
      w.answer('/redirect', (_d, n) =>
        answers.redirect(n % 2 ? `https://127.0.0.1:${v4.port}/hook` : `http://127.0.0.1:${v4.port}/hook`),
      );
      const submitted = await submitBatch(base, key, {
        items: items(w, 6000, 1),
        webhook: { endpoint_id: endpoint.id },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      const id = submitted.body.batch.id as string;
      await w.receiver.waitFor('three redirected attempts', () => ofBatch(w, id).length >= 3);
      await sleep(500);
      expect(v4.connections + v6.connections).toBe(0);
      const batch = await getBatch(base, key, id);
      expect(batch.counts).toMatchObject({ ready: 1, delivered: 0 });
      expect(batch.credits.charged).toBe(0);
    } finally {
      await v4.close();
      await v6.close();
    }
  });
}

/**
 * Fairness on one host: A queues 5,000 items, then B queues 10; B's ten are fetched within the next 25 requests the
 * host sees once B's batch is accepted (round robin over the accounts with work), and the host never has more in flight than its politeness.
 * The world must run with KUMO_HOST_MAX_IN_FLIGHT=1 and a small KUMO_HOST_MIN_INTERVAL_MS.
 */
export async function fairnessScenario(w: BatchWorld, maxInFlight: number): Promise<void> {
  const base = w.instances[0]!.baseUrl;
  const a = await w.newKey('starter');
  const b = await w.newKey('starter');
  const aItems = items(w, 100_000, 5_000);
  const bItems = items(w, 200_000, 10);
  const aPaths = new Set(aItems.map((i) => new URL(i.url).pathname));
  const bPaths = new Set(bItems.map((i) => new URL(i.url).pathname));
  w.origin.resetPeak();
  const batchA = await submitLargeBatch(base, a.key, aItems).catch((error: Error) => {
    // What the server logged of the failed request (an internal error's cause stays in the log, never the answer).
    const id = /req_[0-9A-Z]+/.exec(error.message)?.[0] ?? '-';
    const logged = w.instances
      .flatMap((k) => k.output().split('\n'))
      .filter((l) => l.includes(id) || /"level":50/.test(l));
    throw new Error(`${error.message}\n${logged.join('\n').slice(0, 3000)}`);
  });
  expect(batchA.counts.total).toBe(5_000);
  const hitsOf = (paths: Set<string>) => w.origin.requests().filter((r) => paths.has(r.url.split('?')[0]!));
  // A is well under way before B arrives.
  for (let i = 0; i < 600 && hitsOf(aPaths).length < 30; i++) await sleep(100);
  expect(hitsOf(aPaths).length).toBeGreaterThanOrEqual(30);

  const submittedAt = performance.now();
  const batchB = await submitBatch(w.instances[w.instances.length - 1]!.baseUrl, b.key, { items: bItems });
  // Counted from the 202: while the submission is planned and written A's items go on being fetched (as many as the
  // host's pace allows in that time, which a loaded machine stretches), and none of B's can be claimed before it.
  const acceptedAt = performance.now();
  expect(batchB.status, JSON.stringify(batchB.body)).toBe(202);
  await waitForBatch(base, b.key, batchB.body.batch.id as string, "B's ten done", (x) => settled(x), 60_000);

  const ofEither = (r: { url: string }) => aPaths.has(r.url.split('?')[0]!) || bPaths.has(r.url.split('?')[0]!);
  const tenthB = (since: number) =>
    w.origin
      .requests()
      .filter((r) => r.at >= since && ofEither(r))
      .reduce((last, r, i) => (bPaths.has(r.url.split('?')[0]!) ? i : last), -1) + 1;
  const tenth = tenthB(acceptedAt);
  console.info(
    `fairness: B's tenth item was request ${tenth} of the host after B's 202 (${tenthB(submittedAt)} after the call began)`,
  );
  expect(hitsOf(bPaths).length).toBe(10);
  // Round robin: B's ten alternate with A's next ten, behind at most one A item already claimed per instance.
  expect(tenth, `B's tenth item was request ${tenth} of the host after B's 202`).toBeLessThanOrEqual(25);
  expect(w.origin.inFlightMax()).toBeLessThanOrEqual(maxInFlight);

  // A's remaining items are cancelled, free.
  const cancelled = await api(base, 'DELETE', `/v1/batches/${batchA.id}`, undefined, a.key);
  expect([200, 202], JSON.stringify(cancelled.body)).toContain(cancelled.status);
  const endA = await waitForBatch(base, a.key, batchA.id as string, 'A cancelled', (x) => x.status === 'cancelled');
  expect(endA.counts.cancelled).toBeGreaterThan(4_000);
  expect(endA.credits.charged).toBe(0);
}
