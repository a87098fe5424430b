// The refusal limit over real HTTP and SQLite (issue 18 §3): a key looping on refused calls gets 429 rate_limited with
// Retry-After until its window passes, while its successes, other keys of its account and other accounts are served;
// a client obeying the Retry-After: 1 of a contention answer (concurrency, an Idempotency-Key in flight) is not looping.
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
import { ScrapeService } from '../scrape/scrape-service.js';
import { SiteRegistry } from '../sites/registry.js';
import { FsArtifactStore } from '../artifacts/fs-artifact-store.js';
import { KumoError } from '../errors.js';
import type { Fetcher } from '../fetch/fetcher.js';
import type { ExtractionRunner } from '../scrape/extraction-pool.js';

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
  fetches = [];
  const scrape = new ScrapeService({
    registry: new SiteRegistry(),
    fetcher: heldFetcher,
    storage,
    limiter,
    // Never reached: every fetch of these tests fails, so no page is ever parsed.
    artifacts: new FsArtifactStore({ dir: '/nonexistent/kumo-refusal-limit' }),
    extraction: {} as ExtractionRunner,
    environment: 'production',
    fetchDeadlineMs: 60_000,
    leaseBeyondFetchMs: 60_000,
    artifactRetentionMs: 3_600_000,
  });
  const services = {
    scrape,
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
  for (const fetch of fetches) fetch.fail();
  await app.close();
  await storage.close();
});

/** Fetches in flight: each holds its call (and its concurrency slot) until the test fails it. */
let fetches: { fail: () => void }[];
let fetchStarted: (() => void) | null = null;
const heldFetcher: Fetcher = {
  fetch: () =>
    new Promise((_resolve, reject) => {
      fetches.push({ fail: () => reject(new KumoError('fetch_failed', 'the test let the fetch fail')) });
      fetchStarted?.();
    }),
  close: async () => undefined,
};

async function get(path: string, key: string) {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers };
}
async function scrape(key: string, idempotencyKey: string) {
  const res = await fetch(`${base}/v1/scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592' }),
  });
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

  it('does not count the contention answers a client is told to retry after 1 s: concurrency_limited, idempotency_key_in_use', async () => {
    const a = await accounts.createKey({ plan: 'free', concurrencyLimit: 1 });
    // One call in flight holds the key's only slot and its Idempotency-Key.
    const started = new Promise<void>((resolve) => (fetchStarted = resolve));
    const first = scrape(a.key, 'first');
    await started;

    // Many workers of one client each retrying after Retry-After: 1 (~18 such answers a second for a Free key):
    // within one window, well past the limit.
    for (let i = 0; i < maxRefusals * 2; i++) {
      const busy = await scrape(a.key, `other-${i}`);
      expect(busy.status).toBe(429);
      expect(busy.body.code).toBe('concurrency_limited');
      expect(busy.headers.get('retry-after')).toBe('1');
      const inUse = await scrape(a.key, 'first');
      expect(inUse.status).toBe(409);
      expect(inUse.body.code).toBe('idempotency_key_in_use');
      expect(inUse.headers.get('retry-after')).toBe('1');
    }
    expect((await usage(a.key)).status).toBe(200);

    // Once the slot is free the call runs (here its fetch fails: a 502, never counted either).
    for (const fetch of fetches) fetch.fail();
    expect((await first).status).toBe(502);
    // The other refusals still count, within one window.
    for (let i = 0; i < maxRefusals; i++) expect((await refused(a.key)).status).toBe(404);
    expect((await usage(a.key)).body.code).toBe('rate_limited');
  });
});
