// POST /v1/scrape in-process over the real ScrapeService and SQLite: serialization failures cost nothing,
// Idempotency-Key is validated and replays are marked, and the body sent is what the route schema shapes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useExtractionPool } from '../../../test/support/extraction.js';
import { buildApp, type AppServices, type KumoApp } from '../app.js';
import { ScrapeService, type ScrapeResult } from '../../scrape/scrape-service.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../../storage/kysely/kysely-storage.js';
import { InProcessConcurrencyLimiter } from '../../limits/in-process-concurrency-limiter.js';
import { FsArtifactStore } from '../../artifacts/fs-artifact-store.js';
import { SiteRegistry } from '../../sites/registry.js';
import { UsageReporter } from '../../accounts/usage-report.js';
import type { Fetcher } from '../../fetch/fetcher.js';
import type { Caller } from '../../scrape/caller.js';
import { newId } from '../../accounts/ids.js';
import { periodOf } from '../../accounts/period.js';
import { itemPage } from '../../../test/support/pages.js';
import { publishedValidator } from '../../../test/support/openapi.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const secret = 'good-key-0123456789';

/** What the stand-in target answers; 200 unless a test says otherwise. */
let targetStatus = 200;
const fetcher: Fetcher = {
  fetch: async () => ({
    route: 'http',
    finalUrl: url,
    httpStatus: targetStatus,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: new TextEncoder().encode(itemPage()),
    attempts: 1,
    elapsedMs: 2,
  }),
  close: async () => undefined,
};

let dir: string;
let storage: KyselyStorage;
let caller: Caller;
let real: ScrapeService;
let app: KumoApp;
let services: AppServices;
/** The order of backend work around a call: each usage report (ledger + limiter) and each settlement. */
let events: string[];
/** Counts usage reports, so that a test can see which of them ran after the charge was committed. */
class SpyUsageReporter extends UsageReporter {
  override report(c: Caller) {
    events.push('usage report');
    return super.report(c);
  }
}
/** The instant every usage report of the test is made at. */
let reportedAt: Date;
/** Changes the finished result before the route serializes it: how a test plants output that cannot be sent. */
let corrupt: ((result: ScrapeResult) => ScrapeResult) | null;

// The one production path: parse and extract in a worker thread.
const workers = useExtractionPool();

beforeEach(async () => {
  reportedAt = new Date();
  dir = await mkdtemp(join(tmpdir(), 'kumo-scrape-route-'));
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  const createdAt = new Date().toISOString();
  caller = {
    account: { id: newId('acc'), plan: 'starter', overageCapCredits: 0, createdAt },
    key: {
      id: newId('key'),
      accountId: '',
      displayPrefix: 'kumo_live_test',
      hash: newId('hash'),
      sites: null,
      operations: null,
      outputs: null,
      monthlyCreditLimit: null,
      concurrencyLimit: null,
      createdAt,
      revokedAt: null,
      expiresAt: null,
    },
  };
  caller.key.accountId = caller.account.id;
  events = [];
  const settle = storage.settle.bind(storage);
  storage.settle = async (request) => {
    const settled = await settle(request);
    events.push(request.ledger === 'none' || request.ledger === 'release' ? `settle ${request.ledger}` : 'commit');
    return settled;
  };
  await storage.accounts.create(caller.account);
  await storage.keys.create(caller.key);
  const limiter = new InProcessConcurrencyLimiter();
  real = new ScrapeService({
    registry: new SiteRegistry(),
    fetcher,
    storage,
    limiter,
    artifacts: new FsArtifactStore({ dir: join(dir, 'artifacts') }),
    environment: 'production',
    fetchDeadlineMs: 5_000,
    leaseBeyondFetchMs: 60_000,
    artifactRetentionMs: 3_600_000,
    extraction: workers.pool,
  });
  corrupt = null;
  targetStatus = 200;
  const scrape = {
    scrape: (...args: Parameters<ScrapeService['scrape']>) => {
      const [c, u, p, id, options = {}] = args;
      return real.scrape(c, u, p, id, {
        ...options,
        deliver: (result, meta) => options.deliver?.(corrupt ? corrupt(result) : result, meta),
      });
    },
  };
  services = {
    scrape,
    accounts: { authenticate: async (key: string) => (key === secret ? caller : null) },
    // One instant for every report in a test: the headers' `t=` counts whole seconds to the reset, so a call and the
    // GET /v1/usage after it would otherwise disagree whenever a second boundary falls between them.
    usage: new SpyUsageReporter({ ledger: storage.ledger, limiter, clock: () => reportedAt }),
    health: async () => undefined,
  } as unknown as AppServices;
  app = await buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
});

afterEach(async () => {
  await app.close();
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

function post(body: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/scrape',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}

const usage = () => storage.ledger.accountUsage(caller.account.id, periodOf(new Date()));

describe('a supported site asked under another spelling of its host', () => {
  it('is still 422 site_not_supported (the URL is not rewritten), and the detail names the supported host', async () => {
    const res = await post({ url: url.replace('www.ikebe-gakki.com', 'ikebe-gakki.com') });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'site_not_supported',
      detail: 'ikebe-gakki.com is not a supported site; did you mean www.ikebe-gakki.com?',
      supported_hosts: ['www.ikebe-gakki.com'],
    });
    expect((await usage()).used).toBe(0);
    const unrelated = await post({ url: 'https://shop.example.net/item/1' });
    expect(unrelated.json()).toMatchObject({
      code: 'site_not_supported',
      detail: 'shop.example.net is not a supported site',
    });
    expect(unrelated.json()).not.toHaveProperty('supported_hosts');
  });

  it('the URL policy answers first: a near host on another port or as userinfo is invalid_url, with no hint', async () => {
    for (const bad of ['https://ikebe-gakki.com:8443/c/1', 'https://user:pw@ikebe-gakki.com/c/1']) {
      const res = await post({ url: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code, bad).toBe('invalid_url');
      expect(res.json().detail, bad).not.toContain('did you mean');
    }
  });
});

describe('a response that cannot be serialized', () => {
  const poisons: [string, (r: ScrapeResult) => ScrapeResult][] = [
    ['a BigInt in data', (r) => ({ ...r, data: { ...r.data, price: 10n } })],
    [
      'circular data',
      (r) => {
        const data: Record<string, unknown> = { ...r.data };
        data.self = data;
        return { ...r, data };
      },
    ],
    ['a BigInt in a nested list', (r) => ({ ...r, data: { items: [{ n: [1n] }] } })],
  ];

  for (const [name, poison] of poisons) {
    it(`${name}: 500 internal, nothing charged, nothing reserved, the row says failed`, async () => {
      corrupt = poison;
      const res = await post({ url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 'internal' });
      expect(await usage()).toEqual({ used: 0, reserved: 0 });
      const row = await storage.requests.get(res.json<{ request_id: string }>().request_id, caller.account.id);
      expect(row).toMatchObject({ status: 'failed', errorCode: 'internal', costUnits: 0, httpStatus: null });
    });
  }

  it('a result that serializes is charged once and sent as the route schema shapes it', async () => {
    corrupt = (r) => ({ ...r, not_in_schema: 'dropped' }) as ScrapeResult;
    const res = await post({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ cost_units: 1, resolved_site: 'ikebe_gakki' });
    expect(body).not.toHaveProperty('not_in_schema');
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await usage()).toEqual({ used: 1, reserved: 0 });
  });
});

describe('Idempotency-Key over HTTP', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'abc\tdef'],
    ['non-ASCII', 'キー'],
  ])('refuses a key that is %s with 400 invalid_request, before anything is reserved', async (_name, key) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/scrape',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        'idempotency-key': Buffer.from(key, 'utf8').toString('latin1'),
      },
      payload: JSON.stringify({ url }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', field: 'idempotency-key' });
    expect(await usage()).toEqual({ used: 0, reserved: 0 });
  });

  it('accepts 255 printable characters; the retry is charged 0 with Idempotent-Replayed: true', async () => {
    const key = ' !~'.repeat(85);
    const first = await post({ url }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ cost_units: 1 });
    // The same request with its keys in another order and the defaults spelled out is the same body.
    const retry = await post(
      { params: { store_artifact: false, mode: 'html_json', include_html: false, work_type: 'auto' }, url },
      { 'idempotency-key': key },
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ cost_units: 0 });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await usage()).toEqual({ used: 1, reserved: 0 });

    const other = await post({ url, params: { include_html: true } }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'idempotency_conflict' });
    expect(await usage()).toEqual({ used: 1, reserved: 0 });
  });
});

describe('limit headers of a charged call', () => {
  const limitHeaderNames = [
    'x-credits-limit',
    'x-credits-remaining',
    'x-concurrency-limit',
    'x-concurrency-remaining',
    'ratelimit-policy',
    'ratelimit',
  ];
  const limitHeadersOf = (res: { headers: Record<string, unknown> }) =>
    Object.fromEntries(limitHeaderNames.map((name) => [name, res.headers[name]]));
  const getUsage = () =>
    app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${secret}` } });

  it.each([
    ['a first call', {}],
    ['a call with an artifact (cost 2)', { params: { store_artifact: true } }],
  ])('%s: agree with GET /v1/usage right after, and nothing reads a backend after the commit', async (_n, extra) => {
    const before = await getUsage();
    events = [];
    const res = await post({ url, ...extra });
    expect(res.statusCode).toBe(200);
    const cost = res.json<{ cost_units: number }>().cost_units;
    // The charge is committed, and no usage report (ledger or limiter) waits between it and the answer.
    expect(events.at(-1)).toBe('commit');
    expect(events).toContain('usage report');
    const after = await getUsage();
    expect(limitHeadersOf(res)).toEqual(limitHeadersOf(after));
    expect(Number(res.headers['x-credits-remaining'])).toBe(
      after.json<{ credits: { remaining: number } }>().credits.remaining,
    );
    expect(Number(res.headers['x-credits-remaining'])).toBe(Number(before.headers['x-credits-remaining']) - cost);
    // The call's own slot is given back before the answer: counted free, as GET /v1/usage counts it afterwards.
    expect(res.headers['x-concurrency-remaining']).toBe(res.headers['x-concurrency-limit']);
  });

  it('a replay (charged 0) agrees with GET /v1/usage and reads nothing after its settlement either', async () => {
    await post({ url }, { 'idempotency-key': 'replay-headers' });
    events = [];
    const retry = await post({ url }, { 'idempotency-key': 'replay-headers' });
    expect(retry.json()).toMatchObject({ cost_units: 0 });
    expect(events.at(-1)).toBe('settle none');
    expect(limitHeadersOf(retry)).toEqual(limitHeadersOf(await getUsage()));
  });

  it('a call that is not charged (404 at the target) still gets its headers, computed after its release', async () => {
    targetStatus = 404;
    const res = await post({ url });
    expect(res.json()).toMatchObject({ cost_units: 0, fetch_summary: { status: 'not_found' } });
    expect(events.at(-1)).toBe('usage report');
    expect(res.headers['x-credits-remaining']).toBeDefined();
    expect(limitHeadersOf(res)).toEqual(limitHeadersOf(await getUsage()));
  });
});

describe('the published answer (decision 0028)', () => {
  // The route serializes with its own loose schema; the document publishes a union by page_type. Real answers of
  // each kind (data, html-only, a target 404) must validate against the union, or the document would lie to clients.
  it('validates real answers against ScrapeResult of /openapi.json, each matching its page type only', async () => {
    const doc = (await app.inject('/openapi.json')).json<{ components: { schemas: Record<string, unknown> } }>();
    const validate = publishedValidator(doc, 'ScrapeResult');
    const item = await post({ url, params: { include_html: true } });
    const htmlOnly = await post({ url, params: { mode: 'html' } });
    targetStatus = 404;
    const gone = await post({ url });
    for (const res of [item, htmlOnly, gone]) {
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body.page_type).toBe('item');
      // A union that any object satisfied would prove nothing: the same body as another page type must fail.
      expect(validate({ ...body, page_type: 'table' })).toBe(body.data === null);
    }
    expect(item.json().data.price).toBe(2200);
    expect(htmlOnly.json().data).toBeNull();
    expect(gone.json()).toMatchObject({ data: null, fetch_summary: { status: 'not_found' } });
    expect(validate({ ...item.json(), fetch_summary: { ...item.json().fetch_summary, status: 'failed' } })).toBe(false);
  });
});

describe('the access log line of a call', () => {
  /** The app over the same services, logging to memory; the lines as JSON. */
  async function logged(): Promise<{ app: KumoApp; lines: () => Record<string, unknown>[] }> {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    const withLog = await buildApp(services, { logger: pino({ level: 'info' }, sink), bodyLimitBytes: 16_384 });
    const lines = () =>
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request completed');
    return { app: withLog, lines };
  }
  const call = (on: KumoApp, target: string, headers: Record<string, string> = {}) =>
    on.inject({
      method: 'POST',
      url: '/v1/scrape',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ url: target }),
    });

  it('names the site and page type, and the error code of a failure; never the URL', async () => {
    const { app: withLog, lines } = await logged();
    try {
      expect((await call(withLog, url)).statusCode).toBe(200);
      // A result that cannot be sent: a failure after the site and page type were known.
      corrupt = (r) => ({ ...r, data: { items: [{ n: [1n] }] } });
      const failed = await call(withLog, url);
      expect(failed.statusCode).toBe(500);
      corrupt = null;
      const unsupported = await call(withLog, 'https://shop.example.com/item/1');
      expect(unsupported.statusCode).toBe(422);
      const [ok, broken, refused] = lines();
      expect(ok).toMatchObject({ status: 200, site: 'ikebe_gakki', page_type: 'item', route: '/v1/scrape' });
      expect(ok).not.toHaveProperty('error_code');
      expect(broken).toMatchObject({ site: 'ikebe_gakki', page_type: 'item', error_code: failed.json().code });
      expect(refused).toMatchObject({ status: 422, error_code: 'site_not_supported' });
      expect(refused).not.toHaveProperty('site');
      for (const line of lines()) expect(JSON.stringify(line)).not.toContain('kb011427');
    } finally {
      await withLog.close();
    }
  });

  it("keeps a caller's sane X-Request-Id beside Kumo's own, and echoes it; anything else is ignored", async () => {
    const { app: withLog, lines } = await logged();
    try {
      const traced = await call(withLog, url, { 'x-request-id': 'trace-4bf92f3577b34da6' });
      expect(traced.headers['x-request-id']).toBe('trace-4bf92f3577b34da6');
      expect(traced.headers['request-id']).toMatch(/^req_/);
      expect(traced.json().request_id).toBe(traced.headers['request-id']);
      for (const hostile of ['x'.repeat(129), 'two words', 'tab\there', '']) {
        const answer = await call(withLog, url, { 'x-request-id': hostile });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['x-request-id']).toBeUndefined();
      }
      const [first, ...rest] = lines();
      expect(first).toMatchObject({ caller_request_id: 'trace-4bf92f3577b34da6' });
      expect(first!.request_id).toBe(traced.headers['request-id']);
      for (const line of rest) expect(line).not.toHaveProperty('caller_request_id');
    } finally {
      await withLog.close();
    }
  });
});
