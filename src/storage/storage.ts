// The persistence roles (accounts, keys, credit ledger, request metadata, review approvals, console sessions) every storage backend implements.
// Backends: storage/sqlite (embedded default, node:sqlite) and storage/postgres; both pass storage.contract.ts.

export type PlanId = 'free' | 'starter' | 'growth';
export type Operation = 'scrape' | 'usage' | 'artifacts' | 'batch' | 'monitor';
/** Every operation a key may be narrowed to (the one list the CLI, the console and the API check against). */
export const allOperations: readonly Operation[] = Object.freeze(['scrape', 'usage', 'artifacts', 'batch', 'monitor']);
export type Output = 'json' | 'html' | 'artifact';

export interface AccountRecord {
  id: string;
  plan: PlanId;
  /** Credits a paid plan may use past its allowance in one month (0 = hard stop). */
  overageCapCredits: number;
  createdAt: string;
  /**
   * Sites whose reviewed page types an operator approved this account for (approvals in force, sorted). `get` always
   * fills it, in the same query as the account, so it is current on every call; `create` ignores it. Absent = none.
   */
  approvedSites?: readonly string[];
}

export interface KeyRecord {
  id: string;
  accountId: string;
  /** Public, non-secret start of the key shown in listings (e.g. `kumo_live_3fA9`). */
  displayPrefix: string;
  /** SHA-256 hex of the whole secret; the secret itself is never stored. */
  hash: string;
  /** null = no narrowing. */
  sites: string[] | null;
  operations: Operation[] | null;
  outputs: Output[] | null;
  monthlyCreditLimit: number | null;
  concurrencyLimit: number | null;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
  /** The owner's name for the key, shown in listings (1–64 characters); absent without one. */
  label?: string;
  /**
   * The id of the first key of its line of rotations: a rotated key keeps its predecessor's, and the key's monthly
   * credit limit counts the spend of the whole line. `get`/`findByHash`/`list` always fill it; on `create` absent
   * means the key starts its own line (its own id).
   */
  lineageId?: string;
}

/** One metadata row per call (DESIGN.md §5): never a body, HTML or extracted JSON. */
export interface RequestRecord {
  requestId: string;
  accountId: string;
  keyId: string;
  siteId: string | null;
  pageType: string | null;
  /** The target URL with caller credentials (e.g. e-Stat appId) removed. */
  url: string | null;
  /** One of requestStatuses (src/scrape/scrape-service.ts): completed | not_found | blocked | failed | timed_out | cancelled */
  status: string;
  errorCode: string | null;
  /** The target's HTTP status when a page was received (200, 404 …); null when none was (every error row). */
  httpStatus: number | null;
  attempts: number;
  route: string | null;
  costUnits: number;
  latencyMs: number;
  artifactId: string | null;
  createdAt: string;
  /** Where the answer came from (DESIGN §10): `hit`, `miss` or `bypass`; null/absent when no answer got so far. */
  cacheState?: 'hit' | 'miss' | 'bypass' | null;
}

export interface ReserveRequest {
  requestId: string;
  accountId: string;
  keyId: string;
  /** Asia/Tokyo calendar month, `YYYY-MM`. */
  period: string;
  /** The most this call can cost; reserved up front. */
  cost: number;
  /** Allowance + overage cap for the account this period. */
  accountLimit: number;
  /** The key's own monthly credit limit, or null. */
  keyLimit: number | null;
  /** After this the reservation is released by `releaseExpired` (a process killed mid-call). */
  expiresAt: string;
  /**
   * The instance holding the reservation; the storage's own instance id when absent. When its heartbeat lapses,
   * `releaseOrphaned` frees the reservation long before `expiresAt`.
   */
  owner?: string;
}

/**
 * `exhausted`: used + cost passes the limit, so only the next period (or a larger limit) makes room.
 * `held`: the committed credits leave room, but reservations of calls in flight fill it; they may come back at once.
 */
export type ReserveOutcome =
  { ok: true } | { ok: false; exhausted: 'account' | 'key' } | { ok: false; held: 'account' | 'key' };

export interface CreditUsage {
  /** Credits committed this period. */
  used: number;
  /** Credits held by calls in flight. */
  reserved: number;
}

export interface AccountStore {
  create(account: AccountRecord): Promise<void>;
  get(id: string): Promise<AccountRecord | null>;
  update(id: string, changes: Partial<Pick<AccountRecord, 'plan' | 'overageCapCredits'>>): Promise<void>;
}

/**
 * An operator's approval of an account for a site's reviewed page types (DESIGN: high-risk data is reviewed). Rows
 * are never deleted: a revocation fills `revokedBy`/`revokedAt`, so the history of who allowed what, and when, stays.
 */
export interface ReviewApprovalRecord {
  id: string;
  accountId: string;
  siteId: string;
  /** The operator's name, as given to `kumo accounts approve --by`. */
  approvedBy: string;
  approvedAt: string;
  revokedBy: string | null;
  revokedAt: string | null;
}

export interface ReviewApprovalStore {
  /**
   * Records an approval in force. When one is already in force for that account and site it is returned unchanged
   * (`created: false`) and nothing is written; of parallel approvals exactly one is created.
   */
  approve(approval: Pick<ReviewApprovalRecord, 'id' | 'accountId' | 'siteId' | 'approvedBy' | 'approvedAt'>): Promise<{
    approval: ReviewApprovalRecord;
    created: boolean;
  }>;
  /** Ends the approval in force (its row stays, revoked); null when none is in force. */
  revoke(request: {
    accountId: string;
    siteId: string;
    revokedBy: string;
    revokedAt: string;
  }): Promise<ReviewApprovalRecord | null>;
  /** The history, in force and revoked, oldest first; narrowed to an account and/or a site when given. */
  list(filter?: { accountId?: string; siteId?: string }): Promise<ReviewApprovalRecord[]>;
}

export interface KeyStore {
  create(key: KeyRecord): Promise<void>;
  get(id: string): Promise<KeyRecord | null>;
  findByHash(hash: string): Promise<KeyRecord | null>;
  list(accountId?: string): Promise<KeyRecord[]>;
  revoke(id: string, at: string): Promise<boolean>;
  /**
   * Replaces the narrowing of an active key (Accounts checks it only narrows); false when there is no such active
   * key. The secret, its hash and the account never change.
   */
  narrow(id: string, narrowing: KeyNarrowing): Promise<boolean>;
}

/** What a key may narrow; null = no narrowing of that kind. */
export type KeyNarrowing = Pick<
  KeyRecord,
  'sites' | 'operations' | 'outputs' | 'monthlyCreditLimit' | 'concurrencyLimit'
>;

/**
 * Reserve-then-settle credits. Invariants: used + reserved never exceeds a limit; each request id is
 * reserved at most once and settled (committed or released) at most once; committed rows are append-only.
 */
export interface CreditLedger {
  reserve(request: ReserveRequest): Promise<ReserveOutcome>;
  /** Turns the reservation into a charge of exactly `cost` (≤ reserved). Returns false if not reserved. */
  commit(requestId: string, cost: number): Promise<boolean>;
  /** Drops the reservation, charging nothing. Returns false if not reserved. */
  release(requestId: string): Promise<boolean>;
  /** Releases reservations whose expiresAt is before `now`; returns how many. */
  releaseExpired(now: string): Promise<number>;
  /**
   * Releases reservations whose owner instance last beat before `staleBefore` (or never beat, for reservations made
   * before it) or is one of `deadHolders` (known dead by other means, whatever its heartbeat), and retries releases that failed during an outage; returns how many it released. `reserve` runs it
   * once itself before refusing, so credits held by a dead instance never answer `credits_exhausted`.
   */
  releaseOrphaned(staleBefore: string, deadHolders?: readonly string[]): Promise<number>;
  /**
   * The owner instances (other than this one) of reservations still open. With `releaseOrphaned`'s `deadHolders`,
   * an embedded instance frees at once what a process it knows to be dead held (liveness/instance-locks.ts).
   */
  foreignHolders(): Promise<string[]>;
  accountUsage(accountId: string, period: string): Promise<CreditUsage>;
  /** The spend of the key's line of rotations (`KeyRecord.lineageId`), which its monthly credit limit is checked against. */
  keyUsage(keyId: string, period: string): Promise<CreditUsage>;
}

/** Settles one call in a single transaction: the ledger, its metadata row, and its Idempotency-Key claim. */
export interface SettleRequest {
  /** `commit`: charge exactly this (≤ reserved); `release`: charge nothing; `none`: the call never reserved. */
  ledger: { commit: number } | 'release' | 'none';
  /** The row to write; its requestId names the reservation to settle. */
  record: RequestRecord;
  /** The Idempotency-Key this call claimed: `complete` marks it done (a retry is not charged), else it is freed. */
  idempotency?: { key: string; complete: boolean };
  /**
   * When the reservation's hold ends (ISO). A charge whose outcome is `unknown` is settled again in the background
   * until it lands, is refused, or this passes (then the sweep frees it: the call was free). Default 5 minutes on.
   */
  heldUntil?: string;
}

export type SettleOutcome = 'committed' | 'refused' | 'unknown';

/** An Idempotency-Key as stored: metadata only, never the response or the extracted data. */
export interface IdempotencyRecord {
  accountId: string;
  key: string;
  /** SHA-256 hex of the canonical request body. */
  bodyHash: string;
  /** The call that claimed the key (and, once completed, was charged). */
  requestId: string;
  state: 'in_progress' | 'completed';
  createdAt: string;
  /** After this the key is forgotten and may be used again for anything. */
  expiresAt: string;
  /** How many times the completed key was replayed (each replay runs the call again, free). */
  replays: number;
}

export interface IdempotencyClaimRequest {
  accountId: string;
  key: string;
  bodyHash: string;
  requestId: string;
  now: string;
  expiresAt: string;
  /** An in-progress claim older than this is taken to be a crashed call's, and may be taken over. */
  heldUntil: string;
  /**
   * The instance running the call (`ins_…`); the storage's own instance id when absent. Once its heartbeat is older
   * than the staleness bound (the rule `releaseOrphaned` uses), its in-progress claim may be taken over before
   * `heldUntil`: a process killed mid-call does not keep its key answering 409 for minutes.
   */
  holder?: string;
  /** How many free replays a completed key allows; the one after is `spent`. */
  maxReplays: number;
}

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  /** Completed (and charged) earlier with the same body. */
  | { outcome: 'replay'; requestId: string }
  /** Completed earlier with the same body and replayed `maxReplays` times already: refused, not run. */
  | { outcome: 'spent'; requestId: string }
  | { outcome: 'in_progress'; requestId: string }
  | { outcome: 'conflict'; requestId: string };

export interface IdempotencyStore {
  /**
   * Claims the key for this call, or says who has it. Race-free: of parallel claims exactly one is `claimed`, and of
   * parallel replays of a completed key exactly `maxReplays` (minus those already made) are `replay`. An in-progress
   * claim is taken over (`claimed`) once past its hold, or once its holder instance is dead by its heartbeat.
   */
  claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /**
   * Gives back a replay that was refused before it ran (no slot, a key narrowed to another site…): the completed key
   * of `requestId` (the charged call's id, as `claim` returned it) counts one replay fewer. False when there is none
   * to give back (the key expired, was renewed, or counts no replay).
   */
  returnReplay(accountId: string, key: string, requestId: string): Promise<boolean>;
  get(accountId: string, key: string): Promise<IdempotencyRecord | null>;
  /** Forgets keys past their expiry; returns how many. */
  sweepExpired(now: string): Promise<number>;
}

/** Which of an account's rows the console's request log shows; every field but accountId narrows. */
export interface RequestQuery {
  accountId: string;
  siteId?: string;
  status?: string;
  errorCode?: string;
  /** ISO time, inclusive. */
  from?: string;
  /** ISO time, exclusive. */
  to?: string;
  limit: number;
  offset: number;
}

/** Calls and credits of an account in a time range, by Asia/Tokyo day (`YYYY-MM-DD`) and by site. */
export interface RequestSpend {
  byDay: { day: string; calls: number; credits: number }[];
  /** `siteId` null: calls refused before a site was resolved. Most credits first. */
  bySite: { siteId: string | null; calls: number; credits: number }[];
}

export interface RequestLog {
  insert(record: RequestRecord): Promise<void>;
  /** Only the caller's own rows: another account gets null. */
  get(requestId: string, accountId: string): Promise<RequestRecord | null>;
  /** The account's rows matching the query, newest first. */
  list(query: RequestQuery): Promise<RequestRecord[]>;
  /** What the account's calls in [from, to) cost, by Asia/Tokyo day and by site (days without calls are left out). */
  spend(accountId: string, from: string, to: string): Promise<RequestSpend>;
}

/**
 * A console sign-in (docs/console.md). The session id is a 256-bit secret held only in the browser's cookie; the
 * store keeps its SHA-256, so a copy of the database signs nobody in.
 */
export interface ConsoleSessionRecord {
  /** SHA-256 hex of the session id. */
  idHash: string;
  accountId: string;
  /** The key that signed in: the session ends when it is revoked or expires. */
  keyId: string;
  createdAt: string;
  expiresAt: string;
}

export interface ConsoleSessionStore {
  create(session: ConsoleSessionRecord): Promise<void>;
  /** The session if it exists and has not expired at `now`; null otherwise. */
  get(idHash: string, now: string): Promise<ConsoleSessionRecord | null>;
  /** Sign-out: false when there was no such session. */
  delete(idHash: string): Promise<boolean>;
  /** Forgets sessions past their expiry; returns how many. */
  deleteExpired(now: string): Promise<number>;
}

/** Which server instances are alive: each upserts its heartbeat every few seconds (docs/architecture.md). */
export interface InstanceStore {
  /** Records that `instanceId` was alive at `at`; also proves the database accepts writes (/readyz). */
  heartbeat(instanceId: string, at: string): Promise<void>;
  /** When the instance last beat, or null if it never did (or was removed). */
  lastHeartbeat(instanceId: string): Promise<string | null>;
  /** A clean shutdown: the row goes, so nothing waits for it to turn stale. */
  remove(instanceId: string): Promise<void>;
}

export interface Storage {
  accounts: AccountStore;
  keys: KeyStore;
  ledger: CreditLedger;
  requests: RequestLog;
  instances: InstanceStore;
  idempotency: IdempotencyStore;
  reviews: ReviewApprovalStore;
  sessions: ConsoleSessionStore;
  /**
   * Settles a call: ledger commit or release, the metadata row and the idempotency claim, all or nothing.
   * `committed`: all of it was written (when the answer to the COMMIT was lost, a read-back on a fresh connection
   * found the call's row). `refused`: nothing was written, because a commit found no open reservation, or would
   * complete an Idempotency-Key claim that another call has since taken over (the key must never be charged twice).
   * `unknown`: the COMMIT was sent, its answer was lost and the read-back could not reach the database either; the
   * settlement may or may not stand. A commit of unknown outcome is then settled again in the background (the same
   * commit, with its row) until it lands, is refused (it had landed: the reservation is no longer open), or the hold
   * ends (`heldUntil`), so the call ends charged exactly once with its row, or free.
   * Throws when the settlement did not commit (a write failed, or the read-back found no row).
   */
  settle(request: SettleRequest): Promise<SettleOutcome>;
  /** Creates or upgrades the schema; idempotent. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}
