// The MonitorStore over Kysely, for SQLite and PostgreSQL (migration 0013): definitions, the scheduler's claim, reading
// and the alerts' outbox. A check's run steps (the dispatcher's) are in check-runs.ts.
import { sql, PostgresAdapter, type Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { isoOf, toIso } from '../storage/kysely/columns.js';
import { bytesOf, jsonOf } from '../batches/batch-rows.js';
import type { KyselyCreditLedger, HoldTransaction } from '../storage/kysely/kysely-credit-ledger.js';
import type { KyselyRequestLog } from '../storage/kysely/kysely-request-log.js';
import type { NewWork, Tx } from '../batches/work-queue.js';
import { newId } from '../accounts/ids.js';
import { systemClock, type Clock } from '../time/clock.js';
import { emptyTargetState, type MonitorEventType, type MonitorSchedule, type Observation } from './model.js';
import { toCheckRecord, toMonitorRecord, type MonitorRow, type TargetRow } from './monitor-rows.js';
import { KyselyCheckRuns } from './check-runs.js';
import type {
  CheckRecord,
  CreatedOnce,
  ClaimDueOptions,
  ClaimDueResult,
  DueMonitorDelivery,
  HistoryPoint,
  MonitorPatch,
  MonitorRecord,
  MonitorStore,
  NewMonitor,
  ReserveCheck,
} from './monitor-store.js';
import type { RunOutcome } from '../batches/batch-store.js';

export interface MonitorStoreStorage {
  db: Kysely<KumoDatabase>;
  ledger: KyselyCreditLedger;
  requests: KyselyRequestLog;
}

export interface KyselyMonitorStoreOptions {
  clock?: Clock;
  /** How a check's run writes commit (as the batch store's: docs/decisions/0023). */
  runTransaction?: HoldTransaction;
  /** After a transaction that queued deliveries committed (the notifier's wake). */
  onDeliveries?: () => void;
}

/** Rows per INSERT: well inside both backends' limits on bound parameters. */
const insertChunk = 200;
/** Check records are metadata, kept 30 days (as the console shows them). */
const checkRetentionMs = 30 * 86_400_000;

export class KyselyMonitorStore implements MonitorStore {
  readonly #db: Kysely<KumoDatabase>;
  readonly #clock: Clock;
  readonly #postgres: boolean;
  readonly #runs: KyselyCheckRuns;

  constructor(storage: MonitorStoreStorage, options: KyselyMonitorStoreOptions = {}) {
    this.#db = storage.db;
    this.#clock = options.clock ?? systemClock;
    this.#postgres = storage.db.getExecutor().adapter instanceof PostgresAdapter;
    this.#runs = new KyselyCheckRuns(storage, {
      clock: this.#clock,
      runTransaction: options.runTransaction ?? ((db, body) => db.transaction().execute(body)),
      ...(options.onDeliveries ? { onDeliveries: options.onDeliveries } : {}),
    });
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  // ---- definitions --------------------------------------------------------------------------------------------

  async create(monitor: NewMonitor): Promise<MonitorRecord> {
    await this.#db.transaction().execute((tx) => this.#insert(tx, monitor, null));
    return (await this.get(monitor.id, monitor.accountId))!;
  }

  async createOnce(monitor: NewMonitor, idempotency: { key: string; bodyHash: string }): Promise<CreatedOnce> {
    const created = await this.#db.transaction().execute((tx) => this.#insert(tx, monitor, idempotency));
    if (created) return { outcome: 'created', monitor: (await this.get(monitor.id, monitor.accountId))! };
    const earlier = await this.byIdempotencyKey(monitor.accountId, idempotency.key);
    // Made under the key and deleted again in between: nothing to replay, and nothing made now.
    if (!earlier) throw new Error('the monitor made under this Idempotency-Key was deleted meanwhile');
    return earlier.bodyHash === idempotency.bodyHash
      ? { outcome: 'replay', monitor: earlier.monitor }
      : { outcome: 'conflict', monitorId: earlier.monitor.id };
  }

  async byIdempotencyKey(
    accountId: string,
    key: string,
  ): Promise<{ monitor: MonitorRecord; bodyHash: string | null } | null> {
    const row = await this.#db
      .selectFrom('monitors')
      .select(['id', 'body_hash'])
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    const monitor = row ? await this.get(row.id, accountId) : null;
    return row && monitor ? { monitor, bodyHash: row.body_hash } : null;
  }

  /** The monitor and its targets; false (nothing written) when `idempotency`'s key is already the account's. */
  async #insert(tx: Tx, monitor: NewMonitor, idempotency: { key: string; bodyHash: string } | null): Promise<boolean> {
    const inserted = await tx
      .insertInto('monitors')
      .values({
        id: monitor.id,
        account_id: monitor.accountId,
        key_id: monitor.keyId,
        name: monitor.name,
        status: 'active',
        paused_reason: null,
        schedule: JSON.stringify(monitor.schedule),
        jitter_s: monitor.jitterS,
        anchor_at: toIso(monitor.anchorAt),
        next_run_at: toIso(monitor.nextRunAt),
        watch: JSON.stringify(monitor.watch),
        rules: JSON.stringify(monitor.rules),
        noise: JSON.stringify(monitor.noise),
        alert_after: monitor.alertAfter,
        notify: JSON.stringify(monitor.notify),
        channels_sealed: monitor.channelsSealed,
        data_key_sealed: monitor.dataKeySealed,
        retain_days: monitor.retainDays,
        max_credits_per_month: monitor.maxCreditsPerMonth,
        credits_period: null,
        checks_per_day: monitor.checksPerDay,
        created_at: toIso(monitor.createdAt),
        updated_at: toIso(monitor.createdAt),
        idempotency_key: idempotency?.key ?? null,
        body_hash: idempotency?.bodyHash ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'idempotency_key']).where('idempotency_key', 'is not', null).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    // Another creation under this key committed first (PostgreSQL waited for it): this one writes nothing.
    if (!inserted) return false;
    const state = JSON.stringify(emptyTargetState);
    for (let i = 0; i < monitor.targets.length; i += insertChunk) {
      await tx
        .insertInto('monitor_targets')
        .values(
          monitor.targets.slice(i, i + insertChunk).map((target) => ({
            id: target.id,
            monitor_id: monitor.id,
            account_id: monitor.accountId,
            target_index: target.index,
            url: target.url,
            url_sealed: target.urlSealed,
            ref: target.ref,
            host: target.host,
            site_id: target.siteId,
            page_type: target.pageType,
            route: target.route,
            cost_max: target.costMax,
            state,
          })),
        )
        .execute();
    }
    return true;
  }

  async get(monitorId: string, accountId: string): Promise<MonitorRecord | null> {
    const row = await this.#db
      .selectFrom('monitors')
      .selectAll()
      .where('id', '=', monitorId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return null;
    const targets = await this.#db
      .selectFrom('monitor_targets')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .execute();
    return toMonitorRecord(row, targets);
  }

  async list(accountId: string, limit: number, before?: string): Promise<MonitorRecord[]> {
    let query = this.#db
      .selectFrom('monitors')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit);
    if (before !== undefined) query = query.where('id', '<', before);
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const targets = await this.#db
      .selectFrom('monitor_targets')
      .selectAll()
      .where(
        'monitor_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    const byMonitor = new Map<string, TargetRow[]>();
    for (const target of targets) {
      const list = byMonitor.get(target.monitor_id) ?? [];
      list.push(target);
      byMonitor.set(target.monitor_id, list);
    }
    return rows.map((row) => toMonitorRecord(row, byMonitor.get(row.id) ?? []));
  }

  async count(accountId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('monitors')
      .select(sql<number>`count(*)`.as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async dataKey(monitorId: string): Promise<Uint8Array | null> {
    const row = await this.#db
      .selectFrom('monitors')
      .select('data_key_sealed')
      .where('id', '=', monitorId)
      .executeTakeFirst();
    return row ? bytesOf(row.data_key_sealed) : null;
  }

  async update(monitorId: string, accountId: string, patch: MonitorPatch): Promise<MonitorRecord | null> {
    const found = await this.#db.transaction().execute(async (tx) => {
      const set: Record<string, unknown> = { updated_at: toIso(patch.updatedAt) };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.status !== undefined) {
        set.status = patch.status;
        set.paused_reason = patch.status === 'paused' ? 'caller' : null;
      }
      if (patch.schedule !== undefined) set.schedule = JSON.stringify(patch.schedule);
      if (patch.jitterS !== undefined) set.jitter_s = patch.jitterS;
      if (patch.nextRunAt !== undefined) set.next_run_at = patch.nextRunAt === null ? null : toIso(patch.nextRunAt);
      if (patch.watch !== undefined) set.watch = JSON.stringify(patch.watch);
      if (patch.rules !== undefined) set.rules = JSON.stringify(patch.rules);
      if (patch.noise !== undefined) set.noise = JSON.stringify(patch.noise);
      if (patch.alertAfter !== undefined) set.alert_after = patch.alertAfter;
      if (patch.notify !== undefined) set.notify = JSON.stringify(patch.notify);
      if (patch.channelsSealed !== undefined) set.channels_sealed = patch.channelsSealed;
      if (patch.retainDays !== undefined) set.retain_days = patch.retainDays;
      if (patch.maxCreditsPerMonth !== undefined) set.max_credits_per_month = patch.maxCreditsPerMonth;
      if (patch.checksPerDay !== undefined) set.checks_per_day = patch.checksPerDay;
      const row = await tx
        .updateTable('monitors')
        .set(set)
        .where('id', '=', monitorId)
        .where('account_id', '=', accountId)
        .returning('id')
        .executeTakeFirst();
      if (!row) return false;
      if (patch.retainDays !== undefined) await this.#retain(tx, monitorId, patch.retainDays);
      if (patch.watch !== undefined || patch.rules !== undefined) {
        // Another set of watched fields or rules starts from a fresh baseline: the old values may not hold the new ones.
        await tx
          .updateTable('monitor_targets')
          .set({ state: JSON.stringify(emptyTargetState) })
          .where('monitor_id', '=', monitorId)
          .execute();
      }
      return true;
    });
    return found ? this.get(monitorId, accountId) : null;
  }

  /** A new retention applies to the rows kept too: none without history, each row's end moved to t + days. */
  async #retain(tx: Tx, monitorId: string, days: number | null): Promise<void> {
    if (days === null) {
      await tx.deleteFrom('monitor_history').where('monitor_id', '=', monitorId).execute();
      return;
    }
    const rows = await tx
      .selectFrom('monitor_history')
      .select(['target_id', 't'])
      .where('monitor_id', '=', monitorId)
      .execute();
    for (const row of rows) {
      const t = isoOf(row.t);
      await tx
        .updateTable('monitor_history')
        .set({ expires_at: new Date(Date.parse(t) + days * 86_400_000).toISOString() })
        .where('target_id', '=', row.target_id)
        .where('t', '=', toIso(t))
        .execute();
    }
  }

  async delete(monitorId: string, accountId: string, cancelWork: (tx: Tx) => Promise<string[]>): Promise<boolean> {
    return this.#db.transaction().execute(async (tx) => {
      const row = await tx
        .deleteFrom('monitors')
        .where('id', '=', monitorId)
        .where('account_id', '=', accountId)
        .returning('id')
        .executeTakeFirst();
      if (!row) return false;
      await cancelWork(tx);
      // A running check's reservation goes back now: its run finds no check to record and charges nothing.
      await this.#runs.releaseRunning(tx, monitorId);
      await tx.deleteFrom('monitor_deliveries').where('monitor_id', '=', monitorId).execute();
      await tx.deleteFrom('monitor_events').where('monitor_id', '=', monitorId).execute();
      await tx.deleteFrom('monitor_history').where('monitor_id', '=', monitorId).execute();
      await tx.deleteFrom('monitor_checks').where('monitor_id', '=', monitorId).execute();
      await tx.deleteFrom('monitor_targets').where('monitor_id', '=', monitorId).execute();
      return true;
    });
  }

  async hostLoad(host: string, exceptMonitorId?: string): Promise<{ accountId: string; checksPerDay: number }[]> {
    let query = this.#db
      .selectFrom('monitor_targets as t')
      .innerJoin('monitors as m', 'm.id', 't.monitor_id')
      .select(['t.account_id as account_id', sql<number>`sum(m.checks_per_day)`.as('n')])
      .where('t.host', '=', host)
      .where('m.status', '=', 'active')
      .groupBy('t.account_id');
    if (exceptMonitorId !== undefined) query = query.where('m.id', '!=', exceptMonitorId);
    const rows = await query.execute();
    return rows.map((row) => ({ accountId: row.account_id, checksPerDay: Number(row.n) }));
  }

  // ---- scheduling ---------------------------------------------------------------------------------------------

  async claimDue(options: ClaimDueOptions): Promise<ClaimDueResult> {
    const at = toIso(options.now);
    return this.#db.transaction().execute(async (tx) => {
      let select = tx
        .selectFrom('monitors')
        .select(['id', 'account_id', 'schedule', 'jitter_s', 'anchor_at', 'next_run_at'])
        .where('status', '=', 'active')
        .where('next_run_at', '<=', at)
        .orderBy('next_run_at')
        .limit(options.limit);
      // Another instance's claim skips these rows rather than waiting for them (SQLite has one writer).
      if (this.#postgres) select = select.forUpdate().skipLocked();
      const due = await select.execute();
      if (due.length === 0) return { monitors: 0, queued: 0, skipped: 0 };
      const advanced = due.map((monitor) => ({
        id: monitor.id,
        next: toIso(
          options.next({
            id: monitor.id,
            accountId: monitor.account_id,
            schedule: jsonOf<MonitorSchedule>(monitor.schedule),
            jitterS: Number(monitor.jitter_s),
            anchorAt: isoOf(monitor.anchor_at),
            nextRunAt: isoOf(monitor.next_run_at!),
          }),
        ),
      }));
      for (let i = 0; i < advanced.length; i += insertChunk) {
        await this.#advance(tx, advanced.slice(i, i + insertChunk));
      }
      const scheduled = new Map(due.map((row) => [row.id, isoOf(row.next_run_at!)]));
      const made = await this.#makeChecks(tx, [...scheduled.keys()], (id) => scheduled.get(id)!, null, at);
      await options.enqueue(tx, made.work);
      return { monitors: due.length, queued: made.work.length, skipped: made.skipped };
    });
  }

  /**
   * Sets each claimed monitor's next run, in one UPDATE per chunk: a statement per monitor was half of a 10,000-monitor
   * claim's time on PostgreSQL (bench/monitors.ts). A VALUES list's columns are column1, column2 on both backends;
   * PostgreSQL reads them as text, so the time is cast there (SQLite keeps it as the text it compares).
   */
  async #advance(tx: Tx, advanced: readonly { id: string; next: string }[]): Promise<void> {
    const values = sql.join(advanced.map((monitor) => sql`(${monitor.id}, ${monitor.next})`));
    const next = this.#postgres ? sql`cast(v.column2 as timestamptz)` : sql`v.column2`;
    await sql`update monitors set next_run_at = ${next}
      from (values ${values}) as v where monitors.id = v.column1`.execute(tx);
  }

  async runNow(
    monitorId: string,
    accountId: string,
    now: string,
    enqueue: (tx: Tx, work: readonly NewWork[]) => Promise<void>,
  ): Promise<CheckRecord[] | null> {
    const at = toIso(now);
    return this.#db.transaction().execute(async (tx) => {
      const monitor = await tx
        .selectFrom('monitors')
        .select('id')
        .where('id', '=', monitorId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (!monitor) return null;
      const made = await this.#makeChecks(tx, [monitorId], () => at, 'manual', at);
      await enqueue(tx, made.work);
      const rows = await tx
        .selectFrom('monitor_checks')
        .selectAll()
        .where('id', 'in', made.ids)
        .orderBy('id')
        .execute();
      return rows.map(toCheckRecord);
    });
  }

  /**
   * A check per target of the monitors: queued (with its queue row), or `skipped` (free) when the target's previous
   * check is still queued or running, so a slow host never piles checks up.
   */
  async #makeChecks(
    tx: Tx,
    monitorIds: readonly string[],
    scheduledAt: (monitorId: string) => string,
    reason: string | null,
    now: string,
  ): Promise<{ work: NewWork[]; ids: string[]; skipped: number }> {
    const targets: TargetRow[] = [];
    for (let i = 0; i < monitorIds.length; i += insertChunk) {
      targets.push(
        ...(await tx
          .selectFrom('monitor_targets')
          .selectAll()
          .where('monitor_id', 'in', monitorIds.slice(i, i + insertChunk))
          .execute()),
      );
    }
    const open = new Set<string>();
    for (let i = 0; i < targets.length; i += insertChunk) {
      const rows = await tx
        .selectFrom('monitor_checks')
        .select('target_id')
        .where(
          'target_id',
          'in',
          targets.slice(i, i + insertChunk).map((t) => t.id),
        )
        .where('state', 'in', ['queued', 'running'])
        .execute();
      for (const row of rows) open.add(row.target_id);
    }
    const work: NewWork[] = [];
    const ids: string[] = [];
    let skipped = 0;
    const ms = Date.parse(now);
    const rows = targets.map((target) => {
      const id = newId('chk', ms);
      ids.push(id);
      const overlap = open.has(target.id);
      if (overlap) skipped += 1;
      else {
        work.push({
          id,
          groupId: target.monitor_id,
          accountId: target.account_id,
          host: target.host,
          order: Number(target.target_index),
        });
      }
      return {
        id,
        monitor_id: target.monitor_id,
        target_id: target.id,
        account_id: target.account_id,
        state: overlap ? ('skipped' as const) : ('queued' as const),
        reason: overlap ? 'overlap' : reason,
        scheduled_at: toIso(scheduledAt(target.monitor_id)),
        finished_at: overlap ? now : null,
        created_at: now,
      };
    });
    for (let i = 0; i < rows.length; i += insertChunk) {
      await tx
        .insertInto('monitor_checks')
        .values(rows.slice(i, i + insertChunk))
        .execute();
    }
    return { work, ids, skipped };
  }

  // ---- reading ------------------------------------------------------------------------------------------------

  async checks(
    monitorId: string,
    accountId: string,
    query: { targetId?: string; before?: string; limit: number },
  ): Promise<CheckRecord[]> {
    let select = this.#db
      .selectFrom('monitor_checks')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(query.limit);
    if (query.targetId !== undefined) select = select.where('target_id', '=', query.targetId);
    if (query.before !== undefined) select = select.where('id', '<', query.before);
    return (await select.execute()).map(toCheckRecord);
  }

  async history(monitorId: string, accountId: string, targetId: string, since: string): Promise<HistoryPoint[]> {
    const rows = await this.#db
      .selectFrom('monitor_history as h')
      .innerJoin('monitors as m', 'm.id', 'h.monitor_id')
      .select(['h.t as t', 'h.observed as observed'])
      .where('h.monitor_id', '=', monitorId)
      .where('m.account_id', '=', accountId)
      .where('h.target_id', '=', targetId)
      .where('h.t', '>=', toIso(since))
      .orderBy('h.t')
      .execute();
    return rows.map((row) => ({ t: isoOf(row.t), values: jsonOf<Observation>(row.observed) }));
  }

  async events(
    monitorId: string,
    accountId: string,
    limit: number,
  ): Promise<{ id: string; type: MonitorEventType; targetId: string | null; data: string; createdAt: string }[]> {
    const rows = await this.#db
      .selectFrom('monitor_events')
      .select(['id', 'type', 'target_id', 'data', 'created_at'])
      .where('monitor_id', '=', monitorId)
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: row.type as MonitorEventType,
      targetId: row.target_id,
      data: row.data,
      createdAt: isoOf(row.created_at),
    }));
  }

  // ---- the alerts' outbox -------------------------------------------------------------------------------------

  async claimDeliveries(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueMonitorDelivery[]> {
    const at = toIso(now);
    return this.#db.transaction().execute(async (tx) => {
      let select = tx
        .selectFrom('monitor_deliveries')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', at)]),
            eb.and([eb('state', '=', 'delivering'), eb('lease_until', '<=', at)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .limit(limit);
      if (this.#postgres) select = select.forUpdate().skipLocked();
      const ids = (await select.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      await tx
        .updateTable('monitor_deliveries')
        .set({ state: 'delivering', holder, lease_until: toIso(leaseUntil) })
        .where('id', 'in', ids)
        .execute();
      const rows = await tx
        .selectFrom('monitor_deliveries as d')
        .innerJoin('monitor_events as e', 'e.id', 'd.event_id')
        .innerJoin('monitors as m', 'm.id', 'd.monitor_id')
        .select([
          'd.id as id',
          'd.event_id as event_id',
          'd.account_id as account_id',
          'd.monitor_id as monitor_id',
          'd.channel as channel',
          'd.attempts as attempts',
          'e.type as type',
          'e.data as data',
          'e.created_at as created_at',
          'm.channels_sealed as channels_sealed',
          'm.data_key_sealed as data_key_sealed',
          'm.notify as notify',
        ])
        .where('d.id', 'in', ids)
        .orderBy('d.id')
        .execute();
      return rows.map((row): DueMonitorDelivery => {
        const notify = jsonOf<{ webhook: { endpoint_id: string } | null; language: 'ja' | 'en' }>(row.notify);
        return {
          id: row.id,
          eventId: row.event_id,
          accountId: row.account_id,
          monitorId: row.monitor_id,
          channel: row.channel,
          attempts: Number(row.attempts),
          type: row.type as MonitorEventType,
          data: row.data,
          createdAt: isoOf(row.created_at),
          channelsSealed: row.channels_sealed ? bytesOf(row.channels_sealed) : null,
          dataKeySealed: bytesOf(row.data_key_sealed),
          webhookEndpointId: notify.webhook?.endpoint_id ?? null,
          language: notify.language,
        };
      });
    });
  }

  async delivered(deliveryId: string, holder: string, status: number, now: string): Promise<void> {
    await this.#db
      .updateTable('monitor_deliveries')
      .set((eb) => ({
        state: 'delivered',
        attempts: eb('attempts', '+', 1),
        last_status: status,
        delivered_at: toIso(now),
        holder: null,
        lease_until: null,
        next_attempt_at: null,
      }))
      .where('id', '=', deliveryId)
      .where('state', '=', 'delivering')
      .where('holder', '=', holder)
      .execute();
  }

  async deliveryFailed(
    deliveryId: string,
    holder: string,
    status: number | null,
    nextAttemptAt: string | null,
  ): Promise<void> {
    await this.#db
      .updateTable('monitor_deliveries')
      .set((eb) => ({
        state: nextAttemptAt === null ? 'failed' : 'pending',
        attempts: eb('attempts', '+', 1),
        last_status: status,
        holder: null,
        lease_until: null,
        next_attempt_at: nextAttemptAt === null ? null : toIso(nextAttemptAt),
      }))
      .where('id', '=', deliveryId)
      .where('state', '=', 'delivering')
      .where('holder', '=', holder)
      .execute();
  }

  async sweep(now: string): Promise<number> {
    const at = toIso(now);
    return this.#db.transaction().execute(async (tx) => {
      let removed = 0;
      const history = await tx.deleteFrom('monitor_history').where('expires_at', '<=', at).executeTakeFirst();
      removed += Number(history.numDeletedRows);
      const expired = tx.selectFrom('monitor_events').select('id').where('expires_at', '<=', at);
      const deliveries = await tx.deleteFrom('monitor_deliveries').where('event_id', 'in', expired).executeTakeFirst();
      removed += Number(deliveries.numDeletedRows);
      const events = await tx.deleteFrom('monitor_events').where('expires_at', '<=', at).executeTakeFirst();
      removed += Number(events.numDeletedRows);
      const checks = await tx
        .deleteFrom('monitor_checks')
        .where('created_at', '<', new Date(Date.parse(at) - checkRetentionMs).toISOString())
        .where('state', 'not in', ['queued', 'running'])
        .executeTakeFirst();
      removed += Number(checks.numDeletedRows);
      return removed;
    });
  }

  // ---- a check's run (the dispatcher's steps) -------------------------------------------------------------------

  markRunning(tx: Tx, checkId: string, holder: string, requestId: string, now: string) {
    return this.#runs.markRunning(tx, checkId, holder, requestId, now);
  }

  reserve(checkId: string, holder: string, request: ReserveCheck) {
    return this.#runs.reserve(checkId, holder, request);
  }

  finishRun(checkId: string, holder: string, outcome: RunOutcome, finishWork: (tx: Tx) => Promise<boolean>) {
    return this.#runs.finishRun(checkId, holder, outcome, finishWork);
  }

  retryLater(checkId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>) {
    return this.#runs.retryLater(checkId, holder, giveBack);
  }

  requeue(tx: Tx, checkIds: readonly string[]) {
    return this.#runs.requeue(tx, checkIds);
  }

  /** For tests and the storage audit: the time this store reads. */
  get now(): string {
    return this.#now();
  }
}

export type { MonitorRow };
