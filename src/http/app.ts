// Builds the Fastify app from ready services; never listens (main.ts does), so tests can start it on any port.
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import { problemBody, problemContentType } from './problem.js';
import { clientErrorHandler, frameworkKumoError, refuseOnSocket } from './client-errors.js';
import { validationKumoError } from './validation-errors.js';
import { finishOpenApi } from './openapi.js';
import { serializersOncePerSchema } from './serializers.js';
import { backendRetryAfterSeconds, isBackendOutage, unavailable } from '../backends/backend-errors.js';
import { newId } from '../accounts/ids.js';
import type { ScrapeService } from '../scrape/scrape-service.js';
import type { UsageReporter } from '../accounts/usage-report.js';
import type { Accounts } from '../accounts/accounts-service.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { RequestLog, Operation } from '../storage/storage.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Config, TrustProxy } from '../config.js';
import type { KumoApp } from './app-types.js';
import { registerScrapeRoutes } from './routes/scrape.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerSiteRoutes } from './routes/sites.js';
import { registerArtifactRoutes } from './routes/artifacts.js';
import { registerCacheRoutes } from './routes/cache.js';
import type { ResultCache } from '../cache/result-cache.js';
import { registerBatchRoutes } from './routes/batches.js';
import type { BatchService } from '../batches/batch-service.js';
import { registerWebhookEndpointRoutes, type WebhookEndpointServices } from './routes/webhook-endpoints.js';
import { registerMonitorRoutes } from './routes/monitors.js';
import { registerMcpRoutes } from './routes/mcp.js';
import type { MonitorService } from '../monitors/monitor-service.js';
import { registerConsole, type BatchReader, type EventStreamCaps, type MonitorReader } from '../console/routes.js';
import type { ConsoleSessions } from '../console/console-sessions.js';
import type { RefusalLimiter } from '../limits/refusal-limiter.js';

export interface AppServices {
  scrape: ScrapeService;
  accounts: Accounts;
  usage: UsageReporter;
  registry: SiteRegistry;
  artifacts: ArtifactStore;
  /** The result cache, for DELETE /v1/cache; absent = that route answers 503 unavailable. */
  resultCache?: ResultCache;
  requests: RequestLog;
  /** One check per backend for /readyz; each throws (or takes longer than readyCheckTimeoutMs) when it is down. */
  readiness: Record<string, () => Promise<void>>;
  /**
   * The browser route, reported by /readyz but not part of readiness: an instance without a browser still serves every
   * other page type (browser ones answer 503 unavailable). Absent = no browser route in this build of services.
   */
  browser?: () => { ready: boolean; reason: string | null };
  /** Served at GET /metrics; absent = an empty exposition. */
  metrics?: Metrics;
  /** Slows down a key whose calls keep being refused (429 rate_limited); absent = no such limit. */
  refusals?: RefusalLimiter;
  /** Batches (DESIGN §8); absent = the batch routes answer 503 unavailable. */
  batches?: BatchService;
  /** Monitors (DESIGN §9); absent = the monitor routes answer 503 unavailable. */
  monitors?: MonitorService;
  /** Webhook endpoint routes; absent or a null store = 503 unavailable (no KUMO_SECRETS_KEY in shared mode). */
  webhookEndpoints?: WebhookEndpointServices;
  /**
   * The server key, reported by /readyz but not part of readiness (an instance without it still serves calls; batch
   * and webhook routes answer 503): 'ok', or what is missing. Absent = not reported.
   */
  secretsStatus?: () => 'ok' | `missing: ${string}`;
  /** The web console under /console (docs/console.md); absent = no console. */
  console?: {
    sessions: ConsoleSessions;
    eventIntervalMs: number;
    eventStreamCaps?: Partial<EventStreamCaps>;
    /** The batch store's reads for the batch pages; absent = those pages say batches are not available. */
    batches?: BatchReader;
    /** The monitor store's reads for the monitor pages; absent = those pages say monitors are not available. */
    monitors?: MonitorReader;
  };
}

export interface AppOptions {
  logger: Logger;
  bodyLimitBytes: number;
  /** Bounds on what one client may hold open; absent = Node's own defaults (tests that never listen). */
  serverLimits?: Config['serverLimits'];
  /** Read the client address and scheme from X-Forwarded-* (KUMO_TRUST_PROXY); default false. */
  trustProxy?: TrustProxy;
  /** Browser origins POST /mcp accepts besides the server's own (KUMO_MCP_ALLOWED_ORIGINS); default none. */
  mcpAllowedOrigins?: readonly string[];
}

export type { Authenticate, KumoApp } from './app-types.js';

/** Answers to momentary contention, retried after `Retry-After: 1`: never counted by the refusal limit. */
/** Answers smaller than this go as they are: compressing a short JSON body costs more than the bytes it saves. */
export const compressAboveBytes = 1024;

const transientRefusals: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['concurrency_limited', 'idempotency_key_in_use']);

/** Sends a problem document; the single way an error leaves the API. */
export function sendProblem(reply: FastifyReply, error: KumoError): FastifyReply {
  const body = problemBody(error, String(reply.request.id));
  reply.request.problemCode = error.code;
  // Also here, not only in onRequest: router errors (frameworkErrors) are answered before any hook runs.
  reply.header('Request-Id', String(reply.request.id));
  if (error.extras.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.extras.retryAfterSeconds));
  if (error.code === 'unauthorized') reply.header('WWW-Authenticate', 'Bearer realm="kumo"');
  return reply.code(body.status).type(problemContentType).send(body);
}

/** Maps framework errors (validation, body parsing, limits) onto the catalogue. */
function toKumoError(error: FastifyError, request: FastifyRequest): KumoError {
  if (isKumoError(error)) return error;
  if (error.validation && error.validation.length > 0) return validationKumoError(error.validation);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(request);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new KumoError('unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new KumoError('invalid_request', 'the body is empty; send a JSON object with a url', {
        body: { field: 'body' },
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new KumoError('invalid_request', 'the body is not valid JSON', { body: { field: 'body' } });
    default:
      break;
  }
  if (error.statusCode === 400) {
    // secure-json-parse and the JSON parser answer 400 for syntax errors and __proto__ keys.
    return new KumoError('invalid_request', 'the body is not valid JSON or contains a forbidden key', {
      body: { field: 'body' },
    });
  }
  if (error.statusCode === 413) return bodyTooLarge(request);
  if (error.statusCode === 415) return new KumoError('unsupported_media_type', 'send the body as application/json');
  // Storage and limits classify their own outages; this catches a backend error from anywhere else (the Redis host
  // gate, say) so that an outage is never answered as a bug.
  if (isBackendOutage(error)) return unavailable(null, error);
  return new KumoError('internal', 'an internal error occurred', {}, { cause: error });
}

/**
 * Routes have different body limits (a scrape call is small, a batch of items is not): the answer names the one this
 * route applies, so a caller knows whether to shorten the body or split it.
 */
function bodyTooLarge(request: FastifyRequest): KumoError {
  const limit = request.routeOptions.bodyLimit;
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  return new KumoError(
    'payload_too_large',
    `the request body is over the ${formatBytes(limit)} body limit of ${route}`,
    { body: { limit_bytes: limit } },
  );
}

/** `16 KiB (16384 bytes)`, `2 MiB (2097152 bytes)`: the unit a person reads, and the exact number. */
export function formatBytes(bytes: number): string {
  const unit = bytes >= 1024 * 1024 ? { name: 'MiB', size: 1024 * 1024 } : { name: 'KiB', size: 1024 };
  const amount = bytes / unit.size;
  const shown = Number.isInteger(amount) ? String(amount) : amount.toFixed(1);
  return bytes < 1024 ? `${bytes} bytes` : `${shown} ${unit.name} (${bytes} bytes)`;
}

/**
 * Fastify 5.12 fails closed on a bare hop count (it trusts nothing: a direct client could send enough hops itself).
 * KUMO_TRUST_PROXY=N means "N proxies stand in front and nothing reaches Kumo around them" (docs/console.md), so
 * it is passed as the function proxy-addr used for counts: the N nearest hops are trusted, whoever they are.
 */
function fastifyTrustOf(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  if (trust === 0) return false;
  return (_address, hop) => hop < trust;
}

export async function buildApp(services: AppServices, options: AppOptions): Promise<KumoApp> {
  const server = serverOptionsOf(options.serverLimits);
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimitBytes,
    genReqId: () => newId('req'),
    trustProxy: fastifyTrustOf(options.trustProxy ?? false),
    // Our own onResponse hook writes the one line per request; Fastify's would log URLs and headers.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    // Fastify's own drain answer is plain JSON without an id; the preClose/onRequest hooks below answer it instead.
    return503OnClosing: false,
    ...server.timeouts,
    // Router failures (a bad percent-encoding, a parameter over maxParamLength) answer from the catalogue too.
    frameworkErrors: (error, _request, reply) => {
      void sendProblem(reply, frameworkKumoError(error));
    },
    clientErrorHandler: clientErrorHandler(options.logger),
    // Node would answer a missing Host itself (a bare 400 without a body); the onRequest hook below answers it.
    http: { requireHostHeader: false, ...server.http },
    schemaController: { compilersFactory: { buildSerializer: serializersOncePerSchema() } },
    ajv: {
      // Unknown fields are an error (never silently dropped) and types are never coerced ("yes" is not true).
      // `verbose` hands the failing schema and value to the error handler, so an answer can list the allowed fields
      // and name the JSON type that was sent (never the value itself).
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        verbose: true,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as KumoApp;

  app.decorateRequest('caller', null);
  app.decorateRequest('limitHeadersDone', false);
  app.decorateRequest('refusalLimited', false);
  app.decorateRequest('problemCode', null);
  app.decorateRequest('callerRequestId', null);
  app.decorateRequest('subject', null);
  // Only JSON bodies: Fastify would otherwise hand a text/plain body to validation as a string.
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kumo API',
        version: '1',
        description: 'Reviewed, normalized JSON from Japanese commerce and public-data pages.',
        // package.json is private with no licence: the service's terms are the operator's.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? finishOpenApi(document.openapiObject as Record<string, unknown>)
        : document.swaggerObject,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', String(request.id));
    // A caller's own correlation id is kept beside Kumo's (never instead of it): logged, and echoed back as sent.
    request.callerRequestId = callerRequestIdOf(request.headers['x-request-id']);
    if (request.callerRequestId !== null) reply.header('X-Request-Id', request.callerRequestId);
  });

  // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400 (taken over from Node so it is a catalogue problem).
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return;
    await sendProblem(
      reply,
      new KumoError('invalid_request', 'an HTTP/1.1 request needs a Host header', { body: { field: 'host' } }),
    );
    return reply;
  });
  // CONNECT never reaches Fastify (Node would drop the socket without a word): refuse it from the catalogue.
  app.server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    refuseOnSocket(socket, new KumoError('method_not_allowed', 'CONNECT is not allowed'), newId('req'));
  });

  // While closing, a request still arriving on an open connection (pipelined, keep-alive) is shed with a catalogue
  // 503 rather than run: the load balancer should send it to another instance.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    reply.header('Connection', 'close');
    await sendProblem(reply, new KumoError('unavailable', 'the server is shutting down', { retryAfterSeconds: 1 }));
    return reply;
  });

  // One "request completed" line per call: method, route, status, time, the error code and what the call was about
  // (site, page type); never bodies, keys or target URLs.
  app.addHook('onResponse', async (request, reply) => {
    // A refusal the caller caused (4xx, not Kumo's 5xx) counts against its key's refusal limit, except the answers
    // to contention that DESIGN §3 tells a client to retry after `Retry-After: 1`: a client obeying them is not
    // looping on a refusal (credits_exhausted still counts: its Retry-After is next month).
    const refused =
      reply.statusCode >= 400 &&
      reply.statusCode < 500 &&
      (request.problemCode === null || !transientRefusals.has(request.problemCode));
    if (refused && request.caller && !request.refusalLimited) services.refusals?.recordRefusal(request.caller.key.id);
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        account_id: request.caller?.account.id,
        key_id: request.caller?.key.id,
        error_code: request.problemCode ?? undefined,
        site: request.subject?.siteId ?? undefined,
        page_type: request.subject?.pageType ?? undefined,
        caller_request_id: request.callerRequestId ?? undefined,
      },
      'request completed',
    );
  });

  // Authenticated responses, errors included, say how much of each limit is left. A charged scrape brings its own
  // (computed before the commit): awaiting a backend here would open a window in which a call is charged unanswered.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.caller && !request.limitHeadersDone) {
      try {
        const retryAfter = Number(reply.getHeader('retry-after'));
        const headers = await services.usage.headers(
          request.caller,
          Number.isFinite(retryAfter) && reply.hasHeader('retry-after') ? retryAfter : undefined,
        );
        for (const [name, value] of Object.entries(headers)) reply.header(name, value);
      } catch {
        // A backend hiccup must not turn an answer into an error; the headers are advisory.
      }
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const kumo = toKumoError(error, request);
    if (kumo.code === 'internal') {
      // No stack traces in logs either: the name and code are enough to find the failing step.
      const cause = kumo.cause instanceof Error ? kumo.cause : error;
      request.log.error(
        { code: 'internal', error_name: cause.name, error_code: (cause as FastifyError).code },
        'internal error',
      );
    } else if (kumo.code === 'unavailable') {
      const cause = kumo.cause instanceof Error ? (kumo.cause as Error & { code?: unknown }) : null;
      request.log.warn(
        { code: 'unavailable', backend: kumo.extras.body?.backend, error_name: cause?.name, error_code: cause?.code },
        'backend unavailable',
      );
    }
    return sendProblem(reply, kumo);
  });

  const knownPaths = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = knownPaths.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    knownPaths.set(route.url, methods);
  });
  app.setNotFoundHandler((request, reply) => {
    const pathOnly = request.url.split('?')[0] ?? '';
    // The path is the caller's own text; a bounded echo keeps a 16 KB request line out of the answer.
    const shown = pathOnly.length > 200 ? `${pathOnly.slice(0, 200)}…` : pathOnly;
    const allowed = [...knownPaths].filter(([p]) => matchesPath(p, pathOnly)).flatMap(([, m]) => [...m]);
    if (allowed.length > 0) reply.header('Allow', [...new Set(allowed)].sort().join(', '));
    return sendProblem(
      reply,
      allowed.length > 0
        ? new KumoError('method_not_allowed', `${request.method} is not allowed on ${shown}`)
        : new KumoError('not_found', `no route ${request.method} ${shown}`),
    );
  });

  const authenticate = (operation: Operation | null) => async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer ([\x21-\x7e]{1,256})$/.exec(header) : null;
    const caller = match ? await services.accounts.authenticate(match[1]!) : null;
    if (!caller) throw new KumoError('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');
    request.caller = caller;
    // Before any other work: a key looping on refusals gets a cheap 429, without even its limit headers (which would
    // cost a ledger read each).
    const wait = services.refusals?.retryAfterSeconds(caller.key.id) ?? 0;
    if (wait > 0) {
      request.refusalLimited = true;
      request.limitHeadersDone = true;
      throw new KumoError('rate_limited', 'this key had too many calls refused in a short time; retry later', {
        retryAfterSeconds: wait,
      });
    }
    if (operation && caller.key.operations && !caller.key.operations.includes(operation)) {
      throw new KumoError('key_scope_denied', `this key may not use the ${operation} operation`);
    }
  };

  // Liveness (Kubernetes convention): the process is up and its event loop answers. It checks no backend, so a
  // database outage makes instances unready (/readyz) rather than restarted, and they heal when it returns.
  app.get('/healthz', { schema: { hide: true } }, async (request) => ({
    status: 'ok',
    request_id: String(request.id),
  }));
  // Readiness: every backend a call needs, each timed and bounded, so a hung backend cannot hang the probe.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const checks = await runReadinessChecks(services.readiness);
    const ready = Object.values(checks).every((check) => check.status === 'ok');
    if (!ready) reply.code(503).header('Retry-After', String(backendRetryAfterSeconds));
    const browser = services.browser?.();
    const secrets = services.secretsStatus?.();
    return {
      status: ready ? 'ok' : 'unavailable',
      checks,
      ...(secrets ? { secrets } : {}),
      ...(browser
        ? {
            browser: {
              status: browser.ready ? 'ok' : 'unavailable',
              ...(browser.reason ? { reason: browser.reason } : {}),
            },
          }
        : {}),
      request_id: String(request.id),
    };
  });
  // The API's answers are compressed when the client asks (decision 0029); the console's pages are not (CSRF tokens
  // beside reflected input invite BREACH, and its event stream must not be buffered), so they live outside this scope.
  await app.register(async (scope) => {
    // The scope is the app's own instance type (Fastify types a plugin's instance with its defaults).
    const api = scope as unknown as KumoApp;
    await api.register(compress, {
      encodings: ['br', 'gzip', 'deflate'],
      threshold: compressAboveBytes,
      // Request bodies are never decompressed: a small gzip body must not become a large one past the body limit.
      globalDecompression: false,
    });
    // Unauthenticated like /healthz: counts by site and host only, never keys, accounts or URLs. Keep it off the
    // public listener (firewall or proxy) when operators do not want the numbers seen (docs/fetching.md).
    api.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      const exposition = services.metrics
        ? await services.metrics.exposition()
        : { contentType: 'text/plain', body: '' };
      return reply.type(exposition.contentType).send(exposition.body);
    });
    api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    registerScrapeRoutes(api, services, authenticate);
    registerAccountRoutes(api, services, authenticate);
    registerSiteRoutes(api, services);
    registerArtifactRoutes(api, services, authenticate);
    registerCacheRoutes(api, services, authenticate);
    registerBatchRoutes(api, services, authenticate);
    registerWebhookEndpointRoutes(api, services, authenticate);
    registerMonitorRoutes(api, services, authenticate);
  });
  // Outside the compressed scope: its CORS preflight hook must see OPTIONS /mcp, which has no route of its own.
  registerMcpRoutes(app, services, authenticate, { allowedOrigins: options.mcpAllowedOrigins ?? [] });
  if (services.console) {
    registerConsole(app as unknown as FastifyInstance, {
      ...services.console,
      accounts: services.accounts,
      usage: services.usage,
      requests: services.requests,
      registry: services.registry,
    });
  }
  return app;
}

/**
 * A caller's X-Request-Id, kept only when it is one printable-ASCII token of at most 128 characters (a UUID, a trace
 * id): anything else is ignored, so no control character, newline or arbitrary byte is logged or sent back.
 */
export function callerRequestIdOf(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && /^[\x21-\x7e]{1,128}$/.test(value) ? value : null;
}

/**
 * Fastify's requestTimeout 0 would also switch off Node's own default, holding a stalled body forever. Node counts
 * requestTimeout only until the request is fully received, so a slow scrape answered afterwards is not cut.
 */
function serverOptionsOf(limits: Config['serverLimits'] | undefined) {
  if (!limits) return { timeouts: {}, http: {} };
  return {
    timeouts: { requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs },
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      maxHeaderSize: limits.maxHeaderBytes,
    },
  };
}

/** How long one readiness check may take before its backend counts as unavailable. */
export const readyCheckTimeoutMs = 2_000;

async function runReadinessChecks(
  checks: Record<string, () => Promise<void>>,
): Promise<Record<string, { status: 'ok' | 'unavailable'; latency_ms: number }>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), readyCheckTimeoutMs);
      });
      // A check that loses the race may still reject later; that must not become an unhandled rejection.
      const ran = check().then(
        () => 'ok' as const,
        () => 'failed' as const,
      );
      const outcome = await Promise.race([ran, timedOut]);
      clearTimeout(timer);
      const latency_ms = Math.round(performance.now() - started);
      return [name, { status: outcome === 'ok' ? ('ok' as const) : ('unavailable' as const), latency_ms }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function matchesPath(pattern: string, actual: string): boolean {
  const a = pattern.split('/');
  const b = actual.split('/');
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i]);
}
