// /v1/webhook-endpoints over HTTP: secrets shown once, per-account 404s, the `batch` key operation, URL refusals, the
// 503 without a server key, and /readyz's report of it.
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildApp, type AppServices, type KumoApp } from '../app.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../../storage/kysely/kysely-storage.js';
import { Accounts } from '../../accounts/accounts-service.js';
import { UsageReporter } from '../../accounts/usage-report.js';
import { InProcessConcurrencyLimiter } from '../../limits/in-process-concurrency-limiter.js';
import { AesGcmSecrets } from '../../secrets/aes-gcm-secrets.js';
import { KyselyWebhookEndpointStore } from '../../webhooks/kysely-webhook-endpoint-store.js';
import { parseConnectTo } from '../../fetch/connect-to.js';
import { ManualClock } from '../../time/clock.js';
import { eventTypes } from '../../batches/batch-store.js';
import { signDelivery } from '../../webhooks/signer.js';
import type { Resolver } from '../../fetch/address-guard.js';
import { EventTypeSchema } from './webhook-endpoints.js';

let storage: KyselyStorage;
let accounts: Accounts;
let app: KumoApp;
let key: string;
let store: KyselyWebhookEndpointStore;
const clock = new ManualClock(Date.parse('2026-11-28T00:00:00Z'));

const lookup: Resolver = async (host) =>
  host === 'hooks.example.com' ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];

async function appWith(extra: Partial<AppServices>): Promise<KumoApp> {
  const limiter = new InProcessConcurrencyLimiter();
  const services = {
    accounts,
    usage: new UsageReporter({ ledger: storage.ledger, limiter }),
    requests: storage.requests,
    readiness: {},
    ...extra,
  } as unknown as AppServices;
  return buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
}

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  accounts = new Accounts(storage);
  ({ key } = await accounts.createKey({ plan: 'starter' }));
  store = new KyselyWebhookEndpointStore(storage.db, new AesGcmSecrets(randomBytes(32)));
  app = await appWith({
    webhookEndpoints: {
      store,
      urlPolicy: { connectTo: parseConnectTo('receiver.test=http://127.0.0.1:9'), resolve: lookup },
      clock,
    },
    secretsStatus: () => 'ok',
  });
});

afterEach(async () => {
  await app.close();
  await storage.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, secret = key) =>
  app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe('/v1/webhook-endpoints', () => {
  it('creates (secret once), lists and gets (no secret), rotates (new secret once, both sign), deletes', async () => {
    const created = await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/kumo' });
    expect(created.statusCode).toBe(201);
    const { endpoint, request_id } = created.json<{ endpoint: Record<string, string | null>; request_id: string }>();
    const secret = endpoint.secret!;
    expect(request_id).toMatch(/^req_/);
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/kumo',
      events: [...eventTypes],
      disabled_at: null,
      created_at: '2026-11-28T00:00:00.000Z',
    });
    expect(endpoint.id).toMatch(/^whe_[0-9A-Z]{26}$/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.secret_last4).toBe(secret.slice(-4));

    const listed = await call('GET', '/v1/webhook-endpoints');
    expect(listed.statusCode).toBe(200);
    const { secret: _shownOnce, ...withoutSecret } = endpoint;
    expect(listed.json().endpoints).toEqual([withoutSecret]);
    expect(listed.body).not.toContain(secret.slice(6));
    const one = await call('GET', `/v1/webhook-endpoints/${endpoint.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().endpoint.secret).toBeUndefined();

    await clock.advance(60_000);
    const rotated = await call('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().endpoint.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    const signing = await store.signingSecrets(endpoint.id!, new Date(clock.now()).toISOString());
    expect(signing).toEqual([fresh, secret]);
    const body = '{"type":"batch.completed"}';
    const headers = signDelivery('evt_1', Math.floor(Date.now() / 1000), body, signing);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));

    expect((await call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
  });

  it("answers 404 not_found for another account's endpoint, on every route", async () => {
    const mine = (await call('POST', '/v1/webhook-endpoints', { url: 'https://receiver.test/in' })).json().endpoint;
    const { key: otherKey } = await accounts.createKey({ plan: 'starter' });
    for (const [method, path] of [
      ['GET', `/v1/webhook-endpoints/${mine.id}`],
      ['DELETE', `/v1/webhook-endpoints/${mine.id}`],
      ['POST', `/v1/webhook-endpoints/${mine.id}/rotate-secret`],
    ] as const) {
      const res = await call(method, path, undefined, otherKey);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await call('GET', '/v1/webhook-endpoints', undefined, otherKey)).json().endpoints).toEqual([]);
    expect((await call('GET', `/v1/webhook-endpoints/${mine.id}`)).statusCode).toBe(200);
  });

  it('needs the batch operation: a key narrowed to scrape gets 403 key_scope_denied; one with batch passes', async () => {
    const { key: scrapeOnly } = await accounts.createKey({ plan: 'starter', operations: ['scrape'] });
    const refused = await call('GET', '/v1/webhook-endpoints', undefined, scrapeOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('key_scope_denied');
    const { key: batchKey } = await accounts.createKey({ plan: 'starter', operations: ['batch'] });
    expect((await call('GET', '/v1/webhook-endpoints', undefined, batchKey)).statusCode).toBe(200);
  });

  it('refuses bad URLs with 400 invalid_url, never storing them; events are validated', async () => {
    for (const url of [
      'http://hooks.example.com/',
      'https://user:pw@hooks.example.com/',
      'https://private.example.com/',
      'https://127.0.0.1/',
      `https://hooks.example.com/${'a'.repeat(2100)}`,
    ]) {
      const res = await call('POST', '/v1/webhook-endpoints', { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_url', field: 'url' });
    }
    const badEvent = await call('POST', '/v1/webhook-endpoints', { url: 'https://receiver.test/', events: ['nope'] });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json().code).toBe('invalid_request');
    const some = await call('POST', '/v1/webhook-endpoints', {
      url: 'https://receiver.test/',
      events: ['item.succeeded'],
    });
    expect(some.json().endpoint.events).toEqual(['item.succeeded']);
    expect((await call('GET', '/v1/webhook-endpoints')).json().endpoints).toHaveLength(1);
  });

  it('lists exactly the catalogue event types in its schema', () => {
    expect(EventTypeSchema.anyOf.map((s: { const: string }) => s.const)).toEqual([...eventTypes]);
  });
});

describe('without a server key (shared mode, KUMO_SECRETS_KEY unset)', () => {
  it('every endpoint route answers 503 unavailable naming the variable; /readyz stays 200 and says why', async () => {
    await app.close();
    app = await appWith({
      webhookEndpoints: { store: null, urlPolicy: { connectTo: new Map() } },
      secretsStatus: () => 'missing: KUMO_SECRETS_KEY',
    });
    for (const [method, path] of [
      ['POST', '/v1/webhook-endpoints'],
      ['GET', '/v1/webhook-endpoints'],
      ['GET', '/v1/webhook-endpoints/whe_X'],
      ['DELETE', '/v1/webhook-endpoints/whe_X'],
      ['POST', '/v1/webhook-endpoints/whe_X/rotate-secret'],
    ] as const) {
      const res = await call(method, path, method === 'POST' ? { url: 'https://hooks.example.com/' } : undefined);
      expect(res.statusCode, `${method} ${path}`).toBe(503);
      expect(res.json()).toMatchObject({ code: 'unavailable', detail: 'KUMO_SECRETS_KEY is not set' });
    }
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().secrets).toBe('missing: KUMO_SECRETS_KEY');
  });
});
