// Batch, item and event rows as both dialects return them (jsonb or text, Date or text, Buffer or Uint8Array), turned into the BatchStore's records.
import type { Selectable } from 'kysely';
import type { BatchEventsTable, BatchItemsTable, BatchesTable } from '../storage/kysely/schema.js';
import { isoOf, isoOrNull } from '../storage/kysely/columns.js';
import type { ErrorCode } from '../errors.js';
import {
  itemStates,
  type BatchCounts,
  type BatchItemRecord,
  type BatchRecord,
  type EventRecord,
  type EventType,
  type RejectedItem,
  type WebhookTarget,
} from './batch-store.js';

export type BatchRow = Selectable<BatchesTable>;
export type ItemRow = Selectable<BatchItemsTable>;
export type EventRow = Selectable<BatchEventsTable>;

/** JSON text (SQLite) or the parsed value (PostgreSQL jsonb). */
export function jsonOf<T>(value: string | T): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** Bytes as a plain Uint8Array view, whatever the driver returned. */
export function bytesOf(value: Uint8Array): Uint8Array {
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

export function countsOf(row: BatchRow): BatchCounts {
  const counts = { total: Number(row.total) } as BatchCounts;
  for (const state of itemStates) counts[state] = Number(row[state]);
  return counts;
}

export function webhookOf(row: BatchRow): WebhookTarget | null {
  if (row.webhook_endpoint_id === null) return null;
  const events = row.webhook_events === null ? null : (jsonOf<string[]>(row.webhook_events) as EventType[]);
  return {
    endpointId: row.webhook_endpoint_id,
    events: events ?? [],
    payload: row.webhook_payload ?? 'full',
  };
}

/** Whether the batch's webhook wants events of this type (an empty or absent list: every type). */
export function webhookWants(row: BatchRow, type: EventType): boolean {
  if (row.webhook_endpoint_id === null) return false;
  const events = row.webhook_events === null ? null : jsonOf<string[]>(row.webhook_events);
  return events === null || events.length === 0 || events.includes(type);
}

export function toBatchRecord(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    status: row.status,
    sealed: Number(row.sealed) === 1,
    params: jsonOf<Record<string, unknown>>(row.params),
    webhook: webhookOf(row),
    retainHours: row.retain_hours,
    resultsExpireAt: isoOf(row.results_expire_at),
    maxCredits: row.max_credits,
    counts: countsOf(row),
    credits: {
      charged: Number(row.credits_charged),
      held: Number(row.credits_held),
      reserved: Number(row.credits_reserved),
    },
    estimate: { costUnitsMax: Number(row.cost_units_max), etaS: Number(row.eta_s) },
    rejected: jsonOf<RejectedItem[]>(row.rejected as string | RejectedItem[]),
    createdAt: isoOf(row.created_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

export function toItemRecord(row: ItemRow): BatchItemRecord {
  return {
    id: row.id,
    batchId: row.batch_id,
    accountId: row.account_id,
    index: Number(row.item_index),
    ref: row.ref,
    url: row.url,
    host: row.host,
    siteId: row.site_id,
    pageType: row.page_type,
    route: row.route,
    params: row.params === null ? null : jsonOf<Record<string, unknown>>(row.params),
    costMax: Number(row.cost_max),
    state: row.state,
    attempts: Number(row.attempts),
    requestId: row.request_id,
    costUnits: Number(row.cost_units),
    error:
      row.error_code === null
        ? null
        : {
            code: row.error_code as ErrorCode,
            status: Number(row.error_status ?? 0),
            retryable: Number(row.error_retryable ?? 0) === 1,
          },
    createdAt: isoOf(row.created_at),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

export function toEventRecord(row: EventRow): EventRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    batchId: row.batch_id,
    itemId: row.item_id,
    type: row.type as EventType,
    sequence: Number(row.sequence),
    createdAt: isoOf(row.created_at),
    position: { order: String(row.tx_order), id: row.id },
  };
}

/** ISO 8601 in Japan time with its offset (`2026-11-28T11:44:31.123+09:00`): the timestamp of a webhook body. */
export function jstIso(iso: string): string {
  const shifted = new Date(Date.parse(iso) + 9 * 3_600_000).toISOString();
  return `${shifted.slice(0, -1)}+09:00`;
}
