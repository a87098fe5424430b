// The money path of ScrapeService on real SQLite and real artifact files, with a scripted fetcher: what is charged,
// released, recorded and kept when the output cannot be delivered, the caller leaves, or credits are only held.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatedExtractionPool, settled, until, useExtractionPool } from '../../test/support/extraction.js';
import {
  ScrapeService,
  type ScrapeOptions,
  type ScrapeParams,
  type ScrapeResult,
  type ScrapeServiceOptions,
} from './scrape-service.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import type { Storage } from '../storage/storage.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { FsArtifactStore } from '../artifacts/fs-artifact-store.js';
import { SiteRegistry } from '../sites/registry.js';
import type { Fetcher, FetchRequest, FetchedPage } from '../fetch/fetcher.js';
import { KumoError, isKumoError } from '../errors.js';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import type { Caller } from './caller.js';
import { idempotencyMaxReplays } from './idempotency.js';
import { itemPage } from '../../test/support/pages.js';
import { mercari } from '../sites/mercari/site.js';
import { PromClientMetrics } from '../metrics/prom-client-metrics.js';
import { corpusAvailable, corpusPath, repoRoot } from '../sites/corpus.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const params: ScrapeParams = { mode: 'html_json', work_type: 'auto', include_html: false, store_artifact: false };

/** A fetcher whose answer each test scripts; by default an item page at once. */
class ScriptedFetcher implements Fetcher {
  requests: FetchRequest[] = [];
  answer: (request: FetchRequest) => Promise<FetchedPage> = async () => page();
  fetch(request: FetchRequest): Promise<FetchedPage> {
    this.requests.push(request);
    return this.answer(request);
  }
  async close(): Promise<void> {}
}

/** A page a fetcher answered: by default the ikebe item URL, 200, HTML, one attempt. */
function fetched(body: Uint8Array, changes: Partial<FetchedPage> = {}): FetchedPage {
  return {
    route: 'http',
    finalUrl: url,
    httpStatus: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body,
    attempts: 1,
    elapsedMs: 3,
    ...changes,
  };
}

function page(status = 200): FetchedPage {
  return fetched(new TextEncoder().encode(itemPage()), { httpStatus: status });
}

const json = { 'content-type': 'application/json' };

/** Resolves when the signal aborts, then fails the way HttpFetcher does for a cancelled fetch. */
function untilAborted(request: FetchRequest): Promise<FetchedPage> {
  return new Promise((_, reject) => {
    request.signal?.addEventListener('abort', () =>
      reject(new KumoError('fetch_failed', 'the fetch was cancelled', { body: { attempts: 1 } })),
    );
  });
}

let dir: string;
let storage: KyselyStorage;
let fetcher: ScriptedFetcher;
let artifacts: FsArtifactStore;
let service: ScrapeService;

// The one production path: parse and extract in a worker thread.
const workers = useExtractionPool();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-scrape-service-'));
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  fetcher = new ScriptedFetcher();
  artifacts = new FsArtifactStore({ dir: join(dir, 'artifacts') });
  service = serviceWith();
});

/** The service under test over this file's storage, fetcher, artifacts and worker pool; `changes` add or replace parts. */
function serviceWith(changes: Partial<ScrapeServiceOptions> = {}): ScrapeService {
  return new ScrapeService({
    registry: new SiteRegistry(),
    fetcher,
    storage,
    limiter: new InProcessConcurrencyLimiter(),
    artifacts,
    environment: 'production',
    fetchDeadlineMs: 5_000,
    leaseBeyondFetchMs: 60_000,
    artifactRetentionMs: 3_600_000,
    extraction: workers.pool,
    ...changes,
  });
}

afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

async function seedCaller(changes: { credits?: number; concurrency?: number } = {}): Promise<Caller> {
  const createdAt = new Date().toISOString();
  const account = { id: newId('acc'), plan: 'starter' as const, overageCapCredits: 0, createdAt };
  const key = {
    id: newId('key'),
    accountId: account.id,
    displayPrefix: 'kumo_live_test',
    hash: newId('hash'),
    sites: null,
    operations: null,
    outputs: null,
    monthlyCreditLimit: changes.credits ?? null,
    concurrencyLimit: changes.concurrency ?? null,
    createdAt,
    revokedAt: null,
    expiresAt: null,
  };
  await storage.accounts.create(account);
  await storage.keys.create(key);
  return { account, key };
}

/** A caller whose account is approved for メルカリ's review (its page types are review-gated). */
async function approved(): Promise<Caller> {
  const caller = await seedCaller();
  return { ...caller, account: { ...caller.account, approvedSites: ['mercari'] } };
}

const usage = (caller: Caller) => storage.ledger.accountUsage(caller.account.id, periodOf(new Date()));

async function failure(promise: Promise<unknown>): Promise<KumoError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isKumoError(error)) throw new Error(`expected a KumoError, got ${String(error)}`);
  return error;
}

async function artifactFiles(): Promise<string[]> {
  return readdir(join(dir, 'artifacts')).catch(() => []);
}

describe('output the caller never received is not charged', () => {
  it('a result that cannot be serialized releases the reservation, removes its artifact and records the failure', async () => {
    const caller = await seedCaller();
    const requestId = newId('req');
    const options: ScrapeOptions = {
      deliver: (result: ScrapeResult) => {
        JSON.stringify({ ...result, data: { big: 1n } });
      },
    };
    await expect(service.scrape(caller, url, { ...params, store_artifact: true }, requestId, options)).rejects.toThrow(
      TypeError,
    );
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
    expect(await artifactFiles()).toEqual([]);
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({
      status: 'failed',
      errorCode: 'internal',
      httpStatus: null,
      costUnits: 0,
      artifactId: expect.stringMatching(/^art_/),
    });
  });

  it('a caller who leaves mid-fetch aborts the fetch and is charged nothing; the slot comes back', async () => {
    const caller = await seedCaller({ concurrency: 1 });
    const gone = new AbortController();
    fetcher.answer = (request) => {
      setTimeout(() => gone.abort(), 10);
      return untilAborted(request);
    };
    const requestId = newId('req');
    await expect(service.scrape(caller, url, params, requestId, { signal: gone.signal })).rejects.toThrow();
    expect(fetcher.requests[0]!.signal).toBe(gone.signal);
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({
      status: 'cancelled',
      errorCode: null,
      httpStatus: null,
      costUnits: 0,
    });
    // The concurrency slot of the departed call is free again (concurrency 1).
    fetcher.answer = async () => page();
    expect((await service.scrape(caller, url, params)).cost_units).toBe(1);
  });

  it('a caller who leaves after the fetch, before the answer, is charged nothing', async () => {
    const caller = await seedCaller();
    const gone = new AbortController();
    fetcher.answer = async () => {
      gone.abort(); // The page arrived, but the client is already gone.
      return page();
    };
    await expect(
      service.scrape(caller, url, { ...params, store_artifact: true }, newId('req'), { signal: gone.signal }),
    ).rejects.toThrow();
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
    expect(await artifactFiles()).toEqual([]);
  });

  it('a commit that finds its reservation gone serves nothing, keeps no artifact, and answers 503 to retry', async () => {
    const caller = await seedCaller();
    fetcher.answer = async () => {
      // A sweeper that took the reservation back while the call ran (its hold ran out, or a peer's liveness sweep
      // freed it during an outage).
      await storage.ledger.releaseExpired(new Date(Date.now() + 86_400_000).toISOString());
      return page();
    };
    const requestId = newId('req');
    const error = await failure(service.scrape(caller, url, { ...params, store_artifact: true }, requestId));
    // The outage is the cause, not a bug: unavailable with Retry-After, and the same call can simply be retried.
    expect(error.code).toBe('unavailable');
    expect(error.extras.retryAfterSeconds).toBeGreaterThan(0);
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
    expect(await artifactFiles()).toEqual([]);
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({ status: 'failed', costUnits: 0 });
  });

  /** This file's storage, except that a charging settlement runs (or not) and then says its outcome is unknown. */
  function commitAnswerLost(landed: boolean): Storage {
    const lossy = Object.create(storage) as Storage;
    lossy.settle = async (request) => {
      if (typeof request.ledger !== 'object') return storage.settle(request);
      if (landed) await storage.settle(request);
      return 'unknown';
    };
    return lossy;
  }

  it('a charge whose COMMIT answer is lost for good, though it landed: 200 served, charged once, the artifact kept', async () => {
    const caller = await seedCaller();
    const requestId = newId('req');
    const lossy = serviceWith({ storage: commitAnswerLost(true) });
    const result = await lossy.scrape(caller, url, { ...params, store_artifact: true }, requestId);
    // Served: a charge that may stand never comes with its answer withheld (DESIGN §2).
    expect(result).toMatchObject({ request_id: requestId, cost_units: 2 });
    expect(result.data).not.toBeNull();
    // Nothing released it: the charge (2: an artifact) stands once, with its row and its artifact.
    expect(await usage(caller)).toEqual({ used: 2, reserved: 0 });
    expect(await storage.ledger.entries(caller.account.id)).toMatchObject([{ requestId, credits: 2 }]);
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({
      status: 'completed',
      costUnits: 2,
    });
    expect(await artifactFiles()).toHaveLength(1);
  });

  it('a charge whose COMMIT answer is lost and which did not land: 200 served, its hold left to the storage', async () => {
    const caller = await seedCaller();
    const requestId = newId('req');
    const lossy = serviceWith({ storage: commitAnswerLost(false) });
    const result = await lossy.scrape(caller, url, { ...params, store_artifact: true }, requestId);
    expect(result).toMatchObject({ request_id: requestId, cost_units: 2 });
    // Not released as if the call had failed (no `failed` row beside a charge that may yet land): the storage
    // settles the same commit again, and the sweep frees the hold if it never lands.
    expect(await usage(caller)).toEqual({ used: 0, reserved: 2 });
    expect(await storage.requests.get(requestId, caller.account.id)).toBeNull();
    expect(await artifactFiles()).toHaveLength(1);
  });

  it('a charged call has its row and its artifact; the row carries the target status', async () => {
    const caller = await seedCaller();
    const requestId = newId('req');
    const result = await service.scrape(caller, url, { ...params, store_artifact: true }, requestId);
    expect(result.cost_units).toBe(2);
    expect(await usage(caller)).toEqual({ used: 2, reserved: 0 });
    expect(await artifacts.get(result.artifact!.id, caller.account.id)).not.toBeNull();
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({
      status: 'completed',
      httpStatus: 200,
      costUnits: 2,
      artifactId: result.artifact!.id,
    });
  });

  it('an error row records http_status null, never 0', async () => {
    const caller = await seedCaller();
    fetcher.answer = async () => {
      throw new KumoError('fetch_failed', 'refused', { body: { attempts: 3 } });
    };
    const requestId = newId('req');
    await failure(service.scrape(caller, url, params, requestId));
    expect(await storage.requests.get(requestId, caller.account.id)).toMatchObject({
      status: 'failed',
      errorCode: 'fetch_failed',
      httpStatus: null,
      attempts: 3,
    });
    const refused = newId('req');
    await failure(service.scrape(caller, 'https://shop.example.net/x', params, refused));
    expect((await storage.requests.get(refused, caller.account.id))?.httpStatus).toBeNull();
  });
});

describe('credits held by calls in flight are not an exhaustion', () => {
  it('answers concurrency_limited while the last credit is only reserved, credits_exhausted once it is spent', async () => {
    const caller = await seedCaller({ credits: 3, concurrency: 2 });
    for (let i = 0; i < 2; i++) await service.scrape(caller, url, params);
    let finish!: () => void;
    fetcher.answer = () => new Promise((resolve) => (finish = () => resolve(page())));
    const first = service.scrape(caller, url, params);
    while (fetcher.requests.length < 3) await new Promise((r) => setTimeout(r, 5));

    const held = await failure(service.scrape(caller, url, params));
    expect(held.code).toBe('concurrency_limited');
    expect(held.extras.retryAfterSeconds).toBe(1);
    // The refused call took the second slot first, and gave it back.
    expect(await usage(caller)).toEqual({ used: 2, reserved: 1 });

    finish();
    expect((await first).cost_units).toBe(1);
    const spent = await failure(service.scrape(caller, url, params));
    expect(spent.code).toBe('credits_exhausted');
    expect(spent.extras.retryAfterSeconds).toBeGreaterThan(60);
    expect(await usage(caller)).toEqual({ used: 3, reserved: 0 });
  });

  it('a call refused for concurrency never reserves credits', async () => {
    const caller = await seedCaller({ credits: 3, concurrency: 1 });
    let finish!: () => void;
    fetcher.answer = () => new Promise((resolve) => (finish = () => resolve(page())));
    const first = service.scrape(caller, url, params);
    while (fetcher.requests.length < 1) await new Promise((r) => setTimeout(r, 5));
    const refused = await Promise.all(Array.from({ length: 10 }, () => failure(service.scrape(caller, url, params))));
    expect(refused.map((e) => e.code)).toEqual(Array(10).fill('concurrency_limited'));
    expect(await usage(caller)).toEqual({ used: 0, reserved: 1 });
    finish();
    await first;
    expect(await usage(caller)).toEqual({ used: 1, reserved: 0 });
  });
});

describe('Idempotency-Key', () => {
  const hash = 'f'.repeat(64);

  it('a retry after a completed call runs again, is charged 0 and says it was replayed', async () => {
    const caller = await seedCaller();
    const replays: boolean[] = [];
    const options: ScrapeOptions = {
      idempotency: { key: 'order-1', bodyHash: hash },
      deliver: (_result, meta) => void replays.push(meta.replayed),
    };
    expect((await service.scrape(caller, url, params, newId('req'), options)).cost_units).toBe(1);
    const retryId = newId('req');
    expect((await service.scrape(caller, url, params, retryId, options)).cost_units).toBe(0);
    expect(replays).toEqual([false, true]);
    expect(fetcher.requests).toHaveLength(2);
    expect(await usage(caller)).toEqual({ used: 1, reserved: 0 });
    expect(await storage.requests.get(retryId, caller.account.id)).toMatchObject({
      status: 'completed',
      costUnits: 0,
    });
  });

  it('a completed key is replayed free at most idempotencyMaxReplays times; the next is refused, unrun and free', async () => {
    const caller = await seedCaller({ credits: 1 });
    const options: ScrapeOptions = { idempotency: { key: 'order-cap', bodyHash: hash } };
    const first = await service.scrape(caller, url, params, newId('req'), options);
    expect(first.cost_units).toBe(1);
    // The account is now exhausted; the replays are still free, and still run.
    for (let i = 0; i < idempotencyMaxReplays; i++) {
      expect((await service.scrape(caller, url, params, newId('req'), options)).cost_units).toBe(0);
    }
    expect(fetcher.requests).toHaveLength(1 + idempotencyMaxReplays);
    for (let i = 0; i < 3; i++) {
      const refusedId = newId('req');
      const spent = await failure(service.scrape(caller, url, params, refusedId, options));
      expect(spent.code).toBe('idempotency_key_spent');
      expect(spent.extras.body).toEqual({ original_request_id: first.request_id });
      expect(await storage.requests.get(refusedId, caller.account.id)).toMatchObject({
        status: 'failed',
        errorCode: 'idempotency_key_spent',
        costUnits: 0,
      });
    }
    expect(fetcher.requests).toHaveLength(1 + idempotencyMaxReplays);
    expect(await usage(caller)).toEqual({ used: 1, reserved: 0 });
  });

  it('a call whose key a retry took over after its hold is not charged; the caller gets 503 and the retry is', async () => {
    const caller = await seedCaller();
    const options: ScrapeOptions = { idempotency: { key: 'order-slow', bodyHash: hash } };
    const takerId = newId('req');
    fetcher.answer = async () => {
      // While this call runs, a retry arrives after its hold and takes the key over.
      const later = Date.now() + 10 * 60_000;
      expect(
        await storage.idempotency.claim({
          accountId: caller.account.id,
          key: 'order-slow',
          bodyHash: hash,
          requestId: takerId,
          now: new Date(later).toISOString(),
          heldUntil: new Date(later + 60_000).toISOString(),
          expiresAt: new Date(later + 86_400_000).toISOString(),
          maxReplays: idempotencyMaxReplays,
        }),
      ).toEqual({ outcome: 'claimed' });
      return page();
    };
    const slowId = newId('req');
    const error = await failure(service.scrape(caller, url, params, slowId, options));
    expect(error.code).toBe('unavailable');
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
    expect(await storage.requests.get(slowId, caller.account.id)).toMatchObject({ status: 'failed', costUnits: 0 });
    expect(await storage.idempotency.get(caller.account.id, 'order-slow')).toMatchObject({
      requestId: takerId,
      state: 'in_progress',
    });
  });

  it('a failed first call leaves the key reusable, and charges the retry that completes', async () => {
    const caller = await seedCaller();
    const options: ScrapeOptions = { idempotency: { key: 'order-2', bodyHash: hash } };
    fetcher.answer = async () => {
      throw new KumoError('fetch_failed', 'refused', { body: { attempts: 1 } });
    };
    await failure(service.scrape(caller, url, params, newId('req'), options));
    expect(await storage.idempotency.get(caller.account.id, 'order-2')).toBeNull();
    fetcher.answer = async () => page();
    expect((await service.scrape(caller, url, params, newId('req'), options)).cost_units).toBe(1);
    expect(await usage(caller)).toEqual({ used: 1, reserved: 0 });
  });

  it('a call refused before its fetch (credits, concurrency, a bad URL) frees the key too', async () => {
    const caller = await seedCaller({ credits: 0 });
    const options: ScrapeOptions = { idempotency: { key: 'order-3', bodyHash: hash } };
    expect((await failure(service.scrape(caller, url, params, newId('req'), options))).code).toBe('credits_exhausted');
    expect(await storage.idempotency.get(caller.account.id, 'order-3')).toBeNull();
  });

  it('another body is a conflict; the same body while in flight is in progress', async () => {
    const caller = await seedCaller();
    let finish!: () => void;
    fetcher.answer = () => new Promise((resolve) => (finish = () => resolve(page())));
    const options: ScrapeOptions = { idempotency: { key: 'order-4', bodyHash: hash } };
    const first = service.scrape(caller, url, params, newId('req'), options);
    while (fetcher.requests.length < 1) await new Promise((r) => setTimeout(r, 5));
    const again = await failure(service.scrape(caller, url, params, newId('req'), options));
    expect(again.code).toBe('idempotency_key_in_use');
    const other = await failure(
      service.scrape(caller, url, params, newId('req'), { idempotency: { key: 'order-4', bodyHash: '0'.repeat(64) } }),
    );
    expect(other.code).toBe('idempotency_conflict');
    finish();
    await first;
    expect(await usage(caller)).toEqual({ used: 1, reserved: 0 });
  });
});

describe('the api route (a page URL served through the API its web app calls)', () => {
  const pageUrl = 'https://jp.mercari.com/item/m90000000001';
  // The request the site's web app makes for a page: the mapping under test is the site's own.
  const apiOf = (page: string) => mercari.pageTypes[0]!.api!.request(new URL(page)).url.href;
  const apiUrl = apiOf(pageUrl);
  const body = readFileSync(new URL('../sites/mercari/fixtures/modelled-new-buyer-pays.json', import.meta.url));
  const answerWith = (finalUrl: string) => async (): Promise<FetchedPage> =>
    fetched(new Uint8Array(body), { finalUrl, headers: json });

  it('fetches the API request on the API’s hosts only, with the web app’s headers, and says route api', async () => {
    const caller = await approved();
    // The fixture is another item: the extractor refuses an answer for an item the URL does not name.
    const fixtureId = JSON.parse(body.toString('utf8')).data.id as string;
    const url = `https://jp.mercari.com/item/${fixtureId}`;
    fetcher.answer = answerWith(apiOf(url));
    const result = await service.scrape(caller, url, params);
    const request = fetcher.requests.at(-1)!;
    expect(request.url.href).toBe(apiOf(url));
    expect(request.url.hostname).toBe('api.mercari.jp');
    expect(request.url.searchParams.get('id')).toBe(fixtureId);
    expect(request.target.allowedHosts).toEqual(['api.mercari.jp']);
    expect(Object.keys(request.headers?.(request.url) ?? {}).map((h) => h.toLowerCase())).toEqual(
      expect.arrayContaining(['x-platform', 'dpop']),
    );
    expect(result.fetch_summary.route).toBe('api');
    expect(result.cost_units).toBe(1);
    expect((await usage(caller)).used).toBe(1);
  });

  it('refuses an API that redirected elsewhere, free', async () => {
    const caller = await approved();
    fetcher.answer = answerWith(apiOf('https://jp.mercari.com/item/m1'));
    const error = await failure(service.scrape(caller, pageUrl, params));
    expect(error.code).toBe('page_not_supported');
    expect(fetcher.requests.at(-1)!.url.href).toBe(apiUrl);
    expect((await usage(caller)).used).toBe(0);
  });

  it('is refused before any fetch to an account not approved for the site’s review', async () => {
    const caller = await seedCaller();
    const error = await failure(service.scrape(caller, pageUrl, params));
    expect(error.code).toBe('key_scope_denied');
    expect(error.message).toContain('review');
    expect(fetcher.requests).toEqual([]);
  });
});

describe('the browser route (render_js)', () => {
  const itemUrl = 'https://jp.mercari.com/item/m55501234567';
  const rendered = readFileSync(new URL('../sites/mercari/fixtures/modelled-rendered-on-sale.html', import.meta.url));
  const renderedPage = async (request: FetchRequest): Promise<FetchedPage> =>
    fetched(new Uint8Array(rendered), { route: 'browser', finalUrl: request.url.href, elapsedMs: 40 });
  const withBrowser = (browser: Fetcher | null, down: string | null = null) =>
    serviceWith({ browser, browserDown: () => down });

  it('renders the page in the browser on the site’s own hosts, reads it with the rendering’s extractor, and charges 2', async () => {
    const caller = await approved();
    const browser = new ScriptedFetcher();
    browser.answer = renderedPage;
    const result = await withBrowser(browser).scrape(caller, itemUrl, { ...params, render_js: true });
    const request = browser.requests.at(-1)!;
    expect(request.url.href).toBe(itemUrl);
    expect(request.target.allowedHosts).toEqual(['jp.mercari.com']);
    expect(request.render?.subresourceHosts).toContain('api.mercari.jp');
    expect(request.render?.readySelector).toBe('[data-testid="price"]');
    expect(fetcher.requests).toEqual([]);
    expect(result.fetch_summary.route).toBe('browser');
    expect(result.extractor).toMatchObject({ id: 'mercari/item_rendered', coverage: 'beta' });
    expect(result.data).toMatchObject({ title: 'Nintendo Switch 有機ELモデル ホワイト 美品', price: 32800 });
    expect(result.cost_units).toBe(2);
    expect(await usage(caller)).toEqual({ used: 2, reserved: 0 });
  });

  it('keeps the default route without render_js (the API, 1 credit), whatever browser is there', async () => {
    const caller = await approved();
    const browser = new ScriptedFetcher();
    const answer = readFileSync(new URL('../sites/mercari/fixtures/modelled-new-buyer-pays.json', import.meta.url));
    fetcher.answer = async (request) => fetched(new Uint8Array(answer), { finalUrl: request.url.href, headers: json });
    const result = await withBrowser(browser).scrape(caller, 'https://jp.mercari.com/item/m40582716093', params);
    expect(browser.requests).toEqual([]);
    expect(fetcher.requests.at(-1)!.url.hostname).toBe('api.mercari.jp');
    expect(result.fetch_summary.route).toBe('api');
    expect(result.extractor.id).toBe('mercari/item');
    expect(result.cost_units).toBe(1);
  });

  it('answers render_js on a page type without a browser route with 422 page_not_supported, before any fetch', async () => {
    const caller = await seedCaller();
    const error = await failure(withBrowser(new ScriptedFetcher()).scrape(caller, url, { ...params, render_js: true }));
    expect(error.code).toBe('page_not_supported');
    expect(error.message).toContain('no browser route');
    expect(fetcher.requests).toEqual([]);
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
  });

  it('answers 503 unavailable with Retry-After when there is no browser, holding nothing', async () => {
    const caller = await approved();
    for (const service of [withBrowser(null), withBrowser(new ScriptedFetcher(), 'Chromium could not be started')]) {
      const error = await failure(service.scrape(caller, itemUrl, { ...params, render_js: true }));
      expect(error.code).toBe('unavailable');
      expect(error.extras.retryAfterSeconds).toBeGreaterThan(0);
    }
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
  });

  it('charges nothing when the render runs out of time', async () => {
    const caller = await approved();
    const browser = new ScriptedFetcher();
    browser.answer = () =>
      Promise.reject(new KumoError('fetch_timeout', 'the page did not finish rendering', { body: { attempts: 1 } }));
    const error = await failure(withBrowser(browser).scrape(caller, itemUrl, { ...params, render_js: true }));
    expect(error.code).toBe('fetch_timeout');
    expect(error.extras.body).toMatchObject({ fetch_summary: { status: 'timed_out', route: 'browser' } });
    expect(await usage(caller)).toEqual({ used: 0, reserved: 0 });
  });
});

describe('the extraction workers shared between accounts', () => {
  it("serves another account's page before the pages one account queued earlier", async () => {
    // One worker, held by A's first page until the test lets it go (test/support/gated-extraction-worker.ts).
    const g = gatedExtractionPool({ size: 1 });
    const other = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750593';
    const holds: number[] = [];
    fetcher.answer = async (request) => {
      if (request.url.href === other) return fetched(new TextEncoder().encode(itemPage()), { finalUrl: other });
      const n = g.nextHold();
      holds.push(n);
      return fetched(new TextEncoder().encode(itemPage()), { finalUrl: `${url}#hold-${n}` });
    };
    const shared = serviceWith({ extraction: g.pool });
    try {
      await g.ready();
      const [a, b] = [await seedCaller(), await seedCaller()];
      const aCalls = [1, 2, 3].map(() => shared.scrape(a, url, params).then((r) => r.data?.price));
      await until(() => holds.length === 3 && g.pool.waiting === 2, "A's pages running and waiting");
      const bCall = shared.scrape(b, other, params).then((r) => r.data?.price);
      await until(() => g.pool.waiting === 3 && holds.some((n) => g.state(n) === 1), "B's page waiting");
      const running = holds.find((n) => g.state(n) === 1)!;
      g.release(running);
      // B's turn comes before A's second page: served at all, since that page would hold the one worker until let go.
      expect(await settled(bCall)).toBe(2200);
      expect(holds.filter((n) => g.state(n) === 0).length).toBeGreaterThanOrEqual(1);
      for (const n of holds) g.release(n);
      expect(await Promise.all(aCalls)).toEqual([2200, 2200, 2200]);
    } finally {
      await g.pool.close();
    }
  });
});

describe('wrong-value telemetry: structured sources that disagree are counted by site and field', () => {
  // Copied out of Buffer's shared pool: the body is transferred to the worker.
  const fixturePage = (site: string, file: string) =>
    new Uint8Array(readFileSync(join(repoRoot, 'src/sites', site, 'fixtures', file)));
  const disagreementLines = async (metrics: PromClientMetrics) =>
    (await metrics.exposition()).body
      .split('\n')
      .filter((l) => l.startsWith('kumo_extract_source_disagreements_total{'));

  async function scrapeWithMetrics(pageUrl: string, body: Uint8Array): Promise<PromClientMetrics> {
    const metrics = new PromClientMetrics();
    fetcher.answer = async () => fetched(body, { finalUrl: pageUrl });
    await serviceWith({ metrics }).scrape(await seedCaller(), pageUrl, params);
    return metrics;
  }

  it('a page whose JSON-LD price is not the displayed 税込 price counts once for its site and price (modelled)', async () => {
    // JSON-LD 3000 (税抜) beside the displayed 消費税込 ¥3,300: the displayed price is served, the disagreement counted.
    const metrics = await scrapeWithMetrics(
      'https://www.ikebe-gakki.com/c/c-/gt/gt20/gt200001/400001',
      fixturePage('ikebe-gakki', 'modelled-price-disagreement.html'),
    );
    expect(await disagreementLines(metrics)).toEqual([
      'kumo_extract_source_disagreements_total{site="ikebe_gakki",field="price"} 1',
    ]);
  });

  it.skipIf(!corpusAvailable())(
    '駿河屋 time sale (real page, read in place): JSON-LD 3750 vs the shown 2800 counts for surugaya/price',
    async () => {
      const metrics = await scrapeWithMetrics(
        'https://www.suruga-ya.jp/product/detail/128049960',
        new Uint8Array(readFileSync(corpusPath('surugaya/surugaya_detail_timesale.html'))),
      );
      expect(await disagreementLines(metrics)).toEqual([
        'kumo_extract_source_disagreements_total{site="surugaya",field="price"} 1',
      ]);
    },
  );

  it('a page whose JSON-LD agrees with what it shows counts nothing', async () => {
    const metrics = await scrapeWithMetrics(
      'https://www.biccamera.com/bc/item/10334485/',
      fixturePage('biccamera', 'modelled-json-ld-in-stock.html'),
    );
    expect(await disagreementLines(metrics)).toEqual([]);
  });
});
