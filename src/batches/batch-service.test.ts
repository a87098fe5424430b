// BatchService against small in-memory fakes of its ports (the real stores are exercised by the route tests): per-item
// validation through the call's own checks, redaction, sealing, plan limits, estimate, idempotency, webhook choice,
// items paging with handover, cancel and the 503 without a server key.
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { KumoError, isKumoError } from '../errors.js';
import { ManualClock } from '../time/clock.js';
import { newId } from '../accounts/ids.js';
import { SiteRegistry } from '../sites/registry.js';
import { ScrapeService, type ScrapeServiceOptions } from '../scrape/scrape-service.js';
import type { Caller } from '../scrape/caller.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { WebhookEndpoint, WebhookEndpointStore } from '../webhooks/endpoint-store.js';
import type {
  AppendOutcome,
  BatchItemRecord,
  BatchRecord,
  BatchStore,
  CreateOutcome,
  NewBatch,
  NewBatchItem,
  RejectedItem,
} from './batch-store.js';
import type { NewWork, Tx, WorkQueue } from './work-queue.js';
import { BatchService, cursorOf, echoedUrl, type SubmitBody } from './batch-service.js';

const ikebe = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const mercari = 'https://jp.mercari.com/item/m55501234567';
const tx = {} as Tx;

/** The batch store's behaviour these tests rely on, in memory (batch-store.contract.ts holds the real one to it). */
class MemoryStore {
  batches = new Map<string, { record: BatchRecord; dataKey: Uint8Array | null; hash?: string; key?: string }>();
  items = new Map<string, { item: BatchItemRecord; urlSealed: Uint8Array; result: Uint8Array | null }>();
  created: NewBatchItem[][] = [];
  handedOver: string[][] = [];
  failHandover = false;

  async create(batch: NewBatch, items: readonly NewBatchItem[], enqueue: (t: Tx) => Promise<void>) {
    for (const b of this.batches.values()) {
      if (batch.idempotency && b.key === batch.idempotency.key && b.record.accountId === batch.accountId) {
        return (
          b.hash === batch.idempotency.bodyHash
            ? { outcome: 'replay', batch: b.record }
            : { outcome: 'conflict', batchId: b.record.id }
        ) satisfies CreateOutcome;
      }
    }
    const record: BatchRecord = {
      id: batch.id,
      accountId: batch.accountId,
      keyId: batch.keyId,
      status: 'queued',
      sealed: batch.sealed,
      params: batch.params,
      webhook: batch.webhook,
      retainHours: batch.retainHours,
      resultsExpireAt: batch.resultsExpireAt,
      maxCredits: batch.maxCredits,
      counts: { ...zeroCounts(), total: items.length, queued: items.length },
      credits: { charged: 0, held: 0, reserved: 0 },
      estimate: batch.estimate,
      rejected: batch.rejected,
      createdAt: batch.createdAt,
      finishedAt: null,
    };
    this.batches.set(batch.id, {
      record,
      dataKey: batch.dataKeySealed,
      ...(batch.idempotency ? { hash: batch.idempotency.bodyHash, key: batch.idempotency.key } : {}),
    });
    this.#addItems(record, items, 0);
    this.created.push([...items]);
    await enqueue(tx);
    return { outcome: 'created', batch: record } satisfies CreateOutcome;
  }

  async byIdempotencyKey(accountId: string, key: string) {
    for (const b of this.batches.values())
      if (b.key === key && b.record.accountId === accountId) return { batch: b.record, bodyHash: b.hash ?? null };
    return null;
  }

  #addItems(record: BatchRecord, items: readonly NewBatchItem[], base: number) {
    for (const i of items) {
      this.items.set(i.id, {
        urlSealed: i.urlSealed,
        result: null,
        item: {
          ...i,
          index: i.index + base,
          batchId: record.id,
          accountId: record.accountId,
          state: 'queued',
          attempts: 0,
          requestId: null,
          costUnits: 0,
          error: null,
          createdAt: record.createdAt,
          startedAt: null,
          finishedAt: null,
        },
      });
    }
  }

  async append(
    batchId: string,
    accountId: string,
    items: readonly NewBatchItem[],
    rejected: readonly RejectedItem[],
    options: { seal: boolean; maxItems: number },
    enqueue: (t: Tx, base: number) => Promise<void>,
  ): Promise<AppendOutcome> {
    const b = this.batches.get(batchId);
    if (!b || b.record.accountId !== accountId) return { outcome: 'not_found' };
    if (b.record.sealed) return { outcome: 'sealed', batch: b.record };
    if (b.record.counts.total + items.length > options.maxItems)
      return { outcome: 'limit', total: b.record.counts.total };
    const base = b.record.counts.total + b.record.rejected.length;
    this.#addItems(b.record, items, base);
    const moved = rejected.map((r) => ({ ...r, index: r.index + base }));
    b.record = {
      ...b.record,
      sealed: options.seal,
      rejected: [...b.record.rejected, ...moved],
      counts: {
        ...b.record.counts,
        total: b.record.counts.total + items.length,
        queued: b.record.counts.queued + items.length,
      },
    };
    await enqueue(tx, base);
    return { outcome: 'appended', batch: b.record, rejected: moved };
  }

  async get(batchId: string, accountId: string) {
    const b = this.batches.get(batchId);
    return b && b.record.accountId === accountId ? b.record : null;
  }

  async dataKey(batchId: string) {
    return this.batches.get(batchId)?.dataKey ?? null;
  }

  async listItems(batchId: string, accountId: string, query: { state?: string; afterIndex?: number; limit: number }) {
    return [...this.items.values()]
      .filter(({ item }) => item.batchId === batchId && item.accountId === accountId)
      .filter(({ item }) => !query.state || item.state === query.state)
      .filter(({ item }) => query.afterIndex === undefined || item.index > query.afterIndex)
      .sort((a, b) => a.item.index - b.item.index)
      .slice(0, query.limit)
      .map(({ item, result }) => ({ item: { ...item }, resultSealed: result }));
  }

  async handover(ids: readonly string[]) {
    if (this.failHandover) throw new KumoError('unavailable', 'storage down', { retryAfterSeconds: 5 });
    this.handedOver.push([...ids]);
    const charged: string[] = [];
    for (const id of ids) {
      const row = this.items.get(id)!;
      if (row.item.state !== 'ready') continue;
      row.item.state = 'delivered';
      charged.push(id);
    }
    return charged;
  }

  async cancel(batchId: string, accountId: string, cancelWork: (t: Tx) => Promise<string[]>) {
    const b = this.batches.get(batchId);
    if (!b || b.record.accountId !== accountId) return null;
    const ids = await cancelWork(tx);
    for (const id of ids) this.items.get(id)!.item.state = 'cancelled';
    b.record = { ...b.record, status: 'cancelled' };
    return { batch: b.record, cancelled: ids.length };
  }

  async events() {
    return [];
  }
}

class MemoryQueue {
  depths = new Map<string, number>();
  enqueued: NewWork[] = [];
  async enqueue(_tx: Tx, work: readonly NewWork[]) {
    this.enqueued.push(...work);
  }
  async depth(host: string) {
    return this.depths.get(host) ?? 0;
  }
  async cancel(_tx: Tx, groupId: string) {
    const ids = this.enqueued.filter((w) => w.groupId === groupId).map((w) => w.id);
    this.enqueued = this.enqueued.filter((w) => w.groupId !== groupId);
    return ids;
  }
}

function zeroCounts() {
  return {
    total: 0,
    queued: 0,
    running: 0,
    ready: 0,
    delivered: 0,
    failed: 0,
    not_found: 0,
    skipped: 0,
    cancelled: 0,
    expired: 0,
  };
}

function callerOf(plan: 'free' | 'starter' | 'growth' = 'starter', key: Partial<Caller['key']> = {}): Caller {
  const createdAt = new Date().toISOString();
  const accountId = newId('acc');
  return {
    account: { id: accountId, plan, overageCapCredits: 0, createdAt },
    key: {
      id: newId('key'),
      accountId,
      displayPrefix: 'kumo_live_test',
      hash: newId('hash'),
      sites: null,
      operations: ['batch'],
      outputs: null,
      monthlyCreditLimit: null,
      concurrencyLimit: null,
      createdAt,
      revokedAt: null,
      expiresAt: null,
      ...key,
    },
  };
}

const registry = new SiteRegistry();
const scrape = new ScrapeService({ registry, environment: 'production' } as unknown as ScrapeServiceOptions);
const secretQueryParams = [...new Set(registry.list().flatMap((s) => s.secretQueryParams))];

let store: MemoryStore;
let queue: MemoryQueue;
let secrets: AesGcmSecrets;
let clock: ManualClock;
let endpoints: Map<string, WebhookEndpoint>;
let wakes: number;

function serviceWith(changes: { secrets?: AesGcmSecrets | null; creditsLeft?: number } = {}): BatchService {
  const endpointStore: WebhookEndpointStore = {
    get: async (id, accountId) => {
      const e = endpoints.get(id);
      return e && e.accountId === accountId ? e : null;
    },
    signingSecrets: async () => [],
    disable: async () => undefined,
  };
  return new BatchService({
    store: store as unknown as BatchStore,
    queue: queue as unknown as WorkQueue,
    plan: (caller, url, params) => scrape.plan(caller, url, params),
    secrets: changes.secrets === undefined ? secrets : changes.secrets,
    endpoints: endpointStore,
    politeness: (host) =>
      host === 'www.ikebe-gakki.com'
        ? { maxInFlight: 2, minIntervalMs: 1500 }
        : { maxInFlight: 1, minIntervalMs: 1000 },
    secretQueryParams,
    clock,
    ...(changes.creditsLeft === undefined ? {} : { creditsLeft: async () => changes.creditsLeft! }),
    wake: () => {
      wakes += 1;
    },
  });
}

beforeEach(() => {
  store = new MemoryStore();
  queue = new MemoryQueue();
  secrets = new AesGcmSecrets(randomBytes(32));
  clock = new ManualClock();
  endpoints = new Map();
  wakes = 0;
});

async function refusal(promise: Promise<unknown>): Promise<KumoError> {
  try {
    await promise;
  } catch (error) {
    if (isKumoError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('submission: per-item validation', () => {
  it('refuses each class of item with the code a call would get, keeps the rest, and never echoes credentials', async () => {
    const caller = callerOf('starter', { outputs: ['json'] });
    const body: SubmitBody = {
      items: [
        { url: ikebe, ref: 'SKU-1' },
        { url: 'https://user:hunter2@www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592' },
        { url: 'https://shop.example.net/item/1?appId=SECRET-APP-ID' },
        { url: 'https://www.ikebe-gakki.com/' },
        { url: ikebe, params: { include_html: true } },
        { url: mercari },
        { url: 'not a url at all //u:p@x' },
      ],
    };
    const { batch } = await serviceWith().submit(caller, body, null);
    expect(batch.rejected).toEqual([
      { index: 1, url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592', code: 'invalid_url' },
      { index: 2, url: 'https://shop.example.net/item/1?appId=REDACTED', code: 'site_not_supported' },
      { index: 3, url: 'https://www.ikebe-gakki.com/', code: 'page_not_supported' },
      // The key may not produce HTML.
      { index: 4, url: ikebe, code: 'key_scope_denied' },
      // メルカリ needs an operator's review approval for the account.
      { index: 5, url: mercari, code: 'key_scope_denied' },
      { index: 6, url: 'not a url at all //x', code: 'invalid_url' },
    ]);
    expect(JSON.stringify(batch)).not.toContain('hunter2');
    expect(JSON.stringify(batch)).not.toContain('SECRET-APP-ID');
    expect(batch.counts).toMatchObject({ total: 1, queued: 1 });
    const [items] = store.created;
    expect(items).toHaveLength(1);
    expect(items![0]).toMatchObject({ index: 0, ref: 'SKU-1', url: ikebe, host: 'www.ikebe-gakki.com', costMax: 1 });
    expect(items![0]!.params).toBeNull();
    // The URL as given is kept only sealed with the batch's data key, bound to its item.
    const box = secrets.dataKeyBox((await store.dataKey(batch.id))!, batch.id);
    expect(box.open(items![0]!.urlSealed, `url:${items![0]!.id}`).toString()).toBe(ikebe);
    expect(() => box.open(items![0]!.urlSealed, 'url:itm_other')).toThrow();
    expect(queue.enqueued).toEqual([
      expect.objectContaining({
        id: items![0]!.id,
        groupId: batch.id,
        accountId: caller.account.id,
        host: 'www.ikebe-gakki.com',
      }),
    ]);
    expect(wakes).toBe(1);
  });

  it('asks a batch-only key for the batch operation, not scrape, but keeps its site narrowing', async () => {
    const caller = callerOf('starter', { operations: ['batch'], sites: ['mercari'] });
    const { batch } = await serviceWith().submit(
      { ...caller, account: { ...caller.account, approvedSites: ['mercari'] } },
      { items: [{ url: mercari }, { url: ikebe }] },
      null,
    );
    expect(batch.rejected).toEqual([{ index: 1, url: ikebe, code: 'key_scope_denied' }]);
    // メルカリ's default route is its API: the item queues on the API host, where it is fetched.
    expect(store.created[0]![0]).toMatchObject({ siteId: 'mercari', route: 'api' });
    expect(store.created[0]![0]!.host).not.toBe('jp.mercari.com');
  });

  it('makes no batch when no item can run: the first refusal answers, with every refusal listed', async () => {
    const error = await refusal(
      serviceWith().submit(
        callerOf(),
        { items: [{ url: 'https://shop.example.net/a' }, { url: 'ftp://www.ikebe-gakki.com/x' }] },
        null,
      ),
    );
    expect(error.code).toBe('site_not_supported');
    expect(error.message).toContain('site_not_supported ×1, invalid_url ×1');
    expect(error.extras.body?.rejected).toEqual([
      { index: 0, url: 'https://shop.example.net/a', code: 'site_not_supported' },
      { index: 1, url: 'ftp://www.ikebe-gakki.com/x', code: 'invalid_url' },
    ]);
    expect(store.batches.size).toBe(0);
    expect(queue.enqueued).toEqual([]);
  });

  it('echoes a URL without userinfo or any site’s credential parameters', () => {
    expect(echoedUrl('https://a:b@x.example/p?appId=1&q=2', ['appid'])).toBe('https://x.example/p?appId=REDACTED&q=2');
    expect(echoedUrl('h ttps://a:b@x/y', [])).toBe('h ttps://x/y');
  });
});

describe('submission: estimate, retention and plan limits', () => {
  it('prices every item at its route and times each host from its queue and politeness', async () => {
    const caller = callerOf();
    const approvedCaller = { ...caller, account: { ...caller.account, approvedSites: ['mercari'] } };
    queue.depths.set('www.ikebe-gakki.com', 3);
    const { batch } = await serviceWith().submit(
      approvedCaller,
      { items: [{ url: ikebe }, { url: ikebe }, { url: mercari, params: { render_js: true } }] },
      null,
    );
    // 1 + 1 over HTTP, 2 in the browser.
    expect(batch.estimate.cost_units_max).toBe(4);
    // ikebe: ceil((3 queued + 2) / 2 in flight) × 1.5 s = 4.5 s; mercari: 1 × 1 s. The slowest host: 5 s.
    expect(batch.estimate.eta_s).toBe(5);
  });

  it('keeps results 24 h by default, retain_hours when asked, and refuses more than the plan keeps', async () => {
    const created = new Date(clock.now());
    const { batch } = await serviceWith().submit(callerOf('free'), { items: [{ url: ikebe }] }, null);
    expect(batch.results_expire_at).toBe(new Date(created.getTime() + 24 * 3_600_000).toISOString());
    expect(batch.results.retain_hours).toBeNull();
    const kept = await serviceWith().submit(
      callerOf('starter'),
      { items: [{ url: ikebe }], results: { retain_hours: 72 } },
      null,
    );
    expect(kept.batch.results_expire_at).toBe(new Date(created.getTime() + 72 * 3_600_000).toISOString());
    const error = await refusal(
      serviceWith().submit(callerOf('free'), { items: [{ url: ikebe }], results: { retain_hours: 25 } }, null),
    );
    expect(error.code).toBe('batch_limit_exceeded');
    expect(error.extras.body).toMatchObject({ field: 'results.retain_hours', limit: 24 });
  });

  it('holds a Free batch to 100 items, counting every append', async () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ url: ikebe }));
    const error = await refusal(serviceWith().submit(callerOf('free'), { items: many(101) }, null));
    expect(error.code).toBe('batch_limit_exceeded');
    expect(store.batches.size).toBe(0);

    const caller = callerOf('free');
    const service = serviceWith();
    const { batch } = await service.submit(caller, { items: many(60), seal: false }, null);
    const over = await refusal(service.append(caller, batch.id, { items: many(41) }));
    expect(over.code).toBe('batch_limit_exceeded');
    const appended = await service.append(caller, batch.id, { items: many(40) });
    expect(appended.batch.counts.total).toBe(100);
    expect(appended.batch.sealed).toBe(true);
  });
});

describe('submission: credits', () => {
  it('refuses a batch up front only when not even its cheapest item can be paid for', async () => {
    const caller = callerOf();
    const approvedCaller = { ...caller, account: { ...caller.account, approvedSites: ['mercari'] } };
    const none = await refusal(serviceWith({ creditsLeft: 0 }).submit(caller, { items: [{ url: ikebe }] }, null));
    expect(none.code).toBe('credits_exhausted');
    expect(none.extras.retryAfterSeconds).toBeGreaterThan(0);
    expect(none.extras.body).toMatchObject({ resets_at: expect.any(String) });
    // One credit left and every item in the browser (2 each): nothing could run.
    const browserOnly = { items: [{ url: mercari, params: { render_js: true } }] };
    expect((await refusal(serviceWith({ creditsLeft: 1 }).submit(approvedCaller, browserOnly, null))).code).toBe(
      'credits_exhausted',
    );
    expect(store.batches.size).toBe(0);
    // One credit pays for the first HTTP item: the batch is made, the rest will be skipped when they run.
    const { batch } = await serviceWith({ creditsLeft: 1 }).submit(
      caller,
      { items: [{ url: ikebe }, { url: ikebe }] },
      null,
    );
    expect(batch.counts.total).toBe(2);
  });
});

describe('submission: Idempotency-Key and webhooks', () => {
  it('replays the same key and body as the batch it made; another body is an idempotency_conflict', async () => {
    const caller = callerOf();
    const service = serviceWith();
    const body: SubmitBody = { items: [{ url: ikebe }] };
    const first = await service.submit(caller, body, 'nightly-1');
    const again = await service.submit(caller, { ...body, seal: true }, 'nightly-1');
    expect(again).toMatchObject({ replayed: true, batch: { id: first.batch.id } });
    expect(store.created).toHaveLength(1);
    const conflict = await refusal(service.submit(caller, { items: [{ url: ikebe, ref: 'x' }] }, 'nightly-1'));
    expect(conflict.code).toBe('idempotency_conflict');
    expect(conflict.extras.body).toEqual({ batch_id: first.batch.id });
  });

  it('replays a repeat whatever changed since: credits spent, its endpoint disabled', async () => {
    const caller = callerOf();
    endpoints.set('whe_later_gone', {
      id: 'whe_later_gone',
      accountId: caller.account.id,
      url: 'https://hooks.example.jp/k',
      secretLast4: 'abcd',
      createdAt: '',
      events: ['item.succeeded'],
      disabledAt: null,
      disabledReason: null,
    });
    const body: SubmitBody = { items: [{ url: ikebe }], webhook: { endpoint_id: 'whe_later_gone' } };
    const first = await serviceWith().submit(caller, body, 'nightly-2');
    endpoints.set('whe_later_gone', {
      ...endpoints.get('whe_later_gone')!,
      disabledAt: '2026-11-28T00:00:00Z',
      disabledReason: 'the receiver answered 410 Gone',
    });
    const spent = serviceWith({ creditsLeft: 0 });
    // Without the key the same body is refused now, on either ground.
    expect((await refusal(spent.submit(caller, body, null))).code).toMatch(/invalid_request|credits_exhausted/);
    const again = await spent.submit(caller, body, 'nightly-2');
    expect(again).toMatchObject({ replayed: true, batch: { id: first.batch.id } });
    expect(store.created).toHaveLength(1);
  });

  it('takes an endpoint of the account that is not disabled; its events unless the batch narrows them', async () => {
    const caller = callerOf();
    const base = { url: 'https://hooks.example.jp/k', secretLast4: 'abcd', createdAt: '', disabledReason: null };
    endpoints.set('whe_mine', {
      ...base,
      id: 'whe_mine',
      accountId: caller.account.id,
      events: ['item.succeeded'],
      disabledAt: null,
    });
    endpoints.set('whe_other', { ...base, id: 'whe_other', accountId: 'acc_other', events: [], disabledAt: null });
    endpoints.set('whe_gone', {
      ...base,
      id: 'whe_gone',
      accountId: caller.account.id,
      events: [],
      disabledAt: '2026-01-01T00:00:00Z',
      disabledReason: 'the receiver answered 410 Gone',
    });
    const service = serviceWith();
    const items = [{ url: ikebe }];
    const { batch } = await service.submit(caller, { items, webhook: { endpoint_id: 'whe_mine' } }, null);
    expect(batch.webhook).toEqual({ endpoint_id: 'whe_mine', events: ['item.succeeded'], payload: 'full' });
    const narrowed = await service.submit(
      caller,
      { items, webhook: { endpoint_id: 'whe_mine', events: ['batch.completed'], payload: 'thin' } },
      null,
    );
    expect(narrowed.batch.webhook).toEqual({ endpoint_id: 'whe_mine', events: ['batch.completed'], payload: 'thin' });
    expect((await refusal(service.submit(caller, { items, webhook: { endpoint_id: 'whe_other' } }, null))).code).toBe(
      'not_found',
    );
    const gone = await refusal(service.submit(caller, { items, webhook: { endpoint_id: 'whe_gone' } }, null));
    expect(gone.code).toBe('invalid_request');
    expect(gone.message).toContain('410');
  });

  it('answers 503 unavailable on every route when KUMO_SECRETS_KEY is not set', async () => {
    const service = serviceWith({ secrets: null });
    const caller = callerOf();
    for (const call of [
      service.submit(caller, { items: [{ url: ikebe }] }, null),
      service.get(caller, 'bat_x'),
      service.list(caller, 10),
      service.items(caller, 'bat_x', {}),
      service.cancel(caller, 'bat_x'),
      service.events(caller, {}),
    ]) {
      const error = await refusal(call);
      expect(error.code).toBe('unavailable');
      expect(error.message).toContain('KUMO_SECRETS_KEY is not set');
    }
  });
});

describe('append and seal', () => {
  it('appends to an unsealed batch with indexes after every earlier one; a sealed batch is 409 batch_sealed', async () => {
    const caller = callerOf();
    const service = serviceWith();
    const { batch } = await service.submit(
      caller,
      { items: [{ url: ikebe }, { url: 'https://shop.example.net/' }], seal: false },
      null,
    );
    expect(batch.sealed).toBe(false);
    const more = await service.append(caller, batch.id, {
      items: [{ url: 'https://shop.example.net/' }, { url: ikebe }],
      seal: false,
    });
    expect(more.batch.rejected).toEqual([{ index: 2, url: 'https://shop.example.net/', code: 'site_not_supported' }]);
    const page = await service.items(caller, batch.id, {});
    expect(page.items.map((i) => i.index)).toEqual([0, 3]);
    // Appended URLs are sealed with the batch's own data key.
    const box = secrets.dataKeyBox((await store.dataKey(batch.id))!, batch.id);
    const appended = [...store.items.values()].find((r) => r.item.index === 3)!;
    expect(box.open(appended.urlSealed, `url:${appended.item.id}`).toString()).toBe(ikebe);

    const sealed = await service.append(caller, batch.id, { items: [] });
    expect(sealed.batch.sealed).toBe(true);
    const refused = await refusal(service.append(caller, batch.id, { items: [{ url: ikebe }] }));
    expect(refused.code).toBe('batch_sealed');
    // Another account's batch does not exist for this one.
    expect((await refusal(service.append(callerOf(), batch.id, { items: [{ url: ikebe }] }))).code).toBe('not_found');
  });
});

describe('items: paging and handover on GET', () => {
  async function batchWithResults(caller: Caller, n: number) {
    const service = serviceWith();
    const { batch } = await service.submit(
      caller,
      { items: Array.from({ length: n }, (_, i) => ({ url: ikebe, ref: `r${i}` })) },
      null,
    );
    const box = secrets.dataKeyBox((await store.dataKey(batch.id))!, batch.id);
    const rows = [...store.items.values()]
      .filter((r) => r.item.batchId === batch.id)
      .sort((a, b) => a.item.index - b.item.index);
    rows.forEach((row, i) => {
      if (i % 2 === 0) {
        row.item.state = 'ready';
        row.item.costUnits = 1;
        row.result = box.seal(JSON.stringify({ resolved_site: 'ikebe_gakki', data: { n: i } }), row.item.id);
      } else {
        row.item.state = 'failed';
        row.item.error = { code: 'fetch_failed', status: 502, retryable: true };
      }
    });
    return { service, batch };
  }

  it('opens ready results, lists them for handover, shows them delivered, and pages by an opaque cursor', async () => {
    const caller = callerOf();
    const { service, batch } = await batchWithResults(caller, 5);
    const first = await service.items(caller, batch.id, { limit: 3 });
    expect(first.items.map((i) => [i.index, i.state])).toEqual([
      [0, 'delivered'],
      [1, 'failed'],
      [2, 'delivered'],
    ]);
    expect(first.items[0]!.result).toEqual({ resolved_site: 'ikebe_gakki', data: { n: 0 } });
    expect(first.items[1]).toMatchObject({ error: { code: 'fetch_failed', status: 502, retryable: true } });
    expect(first.items[1]!.result).toBeUndefined();
    expect(first.handover).toEqual([first.items[0]!.id, first.items[2]!.id]);
    expect(first.next_cursor).toBe(cursorOf(2));
    const second = await service.items(caller, batch.id, { limit: 3, cursor: first.next_cursor! });
    expect(second.items.map((i) => i.index)).toEqual([3, 4]);
    expect(second.next_cursor).toBeNull();

    expect(await service.handover(first.handover)).toEqual(first.handover);
    // Handed over (retained): the result again, free (nothing to hand over).
    const again = await service.items(caller, batch.id, { limit: 3 });
    expect(again.items[0]!.result).toEqual({ resolved_site: 'ikebe_gakki', data: { n: 0 } });
    expect(again.handover).toEqual([]);
    const failed = await service.items(caller, batch.id, { state: 'failed' });
    expect(failed.items.map((i) => i.index)).toEqual([1, 3]);
  });

  it('neither shows nor hands over a ready result its batch can no longer hand over (cancelled, or expired)', async () => {
    const caller = callerOf();
    const { service, batch } = await batchWithResults(caller, 1);
    await clock.advance(24 * 3_600_000);
    const expired = await service.items(caller, batch.id, {});
    expect(expired.items[0]).toMatchObject({ state: 'ready' });
    expect(expired.items[0]!.result).toBeUndefined();
    expect(expired.handover).toEqual([]);

    const other = await batchWithResults(caller, 1);
    // DELETE while an item finished: cancelling, its ready result still in the buffer until the sweep.
    const row = store.batches.get(other.batch.id)!;
    row.record = { ...row.record, status: 'cancelling' };
    const cancelled = await other.service.items(caller, other.batch.id, {});
    expect(cancelled.items[0]).toMatchObject({ state: 'ready' });
    expect(cancelled.items[0]!.result).toBeUndefined();
    expect(cancelled.handover).toEqual([]);
  });

  it('answers a handover the store cannot commit with 503 unavailable', async () => {
    const caller = callerOf();
    const { service, batch } = await batchWithResults(caller, 1);
    const page = await service.items(caller, batch.id, {});
    store.failHandover = true;
    const error = await refusal(service.handover(page.handover));
    expect(error.code).toBe('unavailable');
  });

  it('refuses a cursor it did not give, and another account’s batch is 404', async () => {
    const caller = callerOf();
    const { service, batch } = await batchWithResults(caller, 1);
    expect((await refusal(service.items(caller, batch.id, { cursor: 'bogus' }))).code).toBe('invalid_request');
    expect((await refusal(service.items(callerOf(), batch.id, {}))).code).toBe('not_found');
    expect((await refusal(service.get(callerOf(), batch.id))).code).toBe('not_found');
    expect((await refusal(service.cancel(callerOf(), batch.id))).code).toBe('not_found');
  });
});

describe('cancel', () => {
  it('removes the queued work and cancels its items', async () => {
    const caller = callerOf();
    const service = serviceWith();
    const { batch } = await service.submit(caller, { items: [{ url: ikebe }, { url: ikebe }] }, null);
    const outcome = await service.cancel(caller, batch.id);
    expect(outcome).toMatchObject({ cancelled: 2, batch: { status: 'cancelled' } });
    expect(queue.enqueued).toEqual([]);
  });
});
