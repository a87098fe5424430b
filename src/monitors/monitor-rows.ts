// Monitor, target, check and history rows as both dialects return them, turned into the MonitorStore's records.
import type { Selectable } from 'kysely';
import type { MonitorChecksTable, MonitorTargetsTable, MonitorsTable } from '../storage/kysely/schema.js';
import { isoOf, isoOrNull } from '../storage/kysely/columns.js';
import { jsonOf } from '../batches/batch-rows.js';
import type {
  CheckState,
  FieldChange,
  MonitorSchedule,
  NoiseSettings,
  Rule,
  SkippedRule,
  TargetState,
  WatchedField,
} from './model.js';
import type { CheckRecord, MonitorRecord, PublicNotify, TargetRecord } from './monitor-store.js';

export type MonitorRow = Selectable<MonitorsTable>;
export type TargetRow = Selectable<MonitorTargetsTable>;
export type CheckRow = Selectable<MonitorChecksTable>;

export function toTargetRecord(row: TargetRow): TargetRecord {
  return {
    id: row.id,
    monitorId: row.monitor_id,
    index: Number(row.target_index),
    url: row.url,
    ref: row.ref,
    host: row.host,
    siteId: row.site_id,
    pageType: row.page_type,
    route: row.route,
    costMax: Number(row.cost_max),
    state: jsonOf<TargetState>(row.state),
    lastCheckAt: isoOrNull(row.last_check_at),
    lastCheckState: row.last_check_state as CheckState | null,
    lastErrorCode: row.last_error_code,
    removed: Number(row.removed) === 1,
  };
}

export function toMonitorRecord(row: MonitorRow, targets: readonly TargetRow[]): MonitorRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    name: row.name,
    status: row.status,
    pausedReason: row.paused_reason,
    schedule: jsonOf<MonitorSchedule>(row.schedule),
    jitterS: Number(row.jitter_s),
    anchorAt: isoOf(row.anchor_at),
    nextRunAt: isoOrNull(row.next_run_at),
    watch: jsonOf<WatchedField[]>(row.watch),
    rules: jsonOf<Rule[]>(row.rules),
    noise: jsonOf<NoiseSettings>(row.noise),
    alertAfter: Number(row.alert_after),
    notify: jsonOf<PublicNotify>(row.notify),
    retainDays: row.retain_days === null ? null : Number(row.retain_days),
    maxCreditsPerMonth: row.max_credits_per_month === null ? null : Number(row.max_credits_per_month),
    creditsPeriod: row.credits_period,
    creditsUsed: Number(row.credits_used),
    checksPerDay: Number(row.checks_per_day),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    targets: [...targets].sort((a, b) => Number(a.target_index) - Number(b.target_index)).map(toTargetRecord),
  };
}

export function toCheckRecord(row: CheckRow): CheckRecord {
  return {
    id: row.id,
    monitorId: row.monitor_id,
    targetId: row.target_id,
    state: row.state,
    reason: row.reason,
    scheduledAt: isoOf(row.scheduled_at),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
    attempts: Number(row.attempts),
    requestId: row.request_id,
    costUnits: Number(row.cost_units),
    changes: row.changes === null ? [] : jsonOf<FieldChange[]>(row.changes),
    rulesHit: row.rules_hit === null ? [] : jsonOf<string[]>(row.rules_hit),
    skippedRules: row.skipped_rules === null ? [] : jsonOf<SkippedRule[]>(row.skipped_rules),
    error:
      row.error_code === null
        ? null
        : { code: row.error_code, status: row.error_status === null ? 0 : Number(row.error_status) },
  };
}
