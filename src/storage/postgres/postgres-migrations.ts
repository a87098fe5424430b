// The schema in PostgreSQL: timestamptz and jsonb where SQLite has text; the same tables, keys and checks.
import type { SqlMigrations } from '../kysely/kysely-storage.js';

export const postgresMigrations: SqlMigrations = {
  '0001_initial': [
    `CREATE TABLE accounts (
      id text PRIMARY KEY,
      plan text NOT NULL CHECK (plan IN ('free', 'starter', 'growth')),
      overage_cap_credits integer NOT NULL DEFAULT 0 CHECK (overage_cap_credits >= 0),
      created_at timestamptz NOT NULL
    )`,
    `CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      display_prefix text NOT NULL,
      hash text NOT NULL UNIQUE,
      sites jsonb,
      operations jsonb,
      outputs jsonb,
      monthly_credit_limit integer CHECK (monthly_credit_limit >= 0),
      concurrency_limit integer CHECK (concurrency_limit >= 1),
      created_at timestamptz NOT NULL,
      revoked_at timestamptz,
      expires_at timestamptz
    )`,
    `CREATE INDEX api_keys_account_id ON api_keys (account_id)`,
    `CREATE TABLE credit_counters (
      subject text NOT NULL,
      period text NOT NULL,
      used integer NOT NULL DEFAULT 0 CHECK (used >= 0),
      reserved integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      PRIMARY KEY (subject, period)
    )`,
    `CREATE TABLE credit_reservations (
      request_id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      key_id text NOT NULL REFERENCES api_keys (id),
      period text NOT NULL,
      cost integer NOT NULL CHECK (cost > 0),
      committed_cost integer CHECK (committed_cost >= 0 AND committed_cost <= cost),
      state text NOT NULL CHECK (state IN ('reserved', 'committed', 'released')),
      holder text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      settled_at timestamptz
    )`,
    `CREATE INDEX credit_reservations_open ON credit_reservations (expires_at) WHERE state = 'reserved'`,
    `CREATE TABLE credit_ledger (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      request_id text NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      key_id text NOT NULL REFERENCES api_keys (id),
      period text NOT NULL,
      credits integer NOT NULL CHECK (credits >= 0),
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX credit_ledger_account_period ON credit_ledger (account_id, period)`,
    `CREATE FUNCTION kumo_credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'credit_ledger is append-only'; END $$`,
    `CREATE TRIGGER credit_ledger_no_change BEFORE UPDATE OR DELETE ON credit_ledger
      FOR EACH ROW EXECUTE FUNCTION kumo_credit_ledger_append_only()`,
    `CREATE TRIGGER credit_ledger_no_truncate BEFORE TRUNCATE ON credit_ledger
      FOR EACH STATEMENT EXECUTE FUNCTION kumo_credit_ledger_append_only()`,
    `CREATE TABLE requests (
      request_id text PRIMARY KEY,
      account_id text NOT NULL,
      key_id text NOT NULL,
      site_id text,
      page_type text,
      url text,
      status text NOT NULL,
      error_code text,
      http_status integer NOT NULL,
      attempts integer NOT NULL,
      route text,
      cost_units integer NOT NULL,
      latency_ms integer NOT NULL,
      artifact_id text,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX requests_account_created ON requests (account_id, created_at)`,
  ],
  // Liveness (docs/architecture.md): each server instance upserts its row every few seconds; `credit_reservations.holder`
  // names the owner instance, so a sweeper frees what a dead instance held once its heartbeat is stale.
  '0002_liveness': [
    `CREATE TABLE instances (
      id text PRIMARY KEY,
      heartbeat_at timestamptz NOT NULL,
      started_at timestamptz NOT NULL
    )`,
    `CREATE INDEX credit_reservations_holder ON credit_reservations (holder) WHERE state = 'reserved'`,
  ],
  // Error rows keep http_status null, not 0 (and old not_found rows lose their 200: that was Kumo's own answer, not
  // the target's status); idempotency_keys holds Idempotency-Key claims, never output, and counts a key's free replays.
  '0003_settlement': [
    `ALTER TABLE requests ALTER COLUMN http_status DROP NOT NULL`,
    `UPDATE requests SET http_status = NULL WHERE http_status NOT BETWEEN 100 AND 599 OR status = 'not_found'`,
    `ALTER TABLE requests ADD CONSTRAINT requests_http_status CHECK (http_status BETWEEN 100 AND 599)`,
    `CREATE TABLE idempotency_keys (
      account_id text NOT NULL,
      idempotency_key text NOT NULL,
      body_hash text NOT NULL,
      request_id text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      held_until timestamptz,
      replays integer NOT NULL DEFAULT 0 CHECK (replays >= 0),
      PRIMARY KEY (account_id, idempotency_key)
    )`,
    `CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at)`,
  ],
  // Review approvals (docs/decisions/0009-review-approvals.md): which accounts an operator allowed a site's reviewed
  // page types, by whom and when. A revocation fills revoked_by/revoked_at and keeps the row; at most one approval per
  // account and site is in force (the partial unique index, which also serves the lookup at authentication).
  '0004_review_approvals': [
    `CREATE TABLE review_approvals (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      site_id text NOT NULL CHECK (length(site_id) > 0),
      approved_by text NOT NULL CHECK (length(trim(approved_by)) > 0),
      approved_at timestamptz NOT NULL,
      revoked_by text CHECK (length(trim(revoked_by)) > 0),
      revoked_at timestamptz,
      CHECK ((revoked_by IS NULL) = (revoked_at IS NULL))
    )`,
    `CREATE UNIQUE INDEX review_approvals_in_force ON review_approvals (account_id, site_id) WHERE revoked_at IS NULL`,
  ],
  // Console sessions (docs/console.md): the SHA-256 of each session id, never the id; expired rows are swept.
  '0005_console_sessions': [
    `CREATE TABLE console_sessions (
      id_hash text PRIMARY KEY CHECK (length(id_hash) = 64),
      account_id text NOT NULL REFERENCES accounts (id),
      key_id text NOT NULL REFERENCES api_keys (id),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX console_sessions_expires ON console_sessions (expires_at)`,
    // The console's request log filters an account's rows by site and status, newest first.
    `CREATE INDEX requests_account_site_created ON requests (account_id, site_id, created_at)`,
  ],
  // Key lineage (issue 18 §9): a rotated key is a new key id, but its monthly credit limit is the one of the key it
  // replaced, so the key's spend is counted per lineage (the first key's id) and rotating never resets it. Existing
  // keys start their own lineage.
  '0006_key_lineage': [
    `ALTER TABLE api_keys ADD COLUMN lineage_id text CHECK (length(lineage_id) > 0)`,
    // Nullable as in SQLite (reads fall back to id): a key written by an instance of the previous version during a
    // rolling deploy is still accepted, and starts its own line as it would have.
    `UPDATE api_keys SET lineage_id = id`,
  ],
  // Artifacts in shared mode (docs/architecture.md, "What is stored where"): every instance reads the one table, so an
  // artifact kept through one instance is served and deleted through any. HTML and data are gzip (bytea), the data
  // as the JSON text it was served as (jsonb would reorder its keys). SQLite has no such table: the embedded mode
  // keeps artifacts in the data folder, and its migrations skip this number.
  '0007_artifacts': [
    `CREATE TABLE artifacts (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      request_id text NOT NULL,
      url text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      html bytea,
      data bytea NOT NULL
    )`,
    `CREATE INDEX artifacts_expires ON artifacts (expires_at)`,
  ],
  // The instance running an in-progress Idempotency-Key claim (its heartbeat row in `instances`): a retry may take
  // over the claim of a dead instance once its heartbeat is stale, as the sweep frees its reservations, instead of
  // waiting for held_until. Null on claims made before this migration, which wait for held_until as before.
  '0008_idempotency_holder': [`ALTER TABLE idempotency_keys ADD COLUMN holder text`],
  // Batches and webhooks: the tables of sqlite-migrations.ts's 0009_batches (see its comment), with jsonb, bytea and
  // timestamptz where SQLite has text and blobs.
  '0009_batches': [
    `CREATE TABLE webhook_endpoints (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      url text NOT NULL,
      events jsonb NOT NULL,
      secret_sealed bytea NOT NULL,
      secret_last4 text NOT NULL,
      previous_secret_sealed bytea,
      previous_secret_until timestamptz,
      created_at timestamptz NOT NULL,
      disabled_at timestamptz,
      disabled_reason text,
      deleted_at timestamptz
    )`,
    `CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at)`,
    `CREATE TABLE batches (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      key_id text NOT NULL REFERENCES api_keys (id),
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelling', 'cancelled')),
      params jsonb NOT NULL,
      webhook_endpoint_id text,
      webhook_events jsonb,
      webhook_payload text CHECK (webhook_payload IN ('full', 'thin')),
      retain_hours integer CHECK (retain_hours BETWEEN 1 AND 72),
      results_expire_at timestamptz NOT NULL,
      max_credits integer CHECK (max_credits >= 0),
      data_key_sealed bytea,
      idempotency_key text,
      body_hash text,
      total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
      queued integer NOT NULL DEFAULT 0 CHECK (queued >= 0),
      running integer NOT NULL DEFAULT 0 CHECK (running >= 0),
      ready integer NOT NULL DEFAULT 0 CHECK (ready >= 0),
      delivered integer NOT NULL DEFAULT 0 CHECK (delivered >= 0),
      failed integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
      not_found integer NOT NULL DEFAULT 0 CHECK (not_found >= 0),
      skipped integer NOT NULL DEFAULT 0 CHECK (skipped >= 0),
      cancelled integer NOT NULL DEFAULT 0 CHECK (cancelled >= 0),
      expired integer NOT NULL DEFAULT 0 CHECK (expired >= 0),
      credits_charged integer NOT NULL DEFAULT 0 CHECK (credits_charged >= 0),
      credits_held integer NOT NULL DEFAULT 0 CHECK (credits_held >= 0),
      credits_reserved integer NOT NULL DEFAULT 0 CHECK (credits_reserved >= 0),
      cost_units_max integer NOT NULL DEFAULT 0,
      eta_s integer NOT NULL DEFAULT 0,
      rejected jsonb NOT NULL DEFAULT '[]',
      next_sequence integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL,
      finished_at timestamptz
    )`,
    `CREATE INDEX batches_account_created ON batches (account_id, created_at)`,
    `CREATE UNIQUE INDEX batches_idempotency ON batches (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    `CREATE TABLE batch_items (
      id text PRIMARY KEY,
      batch_id text NOT NULL REFERENCES batches (id),
      account_id text NOT NULL,
      item_index integer NOT NULL CHECK (item_index >= 0),
      ref text,
      url text NOT NULL,
      url_sealed bytea,
      host text NOT NULL,
      site_id text NOT NULL,
      page_type text NOT NULL,
      route text NOT NULL,
      params jsonb,
      cost_max integer NOT NULL CHECK (cost_max BETWEEN 1 AND 3),
      state text NOT NULL CHECK (state IN ('queued', 'running', 'ready', 'delivered', 'failed', 'not_found', 'skipped', 'cancelled', 'expired')),
      attempts integer NOT NULL DEFAULT 0,
      request_id text,
      holder text,
      cost_units integer NOT NULL DEFAULT 0,
      error_code text,
      error_status integer,
      error_retryable integer CHECK (error_retryable IN (0, 1)),
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      delivered_at timestamptz,
      delivered_via text CHECK (delivered_via IN ('webhook', 'poll')),
      UNIQUE (batch_id, item_index)
    )`,
    `CREATE INDEX batch_items_state ON batch_items (batch_id, state, item_index)`,
    `CREATE INDEX batch_items_running ON batch_items (holder) WHERE state = 'running'`,
    `CREATE TABLE delivery_buffer (
      item_id text PRIMARY KEY,
      batch_id text NOT NULL,
      account_id text NOT NULL,
      result_sealed bytea NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX delivery_buffer_batch ON delivery_buffer (batch_id)`,
    `CREATE INDEX delivery_buffer_expires ON delivery_buffer (expires_at)`,
    `CREATE TABLE batch_events (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      batch_id text NOT NULL,
      item_id text,
      type text NOT NULL,
      sequence integer NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      endpoint_id text,
      delivery_state text NOT NULL CHECK (delivery_state IN ('none', 'pending', 'delivering', 'delivered', 'failed', 'expired')),
      attempts integer NOT NULL DEFAULT 0,
      full_failures integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      holder text,
      lease_until timestamptz,
      last_status integer,
      delivered_at timestamptz,
      UNIQUE (batch_id, sequence)
    )`,
    `CREATE INDEX batch_events_due ON batch_events (next_attempt_at) WHERE delivery_state IN ('pending', 'delivering')`,
    `CREATE INDEX batch_events_account ON batch_events (account_id, id)`,
    `CREATE INDEX batch_events_expires ON batch_events (expires_at)`,
    `ALTER TABLE credit_reservations ADD COLUMN kind text NOT NULL DEFAULT 'call' CHECK (kind IN ('call', 'hold'))`,
  ],
  // Fixes to 0009 found while implementing the batch store (src/batches/kysely-batch-store.ts): `sealed` (a batch
  // completes only once sealed; POST /v1/batches/{id}/items appends until then), the credits reserved for an item's
  // running attempt (so the batch row's credits_reserved moves by exactly that when it ends), and indexes for the
  // outbox's per-endpoint lease count and the expiry sweep.
  '0010_batches_fixups': [
    `ALTER TABLE batches ADD COLUMN sealed integer NOT NULL DEFAULT 1 CHECK (sealed IN (0, 1))`,
    `ALTER TABLE batch_items ADD COLUMN reserved integer NOT NULL DEFAULT 0 CHECK (reserved >= 0)`,
    `CREATE INDEX batch_events_leased ON batch_events (endpoint_id) WHERE delivery_state = 'delivering'`,
    `CREATE INDEX batches_expiry ON batches (results_expire_at) WHERE data_key_sealed IS NOT NULL`,
  ],
  // The batch work queue in shared mode (src/batches/pg-boss-work-queue.ts; docs/decisions/0022): the items are pg-boss
  // jobs (schema `pgboss`, created by pg-boss itself), one pg-boss queue per lane. Kumo keeps what pg-boss does not
  // know: the lanes (per host and account: queued count, round-robin turn; a claim locks its lane row), which instance
  // holds each claimed item (released by Kumo's liveness sweep, not pg-boss's expiry), and which lanes a batch has
  // work in (for cancel).
  '0011_work_queue': [
    `CREATE TABLE work_lanes (
      host text NOT NULL,
      account_id text NOT NULL,
      queued integer NOT NULL DEFAULT 0 CHECK (queued >= 0),
      last_served bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (host, account_id)
    )`,
    `CREATE INDEX work_lanes_turn ON work_lanes (host, last_served, account_id) WHERE queued > 0`,
    `CREATE TABLE work_claims (
      item_id text PRIMARY KEY,
      job_id uuid NOT NULL,
      queue text NOT NULL,
      group_id text NOT NULL,
      account_id text NOT NULL,
      host text NOT NULL,
      holder text NOT NULL,
      claimed_at timestamptz NOT NULL
    )`,
    `CREATE INDEX work_claims_holder ON work_claims (holder)`,
    `CREATE TABLE work_group_lanes (
      group_id text NOT NULL,
      host text NOT NULL,
      account_id text NOT NULL,
      PRIMARY KEY (group_id, host, account_id)
    )`,
  ],
  // GET /v1/events pages in an order no later commit can fall behind (src/batches/kysely-batch-store.ts, events()):
  // `tx_order` is the writing transaction's id, set by the DEFAULT so every insert has it; a listing shows only rows
  // whose transaction is below its snapshot's xmin (all of those have ended) and pages by (tx_order, id). An event id
  // is made before its transaction commits, so paging by id alone skipped an event committed after a later one was
  // read. Rows from before this migration read as 0 (all committed: the ALTER waited for their writers); both ALTERs
  // only change the catalogue, no table rewrite.
  '0012_event_order': [
    `ALTER TABLE batch_events ADD COLUMN tx_order bigint NOT NULL DEFAULT 0`,
    `ALTER TABLE batch_events ALTER COLUMN tx_order SET DEFAULT (pg_current_xact_id()::text::bigint)`,
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
      id text PRIMARY KEY,
      account_id text NOT NULL,
      key_id text NOT NULL,
      name text,
      status text NOT NULL CHECK (status IN ('active', 'paused')),
      paused_reason text,
      schedule text NOT NULL,
      jitter_s integer NOT NULL,
      anchor_at timestamptz NOT NULL,
      next_run_at timestamptz,
      watch text NOT NULL,
      rules text NOT NULL,
      noise text NOT NULL,
      alert_after integer NOT NULL,
      notify text NOT NULL,
      channels_sealed bytea,
      data_key_sealed bytea NOT NULL,
      retain_days integer,
      max_credits_per_month integer,
      credits_period text,
      credits_used integer NOT NULL DEFAULT 0,
      checks_per_day double precision NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX monitors_due ON monitors (next_run_at) WHERE status = 'active'`,
    `CREATE INDEX monitors_account ON monitors (account_id, id)`,
    `CREATE TABLE monitor_targets (
      id text PRIMARY KEY,
      monitor_id text NOT NULL,
      account_id text NOT NULL,
      target_index integer NOT NULL,
      url text NOT NULL,
      url_sealed bytea NOT NULL,
      ref text,
      host text NOT NULL,
      site_id text NOT NULL,
      page_type text NOT NULL,
      route text NOT NULL,
      cost_max integer NOT NULL,
      state text NOT NULL,
      last_check_at timestamptz,
      last_check_state text,
      last_error_code text,
      removed integer NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
      history_day text,
      UNIQUE (monitor_id, target_index)
    )`,
    `CREATE INDEX monitor_targets_host ON monitor_targets (host, account_id)`,
    `CREATE TABLE monitor_checks (
      id text PRIMARY KEY,
      monitor_id text NOT NULL,
      target_id text NOT NULL,
      account_id text NOT NULL,
      state text NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed', 'skipped')),
      reason text,
      scheduled_at timestamptz NOT NULL,
      started_at timestamptz,
      finished_at timestamptz,
      holder text,
      attempts integer NOT NULL DEFAULT 0,
      request_id text,
      cost_units integer NOT NULL DEFAULT 0,
      reserved integer NOT NULL DEFAULT 0,
      changes text,
      rules_hit text,
      skipped_rules text,
      error_code text,
      error_status integer,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX monitor_checks_monitor ON monitor_checks (monitor_id, id)`,
    `CREATE INDEX monitor_checks_open ON monitor_checks (target_id) WHERE state IN ('queued', 'running')`,
    `CREATE INDEX monitor_checks_created ON monitor_checks (created_at)`,
    `CREATE TABLE monitor_history (
      target_id text NOT NULL,
      monitor_id text NOT NULL,
      t timestamptz NOT NULL,
      observed text NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (target_id, t)
    )`,
    `CREATE INDEX monitor_history_monitor ON monitor_history (monitor_id)`,
    `CREATE INDEX monitor_history_expires ON monitor_history (expires_at)`,
    `CREATE TABLE monitor_events (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      monitor_id text NOT NULL,
      target_id text,
      check_id text,
      type text NOT NULL,
      data text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX monitor_events_monitor ON monitor_events (monitor_id, id)`,
    `CREATE INDEX monitor_events_expires ON monitor_events (expires_at)`,
    `CREATE TABLE monitor_deliveries (
      id text PRIMARY KEY,
      event_id text NOT NULL,
      account_id text NOT NULL,
      monitor_id text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('webhook', 'slack', 'chatwork', 'line')),
      state text NOT NULL CHECK (state IN ('pending', 'delivering', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      holder text,
      lease_until timestamptz,
      last_status integer,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (event_id, channel)
    )`,
    `CREATE INDEX monitor_deliveries_due ON monitor_deliveries (next_attempt_at) WHERE state IN ('pending', 'delivering')`,
    `CREATE INDEX monitor_deliveries_monitor ON monitor_deliveries (monitor_id)`,
  ],
  // The result cache (DESIGN §10, docs/cache.md, decision 0026): an account's extracted JSON for later calls that ask
  // with max_age_s, under the hash of what makes two calls the same; each row carries its own expiry (the site's cache
  // limit), which the sweep deletes at. `requests.cache_state` records whether a call was answered from it.
  '0014_result_cache': [
    `CREATE TABLE result_cache (
      account_id text NOT NULL,
      cache_key text NOT NULL,
      url text NOT NULL,
      site_id text NOT NULL,
      page_type text NOT NULL,
      request_id text NOT NULL,
      fetched_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      answer text NOT NULL,
      PRIMARY KEY (account_id, cache_key)
    )`,
    `CREATE INDEX result_cache_url ON result_cache (account_id, url)`,
    `CREATE INDEX result_cache_expires ON result_cache (expires_at)`,
    `ALTER TABLE requests ADD COLUMN cache_state text CHECK (cache_state IN ('hit', 'miss', 'bypass'))`,
  ],
  // POST /v1/monitors takes an Idempotency-Key: the key and the SHA-256 of the body that used it, per account.
  '0015_monitor_idempotency': [
    `ALTER TABLE monitors ADD COLUMN idempotency_key text`,
    `ALTER TABLE monitors ADD COLUMN body_hash text`,
    `CREATE UNIQUE INDEX monitors_idempotency ON monitors (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
  ],
  // A key's label, the owner's name for it ("production", "本番"): shown in listings, never a secret.
  '0016_key_labels': [`ALTER TABLE api_keys ADD COLUMN label text`],
};
