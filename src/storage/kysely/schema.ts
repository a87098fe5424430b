// The table shapes both dialects share, as Kysely sees them; DDL lives in each dialect's migrations.
import type { ColumnType, Generated } from 'kysely';

/** ISO 8601 text in SQLite, timestamptz in PostgreSQL (which pg returns as a Date); written as ISO strings. */
export type Timestamp = ColumnType<string | Date, string, string>;
/** A JSON array as text in SQLite, jsonb in PostgreSQL (which pg returns parsed); written as JSON text. */
export type JsonList = ColumnType<string | string[] | null, string | null, string | null>;

export interface AccountsTable {
  id: string;
  plan: string;
  overage_cap_credits: number;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  display_prefix: string;
  hash: string;
  sites: JsonList;
  operations: JsonList;
  outputs: JsonList;
  monthly_credit_limit: number | null;
  concurrency_limit: number | null;
  created_at: Timestamp;
  revoked_at: ColumnType<string | Date | null, string | null, string | null>;
  expires_at: ColumnType<string | Date | null, string | null, string | null>;
  /** The first key's id of a line of rotations (migration 0006); null = the key's own id (written without it). */
  lineage_id: string | null;
  /** The owner's name for the key (migration 0016); null without one. */
  label: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Running totals per (subject, period); subject is `account:<id>` or `key:<lineage id>` (migration 0006). The row `reserve` locks. */
export interface CreditCountersTable {
  subject: string;
  period: string;
  used: number;
  reserved: number;
}

export type ReservationState = 'reserved' | 'committed' | 'released';

export interface CreditReservationsTable {
  request_id: string;
  account_id: string;
  key_id: string;
  period: string;
  cost: number;
  committed_cost: number | null;
  state: ReservationState;
  /** The owner instance id (`ins_…`), whose heartbeat in `instances` says whether the reservation is still held. */
  holder: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  /** `call`: a call's (or a running batch item's) reservation; `hold`: a ready batch item's credits awaiting handover (0009). */
  kind: ColumnType<'call' | 'hold', 'call' | 'hold' | undefined, 'call' | 'hold'>;
  settled_at: ColumnType<string | Date | null, string | null, string | null>;
}

/** Append-only (a trigger refuses UPDATE and DELETE): one row per committed charge. */
export interface CreditLedgerTable {
  id: Generated<number>;
  request_id: string;
  account_id: string;
  key_id: string;
  period: string;
  credits: number;
  created_at: Timestamp;
}

export interface RequestsTable {
  request_id: string;
  account_id: string;
  key_id: string;
  site_id: string | null;
  page_type: string | null;
  url: string | null;
  status: string;
  error_code: string | null;
  http_status: number | null;
  attempts: number;
  route: string | null;
  cost_units: number;
  latency_ms: number;
  artifact_id: string | null;
  created_at: Timestamp;
  /** `hit`, `miss` or `bypass` (migration 0014); null on rows written before it and on calls that never got so far. */
  cache_state: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row per live (or recently live) server instance; `heartbeat_at` is refreshed every few seconds. */
export interface InstancesTable {
  id: string;
  heartbeat_at: Timestamp;
  started_at: Timestamp;
}

export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  body_hash: string;
  request_id: string;
  state: 'in_progress' | 'completed';
  created_at: Timestamp;
  expires_at: Timestamp;
  held_until: ColumnType<string | Date | null, string | null, string | null>;
  /** The instance running an in-progress claim (migration 0008); null on older claims and once completed. */
  holder: ColumnType<string | null, string | null | undefined, string | null>;
  /** Free replays of the completed key so far; the claim counts them up to its cap. */
  replays: Generated<number>;
}

/** Operators' approvals of accounts for sites' reviewed page types; revoked rows are kept (history). */
export interface ReviewApprovalsTable {
  id: string;
  account_id: string;
  site_id: string;
  approved_by: string;
  approved_at: Timestamp;
  revoked_by: string | null;
  revoked_at: ColumnType<string | Date | null, string | null, string | null>;
}

/** Console sign-ins: only the SHA-256 of the session id is stored (the id lives in the browser's cookie). */
export interface ConsoleSessionsTable {
  id_hash: string;
  account_id: string;
  key_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/**
 * Stored artifacts in shared mode (PostgreSQL only, migration 0007_artifacts; the embedded mode keeps them in the data
 * folder). `html` and `data` are gzip: the HTML as UTF-8, the data as the JSON text it was served as.
 */
export interface ArtifactsTable {
  id: string;
  account_id: string;
  request_id: string;
  url: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  html: Buffer | null;
  data: Buffer;
}

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type NullableTime = ColumnType<string | Date | null, string | null | undefined, string | null>;
/** A JSON object as text in SQLite, jsonb in PostgreSQL (which pg returns parsed); written as JSON text. */
export type JsonObject = ColumnType<string | Record<string, unknown>, string, string>;
/** Bytes: BLOB in SQLite (node:sqlite returns Uint8Array), bytea in PostgreSQL (Buffer). */
export type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;

/** Webhook endpoints (migration 0009_batches): the signing secret only sealed with KUMO_SECRETS_KEY. */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  events: JsonList;
  secret_sealed: Bytes;
  secret_last4: string;
  previous_secret_sealed: Nullable<Uint8Array>;
  previous_secret_until: NullableTime;
  created_at: Timestamp;
  disabled_at: NullableTime;
  disabled_reason: Nullable<string>;
  deleted_at: NullableTime;
}

/** A batch: options, maintained counts and credits; never results (migration 0009_batches). */
export interface BatchesTable {
  id: string;
  account_id: string;
  key_id: string;
  status: 'queued' | 'running' | 'completed' | 'cancelling' | 'cancelled';
  params: JsonObject;
  webhook_endpoint_id: Nullable<string>;
  webhook_events: JsonList;
  webhook_payload: Nullable<'full' | 'thin'>;
  retain_hours: Nullable<number>;
  results_expire_at: Timestamp;
  max_credits: Nullable<number>;
  /** The batch's data key sealed with KUMO_SECRETS_KEY; null once shredded (expiry, DELETE). */
  data_key_sealed: Nullable<Uint8Array>;
  idempotency_key: Nullable<string>;
  body_hash: Nullable<string>;
  total: Generated<number>;
  queued: Generated<number>;
  running: Generated<number>;
  ready: Generated<number>;
  delivered: Generated<number>;
  failed: Generated<number>;
  not_found: Generated<number>;
  skipped: Generated<number>;
  cancelled: Generated<number>;
  expired: Generated<number>;
  credits_charged: Generated<number>;
  credits_held: Generated<number>;
  credits_reserved: Generated<number>;
  cost_units_max: Generated<number>;
  eta_s: Generated<number>;
  /** `[{index, url (redacted), code}]` */
  rejected: ColumnType<string | unknown[], string | undefined, string>;
  next_sequence: Generated<number>;
  created_at: Timestamp;
  finished_at: NullableTime;
  /** 1: no more items may be appended; a batch completes only once sealed (0010_batches_fixups). */
  sealed: Generated<number>;
}

export type BatchItemState =
  'queued' | 'running' | 'ready' | 'delivered' | 'failed' | 'not_found' | 'skipped' | 'cancelled' | 'expired';

/** One URL of a batch: metadata; its URL in the clear only redacted, in full only sealed with the batch's data key. */
export interface BatchItemsTable {
  id: string;
  batch_id: string;
  account_id: string;
  item_index: number;
  ref: Nullable<string>;
  /** Caller credentials removed (redact-url.ts). */
  url: string;
  /** The URL as given, sealed with the batch's data key (it may carry credentials); null once the item is terminal. */
  url_sealed: Nullable<Uint8Array>;
  /** The host the item is fetched from (its politeness lane). */
  host: string;
  site_id: string;
  page_type: string;
  route: string;
  /** The item's own params (over the batch's), JSON. */
  params: ColumnType<string | Record<string, unknown> | null, string | null | undefined, string | null>;
  cost_max: number;
  state: BatchItemState;
  attempts: Generated<number>;
  request_id: Nullable<string>;
  holder: Nullable<string>;
  cost_units: Generated<number>;
  error_code: Nullable<string>;
  error_status: Nullable<number>;
  error_retryable: Nullable<number>;
  created_at: Timestamp;
  started_at: NullableTime;
  finished_at: NullableTime;
  delivered_at: NullableTime;
  delivered_via: Nullable<'webhook' | 'poll'>;
  /** Credits reserved for the running attempt (0 otherwise): what leaves the batch's credits_reserved when it ends (0010). */
  reserved: Generated<number>;
}

/** Results awaiting handover (DESIGN §5): the call's success body, sealed with the batch's data key. */
export interface DeliveryBufferTable {
  item_id: string;
  batch_id: string;
  account_id: string;
  result_sealed: Bytes;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export type EventDeliveryState = 'none' | 'pending' | 'delivering' | 'delivered' | 'failed' | 'expired';

/** Batch events (72 h) and their webhook delivery state; payloads are rendered at send time, never stored. */
export interface BatchEventsTable {
  id: string;
  account_id: string;
  batch_id: string;
  item_id: Nullable<string>;
  type: string;
  sequence: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  endpoint_id: Nullable<string>;
  delivery_state: EventDeliveryState;
  attempts: Generated<number>;
  /** Non-2xx answers (or no answer) to full deliveries; from 3 on, deliveries are thin. */
  full_failures: Generated<number>;
  next_attempt_at: NullableTime;
  holder: Nullable<string>;
  lease_until: NullableTime;
  last_status: Nullable<number>;
  delivered_at: NullableTime;
  /**
   * Migration 0012: GET /v1/events pages by (tx_order, id). PostgreSQL: the writing transaction's id (a column
   * DEFAULT; bigint, read as a string); SQLite: a counter a trigger bumps under the write lock. 0 before 0012.
   */
  tx_order: Generated<number | string>;
}

/** Migration 0012 (SQLite only): the one-row counter `batch_events.tx_order` is taken from. */
export interface BatchEventOrderTable {
  id: number;
  last: number;
}

/** Migration 0011 (SQLite only): a queued or claimed batch item of the embedded work queue; deleted when finished. */
export interface WorkQueueTable {
  id: string;
  group_id: string;
  account_id: string;
  host: string;
  item_order: number;
  state: 'queued' | 'claimed';
  holder: string | null;
  attempts: Generated<number>;
  claimed_at: ColumnType<string | Date | null, string | null, string | null>;
}

/**
 * Migration 0011 (both dialects): one account's work on one host. `queued` is its queued (unclaimed) items, kept in the
 * same transaction as every queue change; `last_served` its place in the host's round robin (a per-host counter: the
 * lane with work and the lowest value goes next).
 */
export interface WorkLanesTable {
  host: string;
  account_id: string;
  queued: Generated<number>;
  last_served: Generated<number>;
}

/** Migration 0011 (PostgreSQL only): a claimed item of the pg-boss work queue, with its job and holder. */
export interface WorkClaimsTable {
  item_id: string;
  job_id: string;
  queue: string;
  group_id: string;
  account_id: string;
  host: string;
  holder: string;
  claimed_at: Timestamp;
}

/** Migration 0011 (PostgreSQL only): the lanes a group (batch) has work in, for cancel. */
export interface WorkGroupLanesTable {
  group_id: string;
  host: string;
  account_id: string;
}

/** JSON kept as text on both backends (monitors, migration 0013): parsed by the store. */
export type JsonText = ColumnType<string, string, string>;

/** A monitor (DESIGN §9): its definition, schedule and monthly spend; tokens only sealed (migration 0013). */
export interface MonitorsTable {
  id: string;
  account_id: string;
  key_id: string;
  name: Nullable<string>;
  status: 'active' | 'paused';
  paused_reason: Nullable<string>;
  schedule: JsonText;
  jitter_s: number;
  anchor_at: Timestamp;
  /** Null while paused. */
  next_run_at: NullableTime;
  watch: JsonText;
  rules: JsonText;
  noise: JsonText;
  alert_after: number;
  /** What may be shown: the webhook endpoint id, the language, each channel's kind and masked secret. */
  notify: JsonText;
  /** The channels with their tokens, sealed with the monitor's data key; null without channels. */
  channels_sealed: Nullable<Uint8Array>;
  data_key_sealed: Bytes;
  retain_days: Nullable<number>;
  max_credits_per_month: Nullable<number>;
  /** The JST month (YYYY-MM) `credits_used` counts. */
  credits_period: Nullable<string>;
  credits_used: Generated<number>;
  /** The schedule's checks per day × targets, per host (for the fair-share check of later monitors). */
  checks_per_day: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The Idempotency-Key that created it (0015), and the SHA-256 of that request's body; null without one. */
  idempotency_key: Nullable<string>;
  body_hash: Nullable<string>;
}

export interface MonitorTargetsTable {
  id: string;
  monitor_id: string;
  account_id: string;
  target_index: number;
  url: string;
  url_sealed: Bytes;
  ref: Nullable<string>;
  host: string;
  site_id: string;
  page_type: string;
  route: string;
  cost_max: number;
  /** The rule engine's TargetState (JSON): the last good watched values and the rules' memory, nothing else. */
  state: JsonText;
  last_check_at: NullableTime;
  last_check_state: Nullable<string>;
  last_error_code: Nullable<string>;
  removed: Generated<number>;
  /** The JST date of the last history row (one a day even without change). */
  history_day: Nullable<string>;
}

export interface MonitorChecksTable {
  id: string;
  monitor_id: string;
  target_id: string;
  account_id: string;
  state: 'queued' | 'running' | 'completed' | 'failed' | 'skipped';
  reason: Nullable<string>;
  scheduled_at: Timestamp;
  started_at: NullableTime;
  finished_at: NullableTime;
  holder: Nullable<string>;
  attempts: Generated<number>;
  request_id: Nullable<string>;
  cost_units: Generated<number>;
  reserved: Generated<number>;
  changes: Nullable<string>;
  rules_hit: Nullable<string>;
  skipped_rules: Nullable<string>;
  error_code: Nullable<string>;
  error_status: Nullable<number>;
  created_at: Timestamp;
}

export interface MonitorHistoryTable {
  target_id: string;
  monitor_id: string;
  t: Timestamp;
  /** The watched values (JSON). */
  observed: JsonText;
  expires_at: Timestamp;
}

export interface MonitorEventsTable {
  id: string;
  account_id: string;
  monitor_id: string;
  target_id: Nullable<string>;
  check_id: Nullable<string>;
  type: string;
  /** The event's `data` (JSON): ids, the URL without credentials, watched values. */
  data: JsonText;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface MonitorDeliveriesTable {
  id: string;
  event_id: string;
  account_id: string;
  monitor_id: string;
  channel: 'webhook' | 'slack' | 'chatwork' | 'line';
  state: 'pending' | 'delivering' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: NullableTime;
  holder: Nullable<string>;
  lease_until: NullableTime;
  last_status: Nullable<number>;
  delivered_at: NullableTime;
  created_at: Timestamp;
}

/**
 * The result cache (DESIGN §10, migration 0014): an account's extracted JSON under the hash of what makes two calls
 * the same (src/cache/cache-key.ts). `answer` is the JSON text of data, warnings, extractor and fetch_summary: never
 * the page or its HTML. `url` is the target URL with caller credentials removed.
 */
export interface ResultCacheTable {
  account_id: string;
  cache_key: string;
  url: string;
  site_id: string;
  page_type: string;
  request_id: string;
  fetched_at: Timestamp;
  expires_at: Timestamp;
  answer: string;
}

export interface KumoDatabase {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_counters: CreditCountersTable;
  credit_reservations: CreditReservationsTable;
  credit_ledger: CreditLedgerTable;
  requests: RequestsTable;
  instances: InstancesTable;
  idempotency_keys: IdempotencyKeysTable;
  review_approvals: ReviewApprovalsTable;
  console_sessions: ConsoleSessionsTable;
  /** PostgreSQL only. */
  artifacts: ArtifactsTable;
  webhook_endpoints: WebhookEndpointsTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
  delivery_buffer: DeliveryBufferTable;
  batch_events: BatchEventsTable;
  /** SQLite only. */
  batch_event_order: BatchEventOrderTable;
  /** SQLite only (PostgreSQL keeps the items in pg-boss's jobs). */
  work_queue: WorkQueueTable;
  work_lanes: WorkLanesTable;
  /** PostgreSQL only. */
  work_claims: WorkClaimsTable;
  /** PostgreSQL only. */
  work_group_lanes: WorkGroupLanesTable;
  monitors: MonitorsTable;
  monitor_targets: MonitorTargetsTable;
  monitor_checks: MonitorChecksTable;
  monitor_history: MonitorHistoryTable;
  monitor_events: MonitorEventsTable;
  monitor_deliveries: MonitorDeliveriesTable;
  result_cache: ResultCacheTable;
}
