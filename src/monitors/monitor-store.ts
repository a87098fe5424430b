// The MonitorStore role: monitors, their targets and checks, the watched values (last and, when asked, history), and
// the alerts' outbox (DESIGN §5, §9). One Kysely implementation for SQLite and PostgreSQL (kysely-monitor-store.ts).
// A check runs on the batch work queue: the dispatcher drives it through the same run steps as a batch item
// (RunStore), and its outcome, the charge, the rule engine's verdict and the alerts commit in one transaction.
import type { ErrorCode } from '../errors.js';
import type { RequestRecord, ReserveOutcome } from '../storage/storage.js';
import type { ItemError, RunOutcome, ItemToRun, RunReservation } from '../batches/batch-store.js';
import type { NewWork, Tx } from '../batches/work-queue.js';
import type {
  CheckState,
  FieldChange,
  MonitorEventType,
  MonitorSchedule,
  MonitorStatus,
  NoiseSettings,
  Observation,
  Rule,
  SkippedRule,
  TargetState,
  WatchedField,
} from './model.js';

export type ChannelKind = 'slack' | 'chatwork' | 'line';
export type DeliveryChannel = 'webhook' | ChannelKind;

/** What of a monitor's notifications may be shown: never a token (each channel's secret masked to its last 4). */
export interface PublicNotify {
  webhook: { endpoint_id: string } | null;
  language: 'ja' | 'en';
  channels: { kind: ChannelKind; masked: Record<string, string> }[];
}

export interface TargetRecord {
  id: string;
  monitorId: string;
  index: number;
  /** Caller credentials removed. */
  url: string;
  ref: string | null;
  host: string;
  siteId: string;
  pageType: string;
  route: string;
  costMax: number;
  state: TargetState;
  lastCheckAt: string | null;
  lastCheckState: CheckState | null;
  lastErrorCode: string | null;
  /** The last check found the page gone (404/410). */
  removed: boolean;
}

export interface MonitorRecord {
  id: string;
  accountId: string;
  keyId: string;
  name: string | null;
  status: MonitorStatus;
  pausedReason: string | null;
  schedule: MonitorSchedule;
  jitterS: number;
  anchorAt: string;
  nextRunAt: string | null;
  watch: WatchedField[];
  rules: Rule[];
  noise: NoiseSettings;
  alertAfter: number;
  notify: PublicNotify;
  retainDays: number | null;
  maxCreditsPerMonth: number | null;
  /** Credits charged for this monitor's checks in `creditsPeriod` (a JST month). */
  creditsPeriod: string | null;
  creditsUsed: number;
  checksPerDay: number;
  createdAt: string;
  updatedAt: string;
  targets: TargetRecord[];
}

/** A target as made: what the record shows of where and how it is fetched, before any check. */
export interface NewTarget extends Pick<
  TargetRecord,
  'id' | 'index' | 'url' | 'ref' | 'host' | 'siteId' | 'pageType' | 'route' | 'costMax'
> {
  /** The URL as given, sealed with the monitor's data key (context `url:<target id>`). */
  urlSealed: Uint8Array;
}

export interface NewMonitor {
  id: string;
  accountId: string;
  keyId: string;
  name: string | null;
  schedule: MonitorSchedule;
  jitterS: number;
  anchorAt: string;
  nextRunAt: string;
  watch: WatchedField[];
  rules: Rule[];
  noise: NoiseSettings;
  alertAfter: number;
  notify: PublicNotify;
  /** The channels with their tokens (JSON) sealed with the data key (context `channels:<monitor id>`). */
  channelsSealed: Uint8Array | null;
  dataKeySealed: Uint8Array;
  retainDays: number | null;
  maxCreditsPerMonth: number | null;
  checksPerDay: number;
  createdAt: string;
  targets: NewTarget[];
}

/** PATCH: only what is given changes. */
export interface MonitorPatch {
  name?: string | null;
  status?: MonitorStatus;
  schedule?: MonitorSchedule;
  jitterS?: number;
  /** Set with a schedule or a resume; null with a pause. */
  nextRunAt?: string | null;
  watch?: WatchedField[];
  rules?: Rule[];
  noise?: NoiseSettings;
  alertAfter?: number;
  notify?: PublicNotify;
  channelsSealed?: Uint8Array | null;
  retainDays?: number | null;
  maxCreditsPerMonth?: number | null;
  checksPerDay?: number;
  updatedAt: string;
}

export interface CheckRecord {
  id: string;
  monitorId: string;
  targetId: string;
  state: CheckState;
  /** Why a check was skipped (`overlap`, `credits`) or made (`manual`). */
  reason: string | null;
  scheduledAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  requestId: string | null;
  costUnits: number;
  changes: FieldChange[];
  rulesHit: string[];
  skippedRules: SkippedRule[];
  error: { code: string; status: number } | null;
}

export interface HistoryPoint {
  t: string;
  values: Observation;
}

/** One due delivery of a monitor event to one channel. */
export interface DueMonitorDelivery {
  id: string;
  eventId: string;
  accountId: string;
  monitorId: string;
  channel: DeliveryChannel;
  attempts: number;
  type: MonitorEventType;
  /** The event's data (JSON). */
  data: string;
  createdAt: string;
  /** The monitor's sealed channels and data key, to open the channel's token (null for the webhook). */
  channelsSealed: Uint8Array | null;
  dataKeySealed: Uint8Array;
  webhookEndpointId: string | null;
  language: 'ja' | 'en';
}

/** How the scheduler advances a due monitor: its next run, and per target whether a check is made now. */
export interface DueMonitor {
  id: string;
  accountId: string;
  schedule: MonitorSchedule;
  jitterS: number;
  anchorAt: string;
  nextRunAt: string;
}

export interface ClaimDueOptions {
  now: string;
  limit: number;
  /** The next run of a due monitor after this one (schedule.ts's nextRunAt). */
  next: (monitor: DueMonitor) => string;
  /** Inside the claim's transaction: the checks' queue rows. */
  enqueue: (tx: Tx, work: readonly NewWork[]) => Promise<void>;
}

export interface ClaimDueResult {
  /** Monitors advanced. */
  monitors: number;
  /** Checks queued. */
  queued: number;
  /** Checks recorded `skipped` because the target's previous check was still queued or running. */
  skipped: number;
}

/** What a check's reservation asks of the ledger (as a batch item's). */
export type ReserveCheck = RunReservation;

/** The run steps the dispatcher drives (the batch store has the same ones); a check's ids start `chk_`. */
export interface CheckRunStore {
  markRunning(tx: Tx, checkId: string, holder: string, requestId: string, now: string): Promise<ItemToRun | null>;
  reserve(
    checkId: string,
    holder: string,
    request: ReserveCheck,
  ): Promise<ReserveOutcome | { ok: false; exhausted: 'batch' } | { ok: false; held: 'batch' }>;
  finishRun(
    checkId: string,
    holder: string,
    outcome: RunOutcome,
    finishWork: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean>;
  retryLater(checkId: string, holder: string, giveBack: (tx: Tx) => Promise<boolean>): Promise<boolean>;
  requeue(tx: Tx, checkIds: readonly string[]): Promise<void>;
}

/** A creation under an Idempotency-Key: made now, made before by the same body (as it is now), or a conflict. */
export type CreatedOnce =
  { outcome: 'created' | 'replay'; monitor: MonitorRecord } | { outcome: 'conflict'; monitorId: string };

export interface MonitorStore extends CheckRunStore {
  create(monitor: NewMonitor): Promise<MonitorRecord>;
  /**
   * `create` under the account's Idempotency-Key: the first with the key creates; a later one (even in parallel, on
   * another instance) with the same `bodyHash` is a replay of that monitor, with another hash a conflict. A monitor
   * deleted since frees its key.
   */
  createOnce(monitor: NewMonitor, idempotency: { key: string; bodyHash: string }): Promise<CreatedOnce>;
  /** The monitor the account created under `key`, with the hash of that request's body; null when none (now). */
  byIdempotencyKey(accountId: string, key: string): Promise<{ monitor: MonitorRecord; bodyHash: string | null } | null>;
  /** Only the account's own; null otherwise. */
  get(monitorId: string, accountId: string): Promise<MonitorRecord | null>;
  /** The account's monitors, newest first; `before` a monitor id (the cursor). */
  list(accountId: string, limit: number, before?: string): Promise<MonitorRecord[]>;
  count(accountId: string): Promise<number>;
  /** The monitor's data key, sealed with the server key (it opens target URLs and channel tokens). */
  dataKey(monitorId: string): Promise<Uint8Array | null>;
  update(monitorId: string, accountId: string, patch: MonitorPatch): Promise<MonitorRecord | null>;
  /**
   * Removes the monitor with everything kept for it (targets and their last values, checks, history, events,
   * deliveries), and its queued work (`cancelWork`), in one transaction. A check running now finishes and writes
   * nothing. False when there is no such monitor of the account.
   */
  delete(monitorId: string, accountId: string, cancelWork: (tx: Tx) => Promise<string[]>): Promise<boolean>;
  /** Checks per day on a host by account (the fair-share of the host's politeness), other monitors only. */
  hostLoad(host: string, exceptMonitorId?: string): Promise<{ accountId: string; checksPerDay: number }[]>;
  /**
   * The scheduler's tick: up to `limit` active monitors due at `now`, exclusive across instances, advanced to their
   * next run, with a check per target queued (`enqueue`) or recorded `skipped` (free) when the target's previous check
   * is still queued or running — all in one transaction.
   */
  claimDue(options: ClaimDueOptions): Promise<ClaimDueResult>;
  /** POST …/run: a check per target now (or `skipped` when one is open), with `enqueue`. Null: no such monitor. */
  runNow(
    monitorId: string,
    accountId: string,
    now: string,
    enqueue: (tx: Tx, work: readonly NewWork[]) => Promise<void>,
  ): Promise<CheckRecord[] | null>;
  /** Newest first; `before` a check id (the cursor). Only the account's own. */
  checks(
    monitorId: string,
    accountId: string,
    query: { targetId?: string; before?: string; limit: number },
  ): Promise<CheckRecord[]>;
  /** The target's history since `since`, oldest first (only with history on). Only the account's own. */
  history(monitorId: string, accountId: string, targetId: string, since: string): Promise<HistoryPoint[]>;
  /** Events of the monitor, newest first (the console). */
  events(
    monitorId: string,
    accountId: string,
    limit: number,
  ): Promise<{ id: string; type: MonitorEventType; targetId: string | null; data: string; createdAt: string }[]>;
  /** Up to `limit` deliveries due, leased to `holder` until `leaseUntil`, exclusive across instances. */
  claimDeliveries(now: string, holder: string, leaseUntil: string, limit: number): Promise<DueMonitorDelivery[]>;
  delivered(deliveryId: string, holder: string, status: number, now: string): Promise<void>;
  /** No success: the next attempt at `nextAttemptAt`, or failed for good (null). */
  deliveryFailed(
    deliveryId: string,
    holder: string,
    status: number | null,
    nextAttemptAt: string | null,
  ): Promise<void>;
  /**
   * Past their ends: history rows, events and their deliveries (72 h), check records (30 days), leases of dead
   * deliveries. Returns how many rows went.
   */
  sweep(now: string): Promise<number>;
}

/** A check's error, as a batch item's. */
export type CheckError = ItemError;
export type { ErrorCode, RequestRecord };
