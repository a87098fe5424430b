// The request side of monitors (DESIGN §9), free of HTTP: validation against the plan, the estimate and the host's
// fair share at creation, reading, PATCH, DELETE, runs now, checks and history, and the views the API returns.
import { KumoError, isKumoError } from '../errors.js';
import type { Clock } from '../time/clock.js';
import { createHash } from 'node:crypto';
import { newId } from '../accounts/ids.js';
import { canonicalJson } from '../scrape/idempotency.js';
import { planOf } from '../accounts/plans.js';
import type { PlanId } from '../storage/storage.js';
import type { Caller } from '../scrape/caller.js';
import { costOf } from '../scrape/cost.js';
import type { Planned, ScrapeParams } from '../scrape/plan.js';
import { redactUrl } from '../sites/redact-url.js';
import { requireSecrets, type Secrets } from '../secrets/secret-box.js';
import type { WebhookEndpointStore } from '../webhooks/endpoint-store.js';
import type { PolitenessRule } from '../fetch/host-gate.js';
import { fetchedHostOf } from '../batches/batch-service.js';
import type { NewWork, Tx } from '../batches/work-queue.js';
import {
  defaultNoise,
  defaultWatch,
  historyCapDaysByPlan,
  watchableFields,
  type MonitorSchedule,
  type NoiseSettings,
  type Rule,
  type FieldValue,
  type WatchedField,
} from './model.js';
import { ruleProblems } from './rules.js';
import {
  checksPerMonth,
  hostDailyCapacity,
  hostShareCheck,
  jitterSeconds,
  nextRunAt,
  parseSchedule,
  type ScheduleSpec,
} from './schedule.js';
import { channelProblems, maskedChannel, type Channel } from './channels.js';
import { channelsContext } from './monitor-notifier.js';
import type {
  CheckRecord,
  MonitorPatch,
  MonitorRecord,
  MonitorStore,
  NewMonitor,
  NewTarget,
  PublicNotify,
} from './monitor-store.js';

/** Monitors an account may have, and targets one monitor may watch, by plan. */
export const monitorLimits: Readonly<Record<PlanId, { monitors: number; targets: number }>> = Object.freeze({
  free: { monitors: 3, targets: 5 },
  starter: { monitors: 50, targets: 50 },
  growth: { monitors: 500, targets: 200 },
});
/** Checks per page of GET …/checks. */
export const maxChecksPage = 100;
/** Failed checks in a row before `monitor.check.failed`, by default. */
export const defaultAlertAfter = 3;

export interface NotifyInput {
  webhook?: { endpoint_id: string };
  slack?: { webhook_url: string };
  chatwork?: { room_id: string; token: string };
  line?: { to: string; channel_access_token: string };
  language?: 'ja' | 'en';
}

export interface MonitorBody {
  name?: string;
  targets: { url: string; ref?: string }[];
  schedule: ScheduleSpec;
  watch?: WatchedField[];
  rules?: Rule[];
  noise?: Partial<NoiseSettings>;
  failures?: { alert_after?: number };
  notify?: NotifyInput;
  history?: { retain_days?: number };
  max_credits_per_month?: number;
}

export interface MonitorPatchBody {
  name?: string | null;
  status?: 'active' | 'paused';
  schedule?: ScheduleSpec;
  watch?: WatchedField[];
  rules?: Rule[];
  noise?: Partial<NoiseSettings>;
  failures?: { alert_after?: number };
  notify?: NotifyInput | null;
  history?: { retain_days?: number | null };
  max_credits_per_month?: number | null;
}

export interface Estimate {
  checks_per_month: number;
  credits_per_month: number;
  within_plan: boolean;
  host_load: { host: string; checks_per_day: number; share_per_day: number | null }[];
}

export interface MonitorServiceOptions {
  store: MonitorStore;
  plan: (caller: Caller, url: string, params: ScrapeParams) => Planned;
  secrets: Secrets | null;
  endpoints: Pick<WebhookEndpointStore, 'get'> | null;
  politeness: (host: string) => PolitenessRule;
  enqueue: (tx: Tx, work: readonly NewWork[]) => Promise<void>;
  /** Inside DELETE's transaction: the monitor's queued checks leave the work queue. */
  cancelWork: (tx: Tx, monitorId: string) => Promise<string[]>;
  clock: Clock;
  /** A monitor was made, resumed or run now: the scheduler's and the dispatcher's wakes. */
  wake?: () => void;
}

const checkParams: ScrapeParams = {
  mode: 'html_json',
  work_type: 'auto',
  include_html: false,
  store_artifact: false,
  render_js: false,
};

/** What an Idempotency-Key is bound to: the body's canonical JSON (key order aside), hashed. */
export function monitorBodyHash(body: MonitorBody): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function idempotencyConflict(monitorId: string): KumoError {
  return new KumoError('idempotency_conflict', 'this Idempotency-Key was used with another request body', {
    body: { monitor_id: monitorId },
  });
}

function refuse(detail: string, field?: string): never {
  throw new KumoError('invalid_request', detail, field ? { body: { field } } : {});
}

function overLimit(detail: string, body: Record<string, unknown> = {}): never {
  throw new KumoError('monitor_limit_exceeded', detail, { body });
}

export class MonitorService {
  readonly #o: MonitorServiceOptions;

  constructor(options: MonitorServiceOptions) {
    this.#o = options;
  }

  #now(): Date {
    return new Date(this.#o.clock.now());
  }

  /**
   * POST /v1/monitors. With an Idempotency-Key, a repeat of the same body answers the monitor it made (as it is now,
   * `replayed`) and makes nothing; the same key with another body is an idempotency_conflict.
   */
  async create(
    caller: Caller,
    body: MonitorBody,
    idempotencyKey: string | null = null,
  ): Promise<{ monitor: MonitorView; replayed: boolean }> {
    const secrets = requireSecrets(this.#o.secrets);
    const bodyHash = idempotencyKey === null ? null : monitorBodyHash(body);
    if (idempotencyKey !== null) {
      // Answered as the first was, whatever changed since (plan limits, the count of monitors): nothing is checked again.
      const earlier = await this.#o.store.byIdempotencyKey(caller.account.id, idempotencyKey);
      if (earlier && earlier.bodyHash === bodyHash)
        return { monitor: await this.#viewOf(caller, earlier.monitor), replayed: true };
      if (earlier) throw idempotencyConflict(earlier.monitor.id);
    }
    const plan = caller.account.plan;
    const limits = monitorLimits[plan];
    if (body.targets.length === 0) refuse('a monitor needs at least one target', 'targets');
    if (body.targets.length > limits.targets) {
      overLimit(`the ${plan} plan allows ${limits.targets} targets per monitor; this one has ${body.targets.length}`, {
        field: 'targets',
        limit: limits.targets,
      });
    }
    const count = await this.#o.store.count(caller.account.id);
    if (count >= limits.monitors) {
      overLimit(`the ${plan} plan allows ${limits.monitors} monitors; this account has ${count}`, {
        limit: limits.monitors,
      });
    }
    const schedule = this.#schedule(body.schedule, plan);
    const watch = this.#watch(body.watch);
    const rules = this.#rules(body.rules, watch);
    const noise = this.#noise(body.noise);
    const alertAfter = this.#alertAfter(body.failures?.alert_after);
    const retainDays = this.#retainDays(body.history?.retain_days, plan);
    const maxCredits = this.#maxCredits(body.max_credits_per_month);
    const id = newId('mon', this.#o.clock.now());
    const now = this.#now();
    const { box, sealed: dataKeySealed } = secrets.newDataKey(id);
    const targets = this.#targets(caller, body.targets, (targetId, href) => box.seal(href, `url:${targetId}`));
    const notify = await this.#notify(caller, body.notify ?? {});
    const channelsSealed =
      notify.channels.length > 0 ? box.seal(JSON.stringify(notify.channels), channelsContext(id)) : null;
    const jitterS = jitterSeconds(id, schedule);
    const estimate = await this.#estimate(caller, id, schedule, targets, now, now);
    const record: NewMonitor = {
      id,
      accountId: caller.account.id,
      keyId: caller.key.id,
      name: body.name ?? null,
      schedule,
      jitterS,
      anchorAt: now.toISOString(),
      nextRunAt: nextRunAt(schedule, id, now, now).toISOString(),
      watch,
      rules,
      noise,
      alertAfter,
      notify: notify.public,
      channelsSealed,
      dataKeySealed,
      retainDays,
      maxCreditsPerMonth: maxCredits,
      checksPerDay: estimate.checks_per_month / 30 / Math.max(1, targets.length),
      createdAt: now.toISOString(),
      targets,
    };
    let monitor: MonitorRecord;
    if (idempotencyKey === null || bodyHash === null) monitor = await this.#o.store.create(record);
    else {
      const once = await this.#o.store.createOnce(record, { key: idempotencyKey, bodyHash });
      // Another request with the key committed first (a parallel retry): its monitor is the answer.
      if (once.outcome === 'conflict') throw idempotencyConflict(once.monitorId);
      if (once.outcome === 'replay') return { monitor: await this.#viewOf(caller, once.monitor), replayed: true };
      monitor = once.monitor;
    }
    this.#o.wake?.();
    return { monitor: monitorView(monitor, estimate), replayed: false };
  }

  async get(caller: Caller, monitorId: string): Promise<{ monitor: MonitorView }> {
    return { monitor: await this.#viewOf(caller, await this.#own(caller, monitorId)) };
  }

  async #viewOf(caller: Caller, monitor: MonitorRecord): Promise<MonitorView> {
    return monitorView(monitor, await this.#estimateOf(caller, monitor));
  }

  /** Newest first; `cursor` is the last id of the page before. */
  async list(
    caller: Caller,
    query: { limit: number; cursor?: string },
  ): Promise<{
    monitors: MonitorView[];
    next_cursor: string | null;
  }> {
    const rows = await this.#o.store.list(caller.account.id, query.limit, query.cursor);
    return {
      monitors: rows.map((monitor) => monitorView(monitor, null)),
      next_cursor: rows.length === query.limit ? rows.at(-1)!.id : null,
    };
  }

  async update(caller: Caller, monitorId: string, body: MonitorPatchBody): Promise<{ monitor: MonitorView }> {
    const secrets = requireSecrets(this.#o.secrets);
    const current = await this.#own(caller, monitorId);
    const plan = caller.account.plan;
    const now = this.#now();
    const patch: MonitorPatch = { updatedAt: now.toISOString() };
    if (body.name !== undefined) patch.name = body.name;
    let schedule = current.schedule;
    if (body.schedule !== undefined) {
      schedule = this.#schedule(body.schedule, plan);
      patch.schedule = schedule;
      patch.jitterS = jitterSeconds(current.id, schedule);
    }
    const status = body.status ?? current.status;
    if (body.status !== undefined) patch.status = body.status;
    // A paused monitor has no next run; resuming (or a new schedule while active) starts from now.
    if (status === 'paused') patch.nextRunAt = null;
    else if (body.schedule !== undefined || (body.status === 'active' && current.status === 'paused')) {
      patch.nextRunAt = nextRunAt(schedule, current.id, new Date(current.anchorAt), now).toISOString();
    }
    if (body.watch !== undefined) patch.watch = this.#watch(body.watch);
    // Rules only on watched fields (a check keeps nothing else): the new rules against the new or current watch, and
    // the current rules against a new watch.
    if (body.rules !== undefined || body.watch !== undefined) {
      patch.rules = this.#rules(body.rules ?? current.rules, patch.watch ?? current.watch);
    }
    if (body.noise !== undefined) patch.noise = this.#noise({ ...current.noise, ...body.noise });
    if (body.failures?.alert_after !== undefined) patch.alertAfter = this.#alertAfter(body.failures.alert_after);
    if (body.history !== undefined) {
      patch.retainDays = body.history.retain_days === null ? null : this.#retainDays(body.history.retain_days, plan);
    }
    if (body.max_credits_per_month !== undefined) {
      patch.maxCreditsPerMonth =
        body.max_credits_per_month === null ? null : this.#maxCredits(body.max_credits_per_month);
    }
    if (body.notify !== undefined) {
      const notify = await this.#notify(caller, body.notify ?? {});
      patch.notify = notify.public;
      const box = secrets.dataKeyBox(await this.#dataKeyOf(current), current.id);
      patch.channelsSealed =
        notify.channels.length > 0 ? box.seal(JSON.stringify(notify.channels), channelsContext(current.id)) : null;
    }
    // A new schedule is estimated (and held to the host's share) once; that estimate is the one shown.
    let estimate: Estimate | null = null;
    if (body.schedule !== undefined) {
      estimate = await this.#estimate(caller, current.id, schedule, current.targets, now, new Date(current.anchorAt));
      patch.checksPerDay = estimate.checks_per_month / 30 / Math.max(1, current.targets.length);
    }
    const updated = await this.#o.store.update(current.id, caller.account.id, patch);
    if (!updated) throw new KumoError('not_found', 'no such monitor for this account');
    if (status === 'active') this.#o.wake?.();
    return { monitor: monitorView(updated, estimate ?? (await this.#estimateOf(caller, updated))) };
  }

  async delete(caller: Caller, monitorId: string): Promise<void> {
    const deleted = await this.#o.store.delete(monitorId, caller.account.id, (tx) => this.#o.cancelWork(tx, monitorId));
    if (!deleted) throw new KumoError('not_found', 'no such monitor for this account');
  }

  async runNow(caller: Caller, monitorId: string): Promise<{ checks: CheckView[] }> {
    requireSecrets(this.#o.secrets);
    const checks = await this.#o.store.runNow(monitorId, caller.account.id, this.#now().toISOString(), this.#o.enqueue);
    if (checks === null) throw new KumoError('not_found', 'no such monitor for this account');
    this.#o.wake?.();
    return { checks: checks.map(checkView) };
  }

  async checks(
    caller: Caller,
    monitorId: string,
    query: { target?: string; cursor?: string; limit?: number },
  ): Promise<{ checks: CheckView[]; next_cursor: string | null }> {
    await this.#own(caller, monitorId);
    const limit = Math.min(query.limit ?? 20, maxChecksPage);
    const rows = await this.#o.store.checks(monitorId, caller.account.id, {
      ...(query.target ? { targetId: query.target } : {}),
      ...(query.cursor ? { before: query.cursor } : {}),
      limit,
    });
    return { checks: rows.map(checkView), next_cursor: rows.length === limit ? rows.at(-1)!.id : null };
  }

  async history(
    caller: Caller,
    monitorId: string,
    query: { target?: string; days?: number; fields?: string },
  ): Promise<HistoryView> {
    const monitor = await this.#own(caller, monitorId);
    const target = query.target ? monitor.targets.find((t) => t.id === query.target) : monitor.targets[0];
    if (!target) throw new KumoError('not_found', 'no such target of this monitor', { body: { field: 'target' } });
    const fields = query.fields ? this.#watch(query.fields.split(',').map((field) => field.trim())) : monitor.watch;
    const days = Math.min(query.days ?? monitor.retainDays ?? 30, 365);
    const now = this.#now();
    const since = new Date(now.getTime() - days * 86_400_000);
    const points =
      monitor.retainDays === null
        ? []
        : await this.#o.store.history(monitor.id, caller.account.id, target.id, since.toISOString());
    return historyView(monitor, target.id, fields, points, since, now);
  }

  /** The account's own monitor, or 404. */
  async #own(caller: Caller, monitorId: string): Promise<MonitorRecord> {
    const monitor = await this.#o.store.get(monitorId, caller.account.id);
    if (!monitor) throw new KumoError('not_found', 'no such monitor for this account');
    return monitor;
  }

  async #dataKeyOf(monitor: MonitorRecord): Promise<Uint8Array> {
    const key = await this.#o.store.dataKey(monitor.id);
    if (!key) throw new KumoError('not_found', 'no such monitor for this account');
    return key;
  }

  #schedule(spec: ScheduleSpec, plan: PlanId): MonitorSchedule {
    const parsed = parseSchedule(spec, plan);
    if (parsed.ok) return parsed.schedule;
    const interval = parsed.problems.some((problem: string) => problem.includes('minimum'));
    if (interval) overLimit(parsed.problems.join('; '), { field: 'schedule' });
    refuse(parsed.problems.join('; '), 'schedule');
  }

  #watch(watch: readonly string[] | undefined): WatchedField[] {
    if (watch === undefined) return [...defaultWatch];
    const unknown = watch.filter((field) => !(watchableFields as readonly string[]).includes(field));
    if (unknown.length > 0) {
      refuse(`unknown watched field ${unknown.join(', ')}; allowed: ${watchableFields.join(', ')}`, 'watch');
    }
    if (watch.length === 0) refuse('watch names at least one field', 'watch');
    return [...new Set(watch)] as WatchedField[];
  }

  #rules(rules: readonly Rule[] | undefined, watch: readonly WatchedField[]): Rule[] {
    if (rules === undefined) return [];
    const problems = ruleProblems(rules, watch);
    if (problems.length > 0) refuse(problems.join('; '), 'rules');
    return rules.map((rule) => ({ ...rule }));
  }

  #noise(noise: Partial<NoiseSettings> | undefined): NoiseSettings {
    const merged = { ...defaultNoise, ...(noise ?? {}) };
    const bounds: Record<keyof NoiseSettings, [number, number]> = {
      price_abs_yen: [0, 100_000],
      confirm_checks: [1, 10],
      cooldown_minutes: [0, 10_080],
      max_alerts_per_day: [1, 1_000],
    };
    for (const [field, [min, max]] of Object.entries(bounds) as [keyof NoiseSettings, [number, number]][]) {
      const value = merged[field];
      if (!Number.isInteger(value) || value < min || value > max) {
        refuse(`noise.${field} must be an integer from ${min} to ${max}`, `noise.${field}`);
      }
    }
    return merged;
  }

  #alertAfter(value: number | undefined): number {
    if (value === undefined) return defaultAlertAfter;
    if (!Number.isInteger(value) || value < 1 || value > 20) {
      refuse('failures.alert_after must be an integer from 1 to 20', 'failures.alert_after');
    }
    return value;
  }

  #retainDays(value: number | undefined, plan: PlanId): number | null {
    if (value === undefined) return null;
    const cap = historyCapDaysByPlan[plan];
    if (!Number.isInteger(value) || value < 1) refuse('history.retain_days must be a whole number of days', 'history');
    if (value > cap) {
      overLimit(`the ${plan} plan keeps history at most ${cap} days; asked for ${value}`, {
        field: 'history.retain_days',
        limit: cap,
      });
    }
    return value;
  }

  #maxCredits(value: number | undefined): number | null {
    if (value === undefined) return null;
    if (!Number.isInteger(value) || value < 1) {
      refuse('max_credits_per_month must be a positive integer', 'max_credits_per_month');
    }
    return value;
  }

  /** Each target through the call's own checks (URL policy, site, key scope); only item pages can be watched. */
  #targets(
    caller: Caller,
    inputs: readonly { url: string; ref?: string }[],
    seal: (targetId: string, href: string) => Uint8Array,
  ): NewTarget[] {
    const asMonitor: Caller = { ...caller, key: { ...caller.key, operations: null } };
    const now = this.#o.clock.now();
    return inputs.map((input, index) => {
      let planned: Planned;
      try {
        planned = this.#o.plan(asMonitor, input.url, checkParams);
      } catch (error) {
        if (!isKumoError(error)) throw error;
        throw new KumoError(error.code, `targets[${index}]: ${error.message}`, {
          ...error.extras,
          body: { ...error.extras.body, field: `targets[${index}].url` },
        });
      }
      if (planned.entry.pageType !== 'item') {
        throw new KumoError(
          'page_not_supported',
          `targets[${index}]: a monitor watches item pages; this URL is a ${planned.entry.pageType} page`,
          { body: { field: `targets[${index}].url` } },
        );
      }
      const id = newId('tgt', now);
      return {
        id,
        index,
        url: redactUrl(planned.url, planned.site.secretQueryParams),
        urlSealed: seal(id, planned.url.href),
        ref: input.ref ?? null,
        host: fetchedHostOf(planned),
        siteId: planned.site.id,
        pageType: planned.entry.pageType,
        route: planned.route,
        costMax: costOf(planned.route, checkParams),
      };
    });
  }

  async #notify(caller: Caller, input: NotifyInput): Promise<{ public: PublicNotify; channels: Channel[] }> {
    const channels: Channel[] = [];
    if (input.slack) channels.push({ kind: 'slack', webhookUrl: input.slack.webhook_url });
    if (input.chatwork)
      channels.push({ kind: 'chatwork', roomId: input.chatwork.room_id, token: input.chatwork.token });
    if (input.line) {
      channels.push({ kind: 'line', to: input.line.to, channelAccessToken: input.line.channel_access_token });
    }
    for (const channel of channels) {
      const problems = channelProblems(channel);
      if (problems.length > 0) refuse(problems.join('; '), `notify.${channel.kind}`);
    }
    let webhook: PublicNotify['webhook'] = null;
    if (input.webhook) {
      const endpoint = this.#o.endpoints
        ? await this.#o.endpoints.get(input.webhook.endpoint_id, caller.account.id)
        : null;
      if (!endpoint) {
        throw new KumoError('not_found', 'no such webhook endpoint for this account', {
          body: { field: 'notify.webhook.endpoint_id' },
        });
      }
      if (endpoint.disabledAt !== null) {
        refuse(`webhook endpoint ${endpoint.id} is disabled; register a new one`, 'notify.webhook.endpoint_id');
      }
      webhook = { endpoint_id: endpoint.id };
    }
    return {
      public: {
        webhook,
        language: input.language ?? 'ja',
        channels: channels.map((channel) => ({ kind: channel.kind, masked: maskedChannel(channel) })),
      },
      channels,
    };
  }

  async #estimateOf(caller: Caller, monitor: MonitorRecord): Promise<Estimate> {
    return this.#estimate(
      caller,
      monitor.id,
      monitor.schedule,
      monitor.targets,
      this.#now(),
      new Date(monitor.anchorAt),
      false,
    );
  }

  /**
   * Checks and credits over the next 30 days, and per host the checks a day against the account's fair share of the
   * host's politeness capacity (schedule.ts): at creation or a new schedule, a monitor past it is refused with the
   * numbers rather than delayed in silence.
   */
  async #estimate(
    caller: Caller,
    monitorId: string,
    schedule: MonitorSchedule,
    targets: readonly { host: string; costMax: number }[],
    from: Date,
    anchor: Date,
    enforce = true,
  ): Promise<Estimate> {
    const checks = checksPerMonth(schedule, monitorId, anchor, from);
    const credits = targets.reduce((sum, target) => sum + target.costMax, 0) * checks;
    const byHost = new Map<string, number>();
    for (const target of targets) byHost.set(target.host, (byHost.get(target.host) ?? 0) + checks / 30);
    const hostLoad: Estimate['host_load'] = [];
    for (const [host, adding] of byHost) {
      const load = await this.#o.store.hostLoad(host, monitorId);
      const accounts = new Set([...load.map((row) => row.accountId), caller.account.id]);
      const own = load.find((row) => row.accountId === caller.account.id)?.checksPerDay ?? 0;
      const share = hostShareCheck({
        capacityPerDay: hostDailyCapacity(this.#o.politeness(host)),
        accountsOnHost: accounts.size,
        accountChecksPerDay: own,
        addingChecksPerDay: adding,
      });
      // A host without spacing (an operator's override) has no daily bound to share.
      const sharePerDay = Number.isFinite(share.sharePerDay) ? Math.floor(share.sharePerDay) : null;
      hostLoad.push({ host, checks_per_day: round2(adding), share_per_day: sharePerDay });
      if (enforce && !share.allowed) {
        overLimit(
          `${host}: this monitor adds ${round2(adding)} checks a day to this account's ${round2(own)}, over its ` +
            `fair share of ${Math.floor(share.sharePerDay)} a day of the host's capacity`,
          {
            field: 'schedule',
            host,
            share_per_day: Math.floor(share.sharePerDay),
            used_per_day: round2(own),
            adding_per_day: round2(adding),
          },
        );
      }
    }
    return {
      checks_per_month: checks,
      credits_per_month: credits,
      within_plan: credits <= planOf(caller.account.plan).monthlyCredits,
      host_load: hostLoad,
    };
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

// ---- views ----------------------------------------------------------------------------------------------------

export interface MonitorView {
  id: string;
  name: string | null;
  status: 'active' | 'paused';
  paused_reason: string | null;
  schedule: MonitorSchedule & { jitter_s: number; next_run_at: string | null };
  watch: WatchedField[];
  rules: Rule[];
  noise: NoiseSettings;
  failures: { alert_after: number };
  notify: PublicNotify;
  history: { retain_days: number | null };
  max_credits_per_month: number | null;
  credits: { period: string | null; used: number };
  estimate?: Estimate;
  targets: {
    id: string;
    url: string;
    ref: string | null;
    site: string;
    page_type: string;
    removed: boolean;
    last: Record<string, FieldValue> | null;
    last_check: { at: string | null; state: string | null; error_code: string | null };
  }[];
  created_at: string;
  updated_at: string;
}

export function monitorView(monitor: MonitorRecord, estimate: Estimate | null): MonitorView {
  return {
    id: monitor.id,
    name: monitor.name,
    status: monitor.status,
    paused_reason: monitor.pausedReason,
    schedule: { ...monitor.schedule, jitter_s: monitor.jitterS, next_run_at: monitor.nextRunAt },
    watch: monitor.watch,
    rules: monitor.rules,
    noise: monitor.noise,
    failures: { alert_after: monitor.alertAfter },
    notify: monitor.notify,
    history: { retain_days: monitor.retainDays },
    max_credits_per_month: monitor.maxCreditsPerMonth,
    credits: { period: monitor.creditsPeriod, used: monitor.creditsUsed },
    ...(estimate ? { estimate } : {}),
    targets: monitor.targets.map((target) => ({
      id: target.id,
      url: target.url,
      ref: target.ref,
      site: target.siteId,
      page_type: target.pageType,
      removed: target.removed,
      last: target.state.last ? { ...target.state.last, at: target.state.lastAt } : null,
      last_check: { at: target.lastCheckAt, state: target.lastCheckState, error_code: target.lastErrorCode },
    })),
    created_at: monitor.createdAt,
    updated_at: monitor.updatedAt,
  };
}

export interface CheckView {
  id: string;
  target_id: string;
  state: CheckRecord['state'];
  reason: string | null;
  scheduled_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  request_id: string | null;
  cost_units: number;
  changes: CheckRecord['changes'];
  rules_hit: string[];
  skipped_rules: CheckRecord['skippedRules'];
  error: { code: string; status: number } | null;
}

export function checkView(check: CheckRecord): CheckView {
  return {
    id: check.id,
    target_id: check.targetId,
    state: check.state,
    reason: check.reason,
    scheduled_at: check.scheduledAt,
    started_at: check.startedAt,
    finished_at: check.finishedAt,
    attempts: check.attempts,
    request_id: check.requestId,
    cost_units: check.costUnits,
    changes: check.changes,
    rules_hit: check.rulesHit,
    skipped_rules: check.skippedRules,
    error: check.error,
  };
}

export interface FieldStats {
  min: number | null;
  max: number | null;
  lowest_at: string | null;
  last_change_at: string | null;
}

export interface HistoryView {
  target_id: string;
  from: string;
  to: string;
  retain_days: number | null;
  points: Record<string, FieldValue>[];
  stats: Record<string, FieldStats>;
}

/** Points oldest first with the asked fields; per field min, max, when the lowest was seen and when it last changed. */
export function historyView(
  monitor: MonitorRecord,
  targetId: string,
  fields: readonly WatchedField[],
  points: readonly { t: string; values: Record<string, FieldValue | undefined> }[],
  from: Date,
  to: Date,
): HistoryView {
  const stats: Record<string, FieldStats> = {};
  for (const field of fields) {
    const entry: FieldStats = { min: null, max: null, lowest_at: null, last_change_at: null };
    let previous: unknown;
    points.forEach((point, i) => {
      const value = point.values[field];
      if (typeof value === 'number') {
        if (entry.min === null || value < entry.min) {
          entry.min = value;
          entry.lowest_at = point.t;
        }
        if (entry.max === null || value > entry.max) entry.max = value;
      }
      if (i > 0 && value !== previous) entry.last_change_at = point.t;
      previous = value;
    });
    stats[field] = entry;
  }
  return {
    target_id: targetId,
    from: from.toISOString(),
    to: to.toISOString(),
    retain_days: monitor.retainDays,
    points: points.map((point) => {
      const row: Record<string, FieldValue> = { t: point.t };
      for (const field of fields) row[field] = point.values[field] ?? null;
      return row;
    }),
    stats,
  };
}
