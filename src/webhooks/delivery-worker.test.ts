// The DeliveryWorker over an in-memory Outbox (the real one is the batch store's): signing, backoff with jitter,
// Retry-After, results_expire_at, 410, the per-endpoint in-flight cap and the thin rule, on a ManualClock.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { DueDelivery, Outbox, RenderedDelivery } from '../batches/batch-store.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import { ManualClock } from '../time/clock.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { newId } from '../accounts/ids.js';
import { KyselyWebhookEndpointStore } from './kysely-webhook-endpoint-store.js';
import { DeliveryWorker, nextAttemptAt } from './delivery-worker.js';
import type { SendOutcome, WebhookSender } from './webhook-transport.js';

const schedule = [5000, 300000, 1800000, 7200000, 18000000, 36000000, 50400000, 72000000, 86400000];
const start = Date.parse('2026-11-28T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

interface FakeEvent {
  due: DueDelivery;
  nextAt: number;
  state: 'pending' | 'delivered' | 'failed';
  lease: { holder: string; until: number } | null;
  fullFailures: number;
  resultSealed: Uint8Array | null;
  calls: { kind: 'delivered' | 'failed'; full: boolean; status: number | null; nextAttemptAt?: string | null }[];
}

/** The Outbox contract's rules, in memory: exclusive leases, the per-endpoint cap, thin after 3 full failures. */
class MemoryOutbox implements Outbox {
  readonly events = new Map<string, FakeEvent>();
  readonly perEndpointAsked: number[] = [];

  add(event: FakeEvent): void {
    this.events.set(event.due.eventId, event);
  }

  async claimDue(now: string, holder: string, leaseUntil: string, limit: number, perEndpoint: number) {
    this.perEndpointAsked.push(perEndpoint);
    const t = Date.parse(now);
    const leased = new Map<string, number>();
    for (const e of this.events.values()) {
      if (e.lease && e.lease.until > t) leased.set(e.due.endpointId, (leased.get(e.due.endpointId) ?? 0) + 1);
    }
    const out: DueDelivery[] = [];
    for (const e of this.events.values()) {
      if (out.length >= limit) break;
      if (e.state !== 'pending' || e.nextAt > t || (e.lease && e.lease.until > t)) continue;
      const n = leased.get(e.due.endpointId) ?? 0;
      if (n >= perEndpoint) continue;
      leased.set(e.due.endpointId, n + 1);
      e.lease = { holder, until: Date.parse(leaseUntil) };
      out.push({ ...e.due, attempts: e.calls.filter((c) => c.kind === 'failed').length });
    }
    return out;
  }

  async render(delivery: DueDelivery, open: (s: Uint8Array) => Buffer, forceThin?: boolean): Promise<RenderedDelivery> {
    const e = this.events.get(delivery.eventId)!;
    const full = !forceThin && e.due.payload === 'full' && e.fullFailures < 3 && e.resultSealed !== null;
    const data: Record<string, unknown> = { batch_id: delivery.batchId, item_id: delivery.itemId };
    if (full) data.result = JSON.parse(open(e.resultSealed!).toString('utf8'));
    else data.result_url = `/v1/batches/${delivery.batchId}/items`;
    return { body: JSON.stringify({ type: delivery.type, timestamp: delivery.createdAt, data }), full };
  }

  async delivered(eventId: string, holder: string, full: boolean, status: number) {
    const e = this.events.get(eventId)!;
    if (e.lease?.holder !== holder) throw new Error('not the holder');
    e.lease = null;
    e.state = 'delivered';
    e.calls.push({ kind: 'delivered', full, status });
    return { charged: full };
  }

  async failed(
    eventId: string,
    holder: string,
    result: { status: number | null; full: boolean; nextAttemptAt: string | null },
  ) {
    const e = this.events.get(eventId)!;
    if (e.lease?.holder !== holder) throw new Error('not the holder');
    e.lease = null;
    if (result.full) e.fullFailures++;
    e.calls.push({ kind: 'failed', ...result });
    if (result.nextAttemptAt === null) e.state = 'failed';
    else e.nextAt = Date.parse(result.nextAttemptAt);
  }

  async releaseExpiredLeases(now: string) {
    let n = 0;
    for (const e of this.events.values()) {
      if (e.lease && e.lease.until <= Date.parse(now)) {
        e.lease = null;
        n++;
      }
    }
    return n;
  }
}

/** A receiver by script: each call takes the next answer (the last repeats); `gate` holds answers back. */
class ScriptedSender implements WebhookSender {
  readonly sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  gate: Promise<void> | null = null;
  constructor(private readonly answers: SendOutcome[]) {}
  async send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    this.sent.push({ url, headers, body });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.gate) await this.gate;
      return this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
    } finally {
      this.inFlight--;
    }
  }
}

let storage: KyselyStorage;
let endpoints: KyselyWebhookEndpointStore;
let secrets: AesGcmSecrets;
let clock: ManualClock;
let outbox: MemoryOutbox;
let accountId: string;
let endpointId: string;
let secret: string;

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  secrets = new AesGcmSecrets(randomBytes(32));
  endpoints = new KyselyWebhookEndpointStore(storage.db, secrets);
  clock = new ManualClock(start);
  outbox = new MemoryOutbox();
  accountId = newId('acc');
  await storage.accounts.create({ id: accountId, plan: 'starter', overageCapCredits: 0, createdAt: iso(start) });
  const created = await endpoints.create({
    id: newId('whe'),
    accountId,
    url: 'https://hooks.example.com/kumo',
    events: ['item.succeeded'],
    createdAt: iso(start),
  });
  endpointId = created.endpoint.id;
  secret = created.secret;
});
afterEach(async () => {
  await storage.close();
});

/** An item event whose result is sealed with its batch's data key, as the dispatcher leaves it. */
function addEvent(options: { expiresInMs?: number; endpoint?: string; shredded?: boolean } = {}): FakeEvent {
  const batchId = newId('bat');
  const itemId = newId('itm');
  const { box, sealed } = secrets.newDataKey(batchId);
  const event: FakeEvent = {
    due: {
      eventId: newId('evt'),
      accountId,
      batchId,
      itemId,
      type: 'item.succeeded',
      sequence: 1,
      endpointId: options.endpoint ?? endpointId,
      attempts: 0,
      payload: 'full',
      createdAt: iso(start),
      resultsExpireAt: iso(start + (options.expiresInMs ?? 24 * 3_600_000)),
      dataKeySealed: options.shredded ? null : sealed,
    },
    nextAt: start,
    state: 'pending',
    lease: null,
    fullFailures: 0,
    resultSealed: box.seal(JSON.stringify({ data: { title: 'marker-価格' } }), itemId),
    calls: [],
  };
  outbox.add(event);
  return event;
}

function worker(
  sender: WebhookSender,
  random = () => 0.5,
  extra: Partial<ConstructorParameters<typeof DeliveryWorker>[0]> = {},
) {
  return new DeliveryWorker({
    outbox,
    endpoints,
    secrets,
    sender,
    clock,
    holder: 'ins_test',
    retryScheduleMs: schedule,
    timeoutMs: 15_000,
    random,
    ...extra,
  });
}

describe('DeliveryWorker', () => {
  it('delivers a full, signed body that standardwebhooks verifies, and records a full 2xx', async () => {
    const event = addEvent();
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    expect(await worker(sender).runOnce()).toBe(1);
    const sent = sender.sent[0]!;
    expect(sent.url).toBe('https://hooks.example.com/kumo');
    expect(sent.headers).toMatchObject({
      'webhook-id': event.due.eventId,
      'webhook-timestamp': String(start / 1000),
      'content-type': 'application/json',
      'user-agent': 'Kumo-Webhooks/1',
    });
    expect(JSON.parse(sent.body).data.result).toEqual({ data: { title: 'marker-価格' } });
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    try {
      expect(new Webhook(secret).verify(sent.body, sent.headers)).toEqual(JSON.parse(sent.body));
    } finally {
      vi.useRealTimers();
    }
    expect(event.calls).toEqual([{ kind: 'delivered', full: true, status: 200 }]);
  });

  it('backs off on the schedule with ±20 % jitter: not due before, due at the jittered time', async () => {
    const event = addEvent();
    const sender = new ScriptedSender([{ kind: 'answered', status: 500 }]);
    const w = worker(sender, () => 0); // the low edge: 0.8 × 5 s
    await w.runOnce();
    expect(event.calls[0]).toEqual({ kind: 'failed', full: true, status: 500, nextAttemptAt: iso(start + 4000) });
    await clock.advance(3999);
    expect(await w.runOnce()).toBe(0);
    await clock.advance(1);
    expect(await w.runOnce()).toBe(1);
    // Second failure: the schedule's second wait, 300 s × 0.8.
    expect(event.calls[1]!.nextAttemptAt).toBe(iso(start + 4000 + 240_000));
  });

  it('keeps every jittered wait within ±20 % of the schedule', () => {
    for (const [i, base] of schedule.entries()) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999999]) {
        const at = nextAttemptAt(
          { attempts: i, resultsExpireAt: iso(start + 10 * 86_400_000) },
          start,
          schedule,
          () => r,
        );
        const wait = Date.parse(at!) - start;
        expect(wait).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(wait).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }
    }
    expect(
      nextAttemptAt({ attempts: schedule.length, resultsExpireAt: iso(start + 1e12) }, start, schedule, () => 0.5),
    ).toBeNull();
  });

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    const event = addEvent();
    const sender = new ScriptedSender([{ kind: 'answered', status: 429, retryAfterMs: 600_000 }]);
    await worker(sender).runOnce();
    expect(event.calls[0]!.nextAttemptAt).toBe(iso(start + 600_000));
  });

  it('never schedules past results_expire_at: that delivery has failed for good', async () => {
    const event = addEvent({ expiresInMs: 60_000 });
    const sender = new ScriptedSender([{ kind: 'failed', failure: 'timeout' }]);
    const w = worker(sender, () => 0.5);
    await w.runOnce(); // next at +5 s: inside
    expect(event.calls[0]).toMatchObject({ kind: 'failed', status: null, nextAttemptAt: iso(start + 5000) });
    await clock.advance(5000);
    await w.runOnce(); // next would be +300 s: past expiry
    expect(event.calls[1]).toMatchObject({ kind: 'failed', nextAttemptAt: null });
    expect(event.state).toBe('failed');
  });

  it('counts a redirect as a failure with its status', async () => {
    const event = addEvent();
    await worker(new ScriptedSender([{ kind: 'failed', failure: 'redirect', status: 302 }])).runOnce();
    expect(event.calls[0]).toMatchObject({ kind: 'failed', status: 302, full: true });
  });

  it('counts every attempt by result for GET /metrics: the answer class, 410 apart, or how it failed', async () => {
    const results: string[] = [];
    const metrics = { webhookDelivered: (result: string) => void results.push(result) };
    const answers: SendOutcome[] = [
      { kind: 'answered', status: 200 },
      { kind: 'answered', status: 503 },
      { kind: 'answered', status: 404 },
      { kind: 'failed', failure: 'timeout' },
    ];
    for (const answer of answers) {
      addEvent();
      await worker(new ScriptedSender([answer]), () => 0.5, { metrics }).runOnce();
    }
    expect(results).toEqual(['2xx', '5xx', '4xx', 'timeout']);
  });

  it('410 disables the endpoint and fails the event; later events to it fail without a connection', async () => {
    const first = addEvent();
    const sender = new ScriptedSender([{ kind: 'answered', status: 410 }]);
    const w = worker(sender);
    await w.runOnce();
    expect(first.calls).toEqual([{ kind: 'failed', status: 410, full: true, nextAttemptAt: null }]);
    expect((await endpoints.get(endpointId, accountId))!.disabledReason).toMatch(/410/);
    const second = addEvent();
    await w.runOnce();
    expect(second.calls).toEqual([{ kind: 'failed', status: null, full: false, nextAttemptAt: null }]);
    expect(sender.sent).toHaveLength(1);
  });

  it('a deleted or unknown endpoint fails the event without sending', async () => {
    const unknown = addEvent({ endpoint: 'whe_NOPE' });
    await endpoints.delete(endpointId, accountId, iso(start));
    const deleted = addEvent();
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    await worker(sender).runOnce();
    expect(sender.sent).toHaveLength(0);
    for (const e of [unknown, deleted]) expect(e.state).toBe('failed');
  });

  it('never sends an event type the endpoint did not subscribe to (it fails, uncharged)', async () => {
    const event = addEvent();
    event.due.type = 'batch.completed';
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    await worker(sender).runOnce();
    expect(sender.sent).toHaveLength(0);
    expect(event.calls).toEqual([{ kind: 'failed', status: null, full: false, nextAttemptAt: null }]);
  });

  it('keeps at most 4 in flight per endpoint, claiming again as each finishes', async () => {
    const events = Array.from({ length: 10 }, () => addEvent());
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    let release!: () => void;
    sender.gate = new Promise<void>((resolve) => (release = resolve));
    const w = worker(sender);
    w.start();
    await vi.waitFor(() => expect(sender.inFlight).toBe(4));
    expect(outbox.perEndpointAsked.every((n) => n === 4)).toBe(true);
    release();
    await vi.waitFor(() => expect(events.every((e) => e.state === 'delivered')).toBe(true));
    await w.stop();
    expect(sender.maxInFlight).toBe(4);
  });

  it('after 3 failed full deliveries the event goes thin; a 2xx to thin is recorded as not full', async () => {
    const event = addEvent();
    const answers: SendOutcome[] = [
      { kind: 'answered', status: 500 },
      { kind: 'answered', status: 502 },
      { kind: 'answered', status: 500 },
      { kind: 'answered', status: 200 },
    ];
    const sender = new ScriptedSender(answers);
    const w = worker(sender, () => 0.5);
    for (let i = 0; i < 4; i++) {
      expect(await w.runOnce()).toBe(1);
      await clock.advance(2 * 3_600_000);
    }
    expect(event.calls.map((c) => [c.kind, c.full])).toEqual([
      ['failed', true],
      ['failed', true],
      ['failed', true],
      ['delivered', false],
    ]);
    const last = JSON.parse(sender.sent[3]!.body);
    expect(last.data.result).toBeUndefined();
    expect(last.data.result_url).toBeDefined();
    expect(sender.sent[3]!.body).not.toContain('marker');
  });

  it('renders thin when the batch data key is shredded', async () => {
    const event = addEvent({ shredded: true });
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    await worker(sender).runOnce();
    expect(event.calls).toEqual([{ kind: 'delivered', full: false, status: 200 }]);
  });

  it('signs with both secrets during a rotation', async () => {
    addEvent();
    const rotated = await endpoints.rotate(endpointId, accountId, iso(start));
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    await worker(sender).runOnce();
    const sent = sender.sent[0]!;
    expect(sent.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    try {
      for (const s of [secret, rotated!.secret]) expect(new Webhook(s).verify(sent.body, sent.headers)).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DeliveryWorker loop', () => {
  it('claims on wake() at once, and otherwise at the next poll (≤ 1 s)', async () => {
    const sender = new ScriptedSender([{ kind: 'answered', status: 200 }]);
    const w = worker(sender, () => 0.5, { pollMs: 5_000 });
    w.start();
    await clock.advance(0);
    const first = addEvent();
    // The poll is capped at 1 s whatever was asked: moving the clock 1 s finds the new event.
    await clock.advance(1_000);
    await vi.waitFor(() => expect(first.state).toBe('delivered'));
    const second = addEvent();
    w.wake();
    await vi.waitFor(() => expect(second.state).toBe('delivered'));
    await w.stop();
    expect(sender.sent).toHaveLength(2);
  });
});
