// The BatchStore role: batches, their items, the delivery buffer and events, with counts and credits kept exact in the
// same transactions as every item change (DESIGN §5, §8). One Kysely implementation for SQLite and PostgreSQL, checked
// by batch-store.contract.ts. Results and item URLs arrive and leave sealed (secrets/secret-box.ts): the store never
// sees a plaintext result.
import type { ErrorCode } from '../errors.js';
import type { RequestRecord, ReserveOutcome } from '../storage/storage.js';
import type { Tx } from './work-queue.js';

export const itemStates = [
  'queued',
  'running',
  'ready',
  'delivered',
  'failed',
  'not_found',
  'skipped',
  'cancelled',
  'expired',
] as const;
export type ItemState = (typeof itemStates)[number];
/** States an item never leaves (`ready` is not one: it waits for handover or expiry). */
export const terminalItemStates: readonly ItemState[] = [
  'delivered',
  'failed',
  'not_found',
  'skipped',
  'cancelled',
  'expired',
];

export const batchStatuses = ['queued', 'running', 'completed', 'cancelling', 'cancelled'] as const;
export type BatchStatus = (typeof batchStatuses)[number];

export const eventTypes = [
  'item.succeeded',
  'item.failed',
  'item.not_found',
  'item.skipped',
  'batch.completed',
  'batch.cancelled',
] as const;
export type EventType = (typeof eventTypes)[number];

export type BatchCounts = Record<ItemState | 'total', number>;

export interface WebhookTarget {
  endpointId: string;
  events: EventType[];
  payload: 'full' | 'thin';
}

export interface RejectedItem {
  index: number;
  /** Caller credentials removed. */
  url: string;
  code: ErrorCode;
}

export interface BatchRecord {
  id: string;
  accountId: string;
  keyId: string;
  status: BatchStatus;
  /** Whether items may still be appended (POST /v1/batches/{id}/items); a batch completes only once sealed. */
  sealed: boolean;
  /** The batch's params (the scrape params every item starts from). */
  params: Record<string, unknown>;
  webhook: WebhookTarget | null;
  /** null: the caller asked for no retention (with a webhook, results go at the first handover). */
  retainHours: number | null;
  resultsExpireAt: string;
  maxCredits: number | null;
  counts: BatchCounts;
  /** charged: committed to the ledger; held: ready results awaiting handover; reserved: items running. */
  credits: { charged: number; held: number; reserved: number };
  estimate: { costUnitsMax: number; etaS: number };
  rejected: RejectedItem[];
  createdAt: string;
  finishedAt: string | null;
}

export interface NewBatch {
  id: string;
  accountId: string;
  keyId: string;
  params: Record<string, unknown>;
  webhook: WebhookTarget | null;
  retainHours: number | null;
  resultsExpireAt: string;
  maxCredits: number | null;
  estimate: { costUnitsMax: number; etaS: number };
  rejected: RejectedItem[];
  /** The batch's data key sealed with the server key (Secrets.newDataKey). */
  dataKeySealed: Uint8Array;
  createdAt: string;
  /** False: more items may be appended until an append seals it (a batch completes only once sealed). */
  sealed: boolean;
  /** The submission's Idempotency-Key and the SHA-256 of its canonical body. */
  idempotency?: { key: string; bodyHash: string };
}

export interface NewBatchItem {
  id: string;
  index: number;
  ref: string | null;
  /** Caller credentials removed: what is stored and shown. */
  url: string;
  /** The URL as given, sealed with the batch's data key (context: the item id). */
  urlSealed: Uint8Array;
  host: string;
  siteId: string;
  pageType: string;
  route: string;
  /** The item's own params, over the batch's; null = none. */
  params: Record<string, unknown> | null;
  /** The most the item can cost (1–3). */
  costMax: number;
}

export interface ItemError {
  code: ErrorCode;
  status: number;
  retryable: boolean;
}

export interface BatchItemRecord {
  id: string;
  batchId: string;
  accountId: string;
  index: number;
  ref: string | null;
  url: string;
  host: string;
  siteId: string;
  pageType: string;
  route: string;
  params: Record<string, unknown> | null;
  costMax: number;
  state: ItemState;
  attempts: number;
  requestId: string | null;
  costUnits: number;
  error: ItemError | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What a run's reservation asks of the ledger: the attempt's request, its JST month, cost and the caller's limits. */
export interface RunReservation {
  requestId: string;
  period: string;
  cost: number;
  accountLimit: number;
  keyLimit: number | null;
  expiresAt: string;
}

/** What the dispatcher needs to run a claimed item. */
export interface ItemToRun {
  item: BatchItemRecord;
  batch: Pick<
    BatchRecord,
    'id' | 'accountId' | 'keyId' | 'params' | 'resultsExpireAt' | 'maxCredits' | 'status' | 'webhook'
  >;
  urlSealed: Uint8Array;
  dataKeySealed: Uint8Array;
  /** The context `urlSealed` was sealed under; default `url:<item id>` (a monitor check's is its target's). */
  urlContext?: string;
}

export type CreateOutcome =
  | { outcome: 'created'; batch: BatchRecord }
  /** The same Idempotency-Key and body: the batch made then, nothing new queued. */
  | { outcome: 'replay'; batch: BatchRecord }
  /** The same Idempotency-Key with another body. */
  | { outcome: 'conflict'; batchId: string };

export type AppendOutcome =
  /** `rejected` with indexes in the batch (the request's plus `base`), as stored on the batch. */
  | { outcome: 'appended'; batch: BatchRecord; rejected: RejectedItem[] }
  | { outcome: 'not_found' }
  /** Sealed, cancelling or cancelled (or its data key shredded): nothing written. */
  | { outcome: 'sealed'; batch: BatchRecord }
  /** The items would take the batch past `maxItems`: nothing written. */
  | { outcome: 'limit'; total: number };

export interface AppendOptions {
  /** Seal the batch with this append (it may then complete). */
  seal: boolean;
  /** The plan's items per batch, checked against the batch's total inside the transaction. */
  maxItems: number;
  /** Added to the batch's estimate.cost_units_max. */
  addCostUnitsMax: number;
  /** The batch's new estimate.eta_s. */
  etaS: number;
  now: string;
}

/** How many items of a batch ended without a result with one error code (the console's failures by code). */
export interface FailureCount {
  state: 'failed' | 'skipped';
  code: ErrorCode;
  count: number;
}

export interface ItemPageQuery {
  state?: ItemState;
  /** Items with a greater index only (the cursor). */
  afterIndex?: number;
  limit: number;
}

export interface EventRecord {
  id: string;
  accountId: string;
  batchId: string;
  itemId: string | null;
  type: EventType;
  sequence: number;
  createdAt: string;
  /** Where the event stands in the listing: a page that ends here goes on after it (`EventQuery.after`). */
  position: EventPosition;
}

/**
 * An event's place in GET /v1/events: its transaction's order key (migration 0012's `tx_order`, a decimal string: a
 * PostgreSQL transaction id may pass 2^53) then its id. No event can later appear before a position handed out.
 */
export interface EventPosition {
  order: string;
  id: string;
}

/**
 * Where a page of events starts: after a position a listing gave, or (a next_after from before migration 0012, a
 * plain event id) with the events whose id is greater; the pages after that go on by position.
 */
export type EventAfter = { position: EventPosition } | { id: string };

export interface EventQuery {
  accountId: string;
  batchId?: string;
  after?: EventAfter;
  types?: EventType[];
  limit: number;
}

/**
 * A finished run of a claimed item (the dispatcher's outcome), with the attempt's metadata row (requests table, cost 0
 * until handover sets it) written in the same transaction; null when the item never reached a call (skipped up front).
 */
export type RunOutcome =
  | {
      state: 'ready';
      requestId: string;
      costUnits: number;
      route: string;
      /**
       * The success body sealed under the batch's data key, made only by a store that keeps it (the batch store's
       * delivery buffer); a monitor check reads `body` and never seals.
       */
      sealResult: () => Uint8Array;
      record: RequestRecord;
      /** The success body in memory (never stored by the batch store): what a monitor check reads its values from. */
      body?: Record<string, unknown>;
    }
  | {
      state: 'failed' | 'not_found' | 'skipped';
      requestId: string | null;
      error: ItemError | null;
      record: RequestRecord | null;
    };

export interface BatchStore {
  /**
   * Submission in one transaction: the batch, its items (queued), `enqueue(tx)` (the work queue's rows) and the
   * Idempotency-Key. Counts and `status` start consistent (a batch whose every item was rejected is `completed`).
   */
  create(batch: NewBatch, items: readonly NewBatchItem[], enqueue: (tx: Tx) => Promise<void>): Promise<CreateOutcome>;
  /**
   * The account's batch made with this Idempotency-Key, with the hash of the body that made it: a repeated submission
   * is answered from it before anything else is checked (what the first one was accepted under may have changed).
   */
  byIdempotencyKey(accountId: string, key: string): Promise<{ batch: BatchRecord; bodyHash: string | null } | null>;
  /**
   * POST /v1/batches/{id}/items, in one transaction on the locked batch row: the items (queued) with `index` + `base`
   * (base = every index the batch used before: its items and its rejected entries, so indexes never repeat), the
   * rejected entries (`index` + `base`) added to the batch's, counts, estimate, `sealed`, and `enqueue(tx, base)`.
   * Refused unless the account's batch is unsealed and neither cancelling nor cancelled. Sealing a batch with nothing
   * queued or running completes it (`batch.completed`).
   */
  append(
    batchId: string,
    accountId: string,
    items: readonly NewBatchItem[],
    rejected: readonly RejectedItem[],
    options: AppendOptions,
    enqueue: (tx: Tx, base: number) => Promise<void>,
  ): Promise<AppendOutcome>;
  /** Only the account's own batch; null otherwise. Counts come from the row (never counted per request). */
  get(batchId: string, accountId: string): Promise<BatchRecord | null>;
  /** The account's batches, newest first (the console). */
  list(accountId: string, limit: number): Promise<BatchRecord[]>;
  /** Items in index order, with the sealed result when one is in the buffer. Only the account's own. */
  listItems(
    batchId: string,
    accountId: string,
    query: ItemPageQuery,
  ): Promise<{ item: BatchItemRecord; resultSealed: Uint8Array | null }[]>;
  /**
   * The batch's `failed` and `skipped` items counted by state and error code, largest count first (then code). Only
   * the account's own batch; empty otherwise. Read by the console's batch page, so it must not scan more than the
   * batch's own items (an index on batch_items(batch_id, state) serves it).
   */
  failureCodes(batchId: string, accountId: string): Promise<FailureCount[]>;
  /** The batch's data key (sealed), or null once shredded. */
  dataKey(batchId: string): Promise<Uint8Array | null>;
  /**
   * Inside the queue's claim transaction: queued → running (attempts + 1, holder, the attempt's request id), counts
   * moved. Null (the claim is undone) when the item is no longer queued or its batch is cancelling.
   */
  markRunning(tx: Tx, itemId: string, holder: string, requestId: string, now: string): Promise<ItemToRun | null>;
  /**
   * Reserves the running item's credits for its attempt (`requestId`), owned by `holder`, against the account's and
   * key's limits (as a call) and the batch's `max_credits` (charged + held + reserved), in one transaction.
   */
  reserve(
    itemId: string,
    holder: string,
    request: RunReservation,
  ): Promise<ReserveOutcome | { ok: false; exhausted: 'batch' } | { ok: false; held: 'batch' }>;
  /**
   * A run's outcome, in one transaction with `finishWork(tx)` (the queue's finish), guarded by `holder`:
   * - `ready`: the sealed result into the buffer, the reservation turned into a hold until results_expire_at (no
   *   owner instance; the liveness sweep never frees it), the item's event(s);
   * - `failed` / `not_found` / `skipped`: cost 0, the reservation (if any) released, the item's event(s).
   * Counts, credits, status and `batch.completed` / `batch.cancelled` move in the same transaction. False (nothing
   * written) when `holder` no longer holds the item, or (`ready`) when its reservation was freed meanwhile (a sweep
   * took this instance for dead): the holder then gives the item back with `retryLater` and it runs again.
   */
  finishRun(
    itemId: string,
    holder: string,
    outcome: RunOutcome,
    finishWork: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean>;
  /** Inside the queue's transaction: items of dead holders back to queued (attempt kept), their reservations released. */
  requeue(tx: Tx, itemIds: readonly string[]): Promise<void>;
  /** A retryable failure: running → queued with `giveBack(tx)`, its reservation released. */
  retryLater(itemId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>): Promise<boolean>;
  /**
   * DELETE of a batch: `cancelWork(tx)` removes its queued work; those items become `cancelled` (free); running ones
   * finish. Status `cancelling`, or `cancelled` when nothing runs. Null when there is no such batch of the account.
   * The batch is sealed, and no item of it is handed over any more: its ready items expire (free) and its data key is
   * shredded at the next `expire` sweep once it is `cancelled`.
   */
  cancel(
    batchId: string,
    accountId: string,
    cancelWork: (tx: Tx) => Promise<string[]>,
  ): Promise<{ batch: BatchRecord; cancelled: number } | null>;
  /**
   * Handover (DESIGN §8): for each item still `ready`, in one transaction: its hold committed to the ledger (one row per
   * item, ever), the item `delivered` (`via`), its request row's cost set, and its buffer row deleted when the batch
   * has a webhook and no retention. Returns the ids charged by this call (an item handed over before is not).
   */
  handover(itemIds: readonly string[], via: 'webhook' | 'poll', now: string): Promise<string[]>;
  /**
   * Results past `results_expire_at` (and those of `cancelled` batches): ready items → expired (holds released, cost
   * 0), buffer rows deleted; such a batch with nothing queued or running has its data key and sealed URLs shredded.
   * Returns how many items expired.
   */
  expire(now: string): Promise<number>;
  /**
   * The account's events for 72 h, in an order where nothing can later appear before an event already listed
   * (GET /v1/events): an event whose transaction may still be running is left out until it has ended, so a position
   * handed out never skips one committed late.
   */
  events(query: EventQuery): Promise<EventRecord[]>;
  /** Events and event metadata past their 72 h; returns how many were removed. */
  purgeEvents(now: string): Promise<number>;
}

/** One webhook delivery due: an event and where it goes. */
export interface DueDelivery {
  eventId: string;
  accountId: string;
  batchId: string;
  itemId: string | null;
  type: EventType;
  sequence: number;
  endpointId: string;
  /** Attempts before this one. */
  attempts: number;
  /** What the batch asked for, and whether repeated failures have made this event thin. */
  payload: 'full' | 'thin';
  createdAt: string;
  resultsExpireAt: string;
  /**
   * The batch's data key sealed with the server key (AAD the batch id), read in the claim; null once shredded (the
   * delivery worker then renders thin).
   */
  dataKeySealed: Uint8Array | null;
}

/** The body of a delivery, before signing: Standard Webhooks' `{type, timestamp, data}`, as JSON text. */
export interface RenderedDelivery {
  body: string;
  /** Whether it carries the result (a 2xx to it is a handover). */
  full: boolean;
}

/** The Outbox role: webhook deliveries, claimed exclusively (the batch store implements it). */
export interface Outbox {
  /**
   * Up to `limit` deliveries due at `now`, leased to `holder` until `leaseUntil`, exclusive across instances, with at
   * most `perEndpoint` leased at once per endpoint (counting other instances' leases).
   */
  claimDue(now: string, holder: string, leaseUntil: string, limit: number, perEndpoint: number): Promise<DueDelivery[]>;
  /**
   * The body to send: the item's result opened from the buffer for a full delivery (thin when the buffer row is gone,
   * the event is thin, or `forceThin`), ids and metadata only otherwise. `open` opens the sealed result.
   */
  render(
    delivery: DueDelivery,
    open: (resultSealed: Uint8Array) => Buffer,
    forceThin?: boolean,
  ): Promise<RenderedDelivery>;
  /**
   * The receiver answered 2xx: the event is delivered; for a full item delivery, in the same transaction, the item is
   * handed over (`BatchStore.handover`'s rule). Returns whether this charged. Guarded by `holder`.
   */
  delivered(eventId: string, holder: string, full: boolean, status: number, now: string): Promise<{ charged: boolean }>;
  /**
   * No 2xx: the next attempt at `nextAttemptAt` (null: give up, delivery `failed`); a full delivery counts toward the
   * thin rule. Guarded by `holder`.
   */
  failed(
    eventId: string,
    holder: string,
    result: { status: number | null; full: boolean; nextAttemptAt: string | null },
  ): Promise<void>;
  /** Deliveries whose holder's lease ran out go back to due (an instance killed mid-delivery). */
  releaseExpiredLeases(now: string): Promise<number>;
}
