// MonitorService over a real SQLite store: targets through the call's own checks, plan limits with their numbers,
// the host's fair share, the estimate, tokens sealed and masked, PATCH (pause, resume, schedule, history off).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { ManualClock } from '../time/clock.js';
import { newId } from '../accounts/ids.js';
import { SiteRegistry } from '../sites/registry.js';
import { ScrapeService, type ScrapeServiceOptions } from '../scrape/scrape-service.js';
import type { Caller } from '../scrape/caller.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import type { PlanId } from '../storage/storage.js';
import type { NewWork } from '../batches/work-queue.js';
import { KyselyMonitorStore } from './kysely-monitor-store.js';
import { MonitorService, type MonitorBody } from './monitor-service.js';
import { channelsContext } from './monitor-notifier.js';
import type { Channel } from './channels.js';

const ikebe = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const registry = new SiteRegistry();
const scrape = new ScrapeService({ registry, environment: 'production' } as unknown as ScrapeServiceOptions);

let dir: string;
let storage: KyselyStorage;
let store: KyselyMonitorStore;
let clock: ManualClock;
let secrets: AesGcmSecrets;
let queued: NewWork[];
let minIntervalMs: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kumo-monitor-service-'));
  storage = await createSqliteStorage({ path: join(dir, 'kumo.sqlite') });
  await storage.migrate();
  clock = new ManualClock(Date.parse('2026-11-20T00:00:00.000Z'));
  store = new KyselyMonitorStore(storage, { clock });
  secrets = new AesGcmSecrets(randomBytes(32));
  queued = [];
  minIntervalMs = 1000;
});

afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

function service(): MonitorService {
  return new MonitorService({
    store,
    plan: (caller, url, params) => scrape.plan(caller, url, params),
    secrets,
    endpoints: { get: async () => null },
    politeness: () => ({ maxInFlight: 1, minIntervalMs }),
    enqueue: async (_tx, work) => {
      queued.push(...work);
    },
    cancelWork: async () => [],
    clock,
  });
}

async function callerOf(plan: PlanId = 'growth'): Promise<Caller> {
  const createdAt = new Date(clock.now()).toISOString();
  const accountId = newId('acc');
  const account = { id: accountId, plan, overageCapCredits: 0, createdAt };
  await storage.accounts.create(account);
  const key = {
    id: newId('key'),
    accountId,
    displayPrefix: 'kumo_live_test',
    hash: newId('hash').toLowerCase(),
    sites: null,
    operations: ['monitor' as const],
    outputs: null,
    monthlyCreditLimit: null,
    concurrencyLimit: null,
    createdAt,
    revokedAt: null,
    expiresAt: null,
  };
  await storage.keys.create(key);
  return { account, key };
}

const body = (changes: Partial<MonitorBody> = {}): MonitorBody => ({
  targets: [{ url: ikebe, ref: 'SKU-1' }],
  schedule: { every_minutes: 60 },
  ...changes,
});

async function refusal(promise: Promise<unknown>): Promise<KumoError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof KumoError)) throw new Error(`expected a KumoError, got ${String(error)}`);
  return error;
}

describe('MonitorService', () => {
  it('creates a monitor: targets redacted and planned as calls, jitter, next run, and the estimate', async () => {
    const caller = await callerOf('starter');
    const { monitor } = await service().create(caller, body({ schedule: { cron: '0 9 * * *' } }));
    expect(monitor.targets).toEqual([
      expect.objectContaining({ url: ikebe, ref: 'SKU-1', site: 'ikebe_gakki', page_type: 'item', last: null }),
    ]);
    expect(monitor.schedule).toMatchObject({ cron: '0 9 * * *', timezone: 'Asia/Tokyo', calendar: null });
    // 9:00 JST on 11-20 is 00:00 UTC, the clock's time: a run is due at a time plus its jitter, strictly after now, so
    // today's run still counts unless the jitter is 0.
    const jitterMs = monitor.schedule.jitter_s * 1000;
    const day = jitterMs > 0 ? '2026-11-20' : '2026-11-21';
    expect(Date.parse(monitor.schedule.next_run_at!)).toBe(Date.parse(`${day}T00:00:00.000Z`) + jitterMs);
    expect(monitor.estimate).toMatchObject({ checks_per_month: 30, credits_per_month: 30, within_plan: true });
    expect(monitor.estimate!.host_load).toEqual([
      { host: 'www.ikebe-gakki.com', checks_per_day: 1, share_per_day: 43_200 },
    ]);
  });

  it('refuses past the plan, naming the numbers; a bad schedule, field or rule names what is allowed', async () => {
    const free = await callerOf('free');
    const interval = await refusal(service().create(free, body({ schedule: { every_minutes: 60 } })));
    expect(interval.code).toBe('monitor_limit_exceeded');
    expect(interval.message).toMatch(/360/);
    const targets = await refusal(
      service().create(free, body({ schedule: { every_minutes: 360 }, targets: Array(6).fill({ url: ikebe }) })),
    );
    expect(targets.message).toBe('the free plan allows 5 targets per monitor; this one has 6');
    for (let i = 0; i < 3; i += 1) await service().create(free, body({ schedule: { every_minutes: 360 } }));
    const count = await refusal(service().create(free, body({ schedule: { every_minutes: 360 } })));
    expect(count.message).toBe('the free plan allows 3 monitors; this account has 3');
    const growth = await callerOf('growth');
    const history = await refusal(service().create(growth, body({ history: { retain_days: 400 } })));
    expect(history.message).toBe('the growth plan keeps history at most 365 days; asked for 400');
    const watch = await refusal(service().create(growth, body({ watch: ['title' as never] })));
    expect(watch.code).toBe('invalid_request');
    expect(watch.message).toMatch(/allowed: price, price_tax/);
    const page = await refusal(service().create(growth, body({ targets: [{ url: 'https://www.ikebe-gakki.com/' }] })));
    expect(page.code).toBe('page_not_supported');
  });

  it('refuses a monitor past the account’s fair share of a host’s daily capacity, with the numbers', async () => {
    // A host allowing one request a minute: 1,440 a day, half for monitors, shared by the accounts on it.
    minIntervalMs = 60_000;
    const a = await callerOf('growth');
    const b = await callerOf('growth');
    await service().create(a, body({ schedule: { every_minutes: 15 }, targets: Array(3).fill({ url: ikebe }) }));
    const error = await refusal(
      service().create(b, body({ schedule: { every_minutes: 15 }, targets: Array(4).fill({ url: ikebe }) })),
    );
    expect(error.code).toBe('monitor_limit_exceeded');
    expect(error.extras.body).toMatchObject({
      host: 'www.ikebe-gakki.com',
      share_per_day: 360,
      used_per_day: 0,
      adding_per_day: 384,
    });
    await service().create(b, body({ schedule: { every_minutes: 15 }, targets: Array(3).fill({ url: ikebe }) }));
  });

  it('keeps channel tokens sealed under the monitor’s data key and shows only their last 4 characters', async () => {
    const caller = await callerOf();
    const token = 'cw-token-secret-9f8e7d6c';
    const { monitor } = await service().create(
      caller,
      body({ notify: { chatwork: { room_id: '123', token }, language: 'en' } }),
    );
    expect(JSON.stringify(monitor)).not.toContain(token);
    expect(monitor.notify).toMatchObject({ language: 'en', channels: [{ kind: 'chatwork' }] });
    const row = await storage.db
      .selectFrom('monitors')
      .select(['channels_sealed', 'data_key_sealed', 'notify'])
      .executeTakeFirstOrThrow();
    expect(row.notify).not.toContain(token);
    const box = secrets.dataKeyBox(row.data_key_sealed, monitor.id);
    const channels = JSON.parse(box.open(row.channels_sealed!, channelsContext(monitor.id)).toString()) as Channel[];
    expect(channels).toEqual([{ kind: 'chatwork', roomId: '123', token }]);
  });

  it('PATCH pauses (no next run), resumes from now, reschedules, and turns history off', async () => {
    const caller = await callerOf();
    const { monitor } = await service().create(caller, body({ history: { retain_days: 30 } }));
    const paused = await service().update(caller, monitor.id, { status: 'paused' });
    expect(paused.monitor).toMatchObject({ status: 'paused', paused_reason: 'caller' });
    expect(paused.monitor.schedule.next_run_at).toBeNull();
    await clock.advance(3 * 3_600_000);
    const resumed = await service().update(caller, monitor.id, { status: 'active' });
    expect(Date.parse(resumed.monitor.schedule.next_run_at!)).toBeGreaterThan(clock.now());
    const every30 = await service().update(caller, monitor.id, { schedule: { every_minutes: 30 } });
    expect(every30.monitor.schedule.every_minutes).toBe(30);
    const off = await service().update(caller, monitor.id, { history: { retain_days: null } });
    expect(off.monitor.history.retain_days).toBeNull();
    const other = await callerOf();
    expect((await refusal(service().update(other, monitor.id, { name: 'x' }))).code).toBe('not_found');
  });

  it('runs now: a check per target queued on its host, in the monitor’s group', async () => {
    const caller = await callerOf();
    const { monitor } = await service().create(caller, body({ targets: [{ url: ikebe }, { url: ikebe }] }));
    const { checks } = await service().runNow(caller, monitor.id);
    expect(checks.map((c) => [c.state, c.reason])).toEqual([
      ['queued', 'manual'],
      ['queued', 'manual'],
    ]);
    expect(queued.map((w) => [w.groupId, w.host])).toEqual([
      [monitor.id, 'www.ikebe-gakki.com'],
      [monitor.id, 'www.ikebe-gakki.com'],
    ]);
  });
});
