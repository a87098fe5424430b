// The Dispatcher over small in-memory fakes of the queue and the batch store (their real implementations have their
// own contract suites), real transactions on SQLite, the real lane limiter and secrets, and a ManualClock: per-host
// in-flight, the batch lane, credits, retries, not-found, outages and wake-ups.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dispatcher, batchLaneScope, paramsOf, type DispatcherOptions } from './dispatcher.js';
import type { ClaimOptions, ClaimedWork, LaneWithWork, NewWork, Tx, WorkQueue } from './work-queue.js';
import type { BatchItemRecord, BatchStore, ItemToRun, RunOutcome, WebhookTarget } from './batch-store.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import type { PlanId, ReserveOutcome } from '../storage/storage.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { ManualClock } from '../time/clock.js';
import { newId } from '../accounts/ids.js';
import { SiteRegistry } from '../sites/registry.js';
import {
  ScrapeService,
  type CallOutcome,
  type RunRequest,
  type ScrapeResult,
  type ScrapeServiceOptions,
} from '../scrape/scrape-service.js';
import type { Caller } from '../scrape/caller.js';
import { KumoError, type ErrorCode } from '../errors.js';
import { statusByCode } from '../http/problem.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const pollMs = 1_000;

class Undo extends Error {}

/** Which item each attempt's request id ran (filled by markRunning), and which host each item is queued on. */
const requestItems = new Map<string, string>();
const itemHosts = new Map<string, string>();

/** The WorkQueue's rules in memory: round robin over accounts per host, claims undone when onClaimed says no. */
class MemoryQueue implements WorkQueue {
  readonly rows = new Map<string, NewWork & { holder: string | null; attempts: number }>();
  readonly #served = new Map<string, number>();
  #tick = 0;
  /** Throws like a database that is down, from every method, while true. */
  down = false;
  /** Claims that commit and then throw, as when the connection drops before COMMIT's answer arrives. */
  loseClaimAnswers = 0;
  hostQueries = 0;
  /** Claims asked for, those that found nothing included (each is a write transaction in a real queue). */
  claims = 0;

  constructor(private readonly storage: KyselyStorage) {}

  async start(): Promise<void> {}
  async enqueue(_tx: Tx, work: readonly NewWork[]): Promise<void> {
    for (const w of work) this.rows.set(w.id, { ...w, holder: null, attempts: 0 });
  }
  add(...work: NewWork[]): void {
    for (const w of work) {
      this.rows.set(w.id, { ...w, holder: null, attempts: 0 });
      itemHosts.set(w.id, w.host);
    }
  }
  #check(): void {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  }
  async claim(host: string, holder: string, options: ClaimOptions = {}): Promise<ClaimedWork | null> {
    this.#check();
    this.claims += 1;
    const skip = new Set(options.skipAccounts ?? []);
    const queued = [...this.rows.values()].filter((r) => r.host === host && !r.holder && !skip.has(r.accountId));
    queued.sort(
      (a, b) =>
        (this.#served.get(`${host} ${a.accountId}`) ?? -1) - (this.#served.get(`${host} ${b.accountId}`) ?? -1) ||
        a.order - b.order,
    );
    const row = queued[0];
    if (!row) return null;
    row.holder = holder;
    row.attempts += 1;
    const work: ClaimedWork = {
      id: row.id,
      groupId: row.groupId,
      accountId: row.accountId,
      host,
      attempts: row.attempts,
    };
    try {
      await this.storage.db.transaction().execute(async (tx) => {
        if (options.onClaimed && !(await options.onClaimed(tx, work))) throw new Undo();
      });
    } catch (error) {
      row.holder = null;
      row.attempts -= 1;
      if (error instanceof Undo) return null;
      throw error;
    }
    this.#served.set(`${host} ${row.accountId}`, this.#tick++);
    if (this.loseClaimAnswers > 0) {
      this.loseClaimAnswers -= 1;
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    }
    return work;
  }
  async heldBy(holder: string): Promise<string[]> {
    this.#check();
    return [...this.rows.values()].filter((r) => r.holder === holder).map((r) => r.id);
  }
  async lanesWithWork(): Promise<LaneWithWork[]> {
    this.#check();
    this.hostQueries += 1;
    const lanes = new Map<string, LaneWithWork>();
    for (const r of this.rows.values())
      if (!r.holder) lanes.set(`${r.host} ${r.accountId}`, { host: r.host, accountId: r.accountId });
    return [...lanes.values()];
  }
  async depth(host: string): Promise<number> {
    return [...this.rows.values()].filter((r) => r.host === host && !r.holder).length;
  }
  async finish(_tx: Tx, id: string, holder: string): Promise<boolean> {
    if (this.rows.get(id)?.holder !== holder) return false;
    this.rows.delete(id);
    return true;
  }
  async giveBack(_tx: Tx, id: string, holder: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (row?.holder !== holder) return false;
    row.holder = null;
    return true;
  }
  async cancel(): Promise<string[]> {
    return [];
  }
  async releaseOrphaned(): Promise<string[]> {
    return [];
  }
  async close(): Promise<void> {}
}

interface MemoryItem {
  record: BatchItemRecord;
  holder: string | null;
  urlSealed: Buffer;
  outcome: RunOutcome | null;
}

/** The batch store's side of a run in memory: states, attempts, reservations and holds of credits. */
class MemoryStore implements Pick<BatchStore, 'markRunning' | 'reserve' | 'finishRun' | 'retryLater'> {
  readonly items = new Map<string, MemoryItem>();
  readonly reserved = new Map<string, number>();
  readonly held = new Map<string, number>();
  readonly dataKeySealed: Buffer;
  readonly box: SecretBox;
  readonly batchId = newId('bat');
  /** Credits left to the account (charged + held + reserved count against it). */
  creditsLeft = 1_000;
  reserveAnswer: (() => ReserveOutcome | { ok: false; exhausted: 'batch' } | null) | null = null;
  /** Writes (finishRun, retryLater) that throw, as during an outage. */
  failWrites = 0;
  writes = 0;
  /** The batch's webhook (null: results wait for GET …/items, and the delivery worker is not woken). */
  webhook: WebhookTarget | null = { endpointId: 'whe_test', events: ['item.succeeded'], payload: 'full' };

  constructor(
    readonly storage: KyselyStorage,
    secrets: AesGcmSecrets,
    readonly caller: Caller,
  ) {
    const key = secrets.newDataKey(this.batchId);
    this.dataKeySealed = key.sealed;
    this.box = key.box;
  }

  add(index: number, rawUrl = url): string {
    const id = newId('itm');
    const now = new Date().toISOString();
    this.items.set(id, {
      record: {
        id,
        batchId: this.batchId,
        accountId: this.caller.account.id,
        index,
        ref: null,
        url: rawUrl,
        host: 'www.ikebe-gakki.com',
        siteId: 'ikebe_gakki',
        pageType: 'item',
        route: 'http',
        params: null,
        costMax: 1,
        state: 'queued',
        attempts: 0,
        requestId: null,
        costUnits: 0,
        error: null,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
      },
      holder: null,
      urlSealed: this.box.seal(rawUrl, `url:${id}`),
      outcome: null,
    });
    return id;
  }

  state(id: string): string {
    return this.items.get(id)!.record.state;
  }

  async markRunning(
    _tx: Tx,
    itemId: string,
    holder: string,
    requestId: string,
    now: string,
  ): Promise<ItemToRun | null> {
    const item = this.items.get(itemId);
    if (!item || item.record.state !== 'queued') return null;
    item.record = { ...item.record, state: 'running', attempts: item.record.attempts + 1, requestId, startedAt: now };
    item.holder = holder;
    requestItems.set(requestId, itemId);
    return {
      item: item.record,
      batch: {
        id: this.batchId,
        accountId: this.caller.account.id,
        keyId: this.caller.key.id,
        params: { mode: 'html_json' },
        resultsExpireAt: new Date(Date.now() + 86_400_000).toISOString(),
        maxCredits: null,
        status: 'running',
        webhook: this.webhook,
      },
      urlSealed: item.urlSealed,
      dataKeySealed: this.dataKeySealed,
    };
  }

  async reserve(
    itemId: string,
    holder: string,
    request: { requestId: string; cost: number },
  ): Promise<ReserveOutcome | { ok: false; exhausted: 'batch' }> {
    expect(this.items.get(itemId)?.holder).toBe(holder);
    const answer = this.reserveAnswer?.();
    if (answer) return answer;
    const used = [...this.reserved.values(), ...this.held.values()].reduce((a, b) => a + b, 0);
    if (used + request.cost > this.creditsLeft) return { ok: false, exhausted: 'account' };
    this.reserved.set(itemId, request.cost);
    return { ok: true };
  }

  async finishRun(
    itemId: string,
    holder: string,
    outcome: RunOutcome,
    finishWork: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean> {
    return this.#write(itemId, holder, finishWork, (item) => {
      item.record = {
        ...item.record,
        state: outcome.state,
        costUnits: 0,
        error: outcome.state === 'ready' ? null : outcome.error,
      };
      item.outcome = outcome;
      const cost = this.reserved.get(itemId);
      this.reserved.delete(itemId);
      if (outcome.state === 'ready' && cost !== undefined) this.held.set(itemId, cost);
    });
  }

  async retryLater(itemId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>): Promise<boolean> {
    return this.#write(itemId, holder, giveBack, (item) => {
      item.record = { ...item.record, state: 'queued' };
      this.reserved.delete(itemId);
    });
  }

  async #write(
    itemId: string,
    holder: string,
    work: (tx: Tx) => Promise<boolean>,
    change: (item: MemoryItem) => void,
  ): Promise<boolean> {
    if (this.failWrites > 0) {
      this.failWrites -= 1;
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    }
    const item = this.items.get(itemId);
    if (!item || item.holder !== holder || item.record.state !== 'running') return false;
    const done = await this.storage.db.transaction().execute((tx) => work(tx));
    if (!done) return false;
    this.writes += 1;
    change(item);
    item.holder = null;
    return true;
  }
}

/** A scrape step whose answers each test scripts: per host, calls in flight now and at most. */
class ScriptedScrape {
  readonly #planner: ScrapeService;
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  readonly requests: RunRequest[] = [];
  /** The account's interactive scopes while each call ran. */
  answer: (request: RunRequest) => Promise<CallOutcome> = async (request) => completed(request);
  hostOf = (request: RunRequest): string => itemHosts.get(requestItems.get(request.requestId) ?? '') ?? '?';

  constructor() {
    // Only plan() is used from the real service: what it needs is the registry.
    this.#planner = new ScrapeService({
      registry: new SiteRegistry(),
      environment: 'production',
    } as unknown as ScrapeServiceOptions);
  }

  plan: ScrapeService['plan'] = (caller, rawUrl, params) => this.#planner.plan(caller, rawUrl, params);

  runPlanned: ScrapeService['runPlanned'] = async (_planned, _params, request) => {
    this.requests.push(request);
    const host = this.hostOf(request);
    const now = (this.inFlight.get(host) ?? 0) + 1;
    this.inFlight.set(host, now);
    this.maxInFlight.set(host, Math.max(now, this.maxInFlight.get(host) ?? 0));
    try {
      return await this.answer(request);
    } finally {
      this.inFlight.set(host, (this.inFlight.get(host) ?? 1) - 1);
    }
  };
}

function completed(request: RunRequest): CallOutcome {
  request.record.attempts = 1;
  request.record.httpStatus = 200;
  const result: ScrapeResult = {
    request_id: request.requestId,
    resolved_site: 'ikebe',
    page_type: 'item',
    fetch_summary: {
      status: 'completed',
      attempts: 1,
      route: 'http',
      http_status: 200,
      final_url: url,
      charset: 'utf-8',
      bytes: 10,
      elapsed_ms: 1,
    },
    cost_units: request.cost,
    latency_ms: 1,
    extractor: { id: 'ikebe/item', version: 1, coverage: 'verified', provenance: {} },
    data: { title: 'MARKER-テレキャスター' },
    cache: { state: 'bypass', fetched_at: new Date(0).toISOString(), age_s: 0 },
    warnings: [],
  };
  return { status: 'completed', result };
}

/** A promise each test resolves by hand. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void; fail: (error: unknown) => void } {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

let storage: KyselyStorage;
let clock: ManualClock;
let limiter: InProcessConcurrencyLimiter;
let secrets: AesGcmSecrets;
let queue: MemoryQueue;
let scrape: ScriptedScrape;
let dispatcher: Dispatcher | null;
const instanceId = newId('ins');

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  clock = new ManualClock();
  limiter = new InProcessConcurrencyLimiter();
  secrets = new AesGcmSecrets(randomBytes(32));
  queue = new MemoryQueue(storage);
  scrape = new ScriptedScrape();
  dispatcher = null;
  requestItems.clear();
  itemHosts.clear();
});

afterEach(async () => {
  // Open every gate a test left shut so close() can wait for what runs.
  await Promise.all([dispatcher?.close(), clock.advance(60_000)]);
  await storage.close();
});

async function account(plan: PlanId): Promise<Caller> {
  const createdAt = new Date().toISOString();
  const acc = { id: newId('acc'), plan, overageCapCredits: 0, createdAt };
  const key = {
    id: newId('key'),
    accountId: acc.id,
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
  };
  await storage.accounts.create(acc);
  await storage.keys.create(key);
  return { account: acc, key };
}

/** A batch of `count` items of `caller` on `host`, in the store and the queue. */
function batchOf(caller: Caller, count: number, host = 'www.ikebe-gakki.com'): { store: MemoryStore; ids: string[] } {
  const store = new MemoryStore(storage, secrets, caller);
  const ids = Array.from({ length: count }, (_, i) => store.add(i));
  queue.add(...ids.map((id, order) => ({ id, groupId: store.batchId, accountId: caller.account.id, host, order })));
  return { store, ids };
}

/** Several stores behind one port: each item id belongs to the batch that made it. */
function storesOf(...stores: MemoryStore[]): DispatcherOptions['store'] {
  const of = (id: string) => stores.find((s) => s.items.has(id))!;
  return {
    markRunning: (tx, id, holder, requestId, now) => of(id).markRunning(tx, id, holder, requestId, now),
    reserve: (id, holder, request) => of(id).reserve(id, holder, request),
    finishRun: (id, holder, outcome, finish) => of(id).finishRun(id, holder, outcome, finish),
    retryLater: (id, holder, giveBack) => of(id).retryLater(id, holder, giveBack),
  };
}

function start(
  stores: MemoryStore[],
  changes: Partial<DispatcherOptions> & { maxInFlightPerHost?: Record<string, number> } = {},
): Dispatcher {
  const callers = new Map(stores.map((s) => [s.caller.account.id, s.caller]));
  const { maxInFlightPerHost = {}, ...rest } = changes;
  dispatcher = new Dispatcher({
    instanceId,
    queue,
    store: storesOf(...stores),
    scrape,
    limiter,
    secrets,
    callerOf: async (accountId) => callers.get(accountId) ?? null,
    politeness: (host) => ({ maxInFlight: maxInFlightPerHost[host] ?? 1 }),
    statusOf: (code: ErrorCode) => statusByCode[code],
    clock,
    pollMs,
    fetchDeadlineMs: 30_000,
    laneLeaseMs: 90_000,
    maxInFlight: 16,
    ...rest,
  });
  dispatcher.start();
  return dispatcher;
}

/** Lets the loop reach its idle wait without moving time. */
async function settleLoop(): Promise<void> {
  for (let i = 0; i < 20; i++) await clock.advance(0);
}

/** Lets the loop run (promise jobs and SQLite round trips) without moving time, until `condition` holds. */
/** Every run waits until its gate is opened (in the order the runs started), then completes. */
function gatedRuns(): (() => void)[] {
  const gates: (() => void)[] = [];
  scrape.answer = async (request) => {
    const g = gate<void>();
    gates.push(() => g.open());
    await g.promise;
    return completed(request);
  };
  return gates;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await clock.advance(0);
  }
  throw new Error(`${what} never held`);
}

describe('an item runs to ready', () => {
  it('seals the call body without request_id under the item id, holds its credits, writes the row at cost 0', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 1);
    let recorded = 0;
    start([store], { onRecorded: () => recorded++ });
    await until(() => store.state(ids[0]!) === 'ready', 'ready');
    // The webhook worker is woken once the outcome (and its event) is written.
    expect(recorded).toBe(1);

    const item = store.items.get(ids[0]!)!;
    const outcome = item.outcome!;
    expect(outcome.state).toBe('ready');
    if (outcome.state !== 'ready') return;
    expect(outcome.requestId).toMatch(/^req_/);
    expect(outcome).toMatchObject({ costUnits: 1, route: 'http' });
    // Sealed: the marker is not in the bytes; it opens with the batch's data key under the item id only.
    const sealed = outcome.sealResult();
    expect(Buffer.from(sealed).includes('MARKER')).toBe(false);
    const body = JSON.parse(store.box.open(sealed, ids[0]!).toString('utf8')) as Record<string, unknown>;
    expect(body).not.toHaveProperty('request_id');
    expect(body).toMatchObject({ resolved_site: 'ikebe', cost_units: 1, data: { title: 'MARKER-テレキャスター' } });
    expect(() => store.box.open(sealed, 'itm_other')).toThrow();
    // The body in memory is the same one, for a monitor check to read without sealing anything.
    expect(outcome.body).toEqual(body);
    expect(outcome.record).toMatchObject({
      requestId: outcome.requestId,
      accountId: caller.account.id,
      keyId: caller.key.id,
      siteId: 'ikebe_gakki',
      pageType: 'item',
      route: 'http',
      status: 'completed',
      errorCode: null,
      httpStatus: 200,
      attempts: 1,
      costUnits: 0,
    });
    // The step ran with the URL as given (opened from its seal) as the item's account.
    expect(scrape.requests[0]).toMatchObject({ accountId: caller.account.id, requestId: outcome.requestId, cost: 1 });
    expect(store.held.get(ids[0]!)).toBe(1);
    expect(store.reserved.size).toBe(0);
    expect(queue.rows.size).toBe(0);
    expect(await limiter.inUse(batchLaneScope(caller.account.id))).toBe(0);
    expect(dispatcher!.inFlight).toBe(0);
  });

  it('wakes the webhook worker only for a batch with a webhook', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 3);
    store.webhook = null;
    let recorded = 0;
    const runs: string[] = [];
    start([store], {
      onRecorded: () => recorded++,
      metrics: { batchItemRan: (outcome, code) => void runs.push(`${outcome}:${code}`) },
    });
    await until(() => ids.every((id) => store.state(id) === 'ready'), 'all ready');
    expect(recorded).toBe(0);
    // Each run is counted for GET /metrics, by outcome and code.
    expect(runs).toEqual(['ready:ok', 'ready:ok', 'ready:ok']);
  });
});

describe('an item queued again while it still runs here', () => {
  it('is not claimed again by the same instance until that run ends; the late outcome writes nothing', async () => {
    const caller = await account('growth');
    const { store, ids } = batchOf(caller, 1);
    const gates = gatedRuns();
    start([store], { maxInFlightPerHost: { 'www.ikebe-gakki.com': 4 } });
    await until(() => gates.length === 1, 'the first run');
    // A liveness sweep took this instance for dead: the item is queued again, its first run still going.
    const item = store.items.get(ids[0]!)!;
    item.record = { ...item.record, state: 'queued' };
    item.holder = null;
    queue.rows.get(ids[0]!)!.holder = null;
    dispatcher!.wake();
    for (let i = 0; i < 3; i++) await clock.advance(pollMs);
    expect(scrape.requests).toHaveLength(1);
    expect(queue.rows.get(ids[0]!)!.holder).toBeNull();

    gates.shift()!();
    await until(() => gates.length === 1, 'the second run, after the first ended');
    expect(store.state(ids[0]!)).toBe('running');
    gates.shift()!();
    await until(() => store.state(ids[0]!) === 'ready', 'ready');
    expect(scrape.requests).toHaveLength(2);
    // The outcome is the second run's.
    expect(store.items.get(ids[0]!)!.outcome!.requestId).toBe(scrape.requests[1]!.requestId);
  });
});

describe('politeness and the batch lane', () => {
  it('claims at most a host’s maxInFlight here at once, and other hosts run beside it', async () => {
    const a = await account('growth');
    const b = await account('growth');
    const stores = [batchOf(a, 6, 'slow.example'), batchOf(b, 6, 'slow.example'), batchOf(b, 2, 'other.example')].map(
      (batch) => batch.store,
    );
    const gates = gatedRuns();
    start(stores, { maxInFlightPerHost: { 'slow.example': 2, 'other.example': 1 } });

    await until(() => gates.length === 3, 'three runs');
    expect(scrape.inFlight.get('slow.example')).toBe(2);
    expect(scrape.inFlight.get('other.example')).toBe(1);
    // Runs finish one at a time: each freed slot is claimed again at once, never past the host's limit.
    const allReady = () => stores.every((s) => [...s.items.keys()].every((id) => s.state(id) === 'ready'));
    for (let i = 0; i < 200 && !allReady(); i++) {
      gates.shift()?.();
      await clock.advance(0);
    }
    expect(allReady()).toBe(true);
    expect(scrape.requests).toHaveLength(14);
    expect(scrape.maxInFlight.get('slow.example')).toBe(2);
    expect(scrape.maxInFlight.get('other.example')).toBe(1);
    // Round robin between the two accounts on the slow host.
    const slow = scrape.requests.filter((r) => scrape.hostOf(r) === 'slow.example').map((r) => r.accountId);
    expect(slow.slice(0, 4).sort()).toEqual([a.account.id, a.account.id, b.account.id, b.account.id].sort());
  });

  it('a Free account runs one item at a time in its lane, and never takes its interactive concurrency', async () => {
    const free = await account('free');
    const { store, ids } = batchOf(free, 3, 'a.example');
    // Three hosts, room on each: only the lane holds the account back.
    queue.rows.get(ids[1]!)!.host = 'b.example';
    queue.rows.get(ids[2]!)!.host = 'c.example';
    const gates = gatedRuns();
    start([store], { maxInFlightPerHost: { 'a.example': 2, 'b.example': 2, 'c.example': 2 } });
    for (let done = 0; done < 3; done++) {
      await until(() => gates.length === 1, `run ${done + 1}`);
      await clock.advance(pollMs);
      expect(dispatcher!.inFlight).toBe(1);
      expect(await limiter.inUse(batchLaneScope(free.account.id))).toBe(1);
      // The sync path's scopes are untouched: a call of the same account still gets its slot (Free: 2).
      expect(await limiter.inUse(`account:${free.account.id}`)).toBe(0);
      gates.shift()!();
    }
    await until(() => ids.every((id) => store.state(id) === 'ready'), 'all ready');
    expect(scrape.requests.map((r) => r.accountId)).toEqual([free.account.id, free.account.id, free.account.id]);
    // While its lane was full the other hosts were not claimed from at all, round after round: one claim per item.
    expect(queue.claims).toBe(3);
  });

  it('a lane full at another instance leaves the item queued without an attempt, and another account runs', async () => {
    const busy = await account('free');
    const other = await account('free');
    const first = batchOf(busy, 1, 'a.example');
    const second = batchOf(other, 1, 'a.example');
    // Another instance holds busy's one lane slot.
    const elsewhere = await limiter.tryAcquire([{ key: batchLaneScope(busy.account.id), limit: 1 }], 90_000);
    expect(elsewhere.granted).toBe(true);
    const startedAt = clock.now();
    start([first.store, second.store], { maxInFlightPerHost: { 'a.example': 2 } });
    await until(() => second.store.state(second.ids[0]!) === 'ready', "the other account's item");
    expect(first.store.state(first.ids[0]!)).toBe('queued');
    expect(first.store.items.get(first.ids[0]!)!.record.attempts).toBe(0);
    expect(queue.rows.get(first.ids[0]!)).toMatchObject({ holder: null, attempts: 0 });

    if (elsewhere.granted) await elsewhere.lease.release();
    // Asked for again 100 ms after the refusal, not a whole poll interval later: a round then (here woken) runs it.
    await clock.advance(100);
    dispatcher!.wake();
    await until(() => first.store.state(first.ids[0]!) === 'ready', 'the item once the lane is free');
    expect(clock.now() - startedAt).toBeLessThan(pollMs);
    expect(first.store.items.get(first.ids[0]!)!.record.attempts).toBe(1);
  });
});

describe('stale queue rows', () => {
  it('a queued row whose item the store will not run (cancelled) leaves the queue, and the next item runs', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 2);
    store.items.get(ids[0]!)!.record.state = 'cancelled';
    start([store]);
    await until(() => store.state(ids[1]!) === 'ready', 'the next item');
    expect(queue.rows.size).toBe(0);
    expect(store.state(ids[0]!)).toBe('cancelled');
    expect(scrape.requests).toHaveLength(1);
    expect(await limiter.inUse(batchLaneScope(caller.account.id))).toBe(0);
  });
});

describe('credits', () => {
  it('an item past the credits left is skipped with credits_exhausted, free, without a fetch', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 3);
    store.creditsLeft = 2;
    start([store]);
    await until(() => ids.every((id) => store.state(id) !== 'queued' && store.state(id) !== 'running'), 'all done');
    expect(ids.map((id) => store.state(id))).toEqual(['ready', 'ready', 'skipped']);
    expect(store.items.get(ids[2]!)!.outcome).toEqual({
      state: 'skipped',
      requestId: null,
      error: { code: 'credits_exhausted', status: 429, retryable: false },
      record: null,
    });
    expect(scrape.requests).toHaveLength(2);
    expect([...store.held.values()]).toEqual([1, 1]);
  });

  it("the batch's max_credits skips too; credits only held by calls in flight are tried again, then skipped", async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 2);
    const answers: (ReserveOutcome | { ok: false; exhausted: 'batch' })[] = [
      { ok: false, exhausted: 'batch' },
      { ok: false, held: 'account' },
      { ok: false, held: 'account' },
      { ok: false, held: 'account' },
    ];
    store.reserveAnswer = () => answers.shift() ?? null;
    start([store]);
    await until(() => store.state(ids[0]!) === 'skipped', 'max_credits');
    for (let i = 0; i < 5 && store.state(ids[1]!) !== 'skipped'; i++) await clock.advance(pollMs);
    expect(store.state(ids[1]!)).toBe('skipped');
    expect(store.items.get(ids[1]!)!.record.attempts).toBe(3);
    expect(scrape.requests).toHaveLength(0);
  });
});

describe('failures', () => {
  it('retryable failures go back to the queue until the third attempt, then fail as retryable', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 1);
    scrape.answer = async (request) => {
      request.record.attempts = 2;
      throw new KumoError('fetch_timeout', 'the target did not answer in time');
    };
    start([store]);
    // Given back in place each time: the next round (woken by the finished run) tries again.
    await until(() => store.state(ids[0]!) === 'failed', 'failed');
    expect(scrape.requests).toHaveLength(3);
    const outcome = store.items.get(ids[0]!)!.outcome!;
    expect(outcome).toMatchObject({
      state: 'failed',
      error: { code: 'fetch_timeout', status: 504, retryable: true },
      record: { status: 'timed_out', errorCode: 'fetch_timeout', httpStatus: null, attempts: 2, costUnits: 0 },
    });
    expect(new Set(scrape.requests.map((r) => r.requestId)).size).toBe(3);
    expect(store.reserved.size + store.held.size).toBe(0);
  });

  it('other failures fail at once with their status; a 404 is not_found; neither holds credits', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 3);
    const answers: (() => CallOutcome)[] = [
      () => {
        throw new KumoError('extraction_failed', 'no valid result');
      },
      () => {
        throw new KumoError('robots_disallowed', 'robots.txt forbids it');
      },
    ];
    scrape.answer = async (request) => {
      const next = answers.shift();
      if (next) return next();
      const { result } = completed(request);
      request.record.httpStatus = 404;
      return { status: 'not_found', result: { ...result, data: null, cost_units: 0 } };
    };
    start([store]);
    await until(() => ids.every((id) => !['queued', 'running'].includes(store.state(id))), 'all done');
    expect(ids.map((id) => store.items.get(id)!.outcome)).toMatchObject([
      { state: 'failed', error: { code: 'extraction_failed', status: 502, retryable: false } },
      { state: 'failed', error: { code: 'robots_disallowed', status: 422, retryable: false } },
      {
        state: 'not_found',
        error: { code: 'not_found', status: 404, retryable: false },
        record: { status: 'not_found', httpStatus: 404, costUnits: 0 },
      },
    ]);
    expect(scrape.requests).toHaveLength(3);
    expect(store.reserved.size + store.held.size).toBe(0);
  });

  it('an item whose URL no longer plans (a site or page type refused now) fails without a fetch or a reservation', async () => {
    const caller = await account('starter');
    const store = new MemoryStore(storage, secrets, caller);
    const id = store.add(0, 'https://example.com/not-a-site');
    queue.add({ id, groupId: store.batchId, accountId: caller.account.id, host: 'example.com', order: 0 });
    start([store]);
    await until(() => store.state(id) === 'failed', 'failed');
    expect(store.items.get(id)!.outcome).toMatchObject({
      state: 'failed',
      error: { code: 'site_not_supported', status: 422, retryable: false },
      record: null,
    });
    expect(scrape.requests).toHaveLength(0);
  });
});

describe('outages and wake-ups', () => {
  it('a queue that fails backs off up to 5 s and resumes without a restart', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 1);
    const rounds: number[] = [];
    const lanesWithWork = queue.lanesWithWork.bind(queue);
    queue.lanesWithWork = async () => {
      rounds.push(clock.now());
      return lanesWithWork();
    };
    queue.down = true;
    start([store]);
    await clock.advance(30_000);
    // Each failed round waits longer than the last, never past 5 s.
    const gaps = rounds.slice(1).map((t, i) => t - rounds[i]!);
    expect(gaps.slice(0, 6)).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000]);
    expect(Math.max(...gaps)).toBe(5_000);
    expect(store.state(ids[0]!)).toBe('queued');
    queue.down = false;
    await clock.advance(5_000);
    await until(() => store.state(ids[0]!) === 'ready', 'ready after the outage');
    expect(store.writes).toBe(1);
  });

  it('an outcome the database refused is written again once it is back, exactly once', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 2);
    store.failWrites = 3;
    start([store]);
    await until(() => scrape.requests.length === 1, 'first run');
    // The first write and two retries fail (rounds back off); then it lands, and the second item runs.
    for (let i = 0; i < 10 && !ids.every((id) => store.state(id) === 'ready'); i++) await clock.advance(pollMs);
    expect(ids.map((id) => store.state(id))).toEqual(['ready', 'ready']);
    expect(store.writes).toBe(2);
    expect([...store.held.values()]).toEqual([1, 1]);
    expect(scrape.requests).toHaveLength(2);
  });

  it('a claim that committed but lost its answer is queued again by its live holder and runs once', async () => {
    const caller = await account('starter');
    const { store, ids } = batchOf(caller, 2);
    queue.loseClaimAnswers = 1;
    start([store]);
    // The failed round backs off 250 ms; the next gives the item back and claims again.
    for (let i = 0; i < 10 && !ids.every((id) => store.state(id) === 'ready'); i++) await clock.advance(pollMs);
    expect(ids.map((id) => store.state(id))).toEqual(['ready', 'ready']);
    // The lost claim's item was given back (its attempt counted), then claimed again and run: one fetch each.
    expect(scrape.requests).toHaveLength(2);
    expect(store.items.get(ids[0]!)!.record.attempts).toBe(2);
    expect(await queue.heldBy(instanceId)).toEqual([]);
  });

  it('wake() claims new work at once; without it the poll finds it within pollMs', async () => {
    const caller = await account('starter');
    const woken = new MemoryStore(storage, secrets, caller);
    const polled = new MemoryStore(storage, secrets, caller);
    const first = woken.add(0);
    const second = polled.add(0);
    const work = (id: string, store: MemoryStore): NewWork => ({
      id,
      groupId: store.batchId,
      accountId: caller.account.id,
      host: 'www.ikebe-gakki.com',
      order: 0,
    });
    start([woken, polled]);
    await settleLoop();
    queue.add(work(first, woken));
    dispatcher!.wake();
    await until(() => woken.state(first) === 'ready', 'woken');
    await settleLoop();
    queue.add(work(second, polled));
    await clock.advance(pollMs - 1);
    expect(polled.state(second)).toBe('queued');
    await clock.advance(1);
    await until(() => polled.state(second) === 'ready', 'polled');
  });

  it('close() waits for the item in flight and records it; nothing more is claimed', async () => {
    const caller = await account('growth');
    const { store, ids } = batchOf(caller, 2);
    const g = gate<void>();
    scrape.answer = async (request) => {
      await g.promise;
      return completed(request);
    };
    const d = start([store]);
    await until(() => scrape.requests.length === 1, 'first run');
    const closing = d.close();
    await clock.advance(0);
    g.open();
    await closing;
    expect(ids.map((id) => store.state(id))).toEqual(['ready', 'queued']);
    expect(scrape.requests).toHaveLength(1);
  });
});

describe('paramsOf', () => {
  it("an item's params over its batch's over a call's defaults; never an artifact", () => {
    expect(paramsOf({}, null)).toEqual({
      mode: 'html_json',
      work_type: 'auto',
      include_html: false,
      store_artifact: false,
      render_js: false,
    });
    expect(
      paramsOf({ mode: 'html', work_type: 'item', render_js: true }, { mode: 'html_json', store_artifact: true }),
    ).toEqual({ mode: 'html_json', work_type: 'item', include_html: false, store_artifact: false, render_js: true });
  });
});
