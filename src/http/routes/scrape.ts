// POST /v1/scrape: the one endpoint that fetches; validation here, the pipeline in scrape/scrape-service.ts.
import type { FastifyReply } from 'fastify';
import type { Authenticate, KumoApp } from '../app-types.js';
import { IdempotencyHeadersSchema, ScrapeBodySchema, ScrapeResponseSchema } from '../schemas.js';
import { problemResponses } from '../openapi.js';
import type { ScrapeParams, ScrapeService } from '../../scrape/scrape-service.js';
import { bodyHashOf, parseIdempotencyKey } from '../../scrape/idempotency.js';
import type { Caller } from '../../scrape/caller.js';
import type { LimitHeaders, UsageReporter } from '../../accounts/usage-report.js';

/** What the route uses of the app's services (app.ts passes them all). */
export interface ScrapeRouteServices {
  scrape: ScrapeService;
  usage: UsageReporter;
}

const ScrapeHeadersSchema = IdempotencyHeadersSchema(
  'Retries with the same key and body within 24 h are charged at most once (docs/api.md, Idempotency-Key).',
);

/**
 * The limit headers as they will stand once this call's charge is committed and its slot given back: the
 * reservation counted in `reserved` turns into the same number of credits `used` (a replay reserves and charges
 * nothing), so the credits left do not change; the call's own concurrency slot is counted as free. Null when a
 * backend fails: the headers are advisory, and the call must not wait for them after its commit.
 */
async function headersAfterCommit(services: ScrapeRouteServices, caller: Caller): Promise<LimitHeaders | null> {
  try {
    return await services.usage.headers(caller, undefined, { ownSlots: 1 });
  } catch {
    return null;
  }
}

const defaults: ScrapeParams = {
  mode: 'html_json',
  work_type: 'auto',
  include_html: false,
  store_artifact: false,
  render_js: false,
  max_age_s: 0,
};

export function registerScrapeRoutes(app: KumoApp, services: ScrapeRouteServices, authenticate: Authenticate): void {
  app.post(
    '/v1/scrape',
    {
      schema: {
        summary: 'Fetch one page of a supported site and return reviewed, normalized JSON',
        operationId: 'scrape',
        security: [{ bearer: [] }],
        headers: ScrapeHeadersSchema,
        body: ScrapeBodySchema,
        response: {
          200: ScrapeResponseSchema,
          ...problemResponses([413, 415, 422, 429, 502, 504], { authenticated: true }),
        },
      },
      onRequest: authenticate(null),
    },
    async (request, reply) => {
      const params: ScrapeParams = { ...defaults, ...request.body.params };
      const idempotencyKey = parseIdempotencyKey(request.headers['idempotency-key']);

      // The response's 'close' before it finished means the client went away: stop the fetch, charge nothing.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);

      let body: ReturnType<typeof reply.serialize> | null = null;
      // undefined: not computed (onSend will); null: computed but a backend failed (sent without them).
      let limitHeaders: LimitHeaders | null | undefined;
      try {
        const result = await services.scrape.scrape(request.caller!, request.body.url, params, String(request.id), {
          signal: gone.signal,
          observe: (record) => {
            request.subject = record;
          },
          ...(idempotencyKey
            ? { idempotency: { key: idempotencyKey, bodyHash: bodyHashOf({ url: request.body.url, params }) } }
            : {}),
          // Serialized while the credits are only reserved: a body that cannot be produced is never charged.
          deliver: async (answer, { replayed }) => {
            body = reply.serialize(answer);
            if (replayed) reply.header('Idempotent-Replayed', 'true');
            // A call about to be charged gets its limit headers now, while the credits are only reserved: between
            // the commit and the write nothing may wait on a backend (docs/api.md, When the charge happens).
            if (answer.fetch_summary.status === 'completed') {
              limitHeaders = await headersAfterCommit(services, request.caller!);
            }
          },
        });
        if (limitHeaders !== undefined) {
          for (const [name, value] of Object.entries(limitHeaders ?? {})) reply.header(name, value);
          request.limitHeadersDone = true;
        }
        // Already JSON: sent as is, not serialized a second time (the route schema shaped it in reply.serialize).
        const untyped = reply as unknown as FastifyReply;
        untyped.type('application/json; charset=utf-8').send(body ?? reply.serialize(result));
        return reply;
      } catch (error) {
        if (gone.signal.aborted) {
          // Nobody is left to read an answer; the call was settled (released) and its row written.
          request.log.info({ code: 'client_closed' }, 'client closed the connection before the answer');
          reply.hijack();
          reply.raw.destroy();
          return reply;
        }
        throw error;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
}
