// Batches and their events (DESIGN §8): validation here, the use case in batches/batch-service.ts.
import type { FastifyReply } from 'fastify';
import type { Authenticate, KumoApp } from '../app-types.js';
import {
  BatchAppendBodySchema,
  BatchCancelResponseSchema,
  BatchItemsQuerySchema,
  BatchItemsResponseSchema,
  BatchListQuerySchema,
  BatchListResponseSchema,
  BatchResponseSchema,
  BatchSubmitBodySchema,
  EventsQuerySchema,
  EventsResponseSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
} from '../schemas.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';
import { parseIdempotencyKey } from '../../scrape/idempotency.js';
import type { LimitHeaders, UsageReporter } from '../../accounts/usage-report.js';
import type { EventType } from '../../batches/batch-store.js';
import { isEventType, type BatchService } from '../../batches/batch-service.js';
import { backendRetryAfterSeconds } from '../../backends/backend-errors.js';

/** What the routes use of the app's services; no `batches` = not configured here (503). */
export interface BatchRouteServices {
  batches?: BatchService;
  usage: UsageReporter;
}

/** The two routes that carry items take up to 1,000 of them: 2 MiB, for these routes only. */
export const batchBodyLimitBytes = 2 * 1024 * 1024;

const SubmitHeadersSchema = IdempotencyHeadersSchema(
  'A retry with the same key and body returns the batch it made (202, Idempotent-Replayed: true) and queues ' +
    'nothing; the same key with another body is a 422 idempotency_conflict.',
);

const BatchIdParamsSchema = IdParamsSchema;

export function registerBatchRoutes(app: KumoApp, services: BatchRouteServices, authenticate: Authenticate): void {
  const batches = (): BatchService => {
    if (!services.batches) {
      throw new KumoError('unavailable', 'batches are not available on this instance', {
        retryAfterSeconds: backendRetryAfterSeconds,
      });
    }
    return services.batches;
  };

  app.post(
    '/v1/batches',
    {
      bodyLimit: batchBodyLimitBytes,
      schema: {
        summary: 'Submit a batch: up to 1,000 URLs run in the background, each charged once at handover',
        operationId: 'createBatch',
        security: [{ bearer: [] }],
        headers: SubmitHeadersSchema,
        body: BatchSubmitBodySchema,
        response: {
          202: BatchResponseSchema,
          ...problemResponses([404, 409, 413, 415, 422], { authenticated: true }),
        },
      },
      onRequest: authenticate('batch'),
    },
    async (request, reply) => {
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const { batch, replayed } = await batches().submit(request.caller!, request.body, key);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(202).send({ request_id: String(request.id), batch });
    },
  );

  app.post(
    '/v1/batches/:id/items',
    {
      bodyLimit: batchBodyLimitBytes,
      schema: {
        summary: 'Append items to a batch that is not sealed yet',
        operationId: 'appendBatchItems',
        security: [{ bearer: [] }],
        params: BatchIdParamsSchema,
        body: BatchAppendBodySchema,
        response: {
          202: BatchResponseSchema,
          ...problemResponses([404, 409, 413, 414, 415, 422], { authenticated: true }),
        },
      },
      onRequest: authenticate('batch'),
    },
    async (request, reply) => {
      const { batch } = await batches().append(request.caller!, request.params.id, request.body);
      return reply.code(202).send({ request_id: String(request.id), batch });
    },
  );

  app.get(
    '/v1/batches',
    {
      schema: {
        summary: "The account's batches, newest first (counts, never results)",
        operationId: 'listBatches',
        security: [{ bearer: [] }],
        querystring: BatchListQuerySchema,
        response: { 200: BatchListResponseSchema, ...problemResponses([], { authenticated: true }) },
      },
      onRequest: authenticate('batch'),
    },
    async (request) => ({
      request_id: String(request.id),
      batches: await batches().list(request.caller!, Number(request.query.limit ?? 20)),
    }),
  );

  app.get(
    '/v1/batches/:id',
    {
      schema: {
        summary: 'A batch: status, counts, credits (never results)',
        operationId: 'getBatch',
        security: [{ bearer: [] }],
        params: BatchIdParamsSchema,
        response: { 200: BatchResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest: authenticate('batch'),
    },
    async (request) => ({
      request_id: String(request.id),
      batch: await batches().get(request.caller!, request.params.id),
    }),
  );

  app.get(
    '/v1/batches/:id/items',
    {
      schema: {
        summary: "A page of a batch's items, with their results: the first page that returns a result charges it",
        operationId: 'listBatchItems',
        security: [{ bearer: [] }],
        params: BatchIdParamsSchema,
        querystring: BatchItemsQuerySchema,
        response: { 200: BatchItemsResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest: authenticate('batch'),
    },
    async (request, reply) => {
      const service = batches();
      const query = request.query;
      const load = () =>
        service.items(request.caller!, request.params.id, {
          ...(query.state ? { state: query.state } : {}),
          ...(query.cursor ? { cursor: query.cursor } : {}),
          ...(query.limit ? { limit: Number(query.limit) } : {}),
        });
      let page = await load();
      let body: ReturnType<typeof reply.serialize>;
      for (let round = 1; ; round++) {
        // Serialized while nothing is charged: a page that cannot be produced hands nothing over.
        body = reply.serialize({ request_id: String(request.id), items: page.items, next_cursor: page.next_cursor });
        if (page.handover.length === 0) break;
        // The limit headers before the commit, as a charged scrape does: between the commit and the write nothing may
        // wait on a backend. A hold becomes a charge, so the credits left do not change.
        const headers = await limitHeadersOrNull(services.usage, request.caller!);
        const charged = await service.handover(page.handover);
        for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
        request.limitHeadersDone = true;
        if (charged.length === page.handover.length) break;
        // Some result was not charged by this page: a webhook delivery charged it meanwhile, or a DELETE or the
        // results' expiry came between the read and the commit. The page is read again, so what it shows is what
        // stands now, and nothing goes out that was not paid for.
        if (round === 3) {
          throw new KumoError('unavailable', 'the batch changed while this page was handed over; retry', {
            retryAfterSeconds: 1,
          });
        }
        page = await load();
      }
      const untyped = reply as unknown as FastifyReply;
      return untyped.type('application/json; charset=utf-8').send(body);
    },
  );

  app.delete(
    '/v1/batches/:id',
    {
      schema: {
        summary: 'Cancel a batch: queued items are cancelled (free); running ones finish',
        operationId: 'cancelBatch',
        security: [{ bearer: [] }],
        params: BatchIdParamsSchema,
        response: { 200: BatchCancelResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest: authenticate('batch'),
    },
    async (request) => {
      const { batch, cancelled } = await batches().cancel(request.caller!, request.params.id);
      return { request_id: String(request.id), batch, cancelled };
    },
  );

  app.get(
    '/v1/events',
    {
      schema: {
        summary: 'Batch events of the last 72 hours (thin), oldest first',
        operationId: 'listEvents',
        security: [{ bearer: [] }],
        querystring: EventsQuerySchema,
        response: { 200: EventsResponseSchema, ...problemResponses([404], { authenticated: true }) },
      },
      onRequest: authenticate('batch'),
    },
    async (request) => {
      const query = request.query;
      const types = query.types?.split(',');
      const unknown = types?.find((t) => !isEventType(t));
      if (unknown !== undefined) {
        throw new KumoError('invalid_request', `unknown event type: ${unknown.slice(0, 40)}`, {
          body: { field: 'types' },
        });
      }
      const page = await batches().events(request.caller!, {
        ...(query.batch_id ? { batchId: query.batch_id } : {}),
        ...(query.after ? { after: query.after } : {}),
        ...(types ? { types: types as EventType[] } : {}),
        ...(query.limit ? { limit: Number(query.limit) } : {}),
      });
      return { request_id: String(request.id), ...page };
    },
  );
}

async function limitHeadersOrNull(
  usage: UsageReporter,
  caller: NonNullable<Parameters<UsageReporter['headers']>[0]>,
): Promise<LimitHeaders | null> {
  try {
    return await usage.headers(caller);
  } catch {
    return null;
  }
}
