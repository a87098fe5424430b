// The console's Sites page: the supported sites from the same catalogue as GET /v1/sites.
import type { FastifyInstance } from 'fastify';
import { siteCatalogue } from '../http/site-catalogue.js';
import type { ConsoleScope } from './console-scope.js';
import { sitesPage } from './views.js';

export function registerSitesRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
): void {
  scope.get('/sites', async (request, reply) => {
    const session = sessionOr(request, reply);
    if (!session) return reply;
    return page(reply, sitesPage(contextOf(request), siteCatalogue(services.registry)));
  });
}
