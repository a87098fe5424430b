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

// 100 is Fastify's maxParamLength: a longer id never reaches validation and is a 414 uri_too_long.
export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
