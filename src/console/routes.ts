// The /console pages on the API's own Fastify app: the shared hooks (language, session, security headers, form
// checks, errors) and assets; each page's routes live in their own file and are registered here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { ServerResponse } from 'node:http';
import { languageOf, translator, type Lang } from './i18n.js';
import { assets } from './assets.js';
import { messagePage, type PageContext } from './views.js';
import type { ConsoleSession } from './console-sessions.js';
import {
  consoleSecurityHeaders,
  cookieNameOf,
  hstsValue,
  queryOf,
  text,
  type ConsoleScope,
  type ConsoleServices,
} from './console-scope.js';
import { registerSignInRoutes } from './sign-in-routes.js';
import { registerOverviewRoutes } from './overview-routes.js';
import { registerRequestsRoutes } from './requests-routes.js';
import { registerKeysRoutes } from './keys-routes.js';
import { registerBatchesRoutes } from './batches-routes.js';
import { registerMonitorsRoutes } from './monitors-routes.js';
import { registerSitesRoutes } from './sites-routes.js';

export {
  consoleSecurityHeaders,
  type BatchReader,
  type ConsoleServices,
  type EventStreamCaps,
  type MonitorReader,
} from './console-scope.js';
export { filterYears } from './requests-routes.js';

const langCookie = 'kumo_console_lang';

export function registerConsole(app: FastifyInstance, services: ConsoleServices): void {
  const streams = new Set<ServerResponse>();
  // Open event streams would hold the server open at shutdown: end them as closing starts.
  app.addHook('preClose', (done) => {
    for (const stream of streams) stream.end();
    done();
  });

  void app.register(
    async (scope) => {
      await scope.register(cookie);
      // Forms only, and small: a sign-in or a key form is a few hundred bytes.
      await scope.register(formbody, { bodyLimit: 8 * 1024 });
      scope.decorateRequest('consoleState', null);
      // Pages, not API: kept out of /openapi.json.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });

      scope.addHook('onRequest', async (request, reply) => {
        const query = queryOf(request);
        const choice = text(query.lang);
        const lang = languageOf(choice || undefined, request.cookies[langCookie], request.headers['accept-language']);
        if (choice === 'ja' || choice === 'en') {
          reply.setCookie(langCookie, choice, {
            path: '/console',
            httpOnly: true,
            sameSite: 'strict',
            secure: request.protocol === 'https',
            maxAge: 365 * 86_400,
          });
        }
        const session = await services.sessions.resolve(request.cookies[cookieNameOf(request)]);
        request.consoleState = { lang, session };
      });

      scope.addHook('onSend', async (request, reply, payload) => {
        for (const [name, value] of Object.entries(consoleSecurityHeaders)) {
          if (!reply.hasHeader(name)) reply.header(name, value);
        }
        // Only over TLS (a browser ignores it over http, and plain-http development must stay reachable). No
        // includeSubDomains: other services under the same domain are not ours to pin.
        if (request.protocol === 'https') reply.header('Strict-Transport-Security', hstsValue);
        reply.header('Vary', 'Cookie, Accept-Language');
        return payload;
      });

      // A state-changing form must come from this origin and, once signed in, carry the session's synchronizer token;
      // SameSite=Strict already keeps the cookie off cross-site posts. Checked before any handler runs.
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        const expected = `${request.protocol}://${request.host}`;
        const sameOrigin = request.headers.origin === expected;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const session = request.consoleState!.session;
        const path = request.url.split('?')[0];
        // Signing in has no session yet, and signing out of a session that has already ended changes nothing.
        const tokenOk =
          path === '/console/sign-in' ||
          (path === '/console/sign-out' && session === null) ||
          (session !== null && services.sessions.verifyCsrf(session.id, body._csrf));
        if (sameOrigin && tokenOk) return;
        request.log.warn({ same_origin: sameOrigin, token_ok: tokenOk }, 'console: cross-site form refused');
        const ctx = contextOf(request);
        await reply
          .code(403)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('crossSite')));
        return reply;
      });

      scope.setNotFoundHandler(async (request, reply) => {
        const ctx = contextOf(request);
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('notFound')));
      });

      scope.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
        const status =
          error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) {
          request.log.error({ error_name: error.name, error_code: error.code }, 'console: internal error');
        }
        const ctx = contextOf(request);
        return reply
          .code(status)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('errorTitle'), ctx.t('errorLead'), String(request.id)));
      });

      function contextOf(request: FastifyRequest): PageContext {
        const state = request.consoleState ?? { lang: 'en' as Lang, session: null };
        const [path = '/console', search = ''] = request.url.split('?');
        const params = new URLSearchParams(search);
        params.delete('lang');
        return {
          lang: state.lang,
          t: translator(state.lang),
          path,
          query: params.toString(),
          session: state.session,
        };
      }

      const page = (reply: FastifyReply, body: string, status = 200) =>
        reply.code(status).type('text/html; charset=utf-8').send(body);

      /** The signed-in session, or a redirect to the sign-in page (null: the answer is already sent). */
      function sessionOr(request: FastifyRequest, reply: FastifyReply): ConsoleSession | null {
        const session = request.consoleState!.session;
        if (session) return session;
        void reply.redirect('/console/sign-in', 303);
        return null;
      }

      scope.get('/assets/:name', async (request, reply) => {
        const name = (request.params as { name: string }).name;
        // Own names only: `constructor` or `__proto__` must not reach Object.prototype.
        const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
        if (!asset) {
          const ctx = contextOf(request);
          return page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('notFound')), 404);
        }
        // Assets hold nothing private and change only with a build: a browser may keep them, and revalidate.
        reply.header('Cache-Control', 'no-cache').header('ETag', asset.etag);
        if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(asset.contentType).send(asset.body);
      });

      const kit: ConsoleScope = { services, contextOf, page, sessionOr };
      registerSignInRoutes(scope, kit);
      registerOverviewRoutes(scope, kit, streams);
      registerRequestsRoutes(scope, kit);
      registerKeysRoutes(scope, kit);
      registerBatchesRoutes(scope, kit);
      registerMonitorsRoutes(scope, kit);
      registerSitesRoutes(scope, kit);
    },
    { prefix: '/console' },
  );
}
