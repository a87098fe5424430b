// GET /v1/usage and GET /v1/requests/{id}: what the caller has spent, and the metadata of one of its calls.
import type { Authenticate, KumoApp } from '../app-types.js';
import type { UsageReporter } from '../../accounts/usage-report.js';
import type { RequestLog } from '../../storage/storage.js';
import { IdParamsSchema, RequestRecordSchema, UsageResponseSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';

export function registerAccountRoutes(
  app: KumoApp,
  services: { usage: UsageReporter; requests: RequestLog },
  authenticate: Authenticate,
): void {
  app.get(
    '/v1/usage',
    {
      schema: {
        summary: 'Credits used and left this month, and calls in flight',
        operationId: 'getUsage',
        security: [{ bearer: [] }],
        response: { 200: UsageResponseSchema, ...problemResponses([], { authenticated: true }) },
      },
      onRequest: authenticate('usage'),
    },
    async (request) => ({ request_id: String(request.id), ...(await services.usage.report(request.caller!)) }),
  );

  app.get(
    '/v1/requests/:id',
    {
      schema: {
        summary: 'The metadata row of one of your calls (never its content)',
        operationId: 'getRequest',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: RequestRecordSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest: authenticate('usage'),
    },
    async (request) => {
      const row = await services.requests.get(request.params.id, request.caller!.account.id);
      if (!row) throw new KumoError('not_found', 'no such request for this account');
      return {
        request_id: row.requestId,
        key_id: row.keyId,
        site: row.siteId,
        page_type: row.pageType,
        url: row.url,
        status: row.status,
        error_code: row.errorCode,
        attempts: row.attempts,
        route: row.route,
        cost_units: row.costUnits,
        latency_ms: row.latencyMs,
        artifact_id: row.artifactId,
        created_at: row.createdAt,
        cache: row.cacheState ?? null,
      };
    },
  );
}
