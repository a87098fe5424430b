// The bodies Kumo POSTs to a webhook endpoint (docs/batches.md §3, docs/monitors.md §6), as TypeBox schemas: they are
// published under the OpenAPI document's `webhooks`, so that a typed client can narrow an event on its `type`.
import Type from 'typebox';
import { ChangeSchema, ValuesSchema } from './monitor-schemas.js';
import { BatchCountsSchema } from './schemas.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const count = () => Type.Integer({ minimum: 0 });
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const batchTimestamp = Timestamp('When the event happened: ISO 8601 in Japan time, with its +09:00 offset.');
const monitorTimestamp = Timestamp('When the event happened: ISO 8601, UTC.');

/** What every item event says of its item (docs/batches.md §3). */
const itemFields = {
  batch_id: Type.String({ description: '`bat_…`' }),
  item_id: Type.String({ description: '`itm_…`' }),
  index: Type.Integer({ minimum: 0, description: 'The item’s position in the submission.' }),
  ref: Nullable(Type.String({ description: 'Your reference for the item, as submitted.' })),
  sequence: Type.Integer({ minimum: 1, description: 'Per batch, in the order the events were written.' }),
  url: Type.String({ description: 'The item’s URL, credentials removed.' }),
  request_id: Nullable(Type.String({ description: 'The item’s call (its last attempt).' })),
  cost_units: Type.Integer({ minimum: 0, maximum: 3 }),
  attempts: Type.Integer({ minimum: 0 }),
};

export const BatchItemSucceededEventSchema = Type.Object(
  {
    type: Type.Literal('item.succeeded'),
    timestamp: batchTimestamp,
    data: Type.Object({
      ...itemFields,
      // A $ref to the published union (openapi.ts adds it): the call's success body, less its request_id.
      result: Type.Optional(
        Type.Unsafe<unknown>({
          $ref: '#/components/schemas/BatchResult',
          description: 'A full delivery: POST /v1/scrape’s 200 without request_id. A 2xx to it is the handover.',
        }),
      ),
      result_url: Type.Optional(
        Type.String({
          description: 'A thin delivery: where to GET the result instead (the first GET that returns it hands over).',
        }),
      ),
    }),
  },
  { description: 'An item’s result is ready: `result` (full) or `result_url` (thin), never both.' },
);

export const BatchItemEndedEventSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('item.failed'), Type.Literal('item.not_found'), Type.Literal('item.skipped')]),
    timestamp: batchTimestamp,
    data: Type.Object({
      ...itemFields,
      error: Type.Optional(
        Type.Object({
          code: Type.String({ description: 'A code of the error catalogue (docs/errors.md), e.g. `fetch_failed`.' }),
          status: Type.Integer({ description: 'The HTTP status a call would have answered.' }),
          retryable: Type.Boolean(),
        }),
      ),
    }),
  },
  { description: 'An item ended without a result: failed, the page was gone (not_found), or skipped (credits).' },
);

export const BatchEndedEventSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('batch.completed'), Type.Literal('batch.cancelled')]),
    timestamp: batchTimestamp,
    data: Type.Object({
      batch_id: Type.String({ description: '`bat_…`' }),
      status: Nullable(Type.String({ description: 'The batch’s status when the event is sent.' })),
      sequence: Type.Integer({ minimum: 1 }),
      counts: Nullable(BatchCountsSchema),
      credits: Nullable(Type.Object({ charged: count(), held: count(), max: Nullable(Type.Integer({ minimum: 0 })) })),
    }),
  },
  { description: 'A batch is over: every item ended (completed) or it was cancelled.' },
);

/** What every monitor event says of its monitor and target (docs/monitors.md §6). */
const targetFields = {
  monitor_id: Type.String({ description: '`mon_…`' }),
  monitor_name: Nullable(Type.String()),
  target_id: Type.String({ description: '`tgt_…`' }),
  ref: Nullable(Type.String({ description: 'Your reference for the target.' })),
  url: Type.String({ description: 'The page watched, credentials removed.' }),
  site: Type.String({ description: 'The site id, e.g. `rakuten_ichiba`.' }),
};

export const MonitorAlertEventSchema = Type.Object(
  {
    type: Type.Literal('monitor.alert'),
    timestamp: monitorTimestamp,
    data: Type.Object({
      ...targetFields,
      check_id: Type.String({ description: '`chk_…`' }),
      observed_at: Type.String(),
      previous_at: Nullable(Type.String({ description: 'The good check compared with.' })),
      rules_hit: Type.Array(Type.String(), { description: 'The ids of the rules that fired (empty: any change).' }),
      changes: Type.Array(ChangeSchema),
      current: ValuesSchema,
      request_id: Nullable(Type.String()),
      cost_units: Type.Integer({ minimum: 0, maximum: 3 }),
    }),
  },
  { description: 'A watched value changed (or a rule fired) between two consecutive good checks.' },
);

export const MonitorCheckFailedEventSchema = Type.Object(
  {
    type: Type.Literal('monitor.check.failed'),
    timestamp: monitorTimestamp,
    data: Type.Object({
      ...targetFields,
      failures_in_a_row: Type.Integer({ minimum: 1 }),
      error: Type.Object({ code: Type.String(), status: Type.Integer() }),
      observed_at: Type.String(),
    }),
  },
  { description: 'A target failed `failures.alert_after` checks in a row (once per run of failures; free checks).' },
);

export const MonitorTargetRemovedEventSchema = Type.Object(
  {
    type: Type.Literal('monitor.target.removed'),
    timestamp: monitorTimestamp,
    data: Type.Object({
      ...targetFields,
      status: Type.Union([Type.Literal(404), Type.Literal(410)]),
      observed_at: Type.String(),
    }),
  },
  { description: 'The page itself answered 404 or 410: the target is no longer checked.' },
);

export const MonitorPausedEventSchema = Type.Object(
  {
    type: Type.Literal('monitor.paused'),
    timestamp: monitorTimestamp,
    data: Type.Object({
      monitor_id: Type.String({ description: '`mon_…`' }),
      monitor_name: Nullable(Type.String()),
      reason: Type.Literal('max_credits_per_month'),
      credits_this_month: count(),
      max_credits_per_month: count(),
      at: Type.String(),
    }),
  },
  { description: 'The monitor paused itself rather than pass its max_credits_per_month.' },
);

/** Each published body by its component name; `WebhookEvent` (openapi.ts) is their union. */
export const webhookEventSchemas = {
  BatchItemSucceededEvent: BatchItemSucceededEventSchema,
  BatchItemEndedEvent: BatchItemEndedEventSchema,
  BatchEndedEvent: BatchEndedEventSchema,
  MonitorAlertEvent: MonitorAlertEventSchema,
  MonitorCheckFailedEvent: MonitorCheckFailedEventSchema,
  MonitorTargetRemovedEvent: MonitorTargetRemovedEventSchema,
  MonitorPausedEvent: MonitorPausedEventSchema,
} as const;

/** Every event type a webhook can receive, with the component of its body. */
export const webhookComponentByType: Readonly<Record<string, keyof typeof webhookEventSchemas>> = Object.freeze({
  'item.succeeded': 'BatchItemSucceededEvent',
  'item.failed': 'BatchItemEndedEvent',
  'item.not_found': 'BatchItemEndedEvent',
  'item.skipped': 'BatchItemEndedEvent',
  'batch.completed': 'BatchEndedEvent',
  'batch.cancelled': 'BatchEndedEvent',
  'monitor.alert': 'MonitorAlertEvent',
  'monitor.check.failed': 'MonitorCheckFailedEvent',
  'monitor.target.removed': 'MonitorTargetRemovedEvent',
  'monitor.paused': 'MonitorPausedEvent',
});
