// DELETE /v1/cache: the caller's own cached answers go, all of them or those of one URL (DESIGN §10, docs/cache.md).
import Type from 'typebox';
import type { Authenticate, KumoApp } from '../app-types.js';
import type { ResultCache } from '../../cache/result-cache.js';
import type { SiteRegistry } from '../../sites/registry.js';
import { problemResponses } from '../openapi.js';
import { KumoError } from '../../errors.js';
import { parseTargetUrl } from '../../fetch/url-policy.js';
import { redactUrl } from '../../sites/redact-url.js';

const DeleteCacheQuerySchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Only the entries of this target URL (as it was asked); absent: every entry of the account.',
      }),
    ),
  },
  { additionalProperties: false },
);

const DeleteCacheResponseSchema = Type.Object({
  request_id: Type.String({ description: 'This request, as in the Request-Id header.' }),
  deleted: Type.Integer({ minimum: 0, description: 'How many cached answers were deleted.' }),
});

export function registerCacheRoutes(
  app: KumoApp,
  services: { resultCache?: ResultCache; registry: SiteRegistry },
  authenticate: Authenticate,
): void {
  app.delete(
    '/v1/cache',
    {
      schema: {
        summary: "Delete this account's cached answers (all, or one URL's)",
        operationId: 'deleteCache',
        security: [{ bearer: [] }],
        querystring: DeleteCacheQuerySchema,
        response: { 200: DeleteCacheResponseSchema, ...problemResponses([422], { authenticated: true }) },
      },
      // Any key of the account: deleting reads nothing and costs nothing but later fetches (decision 0026).
      onRequest: authenticate(null),
    },
    async (request) => {
      const cache = services.resultCache;
      if (!cache) throw new KumoError('unavailable', 'the result cache is not configured on this server');
      const account = request.caller!.account.id;
      const asked = request.query.url;
      let deleted: number;
      if (asked === undefined) deleted = await cache.delete(account);
      else {
        // The same form the entry was kept under: the parsed URL with the site's caller credentials removed.
        const url = parseTargetUrl(asked);
        const site = services.registry.resolveHost(url.hostname);
        deleted = site ? await cache.delete(account, redactUrl(url, site.secretQueryParams)) : 0;
      }
      return { request_id: String(request.id), deleted };
    },
  );
}
