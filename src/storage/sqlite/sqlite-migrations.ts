// The schema in SQLite: STRICT tables (a wrong type is an error, not a coercion), timestamps as ISO 8601 text.
import type { SqlMigrations } from '../kysely/kysely-storage.js';

// Numbers are shared with postgres-migrations.ts; one PostgreSQL alone needs is skipped here (0007_artifacts: the
// embedded mode keeps artifacts in the data folder). The migrator applies names in sorted order, so a gap is harmless.
export const sqliteMigrations: SqlMigrations = {
  '0001_initial': [
    `CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      plan TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'growth')),
      overage_cap_credits INTEGER NOT NULL DEFAULT 0 CHECK (overage_cap_credits >= 0),
      created_at TEXT NOT NULL
    ) STRICT`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      display_prefix TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      sites TEXT,
      operations TEXT,
      outputs TEXT,
      monthly_credit_limit INTEGER CHECK (monthly_credit_limit >= 0),
      concurrency_limit INTEGER CHECK (concurrency_limit >= 1),
      created_at TEXT NOT NULL,
      revoked_at TEXT,
      expires_at TEXT
    ) STRICT`,
    `CREATE INDEX api_keys_account_id ON api_keys (account_id)`,
    `CREATE TABLE credit_counters (
      subject TEXT NOT NULL,
      period TEXT NOT NULL,
      used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
      reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      PRIMARY KEY (subject, period)
    ) STRICT`,
    `CREATE TABLE credit_reservations (
      request_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      key_id TEXT NOT NULL REFERENCES api_keys (id),
      period TEXT NOT NULL,
      cost INTEGER NOT NULL CHECK (cost > 0),
      committed_cost INTEGER CHECK (committed_cost >= 0 AND committed_cost <= cost),
      state TEXT NOT NULL CHECK (state IN ('reserved', 'committed', 'released')),
      holder TEXT,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      settled_at TEXT
    ) STRICT`,
    `CREATE INDEX credit_reservations_open ON credit_reservations (expires_at) WHERE state = 'reserved'`,
    `CREATE TABLE credit_ledger (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      request_id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      key_id TEXT NOT NULL REFERENCES api_keys (id),
      period TEXT NOT NULL,
      credits INTEGER NOT NULL CHECK (credits >= 0),
      created_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX credit_ledger_account_period ON credit_ledger (account_id, period)`,
    `CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger
      BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END`,
    `CREATE TRIGGER credit_ledger_no_delete BEFORE DELETE ON credit_ledger
      BEGIN SELECT RAISE(ABORT, 'credit_ledger is append-only'); END`,
    `CREATE TABLE requests (
      request_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      site_id TEXT,
      page_type TEXT,
      url TEXT,
      status TEXT NOT NULL,
      error_code TEXT,
      http_status INTEGER NOT NULL,
      attempts INTEGER NOT NULL,
      route TEXT,
      cost_units INTEGER NOT NULL,
      latency_ms INTEGER NOT NULL,
      artifact_id TEXT,
      created_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX requests_account_created ON requests (account_id, created_at)`,
  ],
  // Liveness (docs/architecture.md): each server instance upserts its row every few seconds; `credit_reservations.holder`
  // names the owner instance, so a sweeper frees what a dead instance held once its heartbeat is stale.
  '0002_liveness': [
    `CREATE TABLE instances (
      id TEXT PRIMARY KEY,
      heartbeat_at TEXT NOT NULL,
      started_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX credit_reservations_holder ON credit_reservations (holder) WHERE state = 'reserved'`,
  ],
  // Error rows keep http_status null, not 0. A STRICT table cannot drop NOT NULL in place, so requests is rebuilt
  // (copying every row, turning the old 0s into null, and the old not_found rows' 200 too: that was Kumo's own answer,
  // not the target's status, which was never recorded); idempotency_keys holds Idempotency-Key claims, never output,
  // and counts the free replays of a completed key.
  '0003_settlement': [
    `CREATE TABLE requests_0003 (
      request_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      site_id TEXT,
      page_type TEXT,
      url TEXT,
      status TEXT NOT NULL,
      error_code TEXT,
      http_status INTEGER CHECK (http_status BETWEEN 100 AND 599),
      attempts INTEGER NOT NULL,
      route TEXT,
      cost_units INTEGER NOT NULL,
      latency_ms INTEGER NOT NULL,
      artifact_id TEXT,
      created_at TEXT NOT NULL
    ) STRICT`,
    `INSERT INTO requests_0003 (request_id, account_id, key_id, site_id, page_type, url, status, error_code, http_status, attempts, route, cost_units, latency_ms, artifact_id, created_at)
      SELECT request_id, account_id, key_id, site_id, page_type, url, status, error_code,
        CASE WHEN http_status BETWEEN 100 AND 599 AND status <> 'not_found' THEN http_status END,
        attempts, route, cost_units, latency_ms, artifact_id, created_at
      FROM requests`,
    `DROP TABLE requests`,
    `ALTER TABLE requests_0003 RENAME TO requests`,
    `CREATE INDEX requests_account_created ON requests (account_id, created_at)`,
    `CREATE TABLE idempotency_keys (
      account_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,
      body_hash TEXT NOT NULL,
      request_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      held_until TEXT,
      replays INTEGER NOT NULL DEFAULT 0 CHECK (replays >= 0),
      PRIMARY KEY (account_id, idempotency_key)
    ) STRICT`,
    `CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)`,
  ],
  // Review approvals (docs/decisions/0009-review-approvals.md): which accounts an operator allowed a site's reviewed
  // page types, by whom and when. A revocation fills revoked_by/revoked_at and keeps the row; at most one approval per
  // account and site is in force (the partial unique index, which also serves the lookup at authentication).
  '0004_review_approvals': [
    `CREATE TABLE review_approvals (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      site_id TEXT NOT NULL CHECK (length(site_id) > 0),
      approved_by TEXT NOT NULL CHECK (length(trim(approved_by)) > 0),
      approved_at TEXT NOT NULL,
      revoked_by TEXT CHECK (length(trim(revoked_by)) > 0),
      revoked_at TEXT,
      CHECK ((revoked_by IS NULL) = (revoked_at IS NULL))
    ) STRICT`,
    `CREATE UNIQUE INDEX review_approvals_in_force ON review_approvals (account_id, site_id) WHERE revoked_at IS NULL`,
  ],
  // Console sessions (docs/console.md): the SHA-256 of each session id, never the id; expired rows are swept.
  '0005_console_sessions': [
    `CREATE TABLE console_sessions (
      id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
      account_id TEXT NOT NULL REFERENCES accounts (id),
      key_id TEXT NOT NULL REFERENCES api_keys (id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX console_sessions_expires ON console_sessions (expires_at)`,
    // The console's request log filters an account's rows by site and status, newest first.
    `CREATE INDEX requests_account_site_created ON requests (account_id, site_id, created_at)`,
  ],
  // Key lineage (issue 18 §9): a rotated key is a new key id, but its monthly credit limit is the one of the key it
  // replaced, so the key's spend is counted per lineage (the first key's id) and rotating never resets it. Existing
  // keys start their own lineage.
  '0006_key_lineage': [
    // SQLite adds no NOT NULL column without a default; the key store always writes it, and reads fall back to id.
    `ALTER TABLE api_keys ADD COLUMN lineage_id TEXT CHECK (length(lineage_id) > 0)`,
    `UPDATE api_keys SET lineage_id = id`,
  ],
  // The instance running an in-progress Idempotency-Key claim (its heartbeat row in `instances`): a retry may take
  // over the claim of a dead instance once its heartbeat is stale, as the sweep frees its reservations, instead of
  // waiting for held_until. Null on claims made before this migration, which wait for held_until as before.
  '0008_idempotency_holder': [`ALTER TABLE idempotency_keys ADD COLUMN holder TEXT`],
  // Batches and webhooks (DESIGN §5, §8; docs/batches.md). Metadata in the clear; what the caller asked to be kept for
  // handover (results, the URLs of items, which may carry credentials, signing secrets) only as AES-256-GCM ciphertext:
  // results and URLs under the batch's data key (`data_key_sealed`, itself sealed by KUMO_SECRETS_KEY; set to NULL at
  // expiry or DELETE, which makes every copy unreadable), signing secrets under KUMO_SECRETS_KEY. Counts and credits are
  // maintained in the batch row in the same transaction as every item change, never counted per request.
  // A hold (credit_reservations.kind = 'hold') is a ready item's credits awaiting handover: owned by no instance,
  // it lasts until results_expire_at, and the liveness sweep never frees it.
  '0009_batches': [
    `CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      secret_sealed BLOB NOT NULL,
      secret_last4 TEXT NOT NULL,
      previous_secret_sealed BLOB,
      previous_secret_until TEXT,
      created_at TEXT NOT NULL,
      disabled_at TEXT,
      disabled_reason TEXT,
      deleted_at TEXT
    ) STRICT`,
    `CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at)`,
    `CREATE TABLE batches (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      key_id TEXT NOT NULL REFERENCES api_keys (id),
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelling', 'cancelled')),
      params TEXT NOT NULL,
      webhook_endpoint_id TEXT,
      webhook_events TEXT,
      webhook_payload TEXT CHECK (webhook_payload IN ('full', 'thin')),
      retain_hours INTEGER CHECK (retain_hours BETWEEN 1 AND 72),
      results_expire_at TEXT NOT NULL,
      max_credits INTEGER CHECK (max_credits >= 0),
      data_key_sealed BLOB,
      idempotency_key TEXT,
      body_hash TEXT,
      total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
      queued INTEGER NOT NULL DEFAULT 0 CHECK (queued >= 0),
      running INTEGER NOT NULL DEFAULT 0 CHECK (running >= 0),
      ready INTEGER NOT NULL DEFAULT 0 CHECK (ready >= 0),
      delivered INTEGER NOT NULL DEFAULT 0 CHECK (delivered >= 0),
      failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
      not_found INTEGER NOT NULL DEFAULT 0 CHECK (not_found >= 0),
      skipped INTEGER NOT NULL DEFAULT 0 CHECK (skipped >= 0),
      cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled >= 0),
      expired INTEGER NOT NULL DEFAULT 0 CHECK (expired >= 0),
      credits_charged INTEGER NOT NULL DEFAULT 0 CHECK (credits_charged >= 0),
      credits_held INTEGER NOT NULL DEFAULT 0 CHECK (credits_held >= 0),
      credits_reserved INTEGER NOT NULL DEFAULT 0 CHECK (credits_reserved >= 0),
      cost_units_max INTEGER NOT NULL DEFAULT 0,
      eta_s INTEGER NOT NULL DEFAULT 0,
      rejected TEXT NOT NULL DEFAULT '[]',
      next_sequence INTEGER NOT NULL DEFAULT 1,
      created_at TEXT NOT NULL,
      finished_at TEXT
    ) STRICT`,
    `CREATE INDEX batches_account_created ON batches (account_id, created_at)`,
    `CREATE UNIQUE INDEX batches_idempotency ON batches (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    `CREATE TABLE batch_items (
      id TEXT PRIMARY KEY,
      batch_id TEXT NOT NULL REFERENCES batches (id),
      account_id TEXT NOT NULL,
      item_index INTEGER NOT NULL CHECK (item_index >= 0),
      ref TEXT,
      url TEXT NOT NULL,
      url_sealed BLOB,
      host TEXT NOT NULL,
      site_id TEXT NOT NULL,
      page_type TEXT NOT NULL,
      route TEXT NOT NULL,
      params TEXT,
      cost_max INTEGER NOT NULL CHECK (cost_max BETWEEN 1 AND 3),
      state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'ready', 'delivered', 'failed', 'not_found', 'skipped', 'cancelled', 'expired')),
      attempts INTEGER NOT NULL DEFAULT 0,
      request_id TEXT,
      holder TEXT,
      cost_units INTEGER NOT NULL DEFAULT 0,
      error_code TEXT,
      error_status INTEGER,
      error_retryable INTEGER CHECK (error_retryable IN (0, 1)),
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      delivered_at TEXT,
      delivered_via TEXT CHECK (delivered_via IN ('webhook', 'poll')),
      UNIQUE (batch_id, item_index)
    ) STRICT`,
    `CREATE INDEX batch_items_state ON batch_items (batch_id, state, item_index)`,
    `CREATE INDEX batch_items_running ON batch_items (holder) WHERE state = 'running'`,
    `CREATE TABLE delivery_buffer (
      item_id TEXT PRIMARY KEY,
      batch_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      result_sealed BLOB NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX delivery_buffer_batch ON delivery_buffer (batch_id)`,
    `CREATE INDEX delivery_buffer_expires ON delivery_buffer (expires_at)`,
    `CREATE TABLE batch_events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      batch_id TEXT NOT NULL,
      item_id TEXT,
      type TEXT NOT NULL,
      sequence INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      endpoint_id TEXT,
      delivery_state TEXT NOT NULL CHECK (delivery_state IN ('none', 'pending', 'delivering', 'delivered', 'failed', 'expired')),
      attempts INTEGER NOT NULL DEFAULT 0,
      full_failures INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      holder TEXT,
      lease_until TEXT,
      last_status INTEGER,
      delivered_at TEXT,
      UNIQUE (batch_id, sequence)
    ) STRICT`,
    `CREATE INDEX batch_events_due ON batch_events (next_attempt_at) WHERE delivery_state IN ('pending', 'delivering')`,
    `CREATE INDEX batch_events_account ON batch_events (account_id, id)`,
    `CREATE INDEX batch_events_expires ON batch_events (expires_at)`,
    `ALTER TABLE credit_reservations ADD COLUMN kind TEXT NOT NULL DEFAULT 'call' CHECK (kind IN ('call', 'hold'))`,
  ],
  // Fixes to 0009 found while implementing the batch store (src/batches/kysely-batch-store.ts): `sealed` (a batch
  // completes only once sealed; POST /v1/batches/{id}/items appends until then), the credits reserved for an item's
  // running attempt (so the batch row's credits_reserved moves by exactly that when it ends), and indexes for the
  // outbox's per-endpoint lease count and the expiry sweep.
  '0010_batches_fixups': [
    `ALTER TABLE batches ADD COLUMN sealed INTEGER NOT NULL DEFAULT 1 CHECK (sealed IN (0, 1))`,
    `ALTER TABLE batch_items ADD COLUMN reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0)`,
    `CREATE INDEX batch_events_leased ON batch_events (endpoint_id) WHERE delivery_state = 'delivering'`,
    `CREATE INDEX batches_expiry ON batches (results_expire_at) WHERE data_key_sealed IS NOT NULL`,
  ],
  // The batch work queue of the embedded default (src/batches/sqlite-work-queue.ts; docs/decisions/0022): one row per
  // queued or claimed item, and one lane per (host, account) with its queued count (depth and hostsWithWork read
  // these, never a count) and its place in the host's round robin (`last_served`, a per-host serve counter: the
  // account with work served least recently goes next). A finished item's row is deleted.
  '0011_work_queue': [
    `CREATE TABLE work_queue (
      id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      host TEXT NOT NULL,
      item_order INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'claimed')),
      holder TEXT,
      attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      claimed_at TEXT
    ) STRICT`,
    `CREATE INDEX work_queue_next ON work_queue (host, account_id, item_order, id) WHERE state = 'queued'`,
    `CREATE INDEX work_queue_group ON work_queue (group_id) WHERE state = 'queued'`,
    `CREATE INDEX work_queue_holder ON work_queue (holder) WHERE state = 'claimed'`,
    `CREATE TABLE work_lanes (
      host TEXT NOT NULL,
      account_id TEXT NOT NULL,
      queued INTEGER NOT NULL DEFAULT 0 CHECK (queued >= 0),
      last_served INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (host, account_id)
    ) STRICT`,
    `CREATE INDEX work_lanes_turn ON work_lanes (host, last_served, account_id) WHERE queued > 0`,
  ],
  // GET /v1/events pages in commit order (src/batches/kysely-batch-store.ts, events()). Event ids come from each
  // process's wall clock, and several embedded instances may share this file (liveness/instance-locks.ts): two
  // processes in the same millisecond, or a clock stepped back, make an id smaller than one already committed and
  // handed out, so paging by id could skip it. `tx_order` is taken from a counter by a trigger, inside the writing
  // transaction, which holds the write lock (BEGIN IMMEDIATE) from its start to its commit: numbers are taken in
  // commit order, and a reader sees a prefix of them. A counter table, not max(tx_order) + 1 (nor the rowid): the
  // 72 h purge may empty the table, and a number must never be given twice. Rows from before read as 0.
  '0012_event_order': [
    `CREATE TABLE batch_event_order (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL) STRICT`,
    `INSERT INTO batch_event_order (id, last) VALUES (1, 0)`,
    `ALTER TABLE batch_events ADD COLUMN tx_order INTEGER NOT NULL DEFAULT 0`,
    `CREATE TRIGGER batch_events_tx_order AFTER INSERT ON batch_events BEGIN
      UPDATE batch_event_order SET last = last + 1 WHERE id = 1;
      UPDATE batch_events SET tx_order = (SELECT last FROM batch_event_order WHERE id = 1) WHERE rowid = NEW.rowid;
    END`,
    `CREATE INDEX batch_events_page ON batch_events (account_id, tx_order, id)`,
    `DROP INDEX batch_events_account`,
  ],
  // Monitors (DESIGN §9, docs/monitors.md): a monitor and its targets, checks (metadata, as call rows), the last good
  // watched values per target (inside `state`, the rule engine's TargetState: never the page or another field), the
  // history of watched values only when `retain_days` is set (each row carries its own expiry), and the events and
  // deliveries of alerts. Channel tokens are sealed with the monitor's data key (itself sealed with KUMO_SECRETS_KEY),
  // and so is each target's URL as given; `url` is the URL with credentials removed.
  '0013_monitors': [
    `CREATE TABLE monitors (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      name TEXT,
      status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
      paused_reason TEXT,
      schedule TEXT NOT NULL,
      jitter_s INTEGER NOT NULL,
      anchor_at TEXT NOT NULL,
      next_run_at TEXT,
      watch TEXT NOT NULL,
      rules TEXT NOT NULL,
      noise TEXT NOT NULL,
      alert_after INTEGER NOT NULL,
      notify TEXT NOT NULL,
      channels_sealed BLOB,
      data_key_sealed BLOB NOT NULL,
      retain_days INTEGER,
      max_credits_per_month INTEGER,
      credits_period TEXT,
      credits_used INTEGER NOT NULL DEFAULT 0,
      checks_per_day REAL NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX monitors_due ON monitors (next_run_at) WHERE status = 'active'`,
    `CREATE INDEX monitors_account ON monitors (account_id, id)`,
    `CREATE TABLE monitor_targets (
      id TEXT PRIMARY KEY,
      monitor_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      target_index INTEGER NOT NULL,
      url TEXT NOT NULL,
      url_sealed BLOB NOT NULL,
      ref TEXT,
      host TEXT NOT NULL,
      site_id TEXT NOT NULL,
      page_type TEXT NOT NULL,
      route TEXT NOT NULL,
      cost_max INTEGER NOT NULL,
      state TEXT NOT NULL,
      last_check_at TEXT,
      last_check_state TEXT,
      last_error_code TEXT,
      removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
      history_day TEXT,
      UNIQUE (monitor_id, target_index)
    ) STRICT`,
    `CREATE INDEX monitor_targets_host ON monitor_targets (host, account_id)`,
    `CREATE TABLE monitor_checks (
      id TEXT PRIMARY KEY,
      monitor_id TEXT NOT NULL,
      target_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed', 'skipped')),
      reason TEXT,
      scheduled_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      holder TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      request_id TEXT,
      cost_units INTEGER NOT NULL DEFAULT 0,
      reserved INTEGER NOT NULL DEFAULT 0,
      changes TEXT,
      rules_hit TEXT,
      skipped_rules TEXT,
      error_code TEXT,
      error_status INTEGER,
      created_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX monitor_checks_monitor ON monitor_checks (monitor_id, id)`,
    `CREATE INDEX monitor_checks_open ON monitor_checks (target_id) WHERE state IN ('queued', 'running')`,
    `CREATE INDEX monitor_checks_created ON monitor_checks (created_at)`,
    `CREATE TABLE monitor_history (
      target_id TEXT NOT NULL,
      monitor_id TEXT NOT NULL,
      t TEXT NOT NULL,
      observed TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (target_id, t)
    ) STRICT`,
    `CREATE INDEX monitor_history_monitor ON monitor_history (monitor_id)`,
    `CREATE INDEX monitor_history_expires ON monitor_history (expires_at)`,
    `CREATE TABLE monitor_events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      monitor_id TEXT NOT NULL,
      target_id TEXT,
      check_id TEXT,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX monitor_events_monitor ON monitor_events (monitor_id, id)`,
    `CREATE INDEX monitor_events_expires ON monitor_events (expires_at)`,
    `CREATE TABLE monitor_deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      monitor_id TEXT NOT NULL,
      channel TEXT NOT NULL CHECK (channel IN ('webhook', 'slack', 'chatwork', 'line')),
      state TEXT NOT NULL CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      holder TEXT,
      lease_until TEXT,
      last_status INTEGER,
      delivered_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (event_id, channel)
    ) STRICT`,
    `CREATE INDEX monitor_deliveries_due ON monitor_deliveries (next_attempt_at) WHERE state IN ('pending', 'delivering')`,
    `CREATE INDEX monitor_deliveries_monitor ON monitor_deliveries (monitor_id)`,
  ],
  // The result cache (DESIGN §10, docs/cache.md, decision 0026): an account's extracted JSON for later calls that ask
  // with max_age_s, under the hash of what makes two calls the same; each row carries its own expiry (the site's cache
  // limit), which the sweep deletes at. `requests.cache_state` records whether a call was answered from it.
  '0014_result_cache': [
    `CREATE TABLE result_cache (
      account_id TEXT NOT NULL,
      cache_key TEXT NOT NULL,
      url TEXT NOT NULL,
      site_id TEXT NOT NULL,
      page_type TEXT NOT NULL,
      request_id TEXT NOT NULL,
      fetched_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      answer TEXT NOT NULL,
      PRIMARY KEY (account_id, cache_key)
    ) STRICT`,
    `CREATE INDEX result_cache_url ON result_cache (account_id, url)`,
    `CREATE INDEX result_cache_expires ON result_cache (expires_at)`,
    `ALTER TABLE requests ADD COLUMN cache_state TEXT CHECK (cache_state IN ('hit', 'miss', 'bypass'))`,
  ],
  // POST /v1/monitors takes an Idempotency-Key: the key and the SHA-256 of the body that used it, per account.
  '0015_monitor_idempotency': [
    `ALTER TABLE monitors ADD COLUMN idempotency_key TEXT`,
    `ALTER TABLE monitors ADD COLUMN body_hash TEXT`,
    `CREATE UNIQUE INDEX monitors_idempotency ON monitors (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
  ],
  // A key's label, the owner's name for it ("production", "本番"): shown in listings, never a secret.
  '0016_key_labels': [`ALTER TABLE api_keys ADD COLUMN label TEXT`],
};
