// A local webhook receiver for the batch tests: verifies every delivery with the `standardwebhooks` reference verifier,
// records it, and answers as the test scripts (reached through KUMO_CONNECT_TO, as a site's origin is).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** What the receiver answers one delivery. `hold`: reads the request and never answers (Kumo's timeout ends it). */
export type Answer =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'hold' }
  /** Resets the connection without an answer (a receiver that crashed mid-request). */
  | { kind: 'reset' };

export const answers = {
  ok: { kind: 'status', status: 200 } as Answer,
  serverError: { kind: 'status', status: 500 } as Answer,
  gone: { kind: 'status', status: 410 } as Answer,
  hold: { kind: 'hold' } as Answer,
  reset: { kind: 'reset' } as Answer,
  tooMany: (retryAfterS: number): Answer => ({
    kind: 'status',
    status: 429,
    headers: { 'retry-after': String(retryAfterS) },
  }),
  redirect: (location: string): Answer => ({ kind: 'status', status: 307, headers: { location } }),
};

/** One delivery as it arrived, what the verifier said of it, and what it was answered. */
export interface Delivery {
  /** The `webhook-id` header (the event id). */
  webhookId: string;
  webhookTimestamp: string;
  webhookSignature: string;
  headers: IncomingMessage['headers'];
  path: string;
  /** The raw body, exactly as received (what the signature covers). */
  body: string;
  /** The parsed body (null when it is not JSON). */
  json: any;
  type: string | null;
  batchId: string | null;
  itemId: string | null;
  /** Carries the item's `result` (a full delivery; a 2xx to it is a handover). */
  full: boolean;
  /** Which of the secrets given to the receiver verified it (by position in `secrets`); empty: none did. */
  verifiedBy: number[];
  /** The reference verifier's error with the first secret, when none verified. */
  verifyError: string | null;
  answer: Answer;
  /** performance.now() at arrival, and when its answer ended or its socket closed. */
  at: number;
  endedAt?: number;
  /** Wall-clock arrival (ms since the epoch), for latency against times Kumo reports. */
  wallAt: number;
}

export type Policy = (delivery: Delivery, index: number) => Answer;

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT` (map an https endpoint host to it with KUMO_CONNECT_TO). */
  readonly url: string;
  readonly port: number;
  /** Secrets every delivery is checked against (`whsec_…`); set after registering the endpoint. */
  secrets: string[];
  /** How deliveries are answered from now on (default: 200). */
  policy: Policy;
  deliveries(): Delivery[];
  /** TCP connections accepted so far. */
  readonly accepts: number;
  /** Deliveries being answered right now, and the most at once since start (or the last resetPeak). */
  inFlight(): number;
  inFlightMax(): number;
  resetPeak(): void;
  /** Resolves when `predicate` holds of the deliveries so far (checked at every delivery and every 100 ms). */
  waitFor(what: string, predicate: (deliveries: Delivery[]) => boolean, ms?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same mix of answers, so a failure can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A policy answering each delivery with one of `choices`, picked by weight with a seeded PRNG. */
export function randomPolicy(seed: number, choices: { answer: Answer; weight: number }[]): Policy {
  const random = seededRandom(seed);
  const total = choices.reduce((sum, c) => sum + c.weight, 0);
  return () => {
    let pick = random() * total;
    for (const choice of choices) {
      pick -= choice.weight;
      if (pick < 0) return choice.answer;
    }
    return choices[choices.length - 1]!.answer;
  };
}

/** Verifies with the `standardwebhooks` reference verifier as if the receiver's clock read `nowMs`. */
export function verifyAt(
  secret: string,
  delivery: { body: string; webhookId: string; webhookTimestamp: string; webhookSignature: string },
  nowMs = Date.now(),
): { ok: true } | { ok: false; error: string } {
  const realNow = Date.now;
  // The verifier reads Date.now() for its 5-minute tolerance; it is synchronous, so the swap cannot leak.
  Date.now = () => nowMs;
  try {
    new Webhook(secret).verify(delivery.body, {
      'webhook-id': delivery.webhookId,
      'webhook-timestamp': delivery.webhookTimestamp,
      'webhook-signature': delivery.webhookSignature,
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    Date.now = realNow;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startWebhookReceiver(initial: Policy = () => answers.ok): Promise<WebhookReceiver> {
  const log: Delivery[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let accepts = 0;
  let inFlight = 0;
  let peak = 0;

  const receiver = {
    secrets: [] as string[],
    policy: initial,
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    let entry: Delivery | null = null;
    res.once('close', () => {
      inFlight -= 1;
      if (entry) entry.endedAt = performance.now();
    });
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(',') : (value ?? '');
      };
      const delivery: Delivery = {
        webhookId: header('webhook-id'),
        webhookTimestamp: header('webhook-timestamp'),
        webhookSignature: header('webhook-signature'),
        headers: req.headers,
        path: req.url ?? '/',
        body,
        json,
        type: typeof json?.type === 'string' ? json.type : null,
        batchId: json?.data?.batch_id ?? null,
        itemId: json?.data?.item_id ?? null,
        full: json?.data !== undefined && json?.data !== null && 'result' in json.data,
        verifiedBy: [],
        verifyError: null,
        answer: answers.ok,
        at: performance.now(),
        wallAt: Date.now(),
      };
      receiver.secrets.forEach((secret, i) => {
        const verdict = verifyAt(secret, delivery);
        if (verdict.ok) delivery.verifiedBy.push(i);
        else delivery.verifyError ??= verdict.error;
      });
      if (receiver.secrets.length === 0) delivery.verifyError = 'no secret given to the receiver';
      delivery.answer = receiver.policy(delivery, log.length);
      entry = delivery;
      log.push(delivery);
      for (const wake of waiters) wake();
      const answer = delivery.answer;
      if (answer.kind === 'hold') return;
      if (answer.kind === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  });
  server.on('connection', (socket: Socket) => {
    accepts += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get secrets() {
      return receiver.secrets;
    },
    set secrets(value: string[]) {
      receiver.secrets = value;
    },
    get policy() {
      return receiver.policy;
    },
    set policy(value: Policy) {
      receiver.policy = value;
    },
    deliveries: () => [...log],
    get accepts() {
      return accepts;
    },
    inFlight: () => inFlight,
    inFlightMax: () => peak,
    resetPeak() {
      peak = inFlight;
    },
    async waitFor(what, predicate, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (!predicate([...log])) {
        if (Date.now() > deadline) {
          const summary = log.slice(-5).map((d) => `${d.type} ${d.itemId ?? ''} full=${d.full}`);
          throw new Error(`${what}: not seen within ${ms} ms (${log.length} deliveries; last: ${summary.join('; ')})`);
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          void sleep(100).then(wake);
        });
      }
      return [...log];
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** A TCP listener that only counts connections (an SSRF target: a refused endpoint must never reach it). */
export interface CountingListener {
  readonly port: number;
  /** The host it listens on (`127.0.0.1` or `::1`). */
  readonly host: string;
  readonly connections: number;
  close(): Promise<void>;
}

export async function startCountingListener(host = '127.0.0.1', port = 0): Promise<CountingListener> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    // Whatever it is sent, a plain HTTP answer: a redirect follower, had it come, would have seen a success.
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    host,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
