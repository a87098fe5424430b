// TypeBox schemas of the public API: they validate requests, shape replies and generate /openapi.json.
import Type from 'typebox';
import type { Static } from 'typebox';

export const ScrapeParamsSchema = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal('html_json'), Type.Literal('html')], {
        default: 'html_json',
        description: '`html_json`: structured `data` (and `html` when include_html); `html`: normalized HTML only.',
      }),
    ),
    work_type: Type.Optional(
      Type.String({
        default: 'auto',
        minLength: 1,
        maxLength: 32,
        pattern: '^[a-z_]+$',
        description: '`auto` (from the URL) or a page type the site declares (`item`, `table`, `forecast` …).',
      }),
    ),
    include_html: Type.Optional(
      Type.Boolean({ default: false, description: 'Also return the normalized HTML in `html`.' }),
    ),
    store_artifact: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Keep the normalized HTML and JSON as an artifact (+1 credit). Nothing is kept otherwise.',
      }),
    ),
    render_js: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Render the page in the headless browser (2 credits) where its page type offers the browser route (see ' +
          '`routes` in GET /v1/sites); a page type without one answers 422 page_not_supported. Absent or false: the ' +
          "page type's default route.",
      }),
    ),
    max_age_s: Type.Optional(
      Type.Integer({
        default: 0,
        minimum: 0,
        maximum: 604_800,
        description:
          "Accept this account's own earlier result of the same call when it is at most this many seconds old (a hit " +
          "costs 0 and never touches the site), and keep this call's result for later calls that ask; capped by the " +
          "site's cache limit (`cache_limit_s` in GET /v1/sites). 0 or absent: nothing is read or kept (docs/cache.md).",
      }),
    ),
  },
  {
    additionalProperties: false,
    // Every field may be left out: the server fills in the defaults shown (DESIGN §1).
    description: 'Optional, as is each field in it.',
  },
);

export const ScrapeBodySchema = Type.Object(
  {
    // The 2,048-character limit is the URL policy's, so that an over-long URL answers invalid_url as documented.
    url: Type.String({
      minLength: 1,
      description: 'Absolute http(s) URL of a page on a supported site, at most 2,048 characters.',
    }),
    params: Type.Optional(ScrapeParamsSchema),
  },
  { additionalProperties: false },
);
export type ScrapeBody = Static<typeof ScrapeBodySchema>;

const FetchSummarySchema = Type.Object({
  status: Type.String(),
  attempts: Type.Integer(),
  route: Type.String(),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  final_url: Type.Union([Type.String(), Type.Null()]),
  charset: Type.Union([Type.String(), Type.Null()]),
  bytes: Type.Union([Type.Integer(), Type.Null()]),
  elapsed_ms: Type.Union([Type.Integer(), Type.Null()]),
});

export const CacheStateSchema = Type.Object(
  {
    state: Type.Union([Type.Literal('hit'), Type.Literal('miss'), Type.Literal('bypass')], {
      description:
        "`hit`: answered from this account's cache at cost 0; `miss`: fetched now and kept for later calls; " +
        '`bypass`: fetched now, nothing read or kept (no max_age_s, or an output the cache does not hold).',
    }),
    fetched_at: Type.String({ format: 'date-time', description: 'When Kumo fetched the page this answer comes from.' }),
    age_s: Type.Integer({ minimum: 0, description: 'Seconds since fetched_at (0 unless a hit).' }),
  },
  { additionalProperties: false },
);

export const ScrapeResponseSchema = Type.Object({
  request_id: Type.String(),
  resolved_site: Type.String(),
  page_type: Type.String(),
  fetch_summary: FetchSummarySchema,
  cost_units: Type.Integer({ minimum: 0, maximum: 3 }),
  latency_ms: Type.Integer(),
  extractor: Type.Object({
    id: Type.String(),
    version: Type.Integer(),
    coverage: Type.String(),
    provenance: Type.Record(Type.String(), Type.String()),
  }),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: 'The reviewed, normalized result; its shape depends on page_type (docs/data-model.md).',
  }),
  html: Type.Optional(Type.String()),
  artifact: Type.Optional(Type.Object({ id: Type.String(), expires_at: Type.String() })),
  cache: CacheStateSchema,
  warnings: Type.Array(Type.String()),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String(),
    detail: Type.String(),
    request_id: Type.String(),
  },
  { additionalProperties: true, description: 'RFC 9457 problem details (application/problem+json).' },
);

export const UsageResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  account_id: Type.String(),
  plan: Type.String(),
  period: Type.String({ description: 'Asia/Tokyo calendar month, YYYY-MM.' }),
  resets_at: Type.String(),
  credits: Type.Object({
    allowance: Type.Integer(),
    overage_cap: Type.Integer(),
    limit: Type.Integer(),
    used: Type.Integer(),
    reserved: Type.Integer(),
    remaining: Type.Integer(),
    overage_used: Type.Integer(),
  }),
  key: Type.Object({
    key_id: Type.String(),
    credit_limit: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer(),
    reserved: Type.Integer(),
    remaining: Type.Union([Type.Integer(), Type.Null()]),
    concurrency_limit: Type.Integer(),
    concurrency_in_use: Type.Integer(),
  }),
  concurrency: Type.Object({ limit: Type.Integer(), in_use: Type.Integer() }),
});

export const RequestRecordSchema = Type.Object({
  request_id: Type.String(),
  key_id: Type.String(),
  site: Type.Union([Type.String(), Type.Null()]),
  page_type: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  error_code: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  route: Type.Union([Type.String(), Type.Null()]),
  cost_units: Type.Integer(),
  latency_ms: Type.Integer(),
  artifact_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  cache: Type.Union([Type.Literal('hit'), Type.Literal('miss'), Type.Literal('bypass'), Type.Null()], {
    description: 'Where the answer came from (the `cache.state` it had); null when the call gave no answer.',
  }),
});

export const SitesResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  sites: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      kind: Type.String(),
      hosts: Type.Array(Type.String()),
      route: Type.Union([Type.Literal('http'), Type.Literal('browser'), Type.Literal('api')], {
        description:
          'How pages are fetched by default: the page over HTTP, in the headless browser, or (`api`) through the JSON ' +
          "API the site's own web app calls for that page URL. Each page type lists its own routes.",
      }),
      cost: Type.Integer({ description: 'Credits per call on the default route without store_artifact.' }),
      page_types: Type.Array(
        Type.Object({
          page_type: Type.String(),
          url_pattern: Type.String({ description: 'The URL shape `auto` chooses this page type for, in words.' }),
          coverage: Type.String({ description: 'The level served: the declared one capped by the earned one.' }),
          declared: Type.String({ description: 'The level the site definition claims.' }),
          earned: Type.String({ description: 'The level its fixtures earned in verification (DESIGN §6).' }),
          extractor: Type.String(),
          version: Type.Integer(),
          verified_by: Type.String(),
          review: Type.Union(
            [Type.Object({ reason: Type.String({ description: 'Why the page type is under review.' }) }), Type.Null()],
            {
              description:
                'null, or the page type is under review (personal data of private persons, or terms that restrict ' +
                'use): served only to accounts an operator approved for the site; others get 403 key_scope_denied.',
            },
          ),
          fixtures: Type.Object(
            {
              real: Type.Integer({ description: 'Fixtures that are real pages (recorded from the site).' }),
              modelled: Type.Integer({
                description:
                  "Fixtures written by us on the site's structure, or real bodies in a container we built (EDINET's ZIP).",
              }),
            },
            { description: 'The golden fixtures behind the coverage level, by origin.' },
          ),
          cache_limit_s: Type.Integer({
            minimum: 1,
            description:
              'The oldest cached answer this page type is served from, whatever max_age_s asks (docs/cache.md).',
          }),
          cache_limit_reason: Type.String({ description: "Why: the site's terms, or how fast the page changes." }),
          routes: Type.Array(
            Type.Object({
              route: Type.Union([Type.Literal('http'), Type.Literal('browser'), Type.Literal('api')]),
              default: Type.Boolean({ description: 'The route used without render_js.' }),
              cost: Type.Integer({ description: 'Credits per call on this route without store_artifact.' }),
              coverage: Type.String({ description: 'The level this route is served at.' }),
              extractor: Type.String(),
              version: Type.Integer(),
              verified_by: Type.String(),
            }),
            {
              description:
                'The routes this page type offers, its default first; `browser` is chosen with render_js: true.',
            },
          ),
        }),
      ),
    }),
  ),
});

export const ArtifactResponseSchema = Type.Object({
  id: Type.String(),
  request_id: Type.String(),
  url: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
  data: Type.Unknown(),
  html: Type.Union([Type.String(), Type.Null()]),
});

/**
 * The optional Idempotency-Key request header, as OpenAPI shows it (`what` says what a retry gets); the check that
 * counts is parseIdempotencyKey.
 */
export function IdempotencyHeadersSchema(what: string) {
  return Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$', description: what }),
    ),
  });
}

// 100 is Fastify's maxParamLength: a longer id never reaches validation and is a 414 uri_too_long.
export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

// Batches (DESIGN §8, docs/api.md "Batches").
const EventTypeSchema = Type.Union(
  [
    Type.Literal('item.succeeded'),
    Type.Literal('item.failed'),
    Type.Literal('item.not_found'),
    Type.Literal('item.skipped'),
    Type.Literal('batch.completed'),
    Type.Literal('batch.cancelled'),
  ],
  { description: 'A batch event type.' },
);
export const ItemStateSchema = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('ready'),
    Type.Literal('delivered'),
    Type.Literal('failed'),
    Type.Literal('not_found'),
    Type.Literal('skipped'),
    Type.Literal('cancelled'),
    Type.Literal('expired'),
  ],
  { description: 'An item state (docs/api.md, Batches).' },
);

/** The scrape params an item may ask for: no `store_artifact` in batches (a 400 naming the field). */
export const BatchItemParamsSchema = Type.Object(
  {
    mode: ScrapeParamsSchema.properties.mode,
    work_type: ScrapeParamsSchema.properties.work_type,
    include_html: ScrapeParamsSchema.properties.include_html,
    render_js: ScrapeParamsSchema.properties.render_js,
  },
  { additionalProperties: false, description: 'As for POST /v1/scrape, without store_artifact; each field optional.' },
);

const BatchItemInputSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Absolute http(s) URL of a page on a supported site.' }),
    ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        // Any printable text, Japanese included (a price team's SKU names); no control characters, which a log line or a
        // CSV export of the results would carry.
        pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$',
        description:
          'Your own reference (printable text, Japanese included, ≤ 128 characters), echoed in the item and its events.',
      }),
    ),
    params: Type.Optional(BatchItemParamsSchema),
  },
  { additionalProperties: false },
);

export const BatchSubmitBodySchema = Type.Object(
  {
    items: Type.Array(BatchItemInputSchema, {
      minItems: 1,
      maxItems: 1000,
      description: '1–1,000 items; a batch may grow by appends to the plan limit.',
    }),
    params: Type.Optional(BatchItemParamsSchema),
    webhook: Type.Optional(
      Type.Object(
        {
          endpoint_id: Type.String({
            minLength: 1,
            maxLength: 100,
            description: 'A webhook endpoint of this account.',
          }),
          events: Type.Optional(
            Type.Array(EventTypeSchema, {
              minItems: 1,
              maxItems: 6,
              description: "The events delivered; default the endpoint's.",
            }),
          ),
          payload: Type.Optional(
            Type.Union([Type.Literal('full'), Type.Literal('thin')], {
              default: 'full',
              description:
                '`full`: item events carry the result; `thin`: ids only (fetch the result by GET, which charges).',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    results: Type.Optional(
      Type.Object(
        {
          retain_hours: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 72,
              description:
                'Keep results for polling this long after the batch was made (Free ≤ 24). Absent: 24 h, but with a ' +
                'webhook each result is deleted at its first handover.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    max_credits: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Items past this many credits charged or held are skipped, free.' }),
    ),
    seal: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'false: more items may be appended (POST /v1/batches/{id}/items) until an append seals it.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BatchAppendBodySchema = Type.Object(
  {
    items: Type.Array(BatchItemInputSchema, {
      minItems: 0,
      maxItems: 1000,
      description: '0–1,000 items (none, with seal, only seals the batch).',
    }),
    seal: Type.Optional(Type.Boolean({ default: true, description: 'Seal the batch with this append.' })),
  },
  { additionalProperties: false },
);

const RejectedSchema = Type.Object({
  index: Type.Integer({ description: "The item's index in the batch (its position among every item submitted)." }),
  url: Type.String({ description: 'The URL with credentials removed.' }),
  code: Type.String({ description: 'Why, as a call would be refused (docs/errors.md).' }),
});

const count = () => Type.Integer({ minimum: 0 });

/** A batch's items by state, and their total: kept counters, however large the batch. */
export const BatchCountsSchema = Type.Object({
  total: count(),
  queued: count(),
  running: count(),
  ready: count(),
  delivered: count(),
  failed: count(),
  not_found: count(),
  skipped: count(),
  cancelled: count(),
  expired: count(),
});

export const BatchSchema = Type.Object({
  id: Type.String({ description: '`bat_…`' }),
  status: Type.Union(
    [
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('completed'),
      Type.Literal('cancelling'),
      Type.Literal('cancelled'),
    ],
    { description: '`completed` only once sealed and nothing is queued or running.' },
  ),
  sealed: Type.Boolean(),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  results_expire_at: Type.String({ description: 'Results not handed over by then expire (free).' }),
  counts: BatchCountsSchema,
  credits: Type.Object({
    charged: count(),
    held: Type.Integer({ minimum: 0, description: 'Ready results awaiting handover.' }),
    max: Type.Union([Type.Integer(), Type.Null()], { description: 'max_credits, or null.' }),
  }),
  estimate: Type.Object({
    cost_units_max: Type.Integer({ minimum: 0, description: 'Every item charged at its route.' }),
    eta_s: Type.Integer({ minimum: 0, description: "From each host's politeness and its queue at the time." }),
  }),
  rejected: Type.Array(RejectedSchema, {
    description: 'Items refused up front: on a submission or append, those of that request; else the submission’s.',
  }),
  webhook: Type.Union([
    Type.Object({
      endpoint_id: Type.String(),
      events: Type.Array(EventTypeSchema),
      payload: Type.Union([Type.Literal('full'), Type.Literal('thin')]),
    }),
    Type.Null(),
  ]),
  results: Type.Object({ retain_hours: Type.Union([Type.Integer(), Type.Null()]) }),
  links: Type.Object({ self: Type.String(), items: Type.String(), events: Type.String() }),
});

export const BatchResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  batch: BatchSchema,
});

export const BatchCancelResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  batch: BatchSchema,
  cancelled: Type.Integer({ minimum: 0, description: 'Queued items cancelled by this request (free).' }),
});

/** A page size in a query string (1–100): text, since query values are never coerced; the route reads it as a number. */
const PageLimitSchema = (fallback: number) =>
  Type.String({
    pattern: '^(100|[1-9][0-9]?)$',
    description: `1–100; default ${fallback}.`,
  });

export const BatchListQuerySchema = Type.Object(
  { limit: Type.Optional(PageLimitSchema(20)) },
  { additionalProperties: false },
);

export const BatchListResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  batches: Type.Array(BatchSchema, { description: 'Newest first.' }),
});

export const BatchItemsQuerySchema = Type.Object(
  {
    state: Type.Optional(ItemStateSchema),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'next_cursor of the last page.' })),
    limit: Type.Optional(PageLimitSchema(100)),
  },
  { additionalProperties: false },
);

export const BatchItemsResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  items: Type.Array(
    Type.Object({
      id: Type.String({ description: '`itm_…`' }),
      index: Type.Integer({ minimum: 0 }),
      ref: Type.Union([Type.String(), Type.Null()]),
      url: Type.String({ description: 'Credentials removed.' }),
      state: ItemStateSchema,
      attempts: Type.Integer({ minimum: 0 }),
      request_id: Type.Union([Type.String(), Type.Null()], { description: "The item's call (its last attempt)." }),
      cost_units: Type.Integer({ minimum: 0, maximum: 3 }),
      finished_at: Type.Union([Type.String(), Type.Null()]),
      result: Type.Optional(
        Type.Unknown({
          description:
            'The call’s success body without request_id (POST /v1/scrape’s 200). The first page that returns it is ' +
            'the handover, which charges the item once; with retention later pages return it again, free.',
        }),
      ),
      error: Type.Optional(Type.Object({ code: Type.String(), status: Type.Integer(), retryable: Type.Boolean() })),
    }),
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page.' }),
});

export const EventsQuerySchema = Type.Object(
  {
    batch_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'next_after of the last page, as it was given (an opaque cursor).',
      }),
    ),
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[a-z_.]+(,[a-z_.]+)*$',
        description: 'Comma-separated event types, e.g. `item.failed,item.skipped`.',
      }),
    ),
    limit: Type.Optional(PageLimitSchema(100)),
  },
  { additionalProperties: false },
);

export const EventsResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  events: Type.Array(
    Type.Object({
      id: Type.String({ description: '`evt_…`, the webhook-id of its deliveries; ids sort by time.' }),
      type: EventTypeSchema,
      timestamp: Type.String({ description: 'ISO 8601, Japan time.' }),
      data: Type.Object({
        batch_id: Type.String(),
        item_id: Type.Union([Type.String(), Type.Null()]),
        sequence: Type.Integer({ minimum: 1 }),
      }),
    }),
  ),
  next_after: Type.Union([Type.String(), Type.Null()], {
    description: 'An opaque cursor for `after`; paging with it never skips an event. null when no more are listed now.',
  }),
});
