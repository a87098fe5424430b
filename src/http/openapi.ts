// The parts of /openapi.json that route schemas cannot say: problem responses, shared headers, page-type data shapes.
import { errorCatalogue, errorCodes, type ErrorCode } from '../errors.js';
import { statusByCode } from './problem.js';
import { ProblemSchema } from './schemas.js';
import {
  componentExamples,
  dataExamples,
  operationExamples,
  parameterExamples,
  scrapeAnswerExample,
  webhookExamples,
} from './openapi-examples.js';
import { webhookComponentByType, webhookEventSchemas } from './webhook-schemas.js';
import {
  AreasSchema,
  DataTableSchema,
  CorporationRecordsSchema,
  DocumentSchema,
  EstatMetaSchema,
  QuoteSchema,
  ForecastOverviewSchema,
  ForecastSchema,
  ItemSchema,
  ListSchema,
  StatsListSchema,
  StatsTableSchema,
  pageTypeSchemas,
} from '../extract/page-types.js';

type Json = Record<string, unknown>;

/** Statuses any route can answer before or around its handler: broken HTTP, slow or huge headers, our own fault. */
const everyRoute = [400, 408, 431, 500] as const;
/** Statuses of routes that need a key: the key check itself, its refusal limit (429), and its store being down. */
const authenticated = [401, 403, 429, 503] as const;

/**
 * Route-schema responses for the given statuses (plus those every route shares), each an RFC 9457 problem
 * (`application/problem+json`) described by the catalogue codes it can carry.
 */
export function problemResponses(
  statuses: readonly number[],
  options: { authenticated: boolean },
): Record<number, { description: string; content: { 'application/problem+json': { schema: typeof ProblemSchema } } }> {
  const all = new Set<number>([...everyRoute, ...(options.authenticated ? authenticated : []), ...statuses]);
  const out: Record<number, ReturnType<typeof problemResponse>> = {};
  for (const status of [...all].sort((a, b) => a - b)) out[status] = problemResponse(status);
  return out;
}

function problemResponse(status: number) {
  const codes = (Object.keys(statusByCode) as ErrorCode[]).filter((code) => statusByCode[code] === status);
  const description =
    codes.length === 0
      ? `HTTP ${status}`
      : `${codes.map((code) => `\`${code}\`: ${errorCatalogue[code].summary}`).join(' ')} (docs/errors.md)`;
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

const headerComponents: Record<string, Json> = {
  'Request-Id': {
    description: 'This request (`req_` + a sortable id); equal to `request_id` in the body.',
    schema: { type: 'string', pattern: '^req_[0-9A-Z]{26}$' },
  },
  'X-Credits-Limit': {
    description: "This month's credit limit: the tighter of the account's (plus overage cap) and the key's.",
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Credits-Remaining': { description: 'Credits left this month.', schema: { type: 'integer', minimum: 0 } },
  'X-Concurrency-Limit': { description: "The key's concurrency limit.", schema: { type: 'integer', minimum: 0 } },
  'X-Concurrency-Remaining': {
    description: 'Calls that may still start now (key and account).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Policy': {
    description:
      'draft-ietf-httpapi-ratelimit-headers: `"credits";q=<limit>;w=<seconds in this month>;kumo-unit="credits", ' +
      '"concurrency";q=<limit>;qu="concurrent-requests"` (docs/api.md).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'draft-ietf-httpapi-ratelimit-headers: `"credits";r=<left>;t=<seconds to the reset>, "concurrency";r=<left>`; ' +
      '`t` is left out when a shorter Retry-After is sent.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: '`Bearer realm="kumo"`.', schema: { type: 'string' } },
};

const limitHeaders = [
  'X-Credits-Limit',
  'X-Credits-Remaining',
  'X-Concurrency-Limit',
  'X-Concurrency-Remaining',
  'RateLimit-Policy',
  'RateLimit',
];

/** Page-type data shapes, named, for `data` of a scrape result and of an artifact. */
const dataSchemas: Record<string, Json> = {
  ItemData: { ...ItemSchema, description: '`page_type: item`' },
  ListData: { ...ListSchema, description: '`page_type: search`, `ranking` or `offers`: a list of items' },
  ForecastData: { ...ForecastSchema, description: '`page_type: forecast`' },
  ForecastOverviewData: { ...ForecastOverviewSchema, description: '`page_type: forecast_overview`' },
  StatsTableData: { ...StatsTableSchema, description: '`page_type: table` from a statistics API (e-Stat)' },
  DataTableData: {
    ...DataTableSchema,
    description: '`page_type: table` read from an HTML table, and `page_type: history` (daily price rows)',
  },
  EstatMetaData: { ...EstatMetaSchema, description: '`page_type: meta`: a statistical table described (e-Stat)' },
  StatsListData: { ...StatsListSchema, description: '`page_type: list`: statistical tables found (e-Stat)' },
  QuoteData: { ...QuoteSchema, description: '`page_type: quote`: one listed stock (price, market, metrics)' },
  CorporationRecordsData: {
    ...CorporationRecordsSchema,
    description: '`page_type: record` and `records`: corporations from the 法人番号 Web-API (国税庁)',
  },
  DocumentData: { ...DocumentSchema, description: '`page_type: document`: one law (e-Gov law XML)' },
  AreasData: {
    ...AreasSchema,
    description: '`page_type: areas`: JMA area names and codes, one list per level (気象庁 area.json)',
  },
};

/** The runtime schema keeps `code` a plain string (cheap to serialize); the document lists the closed catalogue. */
function documentedProblem(): Json {
  return {
    ...ProblemSchema,
    properties: {
      ...ProblemSchema.properties,
      type: { type: 'string', format: 'uri', description: '`https://kumo.dev/errors/<code>`' },
      code: { type: 'string', enum: errorCodes, description: 'A stable code from the catalogue (docs/errors.md).' },
      request_id: { type: 'string', description: 'This request, as in the Request-Id header.' },
    },
  };
}

/**
 * The named data shapes each page type's `data` may take: the published counterpart of `pageTypeSchemas` (a test
 * holds the two equal, so a page type's variant covers every site that serves it).
 */
export const dataSchemasByPageType: Readonly<Record<string, readonly string[]>> = {
  item: ['ItemData'],
  search: ['ListData'],
  ranking: ['ListData'],
  offers: ['ListData'],
  forecast: ['ForecastData'],
  forecast_overview: ['ForecastOverviewData'],
  areas: ['AreasData'],
  table: ['StatsTableData', 'DataTableData'],
  meta: ['EstatMetaData'],
  list: ['StatsListData'],
  history: ['DataTableData'],
  quote: ['QuoteData'],
  record: ['CorporationRecordsData'],
  records: ['CorporationRecordsData'],
  document: ['DocumentData'],
};

/** `ScrapeResultItem`, `BatchResultForecastOverview` …: the component naming one page type's answer. */
export const variantName = (pageType: string, prefix = 'ScrapeResult'): string =>
  prefix + pageType.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());

const nullWhen = 'Null in `mode: html` and when the target said 404/410 (`fetch_summary.status: not_found`).';

/** `data` of an artifact, which does not say its page type: any of the shapes. */
const dataUnion = (): Json => ({
  description:
    'The reviewed, normalized result. Its shape is chosen by `page_type`: item → ItemData, search, ranking and ' +
    'offers → ListData, forecast → ' +
    'ForecastData, forecast_overview → ForecastOverviewData, table → StatsTableData or DataTableData, ' +
    'meta → EstatMetaData, list → StatsListData, history → DataTableData, quote → QuoteData, ' +
    'record and records → CorporationRecordsData, document → DocumentData, areas → AreasData ' +
    `(docs/data-model.md). ${nullWhen}`,
  anyOf: [...Object.keys(dataSchemas).map((name) => ({ $ref: `#/components/schemas/${name}` })), { type: 'null' }],
});

function notFound(answer: Json): Json {
  return {
    ...answer,
    fetch_summary: { ...(answer.fetch_summary as Json), status: 'not_found', http_status: 404 },
    cost_units: 0,
  };
}

/**
 * The success body of a scrape as the document publishes it: one variant per page type, discriminated by
 * `page_type`, so a generated client narrows `data` by checking `page_type` (decision 0028). The route's own
 * serialization schema stays one object with a loose `data`: fast-json-stringify over a oneOf of these would try
 * each variant per answer.
 */
function scrapeResultSchemas(envelope: Json & { properties: Json; required?: string[] }): Json {
  const { fetch_summary, extractor, cache, artifact, ...rest } = envelope.properties as Record<string, Json>;
  const schemas: Json = {
    FetchSummary: {
      ...fetch_summary,
      properties: {
        ...(fetch_summary!.properties as Json),
        status: {
          type: 'string',
          enum: ['completed', 'not_found'],
          description: '`completed`, or `not_found`: the target said 404/410 (cost 0, `data` null).',
        },
      },
      description: 'How the page was fetched.',
    },
    Extractor: { ...extractor, description: 'Which extractor read the page, and which source gave each field.' },
    CacheState: { ...cache, description: "Whether this answer came from the account's cache (docs/cache.md)." },
    StoredArtifact: { ...artifact, description: 'The artifact kept with `store_artifact: true`.' },
  };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const withoutRequestId = (answer: Json): Json => {
    const { request_id: _requestId, ...rest } = answer;
    return rest;
  };
  // A batch item's result is the same answer without request_id (the item has its own): the same union, so a client
  // narrows it the same way.
  for (const [prefix, batch] of [
    ['ScrapeResult', false],
    ['BatchResult', true],
  ] as const) {
    for (const [pageType, dataNames] of Object.entries(dataSchemasByPageType)) {
      const answers = [
        ...dataNames.map((name) => scrapeAnswerExample(pageType, dataExamples[name])),
        // The same page gone at the target: 200, data null, nothing charged.
        notFound(scrapeAnswerExample(pageType, null)),
      ];
      schemas[variantName(pageType, prefix)] = {
        type: 'object',
        description: batch
          ? `The result of a batch item for a \`${pageType}\` page: its scrape answer without request_id.`
          : `A scrape answer for a \`${pageType}\` page.`,
        required: batch ? envelope.required?.filter((name) => name !== 'request_id') : envelope.required,
        properties: {
          ...(batch ? withoutRequestId(rest) : rest),
          page_type: { type: 'string', enum: [pageType] },
          fetch_summary: ref('FetchSummary'),
          extractor: ref('Extractor'),
          cache: ref('CacheState'),
          artifact: ref('StoredArtifact'),
          data: {
            description: `${dataNames.join(' or ')}. ${nullWhen}`,
            anyOf: [...dataNames.map(ref), { type: 'null' }],
          },
        },
        examples: batch ? answers.map(withoutRequestId) : answers,
      };
    }
    const first = scrapeAnswerExample('item', dataExamples.ItemData);
    schemas[prefix] = {
      description: batch
        ? "A batch item's result: POST /v1/scrape's answer without request_id; `page_type` says the shape of `data`."
        : 'A scrape answer; `page_type` says which variant, and so the shape of `data`.',
      oneOf: Object.keys(dataSchemasByPageType).map((pageType) => ref(variantName(pageType, prefix))),
      examples: [batch ? withoutRequestId(first) : first],
      discriminator: {
        propertyName: 'page_type',
        mapping: Object.fromEntries(
          Object.keys(dataSchemasByPageType).map((pageType) => [
            pageType,
            `#/components/schemas/${variantName(pageType, prefix)}`,
          ]),
        ),
      },
    };
  }
  return schemas;
}

/**
 * @fastify/swagger's transformObject: servers, root security, named Problem and page-type schemas, the scrape answer
 * as a union by page_type, an example on every schema, the headers every answer carries, and the optional
 * Idempotency-Key header of POST /v1/scrape.
 */
export function finishOpenApi(document: Json): Json {
  const doc = structuredClone(document) as Json & {
    paths?: Record<string, Record<string, Json>>;
    components?: Json & { schemas?: Json; headers?: Json };
  };
  doc.servers = [{ url: '/', description: 'The Kumo instance serving this document.' }];
  doc.security = [{ bearer: [] }];
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas ?? {}), Problem: documentedProblem(), ...dataSchemas },
    headers: headerComponents,
  };
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  // Every page type that can be served must have a named shape here, or a reader cannot know its `data`.
  const published = Object.keys(dataSchemasByPageType);
  const served = Object.keys(pageTypeSchemas);
  if (served.some((t) => !published.includes(t)) || published.some((t) => !served.includes(t))) {
    throw new Error('the page types with a data schema in the OpenAPI document are not those served');
  }
  const scrape = doc.paths?.['/v1/scrape']?.post as
    { responses: Record<string, { content: Record<string, { schema: Json }> }> } | undefined;
  const success = scrape?.responses['200']?.content['application/json'];
  if (success) {
    Object.assign(doc.components.schemas as Json, scrapeResultSchemas(success.schema as never));
    success.schema = { $ref: '#/components/schemas/ScrapeResult' };
  }

  const batchItems = (
    doc.paths?.['/v1/batches/{id}/items']?.get as
      { responses: Record<string, { content: Record<string, { schema: Json }> }> } | undefined
  )?.responses['200']?.content['application/json']?.schema as
    { properties: { items: { items: { properties: { result?: Json } } } } } | undefined;
  const result = batchItems?.properties.items.items.properties;
  if (result?.result)
    result.result = { $ref: '#/components/schemas/BatchResult', description: result.result.description };

  addWebhooks(doc as never);
  addExamples(doc as never);

  for (const [pathName, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const secured = Array.isArray(operation.security) && operation.security.length > 0;
      const responses = (operation.responses ?? {}) as Record<string, Json & { content?: Record<string, Json> }>;
      for (const [status, response] of Object.entries(responses)) {
        const headers: Json = { 'Request-Id': ref('Request-Id') };
        if (secured && status !== '401') for (const name of limitHeaders) headers[name] = ref(name);
        if (status === '429' || status === '503') headers['Retry-After'] = ref('Retry-After');
        if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate');
        response.headers = { ...(response.headers as Json | undefined), ...headers };
        const problem = response.content?.['application/problem+json'];
        if (problem) problem.schema = { $ref: '#/components/schemas/Problem' };
        const json = response.content?.['application/json'];
        const properties = (json?.schema as { properties?: Json } | undefined)?.properties;
        if (properties && 'data' in properties && pathName.startsWith('/v1/artifacts/')) {
          properties.data = dataUnion();
        }
      }
      // Fastify sees header names lower-cased; the document names them as callers write them.
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key') {
          parameter.name = 'Idempotency-Key';
        }
      }
    }
  }
  return doc;
}

/**
 * The bodies Kumo POSTs to webhook endpoints, under OpenAPI 3.1's `webhooks` (one entry per event type, each body a
 * component): a generated client's union of them narrows on `type` (clients/ts's KumoWebhookEvent).
 */
function addWebhooks(doc: Json & { components: { schemas: Record<string, Json> } }): void {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  for (const [name, schema] of Object.entries(webhookEventSchemas)) {
    // Through JSON: TypeBox's own symbol-keyed marks are not part of the document.
    doc.components.schemas[name] = JSON.parse(JSON.stringify(schema)) as Json;
  }
  const webhooks: Json = {};
  for (const [type, component] of Object.entries(webhookComponentByType)) {
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replaceAll('.', '_')}`,
        summary: `The ${type} event, POSTed to your endpoint`,
        description: (webhookEventSchemas[component] as { description?: string }).description,
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: ref(component) } } },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery (and, for a full item.succeeded, hands it over).' },
          '400': { description: 'Any other answer, or none within 10 s, is retried on the webhook schedule.' },
        },
      },
    };
  }
  doc.webhooks = webhooks;
}

/**
 * Puts the hand-written examples (openapi-examples.ts) on the named schemas, request bodies, success answers and
 * parameters. A name or operation with no schema left to carry its example throws, so the examples cannot go stale
 * quietly; one left without an example fails the document test.
 */
function addExamples(doc: {
  components: { schemas: Record<string, Json> };
  paths?: Record<string, Record<string, Json>>;
}): void {
  for (const [name, example] of Object.entries({ ...componentExamples, ...dataExamples, ...webhookExamples })) {
    const schema = doc.components.schemas[name];
    if (!schema) throw new Error(`an example names the schema ${name}, which the document does not have`);
    schema.examples = [example];
  }
  const operations = new Set<string>();
  for (const [pathName, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item) as {
      operationId?: string;
      requestBody?: { content?: Record<string, { schema?: Json }> };
      responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
      parameters?: { name: string; schema?: Json }[];
    }[]) {
      const id = String(operation.operationId);
      operations.add(id);
      const examples = operationExamples[id];
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body && examples?.body !== undefined) body.examples = [examples.body];
      for (const [status, example] of Object.entries(examples?.responses ?? {})) {
        const schema = operation.responses?.[status]?.content?.['application/json']?.schema;
        if (!schema || '$ref' in schema) throw new Error(`${id} ${status}: no inline schema for its example`);
        schema.examples = [example];
      }
      for (const parameter of operation.parameters ?? []) {
        const example =
          parameter.name === 'id'
            ? parameterExamples[pathName.slice(0, pathName.indexOf('{'))]
            : parameterExamples[parameter.name.toLowerCase()];
        if (parameter.schema && example !== undefined) parameter.schema.examples = [example];
      }
    }
  }
  const unknown = Object.keys(operationExamples).filter((id) => !operations.has(id));
  if (unknown.length > 0) throw new Error(`examples for operations the document does not have: ${unknown.join(', ')}`);
}
