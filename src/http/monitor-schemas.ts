// TypeBox schemas of the monitor routes (DESIGN §9, docs/monitors.md): request bodies checked here, responses
// serialized through them, and the OpenAPI document generated from both.
import Type from 'typebox';
import { availabilityStates, watchableFields } from '../monitors/model.js';

const RequestId = Type.String({ description: 'This request, as in the Request-Id header.' });
const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// Spelled out (TypeBox keeps each literal's type only when listed); a test checks them against model.ts's lists.
export const WatchedFieldSchema = Type.Union(
  [
    Type.Literal('price'),
    Type.Literal('price_tax'),
    Type.Literal('price_excluding_tax'),
    Type.Literal('list_price'),
    Type.Literal('points'),
    Type.Literal('points_rate'),
    Type.Literal('shipping'),
    Type.Literal('shipping_fee'),
    Type.Literal('availability'),
    Type.Literal('on_sale'),
    Type.Literal('effective_price'),
  ],
  { description: 'An item field a monitor can watch, or effective_price (price − points + shipping fee).' },
);
export const CheckStateSchema = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
  ],
  { description: 'queued, running, completed, failed or skipped (free).' },
);

const RefSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$',
  description: 'Your own reference (printable text, Japanese included), echoed in checks and alerts.',
});

const ScheduleInputSchema = Type.Object(
  {
    every_minutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 43_200,
        description: 'Minutes between checks (one of every_minutes or cron).',
      }),
    ),
    cron: Type.Optional(
      Type.String({
        minLength: 9,
        maxLength: 120,
        description: 'A 5-field cron expression (minute hour day month weekday), in `timezone`.',
      }),
    ),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    calendar: Type.Optional(
      Type.Literal('jp_business_days', {
        description: 'Skip Saturdays, Sundays and Japanese public holidays (and 振替休日).',
      }),
    ),
  },
  { additionalProperties: false },
);

const RuleSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    when: Type.Object(
      {
        field: WatchedFieldSchema,
        change_gte: Type.Optional(Type.Number()),
        change_lte: Type.Optional(Type.Number()),
        change_pct_gte: Type.Optional(Type.Number()),
        change_pct_lte: Type.Optional(Type.Number()),
        lte: Type.Optional(Type.Number()),
        gte: Type.Optional(Type.Number()),
        below_lowest_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
        from: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: 8 })),
        to: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { minItems: 1, maxItems: 8 })),
      },
      { additionalProperties: false, description: 'One operator besides field (docs/monitors.md, Rules).' },
    ),
    mode: Type.Optional(Type.Union([Type.Literal('change'), Type.Literal('enter')])),
  },
  { additionalProperties: false },
);

const NoiseSchema = Type.Object(
  {
    price_abs_yen: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    confirm_checks: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    cooldown_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_080 })),
    max_alerts_per_day: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000 })),
  },
  { additionalProperties: false },
);

const NotifyInputSchema = Type.Object(
  {
    webhook: Type.Optional(
      Type.Object({ endpoint_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    ),
    slack: Type.Optional(
      Type.Object(
        { webhook_url: Type.String({ minLength: 1, maxLength: 500, description: 'A Slack incoming webhook URL.' }) },
        { additionalProperties: false },
      ),
    ),
    chatwork: Type.Optional(
      Type.Object(
        {
          room_id: Type.String({ minLength: 1, maxLength: 20 }),
          token: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Sent as X-ChatWorkToken; never shown again.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    line: Type.Optional(
      Type.Object(
        {
          to: Type.String({ minLength: 1, maxLength: 64, description: 'A user, group or room id (U…, C…, R…).' }),
          channel_access_token: Type.String({ minLength: 1, maxLength: 500, description: 'Never shown again.' }),
        },
        { additionalProperties: false },
      ),
    ),
    language: Type.Optional(Type.Union([Type.Literal('ja'), Type.Literal('en')])),
  },
  { additionalProperties: false },
);

/** What a monitor's POST and its PATCH both accept, alike. */
const settingFields = {
  watch: Type.Optional(Type.Array(WatchedFieldSchema, { minItems: 1, maxItems: watchableFields.length })),
  rules: Type.Optional(Type.Array(RuleSchema, { maxItems: 20 })),
  noise: Type.Optional(NoiseSchema),
  failures: Type.Optional(
    Type.Object(
      { alert_after: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) },
      { additionalProperties: false },
    ),
  ),
};

export const MonitorCreateBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    targets: Type.Array(
      Type.Object(
        { url: Type.String({ minLength: 1, maxLength: 2048 }), ref: Type.Optional(RefSchema) },
        {
          additionalProperties: false,
        },
      ),
      { minItems: 1, maxItems: 200, description: 'Item pages on supported sites (the plan caps how many).' },
    ),
    schedule: ScheduleInputSchema,
    ...settingFields,
    notify: Type.Optional(NotifyInputSchema),
    history: Type.Optional(
      Type.Object(
        { retain_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })) },
        { additionalProperties: false },
      ),
    ),
    max_credits_per_month: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const MonitorPatchBodySchema = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
    schedule: Type.Optional(ScheduleInputSchema),
    ...settingFields,
    notify: Type.Optional(Nullable(NotifyInputSchema)),
    history: Type.Optional(
      Type.Object(
        { retain_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 365 }))) },
        { additionalProperties: false },
      ),
    ),
    max_credits_per_month: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ValuesSchema = Type.Record(
  Type.String(),
  Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]),
  {
    description: 'Watched fields and their values (integer yen for prices).',
  },
);

export const ChangeSchema = Type.Object({
  field: WatchedFieldSchema,
  before: Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]),
  after: Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()]),
  delta: Type.Optional(Type.Number({ description: 'after − before (yen for yen fields).' })),
  delta_pct: Type.Optional(Type.Number({ description: 'delta in percent of before, two decimals.' })),
});

const EstimateSchema = Type.Object({
  checks_per_month: Type.Integer({ minimum: 0 }),
  credits_per_month: Type.Integer({ minimum: 0 }),
  within_plan: Type.Boolean({ description: "Whether the monitor's credits fit the plan's monthly allowance." }),
  host_load: Type.Array(
    Type.Object({
      host: Type.String(),
      checks_per_day: Type.Number(),
      share_per_day: Nullable(
        Type.Integer({
          description: "This account's fair share of the host's checks a day (null: the host is unbounded).",
        }),
      ),
    }),
  ),
});

export const MonitorSchema = Type.Object({
  id: Type.String({ description: '`mon_…`' }),
  name: Nullable(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  paused_reason: Nullable(Type.String({ description: '`caller` or `max_credits_per_month`.' })),
  schedule: Type.Object({
    every_minutes: Nullable(Type.Integer()),
    cron: Nullable(Type.String()),
    timezone: Type.String(),
    calendar: Nullable(Type.Literal('jp_business_days')),
    jitter_s: Type.Integer({ minimum: 0, description: 'A stable per-monitor offset, so 9:00 JST is no stampede.' }),
    next_run_at: Nullable(Type.String()),
  }),
  watch: Type.Array(WatchedFieldSchema),
  rules: Type.Array(RuleSchema),
  noise: Type.Object({
    price_abs_yen: Type.Integer(),
    confirm_checks: Type.Integer(),
    cooldown_minutes: Type.Integer(),
    max_alerts_per_day: Type.Integer(),
  }),
  failures: Type.Object({ alert_after: Type.Integer() }),
  notify: Type.Object({
    webhook: Nullable(Type.Object({ endpoint_id: Type.String() })),
    language: Type.Union([Type.Literal('ja'), Type.Literal('en')]),
    channels: Type.Array(
      Type.Object({
        kind: Type.Union([Type.Literal('slack'), Type.Literal('chatwork'), Type.Literal('line')]),
        masked: Type.Record(Type.String(), Type.String(), { description: 'Secrets masked to their last 4.' }),
      }),
    ),
  }),
  history: Type.Object({ retain_days: Nullable(Type.Integer()) }),
  max_credits_per_month: Nullable(Type.Integer()),
  credits: Type.Object({ period: Nullable(Type.String()), used: Type.Integer({ minimum: 0 }) }),
  estimate: Type.Optional(EstimateSchema),
  targets: Type.Array(
    Type.Object({
      id: Type.String({ description: '`tgt_…`' }),
      url: Type.String({ description: 'Credentials removed.' }),
      ref: Nullable(Type.String()),
      site: Type.String(),
      page_type: Type.String(),
      removed: Type.Boolean({ description: 'The last check found the page gone (404/410).' }),
      last: Nullable(ValuesSchema),
      last_check: Type.Object({
        at: Nullable(Type.String()),
        state: Nullable(Type.String()),
        error_code: Nullable(Type.String()),
      }),
    }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const MonitorResponseSchema = Type.Object({ request_id: RequestId, monitor: MonitorSchema });

export const MonitorListQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1–100; default 20.' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'next_cursor of the last page.' })),
  },
  { additionalProperties: false },
);

export const MonitorListResponseSchema = Type.Object({
  request_id: RequestId,
  monitors: Type.Array(MonitorSchema, { description: 'Newest first.' }),
  next_cursor: Nullable(Type.String({ description: 'Null on the last page.' })),
});

const CheckSchema = Type.Object({
  id: Type.String({ description: '`chk_…`' }),
  target_id: Type.String(),
  state: CheckStateSchema,
  reason: Nullable(Type.String({ description: 'Why it was made or skipped: manual, overlap, credits, paused.' })),
  scheduled_at: Type.String(),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
  attempts: Type.Integer({ minimum: 0 }),
  request_id: Nullable(Type.String()),
  cost_units: Type.Integer({ minimum: 0, maximum: 3 }),
  changes: Type.Array(ChangeSchema),
  rules_hit: Type.Array(Type.String()),
  skipped_rules: Type.Array(Type.Object({ id: Type.String(), reason: Type.String() })),
  error: Nullable(Type.Object({ code: Type.String(), status: Type.Integer() })),
});

export const MonitorRunResponseSchema = Type.Object({ request_id: RequestId, checks: Type.Array(CheckSchema) });

export const MonitorChecksQuerySchema = Type.Object(
  {
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'next_cursor of the last page.' })),
    limit: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1–100; default 20.' })),
  },
  { additionalProperties: false },
);

export const MonitorChecksResponseSchema = Type.Object({
  request_id: RequestId,
  checks: Type.Array(CheckSchema, { description: 'Newest first.' }),
  next_cursor: Nullable(Type.String()),
});

export const MonitorHistoryQuerySchema = Type.Object(
  {
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default the first target.' })),
    days: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: '1–365; default retain_days.' })),
    fields: Type.Optional(Type.String({ maxLength: 300, description: 'Comma-separated watched fields.' })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
  },
  { additionalProperties: false },
);

const StatsSchema = Type.Object({
  min: Nullable(Type.Number()),
  max: Nullable(Type.Number()),
  lowest_at: Nullable(Type.String()),
  last_change_at: Nullable(Type.String()),
});

export const MonitorHistoryResponseSchema = Type.Object({
  request_id: RequestId,
  target_id: Type.String(),
  from: Type.String(),
  to: Type.String(),
  retain_days: Nullable(Type.Integer({ description: 'Null: history is off, and points is empty.' })),
  points: Type.Array(
    Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Boolean(), Type.Null()])),
    {
      description: 'Oldest first: `t` and the watched fields.',
    },
  ),
  stats: Type.Record(Type.String(), StatsSchema),
});

export const MonitorDeleteResponseSchema = Type.Object({ request_id: RequestId, deleted: Type.Literal(true) });

/** The availability words rules may name (from/to). */
export const availabilityValues = availabilityStates;
