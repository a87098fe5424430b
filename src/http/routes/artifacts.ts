// GET and DELETE /v1/artifacts/{id}: stored results, visible to their own account only (others get 404).
import type { Authenticate, KumoApp } from '../app-types.js';
import type { ArtifactStore } from '../../artifacts/artifact-store.js';
import type { SiteRegistry } from '../../sites/registry.js';
import { ArtifactResponseSchema, IdParamsSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';
import type { Site } from '../../sites/site.js';
import Type from 'typebox';

export function registerArtifactRoutes(
  app: KumoApp,
  services: { artifacts: ArtifactStore; registry: SiteRegistry },
  authenticate: Authenticate,
): void {
  app.get(
    '/v1/artifacts/:id',
    {
      schema: {
        summary: 'A stored artifact (normalized HTML and JSON)',
        operationId: 'getArtifact',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: { 200: ArtifactResponseSchema, ...problemResponses([404, 414], { authenticated: true }) },
      },
      onRequest: authenticate('artifacts'),
    },
    async (request) => {
      const found = await services.artifacts.get(request.params.id, request.caller!.account.id);
      if (!found) throw new KumoError('not_found', 'no such artifact for this account');
      // Data under review stays behind the approval after it is stored: a revoked account no longer reads it back.
      const site = siteOfArtifact(services.registry, found.meta.url);
      const account = request.caller!.account;
      if (site && site.pageTypes.some((e) => e.review) && !(account.approvedSites ?? []).includes(site.id)) {
        throw new KumoError(
          'key_scope_denied',
          `this artifact holds ${site.id} data, which needs an operator's review approval for this account; ask support`,
        );
      }
      return {
        id: found.meta.id,
        request_id: found.meta.requestId,
        url: found.meta.url,
        created_at: found.meta.createdAt,
        expires_at: found.meta.expiresAt,
        data: found.content.data,
        html: found.content.html,
      };
    },
  );

  app.delete(
    '/v1/artifacts/:id',
    {
      schema: {
        summary: 'Delete a stored artifact',
        operationId: 'deleteArtifact',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          204: Type.Null({ description: 'Deleted; no content.' }),
          ...problemResponses([404, 414], { authenticated: true }),
        },
      },
      onRequest: authenticate('artifacts'),
    },
    async (request, reply) => {
      const removed = await services.artifacts.delete(request.params.id, request.caller!.account.id);
      if (!removed) throw new KumoError('not_found', 'no such artifact for this account');
      return reply.code(204).send(null);
    },
  );
}

function siteOfArtifact(registry: SiteRegistry, url: string): Site | null {
  try {
    return registry.resolveHost(new URL(url).hostname);
  } catch {
    return null;
  }
}
