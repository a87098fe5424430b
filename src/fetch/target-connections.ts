// The connection pools to target sites: DNS-guarded by default, unguarded only for operator-mapped hosts.
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { defaultResolver, forbiddenAddress, guardedLookup, type Resolver } from './address-guard.js';
import type { ConnectToMap } from './connect-to.js';
import { canonicalHost, isIpLiteral } from './url-policy.js';

export interface TargetConnectionsOptions {
  connectTimeoutMs: number;
  /** undici's own headers and body inactivity timers (coarse; callers keep exact timers of their own). */
  headersTimeoutMs: number;
  /** Operator origin overrides; the address policy is waived for exactly these hosts. */
  connectTo: ConnectToMap;
  /** Replaces DNS (tests); its answers still go through the address policy. */
  lookup?: Resolver;
}

export class TargetConnections {
  // Separate pools per policy: a socket opened without the address check must never serve a guarded request.
  readonly #guarded: Agent;
  readonly #overridden: Agent;
  readonly #connectTo: ConnectToMap;

  constructor(options: TargetConnectionsOptions) {
    const common = {
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.headersTimeoutMs,
      maxHeaderSize: 16 * 1024,
      keepAliveTimeout: 4_000,
    };
    this.#guarded = new Agent({
      ...common,
      connect: { timeout: options.connectTimeoutMs, lookup: guardedLookup(options.lookup ?? defaultResolver) },
    });
    this.#overridden = new Agent({ ...common, connect: { timeout: options.connectTimeoutMs } });
    this.#connectTo = options.connectTo;
  }

  /** One GET; the real Host is kept when an operator mapping sends it elsewhere. */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    return this.#request('GET', url, headers, null, signal);
  }

  /** One POST (webhook deliveries) under the same policy: guarded DNS, or an operator mapping with the real Host. */
  post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    return this.#request('POST', url, headers, body, signal);
  }

  #request(
    method: 'GET' | 'POST',
    url: URL,
    headers: Record<string, string>,
    body: string | null,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    const mapped = this.#connectTo.get(canonicalHost(url));
    // url-policy refuses literals up front; this catches any that reach here another way (lookup never sees them).
    if (!mapped && isIpLiteral(url.hostname)) return Promise.reject(forbiddenAddress());
    return (mapped ? this.#overridden : this.#guarded).request({
      origin: mapped ? mapped.origin : url.origin,
      path: url.pathname + url.search,
      method,
      headers: mapped ? { ...headers, host: url.host } : headers,
      ...(body === null ? {} : { body }),
      signal,
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.#guarded.close(), this.#overridden.close()]);
  }
}

/** Destroys an unread body; undici then emits an abort error that nobody else is left to hear. */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
