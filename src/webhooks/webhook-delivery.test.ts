// The worker and the real transport together: a local receiver behind a KUMO_CONNECT_TO mapping gets signed deliveries
// that standardwebhooks verifies; an endpoint whose host resolves to loopback gets no connection at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { DueDelivery, Outbox } from '../batches/batch-store.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import { systemClock } from '../time/clock.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { newId } from '../accounts/ids.js';
import { parseConnectTo } from '../fetch/connect-to.js';
import { KyselyWebhookEndpointStore } from './kysely-webhook-endpoint-store.js';
import { DeliveryWorker } from './delivery-worker.js';
import { WebhookTransport } from './webhook-transport.js';

let storage: KyselyStorage;
let server: http.Server;
let port = 0;
let connections = 0;
const received: { headers: Record<string, string>; body: string; verified: boolean }[] = [];
let secret = '';

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  connections = 0;
  received.length = 0;
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      try {
        new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({ headers, body, verified });
      res.writeHead(verified ? 200 : 400).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await storage.close();
});

/** A one-event Outbox that records what the worker reported. */
function oneEventOutbox(due: DueDelivery, result: string) {
  const outcome: { delivered?: boolean; full?: boolean; failed?: { status: number | null } } = {};
  let claimed = false;
  const outbox: Outbox = {
    claimDue: async () => {
      if (claimed) return [];
      claimed = true;
      return [due];
    },
    render: async (_d, open) => ({
      body: JSON.stringify({
        type: due.type,
        timestamp: due.createdAt,
        data: { result: JSON.parse(open(Buffer.from(result, 'base64')).toString()) },
      }),
      full: true,
    }),
    delivered: async (_id, _holder, full) => {
      outcome.delivered = true;
      outcome.full = full;
      return { charged: full };
    },
    failed: async (_id, _holder, r) => {
      outcome.failed = { status: r.status };
    },
    releaseExpiredLeases: async () => 0,
  };
  return { outbox, outcome };
}

async function setup(url: string, connectTo: string) {
  const secrets = new AesGcmSecrets(randomBytes(32));
  const endpoints = new KyselyWebhookEndpointStore(storage.db, secrets);
  const accountId = newId('acc');
  await storage.accounts.create({
    id: accountId,
    plan: 'starter',
    overageCapCredits: 0,
    createdAt: new Date().toISOString(),
  });
  const created = await endpoints.create({
    id: newId('whe'),
    accountId,
    url,
    events: ['item.succeeded'],
    createdAt: new Date().toISOString(),
  });
  secret = created.secret;
  const batchId = newId('bat');
  const itemId = newId('itm');
  const key = secrets.newDataKey(batchId);
  const sealedResult = key.box.seal('{"title":"marker"}', itemId).toString('base64');
  const due: DueDelivery = {
    eventId: newId('evt'),
    accountId,
    batchId,
    itemId,
    type: 'item.succeeded',
    sequence: 1,
    endpointId: created.endpoint.id,
    attempts: 0,
    payload: 'full',
    createdAt: new Date().toISOString(),
    resultsExpireAt: new Date(Date.now() + 86_400_000).toISOString(),
    dataKeySealed: key.sealed,
  };
  const { outbox, outcome } = oneEventOutbox(due, sealedResult);
  const transport = new WebhookTransport({ timeoutMs: 5_000, connectTo: parseConnectTo(connectTo) });
  const worker = new DeliveryWorker({
    outbox,
    endpoints,
    secrets,
    sender: transport,
    clock: systemClock,
    holder: 'ins_a',
    retryScheduleMs: [5000],
    timeoutMs: 5_000,
  });
  return { worker, transport, outcome };
}

describe('webhook delivery end to end (worker + transport)', () => {
  it('a mapped receiver gets a delivery standardwebhooks verifies, carrying the opened result', async () => {
    const { worker, transport, outcome } = await setup(
      'https://receiver.test/hook',
      `receiver.test=http://127.0.0.1:${port}`,
    );
    await worker.runOnce();
    await transport.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toBe(true);
    expect(received[0]!.headers['user-agent']).toBe('Kumo-Webhooks/1');
    expect(JSON.parse(received[0]!.body).data.result).toEqual({ title: 'marker' });
    expect(outcome).toEqual({ delivered: true, full: true });
  });

  it('an endpoint whose host resolves to loopback gets 0 connections; the attempt fails', async () => {
    const { worker, transport, outcome } = await setup(`https://localhost:${port}/hook`, '');
    await worker.runOnce();
    await transport.close();
    expect(connections).toBe(0);
    expect(outcome.failed).toEqual({ status: null });
  });
});
