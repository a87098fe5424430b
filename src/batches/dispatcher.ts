// Runs queued batch items on this instance (DESIGN §8): claims per host within its politeness, in the account's batch
// lane, reserves the item's credits, runs the scrape step and records the outcome; charging waits for handover.
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.js';
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import type { Clock } from '../time/clock.js';
import { newId } from '../accounts/ids.js';
import { periodOf } from '../accounts/period.js';
import { creditLimitsOf, isPlanId } from '../accounts/plans.js';
import type { PlanId, RequestRecord } from '../storage/storage.js';
import type { ConcurrencyLimiter, Lease } from '../limits/concurrency-limiter.js';
import type { Secrets, SecretBox } from '../secrets/secret-box.js';
import type { Caller } from '../scrape/caller.js';
import type { ScrapeService } from '../scrape/scrape-service.js';
import type { ScrapeParams } from '../scrape/plan.js';
import { costOf } from '../scrape/cost.js';
import { callRecordOf, requestStatusOf } from '../scrape/call-record.js';
import type { BatchStore, ItemError, ItemToRun, RunOutcome } from './batch-store.js';
import type { ClaimedWork, Tx, WorkQueue } from './work-queue.js';

/** Batch items an account may have running at once, across instances (its batch lane, beside interactive calls). */
export const batchLaneByPlan: Readonly<Record<PlanId, number>> = Object.freeze({ free: 1, starter: 2, growth: 5 });

/** Failures worth another try later (the site or a backend may recover); others fail the item at once. */
export const retryableCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'fetch_timeout',
  'fetch_failed',
  'target_blocked',
  'site_busy',
  'unavailable',
]);

/** The concurrency scope of an account's batch lane (never its interactive `account:`/`key:` scopes). */
export function batchLaneScope(accountId: string): string {
  return `batch:${accountId}`;
}

export interface DispatcherOptions {
  /** `ins_…`: owns the claims, reservations and lane slots it takes (the liveness sweep frees a dead one's). */
  instanceId: string;
  queue: WorkQueue;
  store: Pick<BatchStore, 'markRunning' | 'reserve' | 'finishRun' | 'retryLater'>;
  scrape: Pick<ScrapeService, 'plan' | 'runPlanned'>;
  limiter: Pick<ConcurrencyLimiter, 'tryAcquire'>;
  secrets: Pick<Secrets, 'dataKeyBox'>;
  /**
   * The account and key a batch was submitted with; null when the account or key no longer exists, or the key was
   * revoked or has expired (its batches stop: a leaked key's work does not go on charging).
   */
  callerOf: (accountId: string, keyId: string) => Promise<Caller | null>;
  /** A fetched host's politeness (the fetcher's): at most `maxInFlight` of its items are claimed here at once. */
  politeness: (host: string) => { maxInFlight: number };
  /** The HTTP status of an error code (http/problem.ts's table), for an item's `error`. */
  statusOf: (code: ErrorCode) => number;
  clock: Clock;
  /** The longest wait between rounds when nothing wakes the dispatcher (≤ 1 s). */
  pollMs: number;
  /** A fetch's deadline: a reservation is held for it plus a margin, a lane slot for `laneLeaseMs`. */
  fetchDeadlineMs: number;
  /** How long a lane slot counts when its release never comes (an instance killed mid-item). */
  laneLeaseMs: number;
  /** Items this instance runs at once, over all hosts. */
  maxInFlight: number;
  /** Claims of an item before a retryable failure fails it (default 3). */
  maxAttempts?: number;
  /** The longest wait between rounds while the database or Redis fails (default 5 s). */
  maxBackoffMs?: number;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** Counts each run's outcome (GET /metrics). */
  metrics?: Pick<Metrics, 'batchItemRan'>;
  /** After the outcome of an item of a batch with a webhook is written (its events are due): the webhook worker's wake. */
  onRecorded?: () => void;
}

/** What became of one run: an outcome to record, or the item goes back to the queue for a later try. */
/** `why`: the error code, or `storage` when the database failed under the run (for the log only). */
type Decision =
  { kind: 'finish'; outcome: RunOutcome } | { kind: 'retry'; why: ErrorCode | 'storage' | 'credits_held' };

interface Claimed {
  work: ClaimedWork;
  toRun: ItemToRun;
  lease: Lease;
  requestId: string;
}

/** How long an account whose lane another instance filled is skipped here before its slot is asked for again. */
const laneFullRetryMs = 100;

/** Past this the reservation's hold ends (a sweep frees it): the fetch deadline plus room for extraction and writes. */
const reservationMarginMs = 120_000;

/**
 * The dispatch loop of one instance. Each round asks the queue which hosts have work and claims, host by host, up to
 * the host's politeness in flight here and `maxInFlight` in all, skipping accounts whose lane is full. A claim takes
 * the account's lane slot inside the claim's transaction (refused: the claim is undone, no attempt counted) and marks
 * the item running. The run reserves the item's credits (none left: `skipped`, free), opens its URL, runs the same
 * scrape step as a call, and records `ready` (sealed result, the reservation becomes a hold), `not_found`, `failed`,
 * or gives the item back for a retryable failure until `maxAttempts`. A record that cannot be written (the database
 * is down) is kept and written again at the next rounds, guarded by this instance's claim, so nothing is recorded
 * twice. Rounds run when woken (a submission, a finished item) or every `pollMs`; a failing backend backs off up to
 * `maxBackoffMs` and the loop carries on when it is back.
 */
export class Dispatcher {
  readonly #o: DispatcherOptions;
  readonly #maxAttempts: number;
  readonly #maxBackoffMs: number;
  readonly #hostInFlight = new Map<string, number>();
  readonly #laneInFlight = new Map<string, number>();
  /** Each account's lane size, as last read, and when (clock ms). */
  readonly #laneLimit = new Map<string, { limit: number; readAt: number }>();
  /** Accounts whose lane other instances filled: skipped until then (clock ms). */
  readonly #laneFullUntil = new Map<string, number>();
  readonly #running = new Set<Promise<void>>();
  /** The items those runs are of. */
  readonly #itemsRunning = new Set<string>();
  /** Outcomes not yet written (the database failed): written again, in order, before the next claims. */
  readonly #unrecorded: { itemId: string; write: () => Promise<boolean>; notify: boolean }[] = [];
  #loop: Promise<void> | null = null;
  #closed = false;
  #woken = false;
  #wakeIdle: (() => void) | null = null;
  #failing = false;
  /** A claim failed: its commit may have landed with its answer lost, leaving an item held here that nothing runs. */
  #claimUnsure = false;
  #hostCursor = 0;

  constructor(options: DispatcherOptions) {
    this.#o = options;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  /** Starts the loop (idempotent). */
  start(): void {
    if (this.#closed || this.#loop) return;
    this.#loop = this.#run();
  }

  /** Work may be waiting (a submission, an append): run a round now rather than at the next poll. */
  wake(): void {
    this.#woken = true;
    this.#wakeIdle?.();
  }

  /** Items running on this instance now. */
  get inFlight(): number {
    return this.#running.size;
  }

  /**
   * Stops claiming; items in flight finish and are recorded (as calls in flight finish at shutdown). An outcome the
   * database still refuses is left, with the item running under this instance, for a peer's (or the next start's)
   * liveness sweep to queue again.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.wake();
    await this.#loop;
    await Promise.allSettled([...this.#running]);
    await this.#writeUnrecorded().catch(() => undefined);
  }

  async #run(): Promise<void> {
    let backoffMs = 0;
    while (!this.#closed) {
      let wait = this.#o.pollMs;
      try {
        await this.#round();
        if (this.#failing) {
          this.#failing = false;
          this.#o.logger?.info('batch dispatch: recovered');
        }
        backoffMs = 0;
      } catch (error) {
        // A database or Redis outage (or anything else): nothing was claimed that is not recorded or left queued.
        if (!this.#failing) {
          this.#failing = true;
          const e = error as Error & { code?: unknown };
          this.#o.logger?.warn({ error_name: e.name, error_code: e.code }, 'batch dispatch: failing; will retry');
        }
        backoffMs = Math.min(this.#maxBackoffMs, backoffMs === 0 ? 250 : backoffMs * 2);
        wait = backoffMs;
        // An outage is not cut short by wakes: each finished item would otherwise retry at once.
        this.#woken = false;
      }
      if (!this.#closed) await this.#idle(wait);
    }
  }

  /** Waits `ms`, or less when woken. */
  async #idle(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return;
    }
    const stop = new AbortController();
    this.#wakeIdle = () => stop.abort();
    try {
      await this.#o.clock.sleep(ms, stop.signal);
    } catch {
      // Woken.
    } finally {
      this.#wakeIdle = null;
      this.#woken = false;
    }
  }

  /** One round: outcomes owed first, then claims breadth-first over the hosts, so hosts share `maxInFlight`. */
  async #round(): Promise<void> {
    await this.#writeUnrecorded();
    if (this.#claimUnsure) await this.#giveBackUnrun();
    if (this.#running.size >= this.#o.maxInFlight) return;
    const accountsOn = new Map<string, string[]>();
    for (const lane of await this.#o.queue.lanesWithWork()) {
      const accounts = accountsOn.get(lane.host);
      if (accounts) accounts.push(lane.accountId);
      else accountsOn.set(lane.host, [lane.accountId]);
    }
    const hosts = [...accountsOn.keys()];
    if (hosts.length === 0) return;
    // A host is claimed from while it has room here and one of its accounts with work has room in its lane: a claim
    // is a write transaction even when it finds nothing, and a round runs after every finished item.
    const claimable = (host: string) => {
      if (this.#hostRoom(host) <= 0) return false;
      const skip = new Set(this.#skipAccounts());
      return accountsOn.get(host)!.some((account) => !skip.has(account));
    };
    // Start each round at the next host, so a full instance cap does not always favour the same ones.
    const start = this.#hostCursor++ % hosts.length;
    let open = [...hosts.slice(start), ...hosts.slice(0, start)].filter(claimable);
    while (open.length > 0 && !this.#closed) {
      const next: string[] = [];
      for (const host of open) {
        if (this.#running.size >= this.#o.maxInFlight || this.#closed) return;
        if (!claimable(host)) continue;
        const claimed = await this.#claim(host);
        if (claimed === 'lane_full' || claimed === 'stale') {
          // That account is skipped from now on (or a stale row is gone); other work on the host may be claimed.
          next.push(host);
        } else if (claimed) {
          this.#begin(claimed);
          next.push(host);
        }
      }
      open = next.filter(claimable);
    }
  }

  /**
   * Items the queue says this instance holds but that run nowhere here go back to the queue. Only claims that lost
   * their answer leave such items: a run in flight is in #itemsRunning, an outcome owed in #unrecorded, and no claim
   * is under way (rounds are sequential). The liveness sweep never frees them: this instance is alive.
   */
  async #giveBackUnrun(): Promise<void> {
    const { store, queue, instanceId } = this.#o;
    for (const itemId of await queue.heldBy(instanceId)) {
      // A run may end while this loop awaits: its outcome owed (unrecorded) is still its own, not an orphan's.
      if (this.#itemsRunning.has(itemId) || this.#unrecorded.some((owed) => owed.itemId === itemId)) continue;
      await store.retryLater(itemId, instanceId, (tx) => queue.giveBack(tx, itemId, instanceId));
      this.#o.logger?.info({ item_id: itemId }, 'batch item: a claim whose answer was lost is queued again');
    }
    this.#claimUnsure = false;
  }

  #hostRoom(host: string): number {
    return this.#o.politeness(host).maxInFlight - (this.#hostInFlight.get(host) ?? 0);
  }

  /** Accounts not to claim for now: their lane is full here, or was found full at another instance a moment ago. */
  #skipAccounts(): string[] {
    const now = this.#o.clock.now();
    const skip = new Set<string>();
    for (const [account, until] of this.#laneFullUntil) {
      if (until > now) skip.add(account);
      else this.#laneFullUntil.delete(account);
    }
    for (const [account, running] of this.#laneInFlight) {
      const lane = this.#laneLimit.get(account);
      if (lane !== undefined && running >= lane.limit) skip.add(account);
    }
    return [...skip];
  }

  /**
   * One claim on `host`: inside the claim's transaction, the account's lane slot (else the claim is undone: the item
   * keeps its place and its attempts, `lane_full`) and the item marked running with this attempt's request id. An
   * item the store will not run (no longer queued there: cancelled, or its batch is over) leaves the queue in the
   * same transaction (`stale`), so it is not claimed again and again. Null: nothing to claim there now.
   */
  async #claim(host: string): Promise<Claimed | 'lane_full' | 'stale' | null> {
    const { queue, store, instanceId, clock } = this.#o;
    let lease: Lease | null = null;
    let toRun: ItemToRun | null = null;
    let laneFull = false;
    let stale = false;
    const requestId = newId('req');
    try {
      const work = await queue.claim(host, instanceId, {
        skipAccounts: this.#skipAccounts(),
        onClaimed: async (tx, claimed) => {
          // Still running here from an earlier claim (a sweep took this instance for dead and queued it again): not
          // run twice at once by one holder, whose outcome writes are guarded by holder. Left queued, for a peer.
          if (this.#itemsRunning.has(claimed.id)) return false;
          lease = await this.#laneSlot(tx, claimed.accountId);
          laneFull = lease === null;
          if (!lease) return false;
          toRun = await store.markRunning(tx, claimed.id, instanceId, requestId, new Date(clock.now()).toISOString());
          if (toRun) return true;
          stale = await queue.finish(tx, claimed.id, instanceId);
          return stale;
        },
      });
      if (work && toRun && lease) return { work, toRun, lease, requestId };
      await (lease as Lease | null)?.release();
      return laneFull ? 'lane_full' : stale ? 'stale' : null;
    } catch (error) {
      // The claim's transaction did not commit, or did and its answer was lost: the slot it took is given back, and
      // the next round looks for an item held here that nothing runs.
      this.#claimUnsure = true;
      await (lease as Lease | null)?.release().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The account's lane slot, or null when its lane is full; then the account is skipped here for `laneFullRetryMs`
   * (a run elsewhere ends within tens of milliseconds: skipped for a whole poll interval, its turns on the host
   * would go to other accounts long after its lane had room again).
   */
  async #laneSlot(tx: Tx, accountId: string): Promise<Lease | null> {
    const limit = await this.#laneLimitOf(tx, accountId);
    if ((this.#laneInFlight.get(accountId) ?? 0) >= limit) return null;
    const slot = await this.#o.limiter.tryAcquire([{ key: batchLaneScope(accountId), limit }], this.#o.laneLeaseMs);
    if (slot.granted) return slot.lease;
    this.#laneFullUntil.set(accountId, this.#o.clock.now() + Math.min(this.#o.pollMs, laneFullRetryMs));
    return null;
  }

  /** The account's lane size from its plan, read at most once a poll interval (a plan change shows within it). */
  async #laneLimitOf(tx: Tx, accountId: string): Promise<number> {
    const now = this.#o.clock.now();
    const known = this.#laneLimit.get(accountId);
    if (known !== undefined && now - known.readAt < this.#o.pollMs) return known.limit;
    const row = await tx.selectFrom('accounts').select('plan').where('id', '=', accountId).executeTakeFirst();
    const limit = row && isPlanId(row.plan) ? batchLaneByPlan[row.plan] : batchLaneByPlan.free;
    this.#laneLimit.set(accountId, { limit, readAt: now });
    return limit;
  }

  #begin(claimed: Claimed): void {
    const { host, accountId } = claimed.work;
    this.#hostInFlight.set(host, (this.#hostInFlight.get(host) ?? 0) + 1);
    this.#laneInFlight.set(accountId, (this.#laneInFlight.get(accountId) ?? 0) + 1);
    this.#itemsRunning.add(claimed.work.id);
    const running: Promise<void> = this.#runItem(claimed)
      .catch((error: unknown) => {
        const e = error as Error & { code?: unknown };
        this.#o.logger?.warn(
          { item_id: claimed.work.id, error_name: e.name, error_code: e.code },
          'batch item: run failed',
        );
      })
      .finally(() => {
        this.#running.delete(running);
        this.#itemsRunning.delete(claimed.work.id);
        decrement(this.#hostInFlight, host);
        decrement(this.#laneInFlight, accountId);
        // A host slot and a lane slot are free: the next round need not wait for the poll.
        this.wake();
      });
    this.#running.add(running);
  }

  async #runItem({ work, toRun, lease, requestId }: Claimed): Promise<void> {
    let decision: Decision;
    try {
      decision = await this.#attempt(work, toRun, requestId);
    } finally {
      await lease.release().catch(() => undefined);
    }
    const { outcome } = decision.kind === 'finish' ? decision : { outcome: null };
    const state = outcome?.state ?? 'retry';
    const errorCode =
      decision.kind === 'retry' ? decision.why : outcome?.state === 'ready' ? null : outcome?.error?.code;
    this.#o.metrics?.batchItemRan(state, errorCode ?? (state === 'ready' ? 'ok' : 'internal'));
    this.#o.logger?.debug(
      { item_id: work.id, attempt: work.attempts, outcome: state, error_code: errorCode },
      'batch item run',
    );
    const { store, queue, instanceId } = this.#o;
    const itemId = work.id;
    const retry = () => store.retryLater(itemId, instanceId, (tx) => queue.giveBack(tx, itemId, instanceId));
    const write =
      decision.kind === 'finish'
        ? async () => {
            const done = await store.finishRun(itemId, instanceId, decision.outcome, (tx) =>
              queue.finish(tx, itemId, instanceId),
            );
            // A ready result whose reservation a sweep freed meanwhile (this instance was taken for dead) is not
            // kept: the item runs again with a fresh reservation. (Not held any more: retryLater does nothing.)
            if (!done && decision.outcome.state === 'ready') return retry();
            return done;
          }
        : retry;
    // A batch without a webhook has nothing to deliver: the worker is not woken for it (its events wait for GET).
    await this.#record(itemId, write, toRun.batch.webhook !== null);
  }

  /** Writes an outcome; when the database fails it is kept and written again before the next claims. */
  async #record(itemId: string, write: () => Promise<boolean>, notify: boolean): Promise<void> {
    try {
      // False: this instance no longer holds the item (a sweep queued it again); the other run records it.
      if ((await write()) && notify) this.#o.onRecorded?.();
    } catch {
      this.#unrecorded.push({ itemId, write, notify });
    }
  }

  async #writeUnrecorded(): Promise<void> {
    while (this.#unrecorded.length > 0) {
      const next = this.#unrecorded[0]!;
      if ((await next.write()) && next.notify) this.#o.onRecorded?.();
      this.#unrecorded.shift();
    }
  }

  /** One attempt of a claimed item, up to what is to be recorded. Throws only for an outage (then: retry). */
  async #attempt(work: ClaimedWork, toRun: ItemToRun, requestId: string): Promise<Decision> {
    const { item, batch } = toRun;
    const { store, scrape, instanceId, clock } = this.#o;
    const now = new Date(clock.now());
    const started = performance.now();
    const caller = await this.#o.callerOf(batch.accountId, batch.keyId).catch((error: unknown) => {
      this.#storageFailed('caller', error);
      return undefined;
    });
    // The database failed: the item goes back (this attempt counted), as for any outage.
    if (caller === undefined) return { kind: 'retry', why: 'storage' };
    if (caller === null)
      return this.#failed(
        work,
        new KumoError('unauthorized', 'the key that submitted this batch was revoked, has expired or is gone'),
        null,
      );

    let box: SecretBox;
    let url: string;
    try {
      box = this.#o.secrets.dataKeyBox(toRun.dataKeySealed, batch.id);
      url = box.open(toRun.urlSealed, toRun.urlContext ?? `url:${item.id}`).toString('utf8');
    } catch {
      // A data key that no longer opens (another server key, or corrupt): nothing can run, nothing is said of why.
      return this.#failed(work, new KumoError('internal', 'the item could not be opened'), null);
    }

    const params = paramsOf(batch.params, item.params);
    let planned;
    try {
      // Planned again at dispatch: a site switched off or a key narrowed since submission fails the item, free.
      planned = scrape.plan(caller, url, params);
    } catch (error) {
      return this.#failed(work, error, null);
    }
    const cost = costOf(planned.route, params);
    const limits = creditLimitsOf(caller.account, caller.key);
    let reserved;
    try {
      reserved = await store.reserve(item.id, instanceId, {
        requestId,
        period: periodOf(now),
        cost,
        accountLimit: limits.accountLimit,
        keyLimit: limits.keyLimit,
        expiresAt: new Date(now.getTime() + this.#o.fetchDeadlineMs + reservationMarginMs).toISOString(),
      });
    } catch (error) {
      // The database failed: the item goes back (a reservation that did land is released with it).
      this.#storageFailed('reserve', error);
      return { kind: 'retry', why: 'storage' };
    }
    if (!reserved.ok) {
      // Credits held by calls in flight may come back within seconds: tried again while attempts last.
      if ('held' in reserved && work.attempts < this.#maxAttempts) return { kind: 'retry', why: 'credits_held' };
      return this.#skipped();
    }

    const record = callRecordOf(planned);
    const row = (status: string, errorCode: ErrorCode | null): RequestRecord => ({
      requestId,
      accountId: batch.accountId,
      keyId: batch.keyId,
      ...record,
      status,
      errorCode,
      // Charged at handover (BatchStore.handover sets it), never here.
      costUnits: 0,
      latencyMs: Math.round(performance.now() - started),
      createdAt: now.toISOString(),
    });
    try {
      const ran = await scrape.runPlanned(planned, params, {
        accountId: batch.accountId,
        requestId,
        started,
        cost,
        record,
      });
      if (ran.status === 'not_found') {
        const error = this.#itemError('not_found', false);
        return { kind: 'finish', outcome: { state: 'not_found', requestId, error, record: row('not_found', null) } };
      }
      // The item carries its request id; the result is the call's success body without it.
      const { request_id: _omitted, ...body } = ran.result;
      return {
        kind: 'finish',
        outcome: {
          state: 'ready',
          requestId,
          costUnits: cost,
          route: planned.route,
          sealResult: () => box.seal(JSON.stringify(body), item.id),
          record: row('completed', null),
          body,
        },
      };
    } catch (error) {
      const code = isKumoError(error) ? error.code : 'internal';
      record.httpStatus = null;
      return this.#failed(work, error, row(requestStatusOf(code), code));
    }
  }

  /** A database failure under a run: its class and code only (never its message, which may quote values). */
  #storageFailed(step: string, error: unknown): void {
    const e = error as Error & { code?: unknown };
    this.#o.logger?.warn({ step, error_name: e.name, error_code: e.code }, 'batch item: storage failed; retried');
  }

  /** A failure: retried later while it is retryable and attempts last, else the item fails (free). */
  #failed(work: ClaimedWork, error: unknown, record: RequestRecord | null): Decision {
    const code: ErrorCode = isKumoError(error) ? error.code : 'internal';
    const retryable = retryableCodes.has(code);
    if (retryable && work.attempts < this.#maxAttempts) return { kind: 'retry', why: code };
    return {
      kind: 'finish',
      outcome: {
        state: 'failed',
        requestId: record?.requestId ?? null,
        error: this.#itemError(code, retryable),
        record,
      },
    };
  }

  #skipped(): Decision {
    return {
      kind: 'finish',
      outcome: { state: 'skipped', requestId: null, error: this.#itemError('credits_exhausted', false), record: null },
    };
  }

  #itemError(code: ErrorCode, retryable: boolean): ItemError {
    return { code, status: this.#o.statusOf(code), retryable };
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}

/**
 * An item's scrape params: its own over its batch's over a call's defaults. Batches never keep artifacts; a value of
 * the wrong type (the submission validated them) is ignored rather than trusted.
 */
export function paramsOf(
  batchParams: Record<string, unknown>,
  itemParams: Record<string, unknown> | null,
): ScrapeParams {
  const merged = { ...batchParams, ...(itemParams ?? {}) };
  const mode = merged.mode === 'html' ? 'html' : 'html_json';
  return {
    mode,
    work_type: typeof merged.work_type === 'string' ? merged.work_type : 'auto',
    include_html: merged.include_html === true,
    store_artifact: false,
    render_js: merged.render_js === true,
  };
}
