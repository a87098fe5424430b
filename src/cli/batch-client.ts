// The CLI's HTTP client for the batch and monitor APIs (KUMO_BASE_URL, KUMO_API_KEY): JSON in and out, problem
// answers as errors, and the waits a 429 or 503 asks for (Retry-After) taken on the injected clock.
import type { Clock } from '../time/clock.js';

/** An answer that is not 2xx: the problem's code and detail (docs/errors.md), or the status alone. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly retryAfterS: number | null,
  ) {
    super(detail);
  }
}

/** The server could not be reached (refused, reset, DNS): nothing is known about whether a request was applied. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  /** Tries for an answer the server asks to repeat (429, 503) before giving up; each waits its Retry-After. */
  maxTries?: number;
  fetch?: typeof fetch;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export class BatchApiClient {
  readonly #options: Required<Omit<ClientOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: ClientOptions) {
    this.#options = { maxTries: 5, fetch: globalThis.fetch, ...options };
  }

  /**
   * One request. `repeatable`: whether a request whose answer was lost may be sent again (a GET, a DELETE, a PATCH
   * that sets values, or a POST carrying an Idempotency-Key); a 429 or 503 is an answer (nothing applied) and is always waited out and repeated.
   */
  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    pathname: string,
    options: { body?: unknown; headers?: Record<string, string>; repeatable?: boolean } = {},
  ): Promise<Answer<T>> {
    const url = new URL(
      pathname,
      this.#options.baseUrl.endsWith('/') ? this.#options.baseUrl : `${this.#options.baseUrl}/`,
    );
    const repeatable = options.repeatable ?? method !== 'POST';
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.#options.fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${this.#options.apiKey}`,
            accept: 'application/json',
            'user-agent': 'kumo-cli',
            ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
          },
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        });
      } catch (error) {
        const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
        if (repeatable && attempt < this.#options.maxTries) {
          await this.#options.clock.sleep(Math.min(30_000, 1000 * 2 ** (attempt - 1)));
          continue;
        }
        throw new UnreachableError(`cannot reach ${url.origin}${reason ? ` (${reason})` : ''}`);
      }
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = null;
      }
      if (response.ok) return { status: response.status, body: body as T, headers: response.headers };
      const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
      const retryAfterS = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null;
      if ((response.status === 429 || response.status === 503) && attempt < this.#options.maxTries) {
        await this.#options.clock.sleep(Math.min(60, retryAfterS ?? 2 ** attempt) * 1000);
        continue;
      }
      const problem = (body ?? {}) as { code?: unknown; detail?: unknown };
      throw new ApiError(
        response.status,
        typeof problem.code === 'string' ? problem.code : `http_${response.status}`,
        typeof problem.detail === 'string' ? problem.detail : `${method} ${url.pathname} answered ${response.status}`,
        retryAfterS,
      );
    }
  }
}
