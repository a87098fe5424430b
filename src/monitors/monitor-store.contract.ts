// The behaviour every MonitorStore must show; kysely-monitor-store.sqlite.test.ts and .postgres.test.ts run it on real
// databases: definitions, the scheduler's exclusive claim, a check's run with its charge and verdict, failures,
// pauses, history and its purge, DELETE's purge, and the alerts' outbox.
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import { ManualClock } from '../time/clock.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import type { HoldTransaction } from '../storage/kysely/kysely-credit-ledger.js';
import type { RunOutcome } from '../batches/batch-store.js';
import type { NewWork } from '../batches/work-queue.js';
import { completedRequest } from '../../test/support/request-records.js';
import { createAccountWithKey } from '../../test/support/accounts.js';
import { KyselyMonitorStore } from './kysely-monitor-store.js';
import { defaultNoise, type Rule } from './model.js';
import type { NewMonitor } from './monitor-store.js';

export interface MonitorStoreBackend {
  storage: KyselyStorage;
  /** The SQLite file (and its -wal), for the storage audit; null on PostgreSQL. */
  file: string | null;
  runTransaction?: HoldTransaction;
}

const minute = 60_000;
const day = 86_400_000;
const monitorTables = [
  'monitors',
  'monitor_targets',
  'monitor_checks',
  'monitor_history',
  'monitor_events',
  'monitor_deliveries',
] as const;

export function describeMonitorStoreContract(name: string, make: () => Promise<MonitorStoreBackend>): void {
  describe(`${name}: MonitorStore contract`, () => {
    let backend: MonitorStoreBackend;
    let storage: KyselyStorage;
    let store: KyselyMonitorStore;
    let clock: ManualClock;
    let accountId: string;
    let keyId: string;
    let wakes = 0;
    const secrets = new AesGcmSecrets(randomBytes(32));

    beforeEach(async () => {
      backend = await make();
      storage = backend.storage;
      await storage.migrate();
      clock = new ManualClock(Date.parse('2026-11-20T00:00:00.000Z'));
      wakes = 0;
      store = new KyselyMonitorStore(storage, {
        clock,
        onDeliveries: () => (wakes += 1),
        ...(backend.runTransaction ? { runTransaction: backend.runTransaction } : {}),
      });
      ({ accountId, keyId } = await newAccount());
    });

    afterEach(async () => {
      await storage.close();
    });

    const nowIso = () => new Date(clock.now()).toISOString();

    async function newAccount(): Promise<{ accountId: string; keyId: string }> {
      const { account, key } = await createAccountWithKey(storage, { createdAt: nowIso() });
      return { accountId: account.id, keyId: key.id };
    }

    function newMonitor(changes: Partial<NewMonitor> = {}, targets = 1): NewMonitor {
      const id = changes.id ?? newId('mon');
      const { box, sealed } = secrets.newDataKey(id);
      return {
        id,
        accountId,
        keyId,
        name: 'WH-1000XM5 競合価格',
        schedule: { every_minutes: 60, cron: null, timezone: 'Asia/Tokyo', calendar: null },
        jitterS: 0,
        anchorAt: nowIso(),
        nextRunAt: nowIso(),
        watch: ['price', 'price_tax', 'availability'],
        rules: [],
        noise: { ...defaultNoise },
        alertAfter: 3,
        notify: { webhook: { endpoint_id: 'whe_test' }, language: 'ja', channels: [] },
        channelsSealed: null,
        dataKeySealed: sealed,
        retainDays: null,
        maxCreditsPerMonth: null,
        checksPerDay: 24,
        createdAt: nowIso(),
        targets: Array.from({ length: targets }, (_, index) => {
          const targetId = newId('tgt');
          const url = `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${700000 + index}`;
          return {
            id: targetId,
            index,
            url,
            urlSealed: box.seal(url, `url:${targetId}`),
            ref: `SKU-${index}`,
            host: 'www.ikebe-gakki.com',
            siteId: 'ikebe_gakki',
            pageType: 'item',
            route: 'http',
            costMax: 1,
          };
        }),
        ...changes,
      };
    }

    /** Claims everything due now; the work queued is returned. */
    async function tick(): Promise<NewWork[]> {
      const queued: NewWork[] = [];
      await store.claimDue({
        now: nowIso(),
        limit: 500,
        next: (monitor) => new Date(Date.parse(monitor.nextRunAt) + 60 * minute).toISOString(),
        enqueue: async (_tx, work) => {
          queued.push(...work);
        },
      });
      return queued;
    }

    const workDone = async () => true;
    const period = () => periodOf(new Date(clock.now()));

    /** One check run to its outcome: claim, reserve 1 credit, then `outcome` (a ready page with `data`, or a failure). */
    async function runCheck(
      checkId: string,
      outcome: { data: Record<string, unknown> } | { state: 'failed' | 'not_found'; code?: string; status?: number },
    ): Promise<boolean> {
      const requestId = newId('req');
      const toRun = await storage.db
        .transaction()
        .execute((tx) => store.markRunning(tx, checkId, 'ins_a', requestId, nowIso()));
      expect(toRun).not.toBeNull();
      const reserved = await store.reserve(checkId, 'ins_a', {
        requestId,
        period: period(),
        cost: 1,
        accountLimit: 25_000,
        keyLimit: null,
        expiresAt: new Date(clock.now() + 10 * minute).toISOString(),
      });
      if (!reserved.ok) {
        return store.finishRun(
          checkId,
          'ins_a',
          {
            state: 'skipped',
            requestId: null,
            error: { code: 'credits_exhausted', status: 429, retryable: false },
            record: null,
          },
          workDone,
        );
      }
      const ids = { accountId, keyId };
      let run: RunOutcome;
      if ('data' in outcome) {
        run = {
          state: 'ready',
          requestId,
          costUnits: 1,
          route: 'http',
          sealResult: () => new Uint8Array([1]),
          record: completedRequest(ids, { requestId, costUnits: 0 }),
          body: { url: 'https://www.ikebe-gakki.com/', data: outcome.data },
        };
      } else {
        const code = outcome.code ?? (outcome.state === 'not_found' ? 'not_found' : 'fetch_failed');
        run = {
          state: outcome.state,
          requestId,
          error: { code: code as never, status: outcome.status ?? 502, retryable: false },
          record: completedRequest(ids, {
            requestId,
            status: outcome.state,
            errorCode: code,
            costUnits: 0,
            httpStatus: outcome.status ?? null,
          }),
        };
      }
      return store.finishRun(checkId, 'ins_a', run, workDone);
    }

    async function checkNow(monitorId: string, outcome: Parameters<typeof runCheck>[1]): Promise<string> {
      // A second between checks, as between real ones: ids and times order them.
      await clock.advance(1000);
      const checks = await store.runNow(monitorId, accountId, nowIso(), async () => undefined);
      expect(checks).toHaveLength(1);
      expect(await runCheck(checks![0]!.id, outcome)).toBe(true);
      return checks![0]!.id;
    }

    const item = (price: number, extra: Record<string, unknown> = {}) => ({
      title: 'WH-1000XM5 marker-title-0xC0FFEE',
      price,
      currency: 'JPY',
      price_tax: 'included',
      availability: 'in_stock',
      ...extra,
    });

    async function eventTypes(monitorId: string): Promise<string[]> {
      return (await store.events(monitorId, accountId, 100)).map((event) => event.type).reverse();
    }

    async function charged(): Promise<number> {
      const entries = await storage.ledger.entries(accountId);
      return entries.reduce((sum, entry) => sum + entry.credits, 0);
    }

    it('creates, reads, lists, counts and updates only the account’s own monitors', async () => {
      const made = await store.create(newMonitor({}, 2));
      expect(made.targets.map((t) => t.ref)).toEqual(['SKU-0', 'SKU-1']);
      expect(made.targets[0]!.state.last).toBeNull();
      expect(made.status).toBe('active');
      const other = await newAccount();
      expect(await store.get(made.id, other.accountId)).toBeNull();
      expect((await store.list(accountId, 10)).map((m) => m.id)).toEqual([made.id]);
      expect(await store.count(accountId)).toBe(1);
      const paused = await store.update(made.id, accountId, { status: 'paused', nextRunAt: null, updatedAt: nowIso() });
      expect(paused).toMatchObject({ status: 'paused', pausedReason: 'caller', nextRunAt: null });
      expect(await store.update(made.id, other.accountId, { name: 'x', updatedAt: nowIso() })).toBeNull();
    });

    it('createOnce: one monitor per Idempotency-Key and account, even in parallel; another body conflicts', async () => {
      const key = 'create-monitor-7f3a';
      const parallel = await Promise.all(
        Array.from({ length: 5 }, () => store.createOnce(newMonitor({}, 2), { key, bodyHash: 'h1' })),
      );
      const created = parallel.filter((r) => r.outcome === 'created');
      expect(created).toHaveLength(1);
      const madeId = created[0]!.outcome === 'conflict' ? null : created[0]!.monitor.id;
      for (const r of parallel) expect(r).toMatchObject({ monitor: { id: madeId } });
      expect(await store.count(accountId)).toBe(1);
      expect(await store.byIdempotencyKey(accountId, key)).toMatchObject({ monitor: { id: madeId }, bodyHash: 'h1' });
      // The same key with another body: a conflict naming the monitor; nothing made.
      expect(await store.createOnce(newMonitor(), { key, bodyHash: 'h2' })).toEqual({
        outcome: 'conflict',
        monitorId: madeId,
      });
      // Another account's key space is its own; a key is not needed to create.
      const other = await newAccount();
      const theirs = await store.createOnce(
        { ...newMonitor(), accountId: other.accountId, keyId: other.keyId },
        {
          key,
          bodyHash: 'h1',
        },
      );
      expect(theirs.outcome).toBe('created');
      expect(await store.byIdempotencyKey(other.accountId, 'unused')).toBeNull();
      await store.create(newMonitor());
      expect(await store.count(accountId)).toBe(2);
      // Deleting the monitor frees its key: the next creation under it makes a new monitor.
      expect(await store.delete(madeId!, accountId, async () => [])).toBe(true);
      expect(await store.byIdempotencyKey(accountId, key)).toBeNull();
      const again = await store.createOnce(newMonitor(), { key, bodyHash: 'h2' });
      expect(again.outcome).toBe('created');
    });

    it('claims due monitors once, advances them and queues a check per target; an open check makes the next skipped', async () => {
      const due = await store.create(newMonitor({}, 2));
      const later = await store.create(newMonitor({ nextRunAt: new Date(clock.now() + 5 * minute).toISOString() }));
      const work = await tick();
      expect(work.map((w) => w.groupId)).toEqual([due.id, due.id]);
      expect(work.every((w) => w.host === 'www.ikebe-gakki.com' && w.accountId === accountId)).toBe(true);
      expect((await store.get(due.id, accountId))!.nextRunAt).toBe(new Date(clock.now() + 60 * minute).toISOString());
      expect(await tick()).toEqual([]);
      await clock.advance(60 * minute);
      // The first checks are still queued: the second run records skipped checks (free) and queues nothing.
      expect((await tick()).map((w) => w.groupId)).toEqual([later.id]);
      const checks = await store.checks(due.id, accountId, { limit: 10 });
      expect(checks.map((c) => [c.state, c.reason])).toEqual([
        ['skipped', 'overlap'],
        ['skipped', 'overlap'],
        ['queued', null],
        ['queued', null],
      ]);
    });

    it('three claimers at once take each due monitor exactly once', async () => {
      for (let i = 0; i < 60; i += 1) await store.create(newMonitor());
      const queued: string[] = [];
      const claim = () =>
        store.claimDue({
          now: nowIso(),
          limit: 7,
          next: (monitor) => new Date(Date.parse(monitor.nextRunAt) + 60 * minute).toISOString(),
          enqueue: async (_tx, work) => {
            queued.push(...work.map((w) => w.groupId));
          },
        });
      const claimer = async () => {
        let total = 0;
        for (;;) {
          const { monitors } = await claim();
          total += monitors;
          if (monitors === 0) return total;
        }
      };
      const totals = await Promise.all([claimer(), claimer(), claimer()]);
      expect(totals.reduce((a, b) => a + b, 0)).toBe(60);
      expect(new Set(queued).size).toBe(60);
      expect(queued).toHaveLength(60);
    });

    it('a good check is charged when it completes; the first sets the baseline, a change alerts with its delta', async () => {
      const monitor = await store.create(newMonitor());
      await checkNow(monitor.id, { data: item(1000) });
      expect(await charged()).toBe(1);
      await checkNow(monitor.id, { data: item(1000) });
      const changed = await checkNow(monitor.id, { data: item(900) });
      expect(await charged()).toBe(3);
      const [check] = await store.checks(monitor.id, accountId, { limit: 1 });
      expect(check).toMatchObject({ id: changed, state: 'completed', costUnits: 1 });
      expect(check!.changes).toEqual([{ field: 'price', before: 1000, after: 900, delta: -100, delta_pct: -10 }]);
      expect(await eventTypes(monitor.id)).toEqual(['monitor.alert']);
      const [alert] = await store.events(monitor.id, accountId, 1);
      const data = JSON.parse(alert!.data);
      expect(data).toMatchObject({ monitor_id: monitor.id, check_id: changed, ref: 'SKU-0', cost_units: 1 });
      expect(data.current).toMatchObject({ price: 900, price_tax: 'included', availability: 'in_stock' });
      // Only watched fields are kept: the title (and its marker) is nowhere in the event or the target.
      expect(alert!.data).not.toContain('marker-title');
      const target = (await store.get(monitor.id, accountId))!.targets[0]!;
      expect(target.state.last).toEqual({ price: 900, price_tax: 'included', availability: 'in_stock' });
      expect(wakes).toBeGreaterThan(0);
    });

    it('failure is not change: 1,000, three failures, 1,000 → one check.failed, three free checks, no alert', async () => {
      const monitor = await store.create(newMonitor());
      await checkNow(monitor.id, { data: item(1000) });
      for (let i = 0; i < 3; i += 1) await checkNow(monitor.id, { state: 'failed', code: 'fetch_failed', status: 502 });
      await checkNow(monitor.id, { data: item(1000) });
      const checks = await store.checks(monitor.id, accountId, { limit: 10 });
      expect(checks.map((c) => [c.state, c.costUnits])).toEqual([
        ['completed', 1],
        ['failed', 0],
        ['failed', 0],
        ['failed', 0],
        ['completed', 1],
      ]);
      expect(checks[0]!.changes).toEqual([]);
      expect(await eventTypes(monitor.id)).toEqual(['monitor.check.failed']);
      expect(await charged()).toBe(2);
      // The ledger charged exactly the completed checks.
      const completed = checks.filter((c) => c.state === 'completed').length;
      expect(await charged()).toBe(completed * 1);
    });

    it('a page gone (404/410) is monitor.target.removed once, free, and never a change', async () => {
      const monitor = await store.create(newMonitor());
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { state: 'not_found', status: 410 });
      await checkNow(monitor.id, { state: 'not_found', status: 410 });
      expect(await eventTypes(monitor.id)).toEqual(['monitor.target.removed']);
      const [event] = await store.events(monitor.id, accountId, 1);
      expect(JSON.parse(event!.data)).toMatchObject({ status: 410 });
      expect((await store.get(monitor.id, accountId))!.targets[0]!.removed).toBe(true);
      await checkNow(monitor.id, { data: item(1000) });
      expect((await store.get(monitor.id, accountId))!.targets[0]!.removed).toBe(false);
      expect(await charged()).toBe(2);
    });

    it('max_credits_per_month pauses the monitor (monitor.paused) instead of overrunning; the check is skipped, free', async () => {
      const monitor = await store.create(newMonitor({ maxCreditsPerMonth: 2 }));
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { data: item(1000) });
      const after = (await store.get(monitor.id, accountId))!;
      expect(after).toMatchObject({ status: 'paused', pausedReason: 'max_credits_per_month', nextRunAt: null });
      expect(after.creditsUsed).toBe(2);
      expect(await eventTypes(monitor.id)).toEqual(['monitor.paused']);
      const [last] = await store.checks(monitor.id, accountId, { limit: 1 });
      expect(last).toMatchObject({ state: 'skipped', reason: 'credits', costUnits: 0 });
      expect(await charged()).toBe(2);
    });

    it('rules: an lte bound fires on entering only, and a new low over the history window', async () => {
      const rules: Rule[] = [
        { id: 'under950', when: { field: 'price', lte: 950 } },
        { id: 'newlow', when: { field: 'price', below_lowest_days: 30 } },
      ];
      const monitor = await store.create(newMonitor({ rules, retainDays: 30 }));
      await checkNow(monitor.id, { data: item(1000) });
      await clock.advance(day);
      await checkNow(monitor.id, { data: item(940) });
      await clock.advance(day);
      await checkNow(monitor.id, { data: item(930) });
      const checks = await store.checks(monitor.id, accountId, { limit: 10 });
      expect(checks.map((c) => c.rulesHit)).toEqual([['newlow'], ['under950', 'newlow'], []]);
    });

    it('history only when asked: a row on change and one per JST day; rows past retain_days are purged', async () => {
      const off = await store.create(newMonitor());
      await checkNow(off.id, { data: item(1000) });
      await checkNow(off.id, { data: item(900) });
      expect(await store.history(off.id, accountId, off.targets[0]!.id, new Date(0).toISOString())).toEqual([]);

      const on = await store.create(newMonitor({ retainDays: 2 }));
      const target = on.targets[0]!.id;
      await checkNow(on.id, { data: item(1000) });
      await clock.advance(minute);
      await checkNow(on.id, { data: item(1000) });
      await clock.advance(minute);
      await checkNow(on.id, { data: item(900) });
      await clock.advance(day);
      await checkNow(on.id, { data: item(900) });
      const points = await store.history(on.id, accountId, target, new Date(0).toISOString());
      expect(points.map((p) => p.values.price)).toEqual([1000, 900, 900]);
      expect(await store.history(on.id, (await newAccount()).accountId, target, new Date(0).toISOString())).toEqual([]);
      await clock.advance(day + 2 * minute);
      await store.sweep(nowIso());
      const kept = await store.history(on.id, accountId, target, new Date(0).toISOString());
      expect(kept.map((p) => p.t)).toEqual([points[2]!.t]);
    });

    it('DELETE purges everything kept for the monitor, and a check running then records nothing and charges nothing', async () => {
      const monitor = await store.create(newMonitor({ retainDays: 30 }));
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { data: item(800) });
      const [open] = (await store.runNow(monitor.id, accountId, nowIso(), async () => undefined))!;
      const requestId = newId('req');
      await storage.db.transaction().execute((tx) => store.markRunning(tx, open!.id, 'ins_a', requestId, nowIso()));
      await store.reserve(open!.id, 'ins_a', {
        requestId,
        period: period(),
        cost: 1,
        accountLimit: 25_000,
        keyLimit: null,
        expiresAt: new Date(clock.now() + 10 * minute).toISOString(),
      });
      const cancelled: string[] = [];
      expect(await store.delete(monitor.id, (await newAccount()).accountId, async () => [])).toBe(false);
      expect(
        await store.delete(monitor.id, accountId, async () => {
          cancelled.push(monitor.id);
          return [];
        }),
      ).toBe(true);
      expect(cancelled).toEqual([monitor.id]);
      for (const table of monitorTables) {
        const rows = await storage.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(rows.n), table).toBe(0);
      }
      const finished = await store.finishRun(
        open!.id,
        'ins_a',
        {
          state: 'ready',
          requestId,
          costUnits: 1,
          route: 'http',
          sealResult: () => new Uint8Array([1]),
          record: completedRequest({ accountId, keyId }, { requestId, costUnits: 0 }),
          body: { data: item(700) },
        },
        workDone,
      );
      expect(finished).toBe(true);
      expect(await charged()).toBe(2);
      expect(await storage.ledger.reservationState(requestId)).toBe('released');
    });

    it('the outbox leases each delivery to one holder; delivered and retried deliveries are guarded by holder', async () => {
      const monitor = await store.create(newMonitor());
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { data: item(900) });
      const lease = new Date(clock.now() + minute).toISOString();
      const [first, second] = await Promise.all([
        store.claimDeliveries(nowIso(), 'ins_a', lease, 10),
        store.claimDeliveries(nowIso(), 'ins_b', lease, 10),
      ]);
      const all = [...first, ...second];
      expect(all).toHaveLength(1);
      const delivery = all[0]!;
      expect(delivery).toMatchObject({ channel: 'webhook', type: 'monitor.alert', webhookEndpointId: 'whe_test' });
      const other = delivery === first[0] ? 'ins_b' : 'ins_a';
      const holder = other === 'ins_a' ? 'ins_b' : 'ins_a';
      await store.deliveryFailed(delivery.id, other, 503, nowIso());
      await store.deliveryFailed(delivery.id, holder, 503, new Date(clock.now() + minute).toISOString());
      expect(await store.claimDeliveries(nowIso(), 'ins_a', lease, 10)).toEqual([]);
      await clock.advance(minute);
      const [again] = await store.claimDeliveries(nowIso(), 'ins_a', new Date(clock.now() + minute).toISOString(), 10);
      expect(again).toMatchObject({ id: delivery.id, attempts: 1 });
      await store.delivered(delivery.id, 'ins_a', 200, nowIso());
      await clock.advance(2 * minute);
      expect(await store.claimDeliveries(nowIso(), 'ins_a', lease, 10)).toEqual([]);
    });

    it('storage audit: a page’s title is never kept, with or without history', async () => {
      const monitor = await store.create(newMonitor({ retainDays: 30 }));
      await checkNow(monitor.id, { data: item(1000) });
      await checkNow(monitor.id, { data: item(900) });
      for (const table of monitorTables) {
        const rows = await storage.db.selectFrom(table).selectAll().execute();
        expect(
          JSON.stringify(rows, (_k, v: unknown) => (v instanceof Uint8Array ? '' : v)),
          table,
        ).not.toContain('marker-title');
      }
      if (backend.file) {
        await storage.close();
        for (const file of [backend.file, `${backend.file}-wal`]) {
          const bytes = await readFile(file).catch(() => Buffer.alloc(0));
          expect(bytes.includes('marker-title')).toBe(false);
        }
        storage = (await make()).storage;
      }
    });
  });
}
