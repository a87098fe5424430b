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
}
