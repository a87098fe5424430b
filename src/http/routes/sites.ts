// GET /v1/sites: the supported sites, their page types, coverage levels, what verified them, and what is under review.
import type { KumoApp } from '../app-types.js';
import { SitesResponseSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import { siteCatalogue } from '../site-catalogue.js';
import type { SiteRegistry } from '../../sites/registry.js';

export function registerSiteRoutes(app: KumoApp, services: { registry: SiteRegistry }): void {
  app.get(
    '/v1/sites',
    {
      schema: {
        summary: 'Supported sites and their coverage',
        operationId: 'listSites',
        // Public: no key needed (and none is checked).
        security: [],
        response: { 200: SitesResponseSchema, ...problemResponses([], { authenticated: false }) },
      },
    },
    async (request) => ({ request_id: String(request.id), sites: siteCatalogue(services.registry) }),
  );
}
