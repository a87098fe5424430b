// Monitors (DESIGN §9): validation here, the use case in monitors/monitor-service.ts.
import type { KumoApp, Authenticate } from '../app-types.js';
import { IdParamsSchema, IdempotencyHeadersSchema } from '../schemas.js';
import {
  MonitorChecksQuerySchema,
  MonitorChecksResponseSchema,
  MonitorCreateBodySchema,
  MonitorDeleteResponseSchema,
  MonitorHistoryQuerySchema,
  MonitorHistoryResponseSchema,
  MonitorListQuerySchema,
  MonitorListResponseSchema,
  MonitorPatchBodySchema,
  MonitorResponseSchema,
  MonitorRunResponseSchema,
} from '../monitor-schemas.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';
import { parseIdempotencyKey } from '../../scrape/idempotency.js';
import { backendRetryAfterSeconds } from '../../backends/backend-errors.js';
import type { MonitorService } from '../../monitors/monitor-service.js';
import { historyCsv } from '../../monitors/history-csv.js';

/** A monitor carries up to 200 target URLs with their refs: 256 KiB, for create and PATCH only. */
export const monitorBodyLimitBytes = 256 * 1024;

export interface MonitorRouteServices {
  monitors?: MonitorService;
}

// The CSV writer lives with the monitors, where the console's download uses it too.
export { historyCsv };

export function registerMonitorRoutes(app: KumoApp, services: MonitorRouteServices, authenticate: Authenticate): void {
  const monitors = (): MonitorService => {
    if (!services.monitors) {
      throw new KumoError('unavailable', 'monitors are not available on this instance', {
        retryAfterSeconds: backendRetryAfterSeconds,
      });
    }
    return services.monitors;
  };
  const onRequest = authenticate('monitor');

  const CreateHeadersSchema = IdempotencyHeadersSchema(
    'A retry with the same key and body returns the monitor it made (201, Idempotent-Replayed: true) and makes ' +
      'nothing; the same key with another body is a 422 idempotency_conflict. Deleting the monitor frees the key.',
  );

  app.post(
    '/v1/monitors',
    {
      bodyLimit: monitorBodyLimitBytes,
      schema: {
        summary: 'Create a monitor: re-scrape item pages on a schedule and alert on typed changes',
        operationId: 'createMonitor',
        security: [{ bearer: [] }],
        headers: CreateHeadersSchema,
        body: MonitorCreateBodySchema,
        response: {
          201: MonitorResponseSchema,
          ...problemResponses([404, 413, 415, 422], { authenticated: true }),
        },
      },
      onRequest,
    },
    async (request, reply) => {
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const { monitor, replayed } = await monitors().create(request.caller!, request.body, key);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(201).send({ request_id: String(request.id), monitor });
    },
  );

  app.get(
    '/v1/monitors',
    {
      schema: {
        summary: "The account's monitors, newest first",
        operationId: 'listMonitors',
        security: [{ bearer: [] }],
        querystring: MonitorListQuerySchema,
        response: { 200: MonitorListResponseSchema, ...problemResponses([], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => ({
      request_id: String(request.id),
      ...(await monitors().list(request.caller!, {
        limit: Number(request.query.limit ?? 20),
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      })),
    }),
  );

  app.get(
    '/v1/monitors/:id',
    {
      schema: {
        summary: 'A monitor: schedule, rules, targets with their last values, and its estimate',
        operationId: 'getMonitor',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: MonitorResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => ({
      request_id: String(request.id),
      monitor: (await monitors().get(request.caller!, request.params.id)).monitor,
    }),
  );

  app.patch(
    '/v1/monitors/:id',
    {
      bodyLimit: monitorBodyLimitBytes,
      schema: {
        summary: 'Change a monitor: pause or resume, schedule, rules, watched fields, notifications, history',
        operationId: 'updateMonitor',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        body: MonitorPatchBodySchema,
        response: {
          200: MonitorResponseSchema,
          ...problemResponses([404, 413, 414, 415, 422], { authenticated: true }),
        },
      },
      onRequest,
    },
    async (request) => ({
      request_id: String(request.id),
      monitor: (await monitors().update(request.caller!, request.params.id, request.body)).monitor,
    }),
  );

  app.delete(
    '/v1/monitors/:id',
    {
      schema: {
        summary: 'Delete a monitor with everything kept for it (last values, history, checks, events)',
        operationId: 'deleteMonitor',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: MonitorDeleteResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => {
      await monitors().delete(request.caller!, request.params.id);
      return { request_id: String(request.id), deleted: true as const };
    },
  );

  app.post(
    '/v1/monitors/:id/run',
    {
      schema: {
        summary: 'Check every target now (a target whose check is still open is skipped, free)',
        operationId: 'runMonitor',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 202: MonitorRunResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request, reply) => {
      const { checks } = await monitors().runNow(request.caller!, request.params.id);
      return reply.code(202).send({ request_id: String(request.id), checks });
    },
  );

  app.get(
    '/v1/monitors/:id/checks',
    {
      schema: {
        summary: "A monitor's checks, newest first: state, cost, changes and rules hit",
        operationId: 'listMonitorChecks',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        querystring: MonitorChecksQuerySchema,
        response: { 200: MonitorChecksResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request) => {
      const query = request.query;
      const page = await monitors().checks(request.caller!, request.params.id, {
        ...(query.target ? { target: query.target } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
        ...(query.limit ? { limit: Number(query.limit) } : {}),
      });
      return { request_id: String(request.id), ...page };
    },
  );

  app.get(
    '/v1/monitors/:id/history',
    {
      schema: {
        summary: "A target's watched values over time (only with history.retain_days), as JSON or CSV",
        operationId: 'getMonitorHistory',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        querystring: MonitorHistoryQuerySchema,
        response: { 200: MonitorHistoryResponseSchema, ...problemResponses([400, 404, 414], { authenticated: true }) },
      },
      onRequest,
    },
    async (request, reply) => {
      const query = request.query;
      const history = await monitors().history(request.caller!, request.params.id, {
        ...(query.target ? { target: query.target } : {}),
        ...(query.days ? { days: Number(query.days) } : {}),
        ...(query.fields ? { fields: query.fields } : {}),
      });
      if (query.format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${request.params.id}-${history.target_id}.csv"`)
          .send(historyCsv(history) as never);
      }
      return { request_id: String(request.id), ...history };
    },
  );
}
