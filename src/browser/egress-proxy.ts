// The in-process egress proxy every browser connection goes through: the HTTP fetcher's address policy, held by us.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { defaultResolver, type Resolver } from '../fetch/address-guard.js';
import type { ConnectToMap } from '../fetch/connect-to.js';
import { isPublicAddress } from '../fetch/url-policy.js';

/** Where one render may connect: the site's hosts and declared subresource hosts, on the default port of a scheme. */
export interface EgressPolicy {
  /** Canonical host names (lower-case, no trailing dot). Empty: the proxy refuses everything. */
  allowedHosts: readonly string[];
  /** Schemes the site serves (`https:`, `http:`): the ports 443 and 80 follow from them. */
  allowedSchemes: readonly string[];
}

export interface EgressProxyOptions {
  policy: EgressPolicy;
  /** Operator origin overrides (KUMO_CONNECT_TO): the only way a loopback or private origin is reached. */
  connectTo: ConnectToMap;
  /** Replaces DNS (tests); its answers still go through the address policy. */
  lookup?: Resolver;
  /** Interface to listen on: loopback unless a remote browser must reach it. */
  bindHost: string;
  connectTimeoutMs: number;
  /** Bytes one render may move through this proxy, both ways, all connections; past it every connection is cut. */
  maxBytes?: number;
  /** Connections open to targets at once; more are refused. */
  maxConnections?: number;
  /** Told once when the byte budget is spent (the render is then ended). */
  onOverBudget?: () => void;
}

/** Why a connection was refused; counted, never sent to the page (the refusal itself is all it learns). */
export type Refusal =
  | 'not_allowed_host'
  | 'ip_literal'
  | 'port'
  | 'non_public_address'
  | 'unresolved'
  | 'malformed'
  | 'too_many_connections'
  | 'byte_budget';

/** The address a host is connected to: resolved once per proxy (one render), never again for that host. */
interface Pinned {
  host: string;
  port: number;
}

const defaultPorts: Record<string, number> = { 'https:': 443, 'http:': 80 };

export class EgressProxy {
  readonly #o: EgressProxyOptions;
  readonly #server: Server;
  readonly #sockets = new Set<Duplex>();
  // One resolution per host for the life of the proxy: a DNS answer that changes mid-render (rebinding) is not seen.
  readonly #pins = new Map<string, Promise<Pinned | Refusal>>();
  readonly #refusals: Refusal[] = [];
  #connections = 0;
  #live = 0;
  #bytes = 0;
  #overBudget = false;
  #url = '';

  private constructor(options: EgressProxyOptions) {
    this.#o = options;
    this.#server = createServer({ maxHeaderSize: 16 * 1024 });
    this.#server.on('connection', (socket: Socket) => this.#track(socket));
    this.#server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.#tunnel(req, socket, head).catch(() => socket.destroy());
    });
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.#upgrade(req, socket, head).catch(() => socket.destroy());
    });
    this.#server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.#forward(req, res).catch(() => res.destroy());
    });
    this.#server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  }

  static async open(options: EgressProxyOptions): Promise<EgressProxy> {
    const proxy = new EgressProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.#server.once('error', reject);
      proxy.#server.listen(0, options.bindHost, () => resolve());
    });
    const address = proxy.#server.address();
    if (address === null || typeof address === 'string') throw new Error('the egress proxy has no port');
    const host = isIP(options.bindHost) === 6 ? `[${options.bindHost}]` : options.bindHost;
    proxy.#url = `http://${host}:${address.port}`;
    return proxy;
  }

  /** The proxy server URL to give the browser (`--proxy-server`, or a context's proxy). */
  get url(): string {
    return this.#url;
  }

  /** Refused connection attempts, in order: how a test (and the metrics) see what the page tried. */
  get refusals(): readonly Refusal[] {
    return this.#refusals;
  }

  /** Connections opened to targets. */
  get connections(): number {
    return this.#connections;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** CONNECT host:port: TLS (https, wss) and anything else the browser tunnels. */
  async #tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const authority = parseAuthority(req.url ?? '');
    const pinned = authority ? await this.#admit(authority.host, authority.port) : 'malformed';
    if (typeof pinned === 'string') return refuse(client);
    const upstream = await this.#open(pinned, client);
    if (!upstream) return;
    client.on('data', (chunk: Buffer) => this.#spend(chunk.length));
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  }

  /** `GET http://host/path` through the proxy: plain-HTTP sites (and operator origins) only. */
  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = absoluteHttpUrl(req.url ?? '');
    const pinned = target ? await this.#admit(target.hostname, Number(target.port || 80)) : 'malformed';
    if (typeof pinned === 'string' || !target) {
      res
        .writeHead(403, { 'content-type': 'text/plain', 'x-kumo-egress': 'refused', connection: 'close' })
        .end('refused by egress policy');
      return;
    }
    this.#connections += 1;
    const headers = withoutProxyHeaders(req.headers);
    headers.host = target.host;
    const outbound = httpRequest({
      host: pinned.host,
      port: pinned.port,
      method: req.method,
      path: target.pathname + target.search,
      headers,
      setHost: false,
      timeout: this.#o.connectTimeoutMs,
      // A connection of its own, never Node's shared keep-alive pool: nothing of one render's traffic outlives its
      // proxy or is handed to another call's.
      agent: false,
    });
    outbound.on('socket', (socket) => {
      this.#track(socket);
      this.#meter(socket);
    });
    outbound.on('timeout', () => outbound.destroy());
    outbound.on('error', () => res.destroy());
    outbound.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    req.on('data', (chunk: Buffer) => this.#spend(chunk.length));
    req.pipe(outbound);
  }

  /** `GET ws://…` with Upgrade, sent in absolute form: the same rule, then the bytes as they are. */
  async #upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = absoluteHttpUrl((req.url ?? '').replace(/^ws(s?):/i, 'http$1:'));
    const pinned = target ? await this.#admit(target.hostname, Number(target.port || 80)) : 'malformed';
    if (typeof pinned === 'string' || !target) return refuse(client);
    const upstream = await this.#open(pinned, client);
    if (!upstream) return;
    const headers = withoutProxyHeaders(req.headers);
    headers.host = target.host;
    const lines = [`${req.method ?? 'GET'} ${target.pathname}${target.search} HTTP/1.1`];
    for (const [name, value] of Object.entries(headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) lines.push(`${name}: ${one}`);
    }
    client.on('data', (chunk: Buffer) => this.#spend(chunk.length));
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  }

  /** The policy for one host and port; the pinned address to connect to, or why not. */
  async #admit(rawHost: string, port: number): Promise<Pinned | Refusal> {
    const host = canonical(rawHost);
    const verdict: Pinned | Refusal = this.#overBudget
      ? 'byte_budget'
      : this.#live >= (this.#o.maxConnections ?? Infinity)
        ? 'too_many_connections'
        : await this.#decide(host, port);
    if (typeof verdict === 'string') this.#refusals.push(verdict);
    return verdict;
  }

  async #decide(host: string, port: number): Promise<Pinned | Refusal> {
    if (host === '' || /[^a-z0-9.:[\]-]/.test(host)) return 'malformed';
    if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'ip_literal';
    if (!this.#o.policy.allowedHosts.includes(host)) return 'not_allowed_host';
    const ports = this.#o.policy.allowedSchemes.map((scheme) => defaultPorts[scheme]);
    if (!ports.includes(port)) return 'port';
    const mapped = this.#o.connectTo.get(host);
    // The operator's mapping is the one way to a non-public origin, exactly as in the HTTP fetcher.
    if (mapped)
      return {
        host: mapped.hostname.replace(/^\[|\]$/g, ''),
        port: Number(mapped.port || defaultPorts[mapped.protocol]),
      };
    const key = `${host}:${port}`;
    let pin = this.#pins.get(key);
    if (!pin) {
      pin = this.#resolve(host, port);
      this.#pins.set(key, pin);
    }
    return pin;
  }

  async #resolve(host: string, port: number): Promise<Pinned | Refusal> {
    let all;
    try {
      all = await (this.#o.lookup ?? defaultResolver)(host);
    } catch {
      return 'unresolved';
    }
    if (all.length === 0) return 'unresolved';
    // Every answer must be public, not only the first: the browser never sees the others, but a rebinding resolver
    // would rotate them.
    if (all.some((entry) => !isPublicAddress(entry.address))) return 'non_public_address';
    return { host: all[0]!.address, port };
  }

  /** A TCP connection to the pinned address, or null (the client is answered 502 and closed). */
  async #open(pinned: Pinned, client: Duplex): Promise<Socket | null> {
    this.#connections += 1;
    const upstream = connect({ host: pinned.host, port: pinned.port, timeout: this.#o.connectTimeoutMs });
    this.#track(upstream);
    const ok = await new Promise<boolean>((resolve) => {
      upstream.once('connect', () => resolve(true));
      upstream.once('error', () => resolve(false));
      upstream.once('timeout', () => resolve(false));
    });
    if (!ok) {
      upstream.destroy();
      client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
      return null;
    }
    upstream.setTimeout(0);
    this.#meter(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    return upstream;
  }

  /** Counts a target connection against the render's connection cap, and what it receives against the byte budget. */
  #meter(socket: Socket): void {
    this.#live += 1;
    socket.once('close', () => (this.#live -= 1));
    socket.on('data', (chunk: Buffer) => this.#spend(chunk.length));
  }

  #spend(bytes: number): void {
    this.#bytes += bytes;
    if (this.#overBudget || this.#bytes <= (this.#o.maxBytes ?? Infinity)) return;
    this.#overBudget = true;
    this.#refusals.push('byte_budget');
    for (const socket of this.#sockets) socket.destroy();
    this.#o.onOverBudget?.();
  }

  #track(socket: Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }
}

function refuse(client: Duplex): void {
  client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
}

function canonical(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** `host:port` of a CONNECT line (IPv6 in brackets). */
function parseAuthority(text: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:/?#@\s]+):(\d{1,5})$/i.exec(text);
  if (!match) return null;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1]!, port } : null;
}

/** An absolute-form `http://` request target; anything else (origin form, other schemes, userinfo) is refused. */
function absoluteHttpUrl(text: string): URL | null {
  if (!/^http:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

/** Hop-by-hop proxy headers are ours, never the target's. */
function withoutProxyHeaders(headers: IncomingMessage['headers']): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith('proxy-')) continue;
    out[name] = value;
  }
  return out;
}
