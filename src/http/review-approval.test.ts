// Review approvals over HTTP: a page type under review answers 403 key_scope_denied naming the review until an
// operator approves the account, passes the gate on the very next call once approved, and stops again when revoked.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useExtractionPool } from '../../test/support/extraction.js';
import { itemPage } from '../../test/support/pages.js';
import { buildApp, type AppServices, type KumoApp } from './app.js';
import { ScrapeService } from '../scrape/scrape-service.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { FsArtifactStore } from '../artifacts/fs-artifact-store.js';
import { SiteRegistry } from '../sites/registry.js';
import { ikebeGakki } from '../sites/ikebe-gakki/site.js';
import type { Site } from '../sites/site.js';
import { UsageReporter } from '../accounts/usage-report.js';
import { Accounts } from '../accounts/accounts-service.js';
import type { Fetcher } from '../fetch/fetcher.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const reason = 'personal data of test sellers';

// A test catalogue: イケベ's item pages marked as under review (not a real review), verified by its own fixtures.
const reviewedSite: Site = {
  ...ikebeGakki,
  pageTypes: ikebeGakki.pageTypes.map((entry) => ({ ...entry, review: { reason } })),
};

let fetches = 0;
const fetcher: Fetcher = {
  fetch: async () => {
    fetches++;
    return {
      route: 'http',
      finalUrl: url,
      httpStatus: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: new TextEncoder().encode(itemPage()),
      attempts: 1,
      elapsedMs: 2,
    };
  },
  close: async () => undefined,
};

const workers = useExtractionPool();
let dir: string;
let storage: KyselyStorage;
let accounts: Accounts;
let app: KumoApp;
let key: string;
let accountId: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-review-'));
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  accounts = new Accounts(storage);
  ({ key, accountId } = await accounts.createKey({ plan: 'starter' }));
  const registry = new SiteRegistry([reviewedSite], { record: null });
  const limiter = new InProcessConcurrencyLimiter();
  const artifacts = new FsArtifactStore({ dir: join(dir, 'artifacts') });
  const scrape = new ScrapeService({
    registry,
    fetcher,
    storage,
    limiter,
    artifacts,
    environment: 'production',
    fetchDeadlineMs: 5_000,
    leaseBeyondFetchMs: 60_000,
    artifactRetentionMs: 3_600_000,
    extraction: workers.pool,
  });
  const services = {
    scrape,
    accounts,
    registry,
    usage: new UsageReporter({ ledger: storage.ledger, limiter }),
    requests: storage.requests,
    artifacts,
  } as unknown as AppServices;
  app = await buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  fetches = 0;
});

afterEach(async () => {
  await app.close();
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

function scrape(secret = key, params: Record<string, unknown> = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/scrape',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ url, params }),
  });
}

describe('a page type under review over POST /v1/scrape', () => {
  it('is 403 key_scope_denied naming the review until approved; nothing is fetched or charged', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'key_scope_denied',
      status: 403,
      detail: `ikebe_gakki item needs an operator's review approval for this account (${reason}); ask support`,
    });
    expect(fetches).toBe(0);
    const row = await storage.requests.get(res.json<{ request_id: string }>().request_id, accountId);
    expect(row).toMatchObject({ errorCode: 'key_scope_denied', costUnits: 0 });
  });

  it('passes the gate on the next call once approved, for every key of the account, and stops once revoked', async () => {
    const second = await accounts.createKey({ accountId });
    await accounts.approveReview(accountId, reviewedSite, 'Aiko Operator');
    for (const secret of [key, second.key]) {
      const res = await scrape(secret);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ resolved_site: 'ikebe_gakki', page_type: 'item', cost_units: 1 });
    }
    expect(fetches).toBe(2);

    await accounts.revokeReview(accountId, 'ikebe_gakki', 'Ken Lead');
    const res = await scrape();
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'key_scope_denied' });
    expect(fetches).toBe(2);
  });

  it('an approval of another account does not carry over', async () => {
    const other = await accounts.createKey({ plan: 'starter' });
    await accounts.approveReview(other.accountId, reviewedSite, 'Aiko Operator');
    expect((await scrape()).statusCode).toBe(403);
    expect((await scrape(other.key)).statusCode).toBe(200);
  });
});

describe('GET /v1/sites', () => {
  it('says which page types are under review and why', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/sites' });
    expect(res.statusCode).toBe(200);
    const site = res.json<{ sites: { id: string; page_types: Record<string, unknown>[] }[] }>().sites[0]!;
    expect(site.id).toBe('ikebe_gakki');
    expect(site.page_types[0]).toMatchObject({ page_type: 'item', review: { reason } });
  });

  it('lists each page type’s routes with their cost, the default first', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/sites' });
    const site = res.json<{ sites: { id: string; page_types: { routes: Record<string, unknown>[] }[] }[] }>().sites[0]!;
    expect(site.page_types[0]!.routes).toEqual([
      expect.objectContaining({ route: 'http', default: true, cost: 1, extractor: 'ikebe_gakki/item' }),
    ]);
  });
});

describe('an artifact of a page type under review', () => {
  it('is read back only while the account is approved for the site', async () => {
    await accounts.approveReview(accountId, reviewedSite, 'Aiko Operator');
    const made = await scrape(key, { store_artifact: true });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json<{ artifact: { id: string } }>().artifact.id;
    const read = () =>
      app.inject({ method: 'GET', url: `/v1/artifacts/${id}`, headers: { authorization: `Bearer ${key}` } });
    expect((await read()).statusCode).toBe(200);
    await accounts.revokeReview(accountId, 'ikebe_gakki', 'Ken Lead');
    const refused = await read();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'key_scope_denied' });
    expect(refused.json<{ detail: string }>().detail).toContain('review approval');
  });
});
