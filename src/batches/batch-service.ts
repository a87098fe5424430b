// The request side of batches (DESIGN §8), free of HTTP: submission and appends with per-item validation, plan limits,
// Idempotency-Key and estimate; reading a batch, its items (handover on GET) and its events; cancel.
import { createHash } from 'node:crypto';
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import type { Clock } from '../time/clock.js';
import { newId } from '../accounts/ids.js';
import { nextPeriodStart } from '../accounts/period.js';
import type { PlanId } from '../storage/storage.js';
import type { Caller } from '../scrape/caller.js';
import { costOf } from '../scrape/cost.js';
import type { Planned, ScrapeParams } from '../scrape/plan.js';
import { canonicalJson } from '../scrape/idempotency.js';
import { redactUrl } from '../sites/redact-url.js';
import type { Secrets, SecretBox } from '../secrets/secret-box.js';
import type { WebhookEndpointStore } from '../webhooks/endpoint-store.js';
import { backendRetryAfterSeconds } from '../backends/backend-errors.js';
import {
  eventTypes,
  type BatchItemRecord,
  type BatchRecord,
  type BatchStore,
  type EventAfter,
  type EventPosition,
  type EventRecord,
  type EventType,
  type ItemState,
  type NewBatchItem,
  type RejectedItem,
  type WebhookTarget,
} from './batch-store.js';
import type { NewWork, WorkQueue } from './work-queue.js';

/** Items one batch may hold, all appends counted (DESIGN §8; issue 20). */
export const batchItemLimits: Readonly<Record<PlanId, number>> = Object.freeze({
  free: 100,
  starter: 5_000,
  growth: 50_000,
});
/** Items one request (submission or append) may carry. */
export const maxItemsPerRequest = 1_000;
/** Results kept for polling: 1–72 h, Free at most 24 (DESIGN §5). */
export const maxRetainHours: Readonly<Record<PlanId, number>> = Object.freeze({ free: 24, starter: 72, growth: 72 });
/** Without `results.retain_hours`, results expire this long after the batch was made. */
export const defaultRetainHours = 24;
/** Items per page of GET /v1/batches/{id}/items, and events per page of GET /v1/events. */
export const maxPageLimit = 100;

/** What an item may ask of its call: the scrape params a batch allows (no `store_artifact`). */
export interface BatchItemParams {
  mode?: ScrapeParams['mode'];
  work_type?: string;
  include_html?: boolean;
  render_js?: boolean;
}

export interface BatchItemInput {
  url: string;
  ref?: string;
  params?: BatchItemParams;
}

export interface SubmitBody {
  items: BatchItemInput[];
  params?: BatchItemParams;
  webhook?: { endpoint_id: string; events?: EventType[]; payload?: 'full' | 'thin' };
  results?: { retain_hours?: number };
  max_credits?: number;
  seal?: boolean;
}

export interface AppendBody {
  items: BatchItemInput[];
  seal?: boolean;
}

/** A batch as the API shows it (DESIGN §8); `rejected` is this request's on a submission or append. */
export interface BatchView {
  id: string;
  status: BatchRecord['status'];
  sealed: boolean;
  created_at: string;
  finished_at: string | null;
  results_expire_at: string;
  counts: BatchRecord['counts'];
  credits: { charged: number; held: number; max: number | null };
  estimate: { cost_units_max: number; eta_s: number };
  rejected: RejectedItem[];
  webhook: { endpoint_id: string; events: EventType[]; payload: 'full' | 'thin' } | null;
  results: { retain_hours: number | null };
  links: { self: string; items: string; events: string };
}

export interface ItemView {
  id: string;
  index: number;
  ref: string | null;
  url: string;
  state: ItemState;
  attempts: number;
  request_id: string | null;
  cost_units: number;
  finished_at: string | null;
  result?: unknown;
  error?: { code: ErrorCode; status: number; retryable: boolean };
}

export interface ItemsQuery {
  state?: ItemState;
  cursor?: string;
  limit?: number;
}

/** One page of items, and the ids this page hands over (committed by `handover` after it is serialized). */
export interface ItemsPage {
  items: ItemView[];
  next_cursor: string | null;
  handover: string[];
}

export interface EventsQuery {
  batchId?: string;
  after?: string;
  types?: EventType[];
  limit?: number;
}

export interface EventView {
  id: string;
  type: EventType;
  timestamp: string;
  data: { batch_id: string; item_id: string | null; sequence: number };
}

export interface BatchServiceOptions {
  store: BatchStore;
  queue: WorkQueue;
  /** The scrape use case's checks that need no credits and no slot (ScrapeService.plan). */
  plan: (caller: Caller, url: string, params: ScrapeParams) => Planned;
  /** Null: KUMO_SECRETS_KEY is not set (shared mode): every batch route answers 503. */
  secrets: Secrets | null;
  /** Null: no webhook endpoints here; a batch naming one is refused as unknown. */
  endpoints: WebhookEndpointStore | null;
  /** The politeness a host is fetched with (the registry's, with the operator's override), for the estimate. */
  politeness: (host: string) => { maxInFlight: number; minIntervalMs: number };
  /** Every query parameter any site treats as a credential: removed from the URLs of rejected items. */
  secretQueryParams: readonly string[];
  clock: Clock;
  /**
   * The credits the caller has left this month (the tighter of account and key); absent = not checked here. A batch
   * whose cheapest item cannot be paid for is refused up front (429 credits_exhausted); otherwise items past the
   * credits left are skipped when they run.
   */
  creditsLeft?: (caller: Caller) => Promise<number>;
  /** Tells this instance's dispatcher that work was queued (its poll would find it within a second anyway). */
  wake?: () => void;
  /**
   * Proves that what the items will run on answers: the limiter's store, where each item takes its account's batch lane
   * (Redis in shared mode). It throws `unavailable` when it does not, so a submission is refused with Retry-After
   * instead of being queued behind an outage it cannot see. Absent = nothing to check (the in-process limiter).
   */
  dispatchable?: (caller: Caller) => Promise<void>;
}

const defaultParams: Required<BatchItemParams> = {
  mode: 'html_json',
  work_type: 'auto',
  include_html: false,
  render_js: false,
};

interface Accepted {
  item: NewBatchItem;
}

interface Validated {
  accepted: Accepted[];
  /** Indexes relative to this request. */
  rejected: RejectedItem[];
}

export class BatchService {
  readonly #o: BatchServiceOptions;

  constructor(options: BatchServiceOptions) {
    this.#o = options;
  }

  /** POST /v1/batches. `replayed`: the same Idempotency-Key and body made this batch before (nothing new queued). */
  async submit(
    caller: Caller,
    body: SubmitBody,
    idempotencyKey: string | null,
  ): Promise<{ batch: BatchView; replayed: boolean }> {
    const secrets = this.#secrets();
    if (idempotencyKey) {
      // A repeat is answered as the first submission was, whatever changed since (credits spent, the endpoint
      // disabled, a backend down): nothing new is validated or queued for it.
      const earlier = await this.#o.store.byIdempotencyKey(caller.account.id, idempotencyKey);
      if (earlier && earlier.bodyHash === submissionHash(body)) return { batch: viewOf(earlier.batch), replayed: true };
      if (earlier) throw idempotencyConflict(earlier.batch.id);
    }
    await this.#o.dispatchable?.(caller);
    const now = new Date(this.#o.clock.now());
    const plan = caller.account.plan;
    const retainHours = body.results?.retain_hours ?? null;
    if (retainHours !== null && retainHours > maxRetainHours[plan]) {
      throw new KumoError(
        'batch_limit_exceeded',
        `the ${plan} plan keeps batch results at most ${maxRetainHours[plan]} hours`,
        { body: { field: 'results.retain_hours', limit: maxRetainHours[plan] } },
      );
    }
    const webhook = await this.#webhookOf(caller, body.webhook);
    const batchParams: Required<BatchItemParams> = { ...defaultParams, ...body.params };
    const batchId = newId('bat', now.getTime());
    const { box, sealed } = secrets.newDataKey(batchId);
    const validated = this.#validate(caller, body.items, batchParams, box, now, 0);
    if (validated.accepted.length === 0) throw nothingValid(validated.rejected);
    const limit = batchItemLimits[plan];
    if (validated.accepted.length > limit) throw batchLimit(plan, limit, 0, validated.accepted.length);
    await this.#payableOrRefuse(caller, validated.accepted, now);

    const estimate = await this.#estimate(validated.accepted);
    const expiresAt = new Date(now.getTime() + (retainHours ?? defaultRetainHours) * 3_600_000);
    const outcome = await this.#o.store.create(
      {
        id: batchId,
        accountId: caller.account.id,
        keyId: caller.key.id,
        params: batchParams,
        webhook,
        retainHours,
        resultsExpireAt: expiresAt.toISOString(),
        maxCredits: body.max_credits ?? null,
        estimate,
        rejected: validated.rejected,
        dataKeySealed: sealed,
        createdAt: now.toISOString(),
        sealed: body.seal ?? true,
        ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: submissionHash(body) } } : {}),
      },
      validated.accepted.map((a) => a.item),
      (tx) => this.#o.queue.enqueue(tx, this.#work(caller, batchId, validated.accepted)),
    );
    switch (outcome.outcome) {
      case 'created':
        this.#o.wake?.();
        return { batch: viewOf(outcome.batch), replayed: false };
      case 'replay':
        return { batch: viewOf(outcome.batch), replayed: true };
      case 'conflict':
        throw idempotencyConflict(outcome.batchId);
    }
  }

  /** POST /v1/batches/{id}/items: more items for a batch not yet sealed; `seal` (default true) closes it. */
  async append(caller: Caller, batchId: string, body: AppendBody): Promise<{ batch: BatchView }> {
    const secrets = this.#secrets();
    await this.#o.dispatchable?.(caller);
    const now = new Date(this.#o.clock.now());
    const current = await this.#o.store.get(batchId, caller.account.id);
    if (!current) throw notFound();
    if (current.sealed || current.status === 'cancelling' || current.status === 'cancelled') throw sealedError(current);
    const dataKey = await this.#o.store.dataKey(batchId);
    if (!dataKey) throw sealedError(current);
    const box = secrets.dataKeyBox(dataKey, batchId);
    const validated = this.#validate(caller, body.items, { ...defaultParams, ...current.params }, box, now, 0);
    if (body.items.length > 0 && validated.accepted.length === 0) throw nothingValid(validated.rejected);
    const plan = caller.account.plan;
    const limit = batchItemLimits[plan];
    if (current.counts.total + validated.accepted.length > limit) {
      throw batchLimit(plan, limit, current.counts.total, validated.accepted.length);
    }
    const estimate = await this.#estimate(validated.accepted);
    const elapsedS = Math.max(0, (now.getTime() - Date.parse(current.createdAt)) / 1000);
    const outcome = await this.#o.store.append(
      batchId,
      caller.account.id,
      validated.accepted.map((a) => a.item),
      validated.rejected,
      {
        seal: body.seal ?? true,
        maxItems: limit,
        addCostUnitsMax: estimate.costUnitsMax,
        // The old estimate counted from the batch's creation; what is left of it, or the new items' time if longer.
        etaS: Math.max(estimate.etaS, Math.ceil(current.estimate.etaS - elapsedS)),
        now: now.toISOString(),
      },
      (tx, base) =>
        this.#o.queue.enqueue(
          tx,
          this.#work(
            caller,
            batchId,
            validated.accepted.map((a) => ({ ...a, item: { ...a.item, index: a.item.index + base } })),
          ),
        ),
    );
    switch (outcome.outcome) {
      case 'appended':
        if (validated.accepted.length > 0) this.#o.wake?.();
        return { batch: { ...viewOf(outcome.batch), rejected: outcome.rejected } };
      case 'not_found':
        throw notFound();
      case 'sealed':
        throw sealedError(outcome.batch);
      case 'limit':
        throw batchLimit(plan, limit, outcome.total, validated.accepted.length);
    }
  }

  async get(caller: Caller, batchId: string): Promise<BatchView> {
    this.#secrets();
    const batch = await this.#o.store.get(batchId, caller.account.id);
    if (!batch) throw notFound();
    return viewOf(batch);
  }

  async list(caller: Caller, limit: number): Promise<BatchView[]> {
    this.#secrets();
    const batches = await this.#o.store.list(caller.account.id, Math.min(Math.max(1, limit), maxPageLimit));
    return batches.map(viewOf);
  }

  /** DELETE /v1/batches/{id}: queued items `cancelled` (free) at once; running ones finish. */
  async cancel(caller: Caller, batchId: string): Promise<{ batch: BatchView; cancelled: number }> {
    this.#secrets();
    const outcome = await this.#o.store.cancel(batchId, caller.account.id, (tx) => this.#o.queue.cancel(tx, batchId));
    if (!outcome) throw notFound();
    return { batch: viewOf(outcome.batch), cancelled: outcome.cancelled };
  }

  /**
   * One page of items. Results in the buffer are opened with the batch's data key and shown; those still `ready` are
   * listed in `handover` and shown as `delivered`: the route must call `handover` with them after the page is
   * serialized and before it is written (a failure there answers 503 and charges nothing). Items handed over before
   * (with retention) show their result again, free.
   */
  async items(caller: Caller, batchId: string, query: ItemsQuery): Promise<ItemsPage> {
    const secrets = this.#secrets();
    const batch = await this.#o.store.get(batchId, caller.account.id);
    if (!batch) throw notFound();
    const limit = Math.min(Math.max(1, query.limit ?? maxPageLimit), maxPageLimit);
    const afterIndex = query.cursor === undefined ? undefined : parseCursor(query.cursor);
    const rows = await this.#o.store.listItems(batchId, caller.account.id, {
      ...(query.state ? { state: query.state } : {}),
      ...(afterIndex === undefined ? {} : { afterIndex }),
      limit,
    });
    const withResults = rows.some((r) => r.resultSealed !== null);
    const sealedKey = withResults ? await this.#o.store.dataKey(batchId) : null;
    const box = sealedKey ? secrets.dataKeyBox(sealedKey, batchId) : null;
    const handover: string[] = [];
    // A ready result can be handed over only while its batch runs and its results have not expired (the store refuses
    // the handover otherwise): it is not shown then, or it would be read without being charged.
    const handingOver =
      batch.status !== 'cancelling' &&
      batch.status !== 'cancelled' &&
      Date.parse(batch.resultsExpireAt) > this.#o.clock.now();
    const items = rows.map(({ item, resultSealed }) => {
      const view = itemViewOf(item);
      const shown = item.state === 'delivered' || (item.state === 'ready' && handingOver);
      if (resultSealed && box && shown) {
        view.result = JSON.parse(box.open(resultSealed, item.id).toString('utf8')) as unknown;
        if (item.state === 'ready') {
          handover.push(item.id);
          // Committed before this page is written (or the answer is a 503): the caller reads it as delivered.
          view.state = 'delivered';
        }
      }
      return view;
    });
    const last = rows.at(-1);
    return { items, next_cursor: rows.length === limit && last ? cursorOf(last.item.index) : null, handover };
  }

  /** Commits the handover of a page's items (one ledger row per item, ever). A failure is a 503: nothing charged. */
  async handover(itemIds: readonly string[]): Promise<string[]> {
    if (itemIds.length === 0) return [];
    try {
      return await this.#o.store.handover(itemIds, 'poll', new Date(this.#o.clock.now()).toISOString());
    } catch (error) {
      if (isKumoError(error) && error.code === 'unavailable') throw error;
      throw new KumoError(
        'unavailable',
        'the results could not be handed over (nothing was charged); retry',
        { retryAfterSeconds: backendRetryAfterSeconds },
        { cause: error },
      );
    }
  }

  /** GET /v1/events: the account's batch events of the last 72 h, thin, oldest first. */
  async events(caller: Caller, query: EventsQuery): Promise<{ events: EventView[]; next_after: string | null }> {
    this.#secrets();
    if (query.batchId !== undefined && !(await this.#o.store.get(query.batchId, caller.account.id))) throw notFound();
    const limit = Math.min(Math.max(1, query.limit ?? maxPageLimit), maxPageLimit);
    const records = await this.#o.store.events({
      accountId: caller.account.id,
      ...(query.batchId === undefined ? {} : { batchId: query.batchId }),
      ...(query.after === undefined ? {} : { after: parseEventAfter(query.after) }),
      ...(query.types && query.types.length > 0 ? { types: query.types } : {}),
      limit,
    });
    const last = records.at(-1);
    return {
      events: records.map(eventViewOf),
      next_after: records.length === limit && last ? eventCursorOf(last.position) : null,
    };
  }

  /** DESIGN §3 per item: refused up front only when not even the cheapest item could be paid for. */
  async #payableOrRefuse(caller: Caller, accepted: readonly Accepted[], now: Date): Promise<void> {
    if (!this.#o.creditsLeft || accepted.length === 0) return;
    const cheapest = Math.min(...accepted.map((a) => a.item.costMax));
    const left = await this.#o.creditsLeft(caller);
    if (left >= cheapest) return;
    const resetsAt = nextPeriodStart(now);
    throw new KumoError(
      'credits_exhausted',
      `the credits left this month (${left}) cannot pay for any item of this batch (the cheapest costs ${cheapest})`,
      {
        retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
        body: { resets_at: resetsAt.toISOString() },
      },
    );
  }

  #secrets(): Secrets {
    if (!this.#o.secrets) {
      throw new KumoError('unavailable', 'batches are unavailable: KUMO_SECRETS_KEY is not set', {
        retryAfterSeconds: backendRetryAfterSeconds,
      });
    }
    return this.#o.secrets;
  }

  async #webhookOf(caller: Caller, asked: SubmitBody['webhook']): Promise<WebhookTarget | null> {
    if (!asked) return null;
    const endpoint = (await this.#o.endpoints?.get(asked.endpoint_id, caller.account.id)) ?? null;
    if (!endpoint) {
      throw new KumoError('not_found', 'no such webhook endpoint for this account', {
        body: { field: 'webhook.endpoint_id' },
      });
    }
    if (endpoint.disabledAt !== null) {
      throw new KumoError(
        'invalid_request',
        `webhook endpoint ${endpoint.id} is disabled (${endpoint.disabledReason ?? 'disabled'}); register a new one`,
        { body: { field: 'webhook.endpoint_id' } },
      );
    }
    return {
      endpointId: endpoint.id,
      // The batch may narrow what it sends; by default what the endpoint was registered for.
      events: asked.events ? [...new Set(asked.events)] : endpoint.events,
      payload: asked.payload ?? 'full',
    };
  }

  /** Each item through the call's own checks (URL policy, site, page type, key scope, approval); refusals by code. */
  #validate(
    caller: Caller,
    inputs: readonly BatchItemInput[],
    batchParams: Required<BatchItemParams>,
    box: SecretBox,
    now: Date,
    firstIndex: number,
  ): Validated {
    // The route required the `batch` operation; an item is a call of the batch, so `scrape` is not asked of the key
    // again (its sites and outputs narrowing still apply).
    const asBatch: Caller = { ...caller, key: { ...caller.key, operations: null } };
    const accepted: Accepted[] = [];
    const rejected: RejectedItem[] = [];
    inputs.forEach((input, position) => {
      const index = firstIndex + position;
      const params: ScrapeParams = { ...batchParams, ...input.params, store_artifact: false };
      let planned: Planned;
      try {
        planned = this.#o.plan(asBatch, input.url, params);
      } catch (error) {
        if (!isKumoError(error)) throw error;
        rejected.push({ index, url: echoedUrl(input.url, this.#o.secretQueryParams), code: error.code });
        return;
      }
      const id = newId('itm', now.getTime());
      accepted.push({
        item: {
          id,
          index,
          ref: input.ref ?? null,
          url: redactUrl(planned.url, planned.site.secretQueryParams),
          urlSealed: box.seal(planned.url.href, `url:${id}`),
          host: fetchedHostOf(planned),
          siteId: planned.site.id,
          pageType: planned.entry.pageType,
          route: planned.route,
          params: input.params && Object.keys(input.params).length > 0 ? { ...input.params } : null,
          costMax: costOf(planned.route, params),
        },
      });
    });
    return { accepted, rejected };
  }

  /**
   * cost_units_max: every accepted item at its route's price. eta_s: per host, the queue there (everyone's) plus these
   * items, `maxInFlight` at a time, one start per `minIntervalMs`; the batch's is its slowest host's.
   */
  async #estimate(accepted: readonly Accepted[]): Promise<{ costUnitsMax: number; etaS: number }> {
    const byHost = new Map<string, number>();
    let costUnitsMax = 0;
    for (const { item } of accepted) {
      costUnitsMax += item.costMax;
      byHost.set(item.host, (byHost.get(item.host) ?? 0) + 1);
    }
    let etaMs = 0;
    for (const [host, mine] of byHost) {
      const queued = await this.#o.queue.depth(host);
      const { maxInFlight, minIntervalMs } = this.#o.politeness(host);
      etaMs = Math.max(etaMs, Math.ceil((queued + mine) / Math.max(1, maxInFlight)) * minIntervalMs);
    }
    return { costUnitsMax, etaS: Math.ceil(etaMs / 1000) };
  }

  #work(caller: Caller, batchId: string, accepted: readonly Accepted[]): NewWork[] {
    return accepted.map(({ item }) => ({
      id: item.id,
      groupId: batchId,
      accountId: caller.account.id,
      host: item.host,
      order: workOrder(item),
    }));
  }
}

/**
 * The item's place among the account's work on its host: its index in the batch (appends continue it). It must fit a
 * 32-bit integer (pg-boss's job priority), which rules out a timestamp; an account's batches on one host therefore
 * interleave by index rather than run one after another, which is no worse for the account and changes nothing between
 * accounts (fairness is per account).
 */
export function workOrder(item: Pick<NewBatchItem, 'index'>): number {
  return item.index;
}

/** The host an item is fetched from (its politeness lane): on the `api` route, the API's host, not the page's. */
export function fetchedHostOf(planned: Planned): string {
  if (planned.route === 'api' && planned.entry.api) return planned.entry.api.request(planned.url).url.hostname;
  return planned.url.hostname;
}

/**
 * A refused item's URL as echoed in `rejected`: no userinfo and no credential-like query values of any site; text
 * that is no URL at all is cut to its first 200 characters after any `user:password@` is removed.
 */
export function echoedUrl(raw: string, secretQueryParams: readonly string[]): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return redactUrl(url, secretQueryParams);
  } catch {
    return raw.replace(/\/\/[^/?#]*@/, '//').slice(0, 200);
  }
}

export function submissionHash(body: SubmitBody): string {
  return createHash('sha256')
    .update(canonicalJson({ ...body, seal: body.seal ?? true }))
    .digest('hex');
}

export function viewOf(batch: BatchRecord): BatchView {
  const self = `/v1/batches/${batch.id}`;
  return {
    id: batch.id,
    status: batch.status,
    sealed: batch.sealed,
    created_at: batch.createdAt,
    finished_at: batch.finishedAt,
    results_expire_at: batch.resultsExpireAt,
    counts: batch.counts,
    credits: { charged: batch.credits.charged, held: batch.credits.held, max: batch.maxCredits },
    estimate: { cost_units_max: batch.estimate.costUnitsMax, eta_s: batch.estimate.etaS },
    rejected: batch.rejected,
    webhook: batch.webhook
      ? { endpoint_id: batch.webhook.endpointId, events: batch.webhook.events, payload: batch.webhook.payload }
      : null,
    results: { retain_hours: batch.retainHours },
    links: { self, items: `${self}/items`, events: `/v1/events?batch_id=${batch.id}` },
  };
}

function itemViewOf(item: BatchItemRecord): ItemView {
  return {
    id: item.id,
    index: item.index,
    ref: item.ref,
    url: item.url,
    state: item.state,
    attempts: item.attempts,
    request_id: item.requestId,
    cost_units: item.costUnits,
    finished_at: item.finishedAt,
    ...(item.error ? { error: item.error } : {}),
  };
}

/** Event times as the webhook bodies carry them: ISO 8601 in Japan time. */
export function jstTimestamp(iso: string): string {
  const ms = Date.parse(iso);
  return `${new Date(ms + 9 * 3_600_000).toISOString().slice(0, 23)}+09:00`;
}

function eventViewOf(event: EventRecord): EventView {
  return {
    id: event.id,
    type: event.type,
    timestamp: jstTimestamp(event.createdAt),
    data: { batch_id: event.batchId, item_id: event.itemId, sequence: event.sequence },
  };
}

export function cursorOf(index: number): string {
  return Buffer.from(`i${index}`).toString('base64url');
}

function parseCursor(cursor: string): number {
  const match = /^i(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new KumoError('invalid_request', 'cursor is not one this API gave', { body: { field: 'cursor' } });
  return Number(match[1]);
}

/** next_after of GET /v1/events: an event's position (batch-store.ts EventPosition), opaque to the caller. */
export function eventCursorOf(position: EventPosition): string {
  return Buffer.from(`e1.${position.order}.${position.id}`).toString('base64url');
}

/**
 * An `after` of GET /v1/events: a next_after this API gave, or a plain event id (what next_after was before
 * migration 0012, still taken so a poller spanning the upgrade goes on; see docs/api.md). Anything else is a 400.
 */
export function parseEventAfter(after: string): EventAfter {
  if (eventIdPattern.test(after)) return { id: after };
  const match = /^e1\.(\d{1,19})\.(evt_[0-9A-HJKMNP-TV-Z]{26})$/.exec(Buffer.from(after, 'base64url').toString('utf8'));
  if (!match || BigInt(match[1]!) > maxBigint) {
    throw new KumoError('invalid_request', 'after is not a next_after this API gave', { body: { field: 'after' } });
  }
  return { position: { order: match[1]!, id: match[2]! } };
}

const eventIdPattern = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
const maxBigint = (1n << 63n) - 1n;

export function isEventType(value: string): value is EventType {
  return (eventTypes as readonly string[]).includes(value);
}

function idempotencyConflict(batchId: string): KumoError {
  return new KumoError('idempotency_conflict', 'this Idempotency-Key was used with another request body', {
    body: { batch_id: batchId },
  });
}

function notFound(): KumoError {
  return new KumoError('not_found', 'no such batch for this account');
}

function sealedError(batch: BatchRecord): KumoError {
  const why = batch.status === 'cancelling' || batch.status === 'cancelled' ? 'cancelled' : 'sealed';
  return new KumoError('batch_sealed', `batch ${batch.id} is ${why}: no items can be appended`, {
    body: { batch_id: batch.id },
  });
}

function batchLimit(plan: PlanId, limit: number, has: number, adding: number): KumoError {
  return new KumoError(
    'batch_limit_exceeded',
    `a batch of the ${plan} plan holds at most ${limit} items (it has ${has}, this request adds ${adding})`,
    { body: { field: 'items', limit } },
  );
}

/**
 * A request none of whose items can run makes no batch: it is answered as its first refused item would be as a call
 * (its code and status), with every refusal listed in `rejected`.
 */
function nothingValid(rejected: readonly RejectedItem[]): KumoError {
  const first = rejected[0];
  if (!first) throw new KumoError('internal', 'a request with no items reached validation');
  const byCode = new Map<ErrorCode, number>();
  for (const r of rejected) byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  const counts = [...byCode].map(([code, n]) => `${code} ×${n}`).join(', ');
  return new KumoError(first.code, `no item of this request can run (${counts})`, { body: { rejected } });
}
