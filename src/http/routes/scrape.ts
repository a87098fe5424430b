// POST /v1/scrape: the one endpoint that fetches; validation here, the pipeline in scrape/scrape-service.ts.
import type { AppServices, Authenticate, KumoApp } from '../app.js';
import { ScrapeBodySchema, ScrapeResponseSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import type { ScrapeParams } from '../../scrape/scrape-service.js';

const defaults: ScrapeParams = { mode: 'html_json', work_type: 'auto', include_html: false, store_artifact: false };

export function registerScrapeRoutes(app: KumoApp, services: AppServices, authenticate: Authenticate): void {
  app.post(
    '/v1/scrape',
    {
      schema: {
        summary: 'Fetch one page of a supported site and return reviewed, normalized JSON',
        operationId: 'scrape',
        security: [{ bearer: [] }],
        body: ScrapeBodySchema,
        response: {
          200: ScrapeResponseSchema,
          ...problemResponses([413, 415, 422, 429, 502, 504], { authenticated: true }),
        },
      },
      preHandler: authenticate(null),
    },
    async (request) => {
      const params: ScrapeParams = { ...defaults, ...request.body.params };
      return services.scrape.scrape(request.caller!, request.body.url, params, String(request.id));
    },
  );
}
