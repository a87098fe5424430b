// A monitor check's run steps for the dispatcher (claim, reserve, outcome, retry, requeue), over Kysely. The outcome
// of a good check commits in one transaction: the charge (completed checks are charged when they complete), the rule
// engine's verdict with the target's new last values, the history row, and the alert with its deliveries.
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { isoOf, toIso } from '../storage/kysely/columns.js';
import { bytesOf, jsonOf } from '../batches/batch-rows.js';
import type { KyselyCreditLedger, HoldTransaction } from '../storage/kysely/kysely-credit-ledger.js';
import type { KyselyRequestLog } from '../storage/kysely/kysely-request-log.js';
import type { ReserveOutcome } from '../storage/storage.js';
import type { ItemToRun, RunOutcome } from '../batches/batch-store.js';
import type { Tx } from '../batches/work-queue.js';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import type { Clock } from '../time/clock.js';
import type { MonitorEventType, NoiseSettings, Observation, Rule, TargetState, WatchedField } from './model.js';
import { evaluateCheck, jstDay, observationOf, recordFailure } from './rules.js';
import type { MonitorRow, TargetRow } from './monitor-rows.js';
import type { PublicNotify, ReserveCheck } from './monitor-store.js';
import { Abort, answerOrAbort } from '../storage/kysely/abort.js';

/** Events (and their deliveries) are kept 72 h, as batch events. */
const eventRetentionMs = 72 * 3_600_000;
/** A check's results never expire in the batch sense: the dispatcher's field is filled with a far date. */
const farFuture = '9999-12-31T00:00:00.000Z';

export interface CheckRunsOptions {
  clock: Clock;
  runTransaction: HoldTransaction;
  onDeliveries?: () => void;
}

/** The running check held by `holder`, its row locked; undefined when it is not (any more). */
function lockRunning(tx: Tx, checkId: string, holder: string) {
  return tx
    .updateTable('monitor_checks')
    .set((eb) => ({ holder: eb.ref('holder') }))
    .where('id', '=', checkId)
    .where('state', '=', 'running')
    .where('holder', '=', holder)
    .returningAll()
    .executeTakeFirst();
}

type Reserved = ReserveOutcome | { ok: false; exhausted: 'batch' } | { ok: false; held: 'batch' };

export class KyselyCheckRuns {
  readonly #db: Kysely<KumoDatabase>;
  readonly #ledger: KyselyCreditLedger;
  readonly #requests: KyselyRequestLog;
  readonly #o: CheckRunsOptions;

  constructor(
    storage: { db: Kysely<KumoDatabase>; ledger: KyselyCreditLedger; requests: KyselyRequestLog },
    options: CheckRunsOptions,
  ) {
    this.#db = storage.db;
    this.#ledger = storage.ledger;
    this.#requests = storage.requests;
    this.#o = options;
  }

  #now(): string {
    return new Date(this.#o.clock.now()).toISOString();
  }

  /**
   * Inside the queue's claim: queued → running. A check of a paused monitor is `skipped` (free) instead, and null
   * tells the dispatcher to drop its queue row; so is a check whose monitor is gone.
   */
  async markRunning(
    tx: Tx,
    checkId: string,
    holder: string,
    requestId: string,
    now: string,
  ): Promise<ItemToRun | null> {
    const at = toIso(now);
    const found = await tx
      .selectFrom('monitor_checks as c')
      .innerJoin('monitors as m', 'm.id', 'c.monitor_id')
      .innerJoin('monitor_targets as t', 't.id', 'c.target_id')
      .select(['m.status as status', 'm.key_id as key_id', 'm.data_key_sealed as data_key_sealed'])
      .select(['t.url_sealed as url_sealed', 't.target_index as target_index', 't.ref as ref', 't.url as url'])
      .select(['t.host as host', 't.site_id as site_id', 't.page_type as page_type', 't.route as route'])
      .select(['t.cost_max as cost_max'])
      .where('c.id', '=', checkId)
      .where('c.state', '=', 'queued')
      .executeTakeFirst();
    if (!found) return null;
    if (found.status !== 'active') {
      await tx
        .updateTable('monitor_checks')
        .set({ state: 'skipped', reason: 'paused', finished_at: at })
        .where('id', '=', checkId)
        .where('state', '=', 'queued')
        .execute();
      return null;
    }
    const check = await tx
      .updateTable('monitor_checks')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        holder,
        request_id: requestId,
        started_at: at,
        reserved: 0,
      }))
      .where('id', '=', checkId)
      .where('state', '=', 'queued')
      .returningAll()
      .executeTakeFirst();
    if (!check) return null;
    return {
      item: {
        id: check.id,
        batchId: check.monitor_id,
        accountId: check.account_id,
        index: Number(found.target_index),
        ref: found.ref,
        url: found.url,
        host: found.host,
        siteId: found.site_id,
        pageType: found.page_type,
        route: found.route,
        params: null,
        costMax: Number(found.cost_max),
        state: 'running',
        attempts: Number(check.attempts),
        requestId,
        costUnits: 0,
        error: null,
        createdAt: isoOf(check.created_at),
        startedAt: at,
        finishedAt: null,
      },
      batch: {
        id: check.monitor_id,
        accountId: check.account_id,
        keyId: found.key_id,
        params: {},
        resultsExpireAt: farFuture,
        maxCredits: null,
        status: 'running',
        // Alerts go through the monitor's own outbox (the store wakes the notifier), never the batch webhook.
        webhook: null,
      },
      urlSealed: bytesOf(found.url_sealed),
      dataKeySealed: bytesOf(found.data_key_sealed),
      urlContext: `url:${check.target_id}`,
    };
  }

  /**
   * The check's credits, reserved against the account's and key's limits; past the monitor's max_credits_per_month the
   * monitor is paused instead (`monitor.paused`, committed) and the check ends skipped, free.
   */
  async reserve(checkId: string, holder: string, request: ReserveCheck): Promise<Reserved> {
    let paused = false;
    const attempt = () =>
      answerOrAbort(() =>
        this.#o.runTransaction(this.#db, async (tx): Promise<Reserved> => {
          const check = await tx
            .updateTable('monitor_checks')
            .set({ reserved: request.cost })
            .where('id', '=', checkId)
            .where('state', '=', 'running')
            .where('holder', '=', holder)
            .where('request_id', '=', request.requestId)
            .where('reserved', '=', 0)
            .returning(['monitor_id', 'account_id'])
            .executeTakeFirst();
          if (!check) throw new Error(`check ${checkId} is not running unreserved under ${holder}`);
          const monitor = await tx
            .selectFrom('monitors')
            .selectAll()
            .where('id', '=', check.monitor_id)
            .executeTakeFirstOrThrow();
          const used = monitor.credits_period === request.period ? Number(monitor.credits_used) : 0;
          const cap = monitor.max_credits_per_month === null ? null : Number(monitor.max_credits_per_month);
          if (cap !== null && used + request.cost > cap) {
            await tx.updateTable('monitor_checks').set({ reserved: 0 }).where('id', '=', checkId).execute();
            if (monitor.status === 'active') {
              const now = this.#now();
              await tx
                .updateTable('monitors')
                .set({ status: 'paused', paused_reason: 'max_credits_per_month', next_run_at: null, updated_at: now })
                .where('id', '=', monitor.id)
                .execute();
              await this.#event(tx, monitor, 'monitor.paused', null, null, now, {
                monitor_id: monitor.id,
                monitor_name: monitor.name,
                reason: 'max_credits_per_month',
                credits_this_month: used,
                max_credits_per_month: cap,
                at: now,
              });
              paused = true;
            }
            return { ok: false, exhausted: 'batch' };
          }
          const outcome = await this.#ledger.reserveIn(tx, {
            requestId: request.requestId,
            accountId: check.account_id,
            keyId: monitor.key_id,
            period: request.period,
            cost: request.cost,
            accountLimit: request.accountLimit,
            keyLimit: request.keyLimit,
            expiresAt: request.expiresAt,
            owner: holder,
          });
          if (!outcome.ok) throw new Abort<Reserved>(outcome);
          return outcome;
        }),
      );
    const outcome = await this.#ledger.afterSweep(attempt);
    if (paused) this.#o.onDeliveries?.();
    return outcome;
  }

  /**
   * The run's outcome, guarded by `holder`, with `finishWork` (the queue's finish) in the same transaction. A check
   * whose monitor was deleted meanwhile records nothing (its reservation went with the monitor) but leaves the queue.
   */
  async finishRun(
    checkId: string,
    holder: string,
    outcome: RunOutcome,
    finishWork: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean> {
    const now = this.#now();
    let delivered = false;
    const done = await answerOrAbort(() =>
      this.#o.runTransaction(this.#db, async (tx) => {
        const check = await lockRunning(tx, checkId, holder);
        if (!check) {
          const exists = await tx
            .selectFrom('monitor_checks')
            .select('id')
            .where('id', '=', checkId)
            .executeTakeFirst();
          if (exists) return false;
          await finishWork(tx);
          return true;
        }
        const reserved = Number(check.reserved);
        const attemptId = check.request_id;
        const ready = outcome.state === 'ready';
        if (ready) {
          if (outcome.requestId !== attemptId || reserved === 0) throw new Abort(false);
          // Charged now, as a call is: a completed check's output is the observation committed below.
          if (!(await this.#ledger.commitIn(tx, attemptId, outcome.costUnits))) throw new Abort(false);
        } else if (reserved > 0 && attemptId !== null) {
          await this.#ledger.releaseIn(tx, attemptId);
        }
        if (!(await finishWork(tx))) throw new Abort(false);
        if (outcome.record) {
          await this.#requests.insertIn(tx, { ...outcome.record, costUnits: ready ? outcome.costUnits : 0 });
        }
        const monitor = await tx
          .selectFrom('monitors')
          .selectAll()
          .where('id', '=', check.monitor_id)
          .executeTakeFirst();
        const target = await tx
          .selectFrom('monitor_targets')
          .selectAll()
          .where('id', '=', check.target_id)
          .executeTakeFirst();
        if (!monitor || !target) return true;
        const base = {
          monitor_id: monitor.id,
          monitor_name: monitor.name,
          target_id: target.id,
          ref: target.ref,
          url: target.url,
          site: target.site_id,
        };
        if (ready) {
          delivered = await this.#good(tx, monitor, target, check.id, outcome, now, base);
          return true;
        }
        const state = outcome.state === 'skipped' ? 'skipped' : 'failed';
        const code = outcome.error?.code ?? (outcome.state === 'not_found' ? 'not_found' : 'internal');
        await tx
          .updateTable('monitor_checks')
          .set({
            state,
            reason: outcome.state === 'skipped' ? 'credits' : null,
            finished_at: now,
            holder: null,
            reserved: 0,
            cost_units: 0,
            request_id: outcome.requestId ?? attemptId,
            error_code: code,
            error_status: outcome.error?.status ?? null,
          })
          .where('id', '=', check.id)
          .execute();
        if (outcome.state === 'skipped') return true;
        const targetState = jsonOf<TargetState>(target.state);
        if (outcome.state === 'not_found') {
          // A page gone (404/410) is its own event, once per disappearance; never a change, never a failure streak.
          if (Number(target.removed) === 0) {
            await this.#event(tx, monitor, 'monitor.target.removed', target.id, check.id, now, {
              ...base,
              status: outcome.record?.httpStatus === 410 ? 410 : 404,
              observed_at: now,
            });
            delivered = true;
          }
          await tx
            .updateTable('monitor_targets')
            .set({ removed: 1, last_check_at: now, last_check_state: 'failed', last_error_code: code })
            .where('id', '=', target.id)
            .execute();
          return true;
        }
        const failure = recordFailure(targetState, Number(monitor.alert_after));
        await tx
          .updateTable('monitor_targets')
          .set({
            state: JSON.stringify(failure.state),
            last_check_at: now,
            last_check_state: 'failed',
            last_error_code: code,
          })
          .where('id', '=', target.id)
          .execute();
        if (failure.alertFailed) {
          await this.#event(tx, monitor, 'monitor.check.failed', target.id, check.id, now, {
            ...base,
            failures_in_a_row: failure.state.failuresInARow,
            error: { code, status: outcome.error?.status ?? 500 },
            observed_at: now,
          });
          delivered = true;
        }
        return true;
      }),
    );
    if (done && delivered) this.#o.onDeliveries?.();
    return done;
  }

  /** A good check: the verdict, the target's new state, history, the monitor's spend and an alert when one is due. */
  async #good(
    tx: Tx,
    monitor: MonitorRow,
    target: TargetRow,
    checkId: string,
    outcome: Extract<RunOutcome, { state: 'ready' }>,
    now: string,
    base: Record<string, unknown>,
  ): Promise<boolean> {
    const watch = jsonOf<WatchedField[]>(monitor.watch);
    const rules = jsonOf<Rule[]>(monitor.rules);
    const noise = jsonOf<NoiseSettings>(monitor.noise);
    const state = jsonOf<TargetState>(target.state);
    const data = (outcome.body?.data ?? {}) as Record<string, unknown>;
    const observation = observationOf(data, watch);
    const retainDays = monitor.retain_days === null ? null : Number(monitor.retain_days);
    const lows = await this.#lows(tx, target.id, rules, retainDays, now);
    const verdict = evaluateCheck({ watch, rules, noise, state, observation, at: now, lows });
    await tx
      .updateTable('monitor_checks')
      .set({
        state: 'completed',
        finished_at: now,
        holder: null,
        reserved: 0,
        cost_units: outcome.costUnits,
        changes: JSON.stringify(verdict.changes),
        rules_hit: JSON.stringify(verdict.rulesHit),
        skipped_rules: JSON.stringify(verdict.skippedRules),
      })
      .where('id', '=', checkId)
      .execute();
    const day = jstDay(now);
    const writeHistory = retainDays !== null && (verdict.changes.length > 0 || target.history_day !== day);
    await tx
      .updateTable('monitor_targets')
      .set({
        state: JSON.stringify(verdict.state),
        last_check_at: now,
        last_check_state: 'completed',
        last_error_code: null,
        removed: 0,
        ...(writeHistory ? { history_day: day } : {}),
      })
      .where('id', '=', target.id)
      .execute();
    if (writeHistory) {
      await tx
        .insertInto('monitor_history')
        .values({
          target_id: target.id,
          monitor_id: monitor.id,
          t: now,
          observed: JSON.stringify(observation),
          expires_at: new Date(Date.parse(now) + retainDays * 86_400_000).toISOString(),
        })
        .onConflict((oc) => oc.columns(['target_id', 't']).doNothing())
        .execute();
    }
    const period = periodOf(new Date(now));
    await tx
      .updateTable('monitors')
      .set((eb) => ({
        credits_period: period,
        credits_used:
          monitor.credits_period === period ? eb('credits_used', '+', outcome.costUnits) : eb.val(outcome.costUnits),
      }))
      .where('id', '=', monitor.id)
      .execute();
    if (!verdict.alert) return false;
    await this.#event(tx, monitor, 'monitor.alert', target.id, checkId, now, {
      ...base,
      check_id: checkId,
      observed_at: now,
      previous_at: state.lastAt,
      rules_hit: verdict.rulesHit,
      changes: verdict.changes,
      current: verdict.state.last ?? observation,
      request_id: outcome.requestId,
      cost_units: outcome.costUnits,
    });
    return true;
  }

  /** The lowest of each field over the windows the below_lowest_days rules ask for, from history before now. */
  async #lows(
    tx: Tx,
    targetId: string,
    rules: readonly Rule[],
    retainDays: number | null,
    now: string,
  ): Promise<Map<string, number | null>> {
    const lows = new Map<string, number | null>();
    const wanted = rules.filter((rule) => rule.when.below_lowest_days !== undefined);
    if (wanted.length === 0 || retainDays === null) return lows;
    const longest = Math.max(...wanted.map((rule) => rule.when.below_lowest_days!));
    const rows = await tx
      .selectFrom('monitor_history')
      .select(['t', 'observed'])
      .where('target_id', '=', targetId)
      .where('t', '>=', new Date(Date.parse(now) - longest * 86_400_000).toISOString())
      .where('t', '<', toIso(now))
      .execute();
    const points = rows.map((row) => ({ t: Date.parse(isoOf(row.t)), values: jsonOf<Observation>(row.observed) }));
    for (const rule of wanted) {
      const days = rule.when.below_lowest_days!;
      const since = Date.parse(now) - days * 86_400_000;
      let low: number | null = null;
      for (const point of points) {
        const value = point.values[rule.when.field];
        if (point.t >= since && typeof value === 'number' && (low === null || value < low)) low = value;
      }
      lows.set(`${rule.when.field}:${days}`, low);
    }
    return lows;
  }

  /** An event and one delivery per channel the monitor notifies (its webhook endpoint, Slack, ChatWork, LINE). */
  async #event(
    tx: Tx,
    monitor: MonitorRow,
    type: MonitorEventType,
    targetId: string | null,
    checkId: string | null,
    now: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    const id = newId('evt', Date.parse(now));
    await tx
      .insertInto('monitor_events')
      .values({
        id,
        account_id: monitor.account_id,
        monitor_id: monitor.id,
        target_id: targetId,
        check_id: checkId,
        type,
        data: JSON.stringify(data),
        created_at: now,
        expires_at: new Date(Date.parse(now) + eventRetentionMs).toISOString(),
      })
      .execute();
    const notify = jsonOf<PublicNotify>(monitor.notify);
    const channels = [...(notify.webhook ? ['webhook' as const] : []), ...notify.channels.map((c) => c.kind)];
    if (channels.length === 0) return;
    await tx
      .insertInto('monitor_deliveries')
      .values(
        channels.map((channel) => ({
          id: newId('dlv', Date.parse(now)),
          event_id: id,
          account_id: monitor.account_id,
          monitor_id: monitor.id,
          channel,
          state: 'pending' as const,
          next_attempt_at: now,
          created_at: now,
        })),
      )
      .execute();
  }

  async retryLater(checkId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>): Promise<boolean> {
    return answerOrAbort(() =>
      this.#o.runTransaction(this.#db, async (tx) => {
        const check = await lockRunning(tx, checkId, holder);
        if (!check) return false;
        if (!(await giveBack(tx))) throw new Abort(false);
        await this.#release(tx, [check]);
        await tx
          .updateTable('monitor_checks')
          .set({ state: 'queued', holder: null, reserved: 0 })
          .where('id', '=', checkId)
          .execute();
        return true;
      }),
    );
  }

  /** Inside the queue's transaction: checks of dead holders back to queued, their reservations released. */
  async requeue(tx: Tx, checkIds: readonly string[]): Promise<void> {
    if (checkIds.length === 0) return;
    const rows = await tx
      .selectFrom('monitor_checks')
      .select(['id', 'request_id', 'reserved'])
      .where('id', 'in', [...checkIds])
      .where('state', '=', 'running')
      .execute();
    await this.#release(tx, rows);
    if (rows.length === 0) return;
    await tx
      .updateTable('monitor_checks')
      .set({ state: 'queued', holder: null, reserved: 0 })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  }

  /** DELETE of a monitor: its running checks' reservations go back (their runs then record nothing). */
  async releaseRunning(tx: Tx, monitorId: string): Promise<void> {
    const rows = await tx
      .selectFrom('monitor_checks')
      .select(['request_id', 'reserved'])
      .where('monitor_id', '=', monitorId)
      .where('state', '=', 'running')
      .execute();
    await this.#release(tx, rows);
  }

  /** The reservations of running checks go back to the counters (a check that never reserved has none). */
  async #release(tx: Tx, checks: readonly { request_id: string | null; reserved: number }[]): Promise<void> {
    for (const check of checks) {
      if (check.request_id !== null && Number(check.reserved) > 0) await this.#ledger.releaseIn(tx, check.request_id);
    }
  }
}
