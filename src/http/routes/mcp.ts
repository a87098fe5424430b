// POST /mcp: Kumo's tools over MCP Streamable HTTP, stateless; each tool call is a REST call made with the caller's
// own key through app.inject, so it is charged, limited, scoped and logged exactly as that call (docs/mcp.md).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticate, KumoApp } from '../app-types.js';
import { KumoError } from '../../errors.js';
import { KumoUnreachable, answerOf, type KumoApi } from '../../mcp/kumo-api.js';
import { createKumoMcpServer } from '../../mcp/tools.js';
import type { Metrics } from '../../metrics/metrics.js';

export interface McpRouteOptions {
  /** Browser origins allowed besides the server's own (KUMO_MCP_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
}

/** Query parameters a key must never travel in: URLs end up in logs, proxies and browser history. */
const keyParameters = ['api_key', 'apikey', 'key', 'token', 'access_token', 'auth'];

/** Marks an injected REST call with the MCP request it serves, so that call can be abandoned with it. */
const callHeader = 'x-kumo-mcp-call';

/**
 * The app's own REST routes, called in-process with the caller's Authorization header. When the MCP client goes away
 * (`gone`), the REST call's response is destroyed as a departed REST client's socket would be: the scrape route then
 * stops the fetch and charges nothing, as for any caller that leaves (docs/api.md, When the charge happens).
 */
function injectedKumoApi(
  app: KumoApp,
  authorization: string,
  remoteAddress: string,
  gone: AbortSignal,
  inFlight: Map<string, AbortSignal>,
): KumoApi {
  return {
    async request(method, path, body, idempotencyKey) {
      if (gone.aborted) throw new KumoUnreachable('the MCP client went away');
      const call = randomUUID();
      inFlight.set(call, gone);
      try {
        const response = await app.inject({
          method,
          url: path,
          remoteAddress,
          headers: {
            authorization,
            [callHeader]: call,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        return answerOf(response.statusCode, response.body, (name) => {
          const value = response.headers[name];
          return value === undefined ? undefined : String(value);
        });
      } catch (error) {
        if (gone.aborted) throw new KumoUnreachable('the MCP client went away');
        throw error;
      } finally {
        inFlight.delete(call);
      }
    },
  };
}

/** What a browser client may send and read (the MCP headers, and Kumo's request id and auth challenge). */
const corsAllowed = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';
const corsExposed = 'request-id, www-authenticate, mcp-session-id, mcp-protocol-version';

/** `scheme://host[:port]` of an Origin header, or null when it is not a URL (`null` from a sandboxed page). */
function originOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The origin the caller reached this server at (behind a trusted proxy, the proxy's Host and scheme). */
function ownOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  if (!host) return null;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

export function registerMcpRoutes(
  app: KumoApp,
  services: { metrics?: Metrics },
  authenticate: Authenticate,
  options: McpRouteOptions,
): void {
  const allowed = new Set(options.allowedOrigins);
  const inFlight = new Map<string, AbortSignal>();
  // Only a call this route injected is found here: an id a client sends itself matches nothing.
  app.addHook('onRequest', async (request, reply) => {
    const call = request.headers[callHeader];
    const gone = typeof call === 'string' ? inFlight.get(call) : undefined;
    if (!gone) return;
    const abandon = () => {
      if (!reply.raw.writableFinished) reply.raw.destroy();
    };
    if (gone.aborted) abandon();
    else gone.addEventListener('abort', abandon, { once: true });
  });
  const hooks = { called: (tool: string, result: string) => services.metrics?.mcpToolCalled(tool, result) };
  // The caller's API for the request being served, found again by the factory through the authInfo it is handed.
  const apis = new WeakMap<AuthInfo, KumoApi>();
  // One handler for the process; it builds a fresh server per request and holds no session (2026-07-28 era).
  // 'auto' answers one JSON body unless a tool sends a message before its result, which none does; 'json' would say
  // the same with a console warning at every start.
  const modern: McpHttpHandler = createMcpHandler(({ authInfo }) => createKumoMcpServer(apis.get(authInfo!)!, hooks), {
    responseMode: 'auto',
    legacy: 'reject',
  });
  app.addHook('onClose', async () => {
    await modern.close();
  });

  /**
   * The 2025 era (initialize handshake), served statelessly as createMcpHandler's own fallback does, but answering
   * JSON rather than an event stream: no tool sends progress, so a stream would only add framing.
   */
  async function serveLegacy(web: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    const server = createKumoMcpServer(apis.get(authInfo)!, hooks);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(web, { authInfo, parsedBody });
    } finally {
      void server.close();
    }
  }

  const refuseKeyInUrl = async (request: FastifyRequest) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const found = Object.keys(query).find((name) => keyParameters.includes(name.toLowerCase()));
    if (found !== undefined) {
      throw new KumoError(
        'invalid_request',
        `an API key is never accepted in a URL (?${found}=): URLs are kept in logs and histories. Send it as ` +
          'Authorization: Bearer <key>, and rotate this key if it was real',
        { body: { field: found } },
      );
    }
  };
  /** The request's Origin when it is one on KUMO_MCP_ALLOWED_ORIGINS (a browser client on another origin), else null. */
  const allowedForeignOrigin = (request: FastifyRequest): string | null => {
    const origin = originOf(request.headers.origin);
    return origin !== null && origin !== ownOrigin(request) && allowed.has(origin) ? origin : null;
  };
  const refuseForeignOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.origin === undefined) return;
    const foreign = allowedForeignOrigin(request);
    if (foreign !== null) {
      // Errors included: a browser client can read a 401 only with these.
      reply.header('Access-Control-Allow-Origin', foreign).header('Vary', 'Origin');
      reply.header('Access-Control-Expose-Headers', corsExposed);
      return;
    }
    if (originOf(request.headers.origin) === ownOrigin(request)) return;
    throw new KumoError(
      'origin_not_allowed',
      'this Origin may not call /mcp: only the server itself and the origins in KUMO_MCP_ALLOWED_ORIGINS may',
    );
  };
  // CORS preflight, for allowed origins only (the rest of the API has no CORS): answered before routing, so that
  // OPTIONS stays a 405 for everyone else and /mcp keeps `Allow: POST`.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'OPTIONS' || request.url.split('?')[0] !== '/mcp') return;
    const foreign = allowedForeignOrigin(request);
    if (foreign === null) return;
    await reply
      .code(204)
      .header('Access-Control-Allow-Origin', foreign)
      .header('Vary', 'Origin')
      .header('Access-Control-Allow-Methods', 'POST')
      .header('Access-Control-Allow-Headers', corsAllowed)
      .header('Access-Control-Max-Age', '600')
      .send();
    return reply;
  });
  const authenticateAny = authenticate(null);

  app.post(
    '/mcp',
    {
      schema: { hide: true },
      // The URL and Origin checks come first: a key in the URL is refused even when it is valid.
      onRequest: [refuseKeyInUrl, refuseForeignOrigin, authenticateAny],
    },
    async (request, reply) => {
      const caller = request.caller!;
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')![1]!;
      // The MCP call itself spends nothing; the REST calls it makes bring their own limit headers and log lines.
      request.limitHeadersDone = true;
      const web = await toWebRequest(request.raw, request.body);
      const authInfo: AuthInfo = { token, clientId: caller.key.id, scopes: caller.key.operations ?? [] };
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      apis.set(authInfo, injectedKumoApi(app, `Bearer ${token}`, request.ip, gone.signal, inFlight));
      const response = (await isLegacyRequest(web, request.body))
        ? await serveLegacy(web, authInfo, request.body)
        : await modern.fetch(web, { authInfo, parsedBody: request.body });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      if (response.body === null) return reply.send();
      return reply.send(Readable.fromWeb(response.body));
    },
  );
}
