// The refusal limit over real HTTP and SQLite (issue 18 §3): a key looping on refused calls gets 429 rate_limited with
// Retry-After until its window passes, while its successes, other keys of its account and other accounts are served.
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type AppServices, type KumoApp } from './app.js';
import { Accounts } from '../accounts/accounts-service.js';
import { UsageReporter } from '../accounts/usage-report.js';
import { newId } from '../accounts/ids.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { InProcessRefusalLimiter } from '../limits/in-process-refusal-limiter.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { ManualClock } from '../time/clock.js';

const maxRefusals = 20;
const windowMs = 10_000;

let storage: KyselyStorage;
let app: KumoApp;
let base: string;
let clock: ManualClock;
let accounts: Accounts;

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  clock = new ManualClock();
  accounts = new Accounts(storage);
  const limiter = new InProcessConcurrencyLimiter();
  const services = {
    accounts,
    usage: new UsageReporter({ ledger: storage.ledger, limiter }),
    requests: storage.requests,
    refusals: new InProcessRefusalLimiter({ maxRefusals, windowMs, clock }),
    readiness: {},
  } as unknown as AppServices;
  app = await buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await app.close();
  await storage.close();
});

async function get(path: string, key: string) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers };
}
/** A success: the key's usage report. */
const usage = (key: string) => get('/v1/usage', key);
/** A refusal the caller caused: a request id its account does not have (404). */
const refused = (key: string) => get(`/v1/requests/${newId('req')}`, key);

describe('the refusal limit', () => {
  it('holds back a key that made too many refused calls, with Retry-After, and serves it again once the window passes', async () => {
    const a = await accounts.createKey({ plan: 'starter' });
    const sameAccount = await accounts.createKey({ accountId: a.accountId });
    const otherAccount = await accounts.createKey({ plan: 'free' });
    for (let i = 0; i < maxRefusals; i++) expect((await refused(a.key)).status).toBe(404);

    // Any call of that key now, a would-be success included, is 429 until the window ends.
    const held = await usage(a.key);
    expect(held.status).toBe(429);
    expect(held.body.code).toBe('rate_limited');
    expect(held.headers.get('retry-after')).toBe(String(windowMs / 1000));
    // Cheap: no usage figures were read for it.
    expect(held.headers.get('x-credits-remaining')).toBeNull();
    expect((await refused(a.key)).status).toBe(429);

    // The key's neighbours are untouched: another key of the same account, and another account.
    expect((await usage(sameAccount.key)).status).toBe(200);
    expect((await refused(sameAccount.key)).status).toBe(404);
    expect((await usage(otherAccount.key)).status).toBe(200);

    await clock.advance(4_000);
    const later = await usage(a.key);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('6');
    // Its 429s are not refusals of their own: hammering on does not push the window further.
    for (let i = 0; i < 50; i++) expect((await usage(a.key)).status).toBe(429);
    await clock.advance(6_000);
    expect((await usage(a.key)).status).toBe(200);
    expect((await refused(a.key)).status).toBe(404);
  });

  it('never holds back a key whose calls succeed, at any rate, beside a sane number of refusals', async () => {
    const a = await accounts.createKey({ plan: 'starter' });
    for (let i = 0; i < 300; i++) {
      expect((await usage(a.key)).status).toBe(200);
      if (i % 20 === 0) expect((await refused(a.key)).status).toBe(404); // 15 refusals in the window
    }
    // Each window allows its refusals anew.
    await clock.advance(windowMs);
    for (let i = 0; i < maxRefusals - 1; i++) expect((await refused(a.key)).status).toBe(404);
    expect((await usage(a.key)).status).toBe(200);
  });

  it('a revoked key is a 401, not counted against anyone', async () => {
    const a = await accounts.createKey({ plan: 'starter' });
    const b = await accounts.createKey({ accountId: a.accountId });
    await accounts.revokeKey(a.keyId);
    for (let i = 0; i < maxRefusals + 5; i++) expect((await usage(a.key)).status).toBe(401);
    expect((await usage(b.key)).status).toBe(200);
  });
});
