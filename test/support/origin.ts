// A scriptable local origin on 127.0.0.1 that plays a target site in tests (reached through KUMO_CONNECT_TO).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type OriginHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface StaticResponse {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** One request the origin received, as it arrived (header names lower-case). */
export interface OriginRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  /** When it arrived, on this process's monotonic clock (performance.now(), ms). */
  at: number;
  /** When its response ended or its socket closed (performance.now(), ms); undefined while still open. */
  endedAt?: number;
}

export interface Origin {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Registers (or replaces) what `method path` answers; `path` is matched without the query string. */
  route(method: string, path: string, response: OriginHandler | StaticResponse): void;
  /** Requests received for a path (query ignored), or for every path when none is given. */
  hits(path?: string): number;
  /** The requests received for a path (query ignored), or all of them, oldest first. */
  requests(path?: string): OriginRequest[];
  /** Peak number of requests being handled at the same time since start (or the last resetPeak). */
  inFlightMax(): number;
  resetPeak(): void;
  /** TCP connections accepted so far. */
  readonly accepts: number;
  /** Stops listening and drops every open connection, including requests a handler never answered. */
  close(): Promise<void>;
}

export interface OriginOptions {
  /** A fixed port (e.g. 80, to stand where a guarded connection would land); default: any free port. */
  port?: number;
  /** How long an idle keep-alive socket stays open; default 1,000 ms, short so that a test never waits on one at
   * close. The bench passes Node's own default (5 s): under 2 s undici's clients close every socket after one
   * response (they keep a 2 s margin), which no real site makes them do. */
  keepAliveTimeoutMs?: number;
}

/** Unrouted paths answer 404 text/plain, and still count as hits. Rejects when the port cannot be bound. */
export async function startOrigin(options: OriginOptions = {}): Promise<Origin> {
  const routes = new Map<string, OriginHandler>();
  const log: { path: string; request: OriginRequest }[] = [];
  let inFlight = 0;
  let peak = 0;
  let accepts = 0;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = pathOf(url);
    const entry: OriginRequest = { method: req.method ?? 'GET', url, headers: req.headers, at: performance.now() };
    log.push({ path, request: entry });
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    // 'close' fires once whether the response finished or the socket was destroyed mid-way.
    res.once('close', () => {
      inFlight -= 1;
      entry.endedAt = performance.now();
    });
    const handler = routes.get(`${req.method ?? 'GET'} ${path}`);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
      return;
    }
    try {
      const done = handler(req, res);
      if (done instanceof Promise) done.catch(() => res.destroy());
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket: Socket) => {
    accepts += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    route(method, path, response) {
      routes.set(
        `${method.toUpperCase()} ${path}`,
        typeof response === 'function' ? response : staticHandler(response),
      );
    },
    hits(path) {
      return path === undefined ? log.length : log.filter((entry) => entry.path === path).length;
    },
    requests(path) {
      return log.filter((entry) => path === undefined || entry.path === path).map((entry) => entry.request);
    },
    inFlightMax: () => peak,
    resetPeak() {
      peak = inFlight;
    },
    get accepts() {
      return accepts;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** The `KUMO_CONNECT_TO` value that sends each real host to a local origin: `host=http://127.0.0.1:PORT,…`. */
export function connectToSpec(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([host, origin]) => `${host}=${origin}`)
    .join(',');
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function staticHandler(response: StaticResponse): OriginHandler {
  return (_req, res) => {
    res.writeHead(response.status, response.headers ?? {});
    res.end(response.body ?? '');
  };
}
