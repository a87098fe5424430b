// The persistence roles (accounts, keys, credit ledger, request metadata) every storage backend implements.
// Backends: storage/sqlite (embedded default, node:sqlite) and storage/postgres; both pass storage.contract.ts.

export type PlanId = 'free' | 'starter' | 'growth';
export type Operation = 'scrape' | 'usage' | 'artifacts';
export type Output = 'json' | 'html' | 'artifact';

export interface AccountRecord {
  id: string;
  plan: PlanId;
  /** Credits a paid plan may use past its allowance in one month (0 = hard stop). */
  overageCapCredits: number;
  createdAt: string;
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
  /** completed | not_found | blocked | failed | timed_out | rejected */
  status: string;
  errorCode: string | null;
  httpStatus: number;
  attempts: number;
  route: string | null;
  costUnits: number;
  latencyMs: number;
  artifactId: string | null;
  createdAt: string;
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

export type ReserveOutcome = { ok: true } | { ok: false; exhausted: 'account' | 'key' };

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

export interface KeyStore {
  create(key: KeyRecord): Promise<void>;
  get(id: string): Promise<KeyRecord | null>;
  findByHash(hash: string): Promise<KeyRecord | null>;
  list(accountId?: string): Promise<KeyRecord[]>;
  revoke(id: string, at: string): Promise<boolean>;
}

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
   * before it), and retries releases that failed during an outage; returns how many it released. `reserve` runs it
   * once itself before refusing, so credits held by a dead instance never answer `credits_exhausted`.
   */
  releaseOrphaned(staleBefore: string): Promise<number>;
  accountUsage(accountId: string, period: string): Promise<CreditUsage>;
  keyUsage(keyId: string, period: string): Promise<CreditUsage>;
}

export interface RequestLog {
  insert(record: RequestRecord): Promise<void>;
  /** Only the caller's own rows: another account gets null. */
  get(requestId: string, accountId: string): Promise<RequestRecord | null>;
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
  /** Creates or upgrades the schema; idempotent. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}
