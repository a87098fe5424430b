// Batches and signed webhooks end to end in shared mode (PostgreSQL + Redis, several instances): the same scenarios as
// the embedded file, fairness and politeness across three instances, and PostgreSQL or Redis going down mid-batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBatchWorld, type BatchWorld } from '../support/batch-world.js';
import {
  fairnessScenario,
  handoverScenarios,
  publishedBodyScenarios,
  signatureScenarios,
  ssrfScenarios,
  storageScenarios,
} from '../support/batch-scenarios.js';
import { api, auditCharges, createEndpoint, ikebeSite, sleep, submitBatch, waitForBatch } from '../support/batches.js';
import type { ApiAnswer } from '../support/kumo-process.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

let world: BatchWorld;

beforeAll(async () => {
  world = await startBatchWorld({ mode: 'shared', instances: 2 });
});

afterAll(async () => {
  await world?.close();
});

describe('shared mode (PostgreSQL + Redis, two instances): webhooks and handover', () => {
  signatureScenarios(() => world);
  handoverScenarios(() => world);
  publishedBodyScenarios(() => world);
});

describe('shared mode: what is kept (the database dump included)', () => {
  storageScenarios(() => world);
});

describe('shared mode: endpoint addresses', () => {
  ssrfScenarios(() => world);
});

describe('shared mode: fairness and politeness across three instances', () => {
  let fair: BatchWorld;
  afterAll(async () => {
    await fair?.close();
  });

  it('B’s 10 items finish within the next 25 of the host while A has 5,000 queued; in flight never above 1', async () => {
    fair = await startBatchWorld({
      mode: 'shared',
      instances: 3,
      env: { KUMO_HOST_MAX_IN_FLIGHT: '1', KUMO_HOST_MIN_INTERVAL_MS: '5' },
    });
    await fairnessScenario(fair, 1);
    for (const k of fair.instances) expect(k.output()).not.toMatch(/unhandled rejection|uncaught exception/i);
  }, 240_000);
});

describe('shared mode: PostgreSQL or Redis down mid-batch', () => {
  let outage: BatchWorld;
  const html = { 'content-type': 'text/html; charset=utf-8' };

  beforeAll(async () => {
    outage = await startBatchWorld({
      mode: 'shared',
      proxied: true,
      env: {
        // As outages.e2e.test.ts: a silent or cut database is given up on within seconds, and liveness is quick.
        KUMO_PG_CONNECT_TIMEOUT_MS: '1000',
        KUMO_PG_QUERY_TIMEOUT_MS: '1000',
        KUMO_HEARTBEAT_INTERVAL_MS: '200',
        KUMO_INSTANCE_STALE_MS: '5000',
      },
    });
  });

  afterAll(async () => {
    await outage?.close();
  });

  /** Soft: the rest of the scenario (pause, resume, charges) is checked whatever this answer was. */
  function expectUnavailable(res: ApiAnswer): void {
    expect.soft(res.status, `a submission during the outage: ${JSON.stringify(res.body)}`).toBe(503);
    expect.soft(res.body.code).toBe('unavailable');
    expect.soft(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }

  async function midBatch(from: number, proxy: () => TcpProxy): Promise<void> {
    const w = outage;
    const base = w.instances[0]!.baseUrl;
    const { key, accountId } = await w.newKey('growth');
    const other = await w.newKey('growth');
    const endpoint = await createEndpoint(base, key, { url: w.hookUrl(`/outage-${from}`) });
    w.receiver.secrets = [...w.receiver.secrets, endpoint.secret];
    // Slow pages, so that the batch is mid-way when the backend goes: a growth account's batch lane runs 5 items at
    // once, so 120 pages of 300 ms take some 8 s, and the cut comes after the first ten.
    const site = ikebeSite();
    const n = 120;
    const paths = new Set<string>();
    for (let i = from; i < from + n; i++) {
      paths.add(site.path(i));
      w.origin.route('GET', site.path(i), (_req, res) => {
        setTimeout(() => res.writeHead(200, html).end(site.body), 300);
      });
    }
    const hits = () => w.origin.requests().filter((r) => paths.has(r.url.split('?')[0]!)).length;
    const submitted = await submitBatch(base, key, {
      items: Array.from({ length: n }, (_, i) => ({ url: site.url(from + i) })),
      webhook: { endpoint_id: endpoint.id },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.batch.id as string;
    await waitForBatch(base, key, id, 'ten items done', (b) => b.counts.ready + b.counts.delivered >= 10);
    const atCut = hits();

    proxy().cut();
    try {
      // New submissions: 503 with Retry-After, nothing accepted.
      // (From another account: were it accepted, its hold must not be mistaken for one of this batch's.)
      const refused = await submitBatch(base, other.key, { items: [{ url: site.url(from) }] });
      expectUnavailable(refused);
      // Dispatch pauses: past the fetches already under way, the origin hears nothing more of this batch.
      await sleep(3_000);
      const paused = hits();
      await sleep(2_000);
      expect(hits(), 'fetches while the backend is down').toBe(paused);
      expect(paused, `fetched at the cut: ${atCut}`).toBeLessThan(n);
    } finally {
      proxy().restore();
    }

    // It resumes without a restart, and nothing is charged twice.
    await waitForBatch(
      base,
      key,
      id,
      'every item delivered after the outage',
      (b) => b.counts.delivered === n,
      120_000,
    );
    const audit = await auditCharges(w.tables, accountId);
    expect(audit).toMatchObject({
      ledgerRows: n,
      ledgerSum: n,
      delivered: n,
      deliveredCost: n,
      strayLedgerRows: 0,
      deliveredUncharged: 0,
      openReservations: 0,
    });
    const deliveries = w.receiver.deliveries().filter((d) => d.batchId === id);
    for (const d of deliveries) expect(d.verifiedBy.length, d.verifyError ?? '').toBeGreaterThan(0);
    expect(new Set(deliveries.filter((d) => d.full).map((d) => d.itemId)).size).toBe(n);
    const after = await api(base, 'GET', `/v1/batches/${id}`, undefined, key);
    expect(after.body.batch.credits).toMatchObject({ charged: n, held: 0 });
    expect(w.instances[0]!.output()).not.toMatch(/unhandled rejection|uncaught exception/i);
  }

  it('PostgreSQL drops mid-batch: submissions 503 with Retry-After, dispatch pauses, resumes without restart, charged once', async () => {
    await midBatch(300_000, () => outage.pgProxy!);
  }, 180_000);

  it('Redis drops mid-batch: submissions 503 with Retry-After, dispatch pauses, resumes without restart, charged once', async () => {
    await midBatch(310_000, () => outage.redisProxy!);
  }, 180_000);
});
