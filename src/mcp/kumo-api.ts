// The one port the MCP tools reach Kumo through (a REST request and its answer), and its remote implementation.
/** A REST answer as the tools read it: status, parsed JSON body (null when none), and the headers they use. */
export interface KumoAnswer {
  status: number;
  body: unknown;
  /** Lower-case names; only single values are kept (Retry-After, Request-Id). */
  headers: Record<string, string>;
}

/**
 * Kumo's public REST API, called with the caller's own key. Every tool is a REST call through this, so an MCP call is
 * charged, limited, scoped and logged exactly as the same REST call (docs/decisions/0027-mcp-over-the-rest-api.md).
 */
export interface KumoApi {
  /** `idempotencyKey` is sent as the Idempotency-Key header (POST /v1/scrape, POST /v1/batches). */
  request(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<KumoAnswer>;
}

/** Kumo could not be reached at all (refused, reset, DNS): the tool answers `unavailable` and charges nothing. */
export class KumoUnreachable extends Error {
  override name = 'KumoUnreachable';
}

/** `kumo mcp`: a Kumo server over HTTP, with the key from KUMO_API_KEY in the Authorization header (never the URL). */
export function remoteKumoApi(options: { baseUrl: string; apiKey: string; fetch?: typeof fetch }): KumoApi {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  return {
    async request(method, path, body, idempotencyKey) {
      const url = new URL(path.replace(/^\//, ''), base);
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch {
        // The cause may name the host and port; the tool's answer says which server it tried instead.
        throw new KumoUnreachable(`cannot reach Kumo at ${url.origin}`);
      }
      return answerOf(response.status, await response.text(), (name) => response.headers.get(name) ?? undefined);
    },
  };
}

/** The answer's JSON (null for an empty or non-JSON body: a proxy's HTML error page is not passed on). */
export function answerOf(status: number, text: string, header: (name: string) => string | undefined): KumoAnswer {
  let body: unknown = null;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    body = null;
  }
  const headers: Record<string, string> = {};
  for (const name of ['retry-after', 'request-id']) {
    const value = header(name);
    if (value !== undefined) headers[name] = value;
  }
  return { status, body, headers };
}
