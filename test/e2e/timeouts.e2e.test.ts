// The built server closes what a client leaves hanging (stalled bodies, header drips, idle keep-alive, silent
// connections) within its configured bounds, and still answers a scrape call whose origin is slower than them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, testKey, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

// Small bounds so the test runs in seconds; the upper limits below leave room for a loaded 2-core machine.
const headersMs = 400;
// 6 s: a connection told apart from the request timeout by `ms < requestMs` closes at about 1.4 s (keepAliveMs plus
// the 1 s Node 24 adds, server.keepAliveTimeoutBuffer), and a 401 comes at once; with two suites at once on 2 cores a
// 401 once came after 4 s (the server then answered 408), so 4 s left too little room, as 2.5 s had before it.
const requestMs = 6_000;
const keepAliveMs = 400;
const slack = 3_000;
/** For the twenty connections answered at once (below): well short of the client's 30 s give-up. */
const burstSlack = 12_000;

let origin: Origin;
let kumo: KumoProcess;
let port: number;

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/750001', async (_req, res) => {
    // Slower than the request timeout: the timeout must not count the work done after the body arrived.
    await new Promise((resolve) => setTimeout(resolve, requestMs + 1_000));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(itemPage());
  });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
    KUMO_SERVER_HEADERS_TIMEOUT_MS: String(headersMs),
    KUMO_SERVER_REQUEST_TIMEOUT_MS: String(requestMs),
    KUMO_SERVER_KEEPALIVE_MS: String(keepAliveMs),
    KUMO_SERVER_TIMEOUT_CHECK_MS: '100',
  });
  port = Number(new URL(kumo.baseUrl).port);
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

interface Held {
  socket: net.Socket;
  /** Resolves with ms from connect until the server closed the socket, and what it wrote meanwhile. */
  closed: Promise<{ ms: number; received: string }>;
}

/** Opens a raw connection; `opening` is written at once. Ends the socket itself after `giveUpMs` (a failed test). */
function hold(opening: string, giveUpMs = 30_000): Held {
  const started = performance.now();
  const socket = net.connect({ host: '127.0.0.1', port });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  if (opening) socket.write(opening);
  const closed = new Promise<{ ms: number; received: string }>((resolve) => {
    const timer = setTimeout(() => socket.destroy(), giveUpMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, received });
    });
  });
  return { socket, closed };
}

// The key is checked before the body is read, so only a caller with a valid key ever gets to stall a body.
const auth = `Authorization: Bearer ${testKey}\r\n`;

describe('server timeouts', () => {
  it('closes half-sent bodies (Content-Length larger than sent) after the request timeout, every one of them', async () => {
    const head = (n: number) =>
      `POST /v1/scrape HTTP/1.1\r\nHost: kumo\r\n${auth}Content-Type: application/json\r\nContent-Length: ${1000 + n}\r\n\r\n{"url":"https://www.ikebe-gakki.com/`;
    const held = Array.from({ length: 20 }, (_, n) => hold(head(n)));
    const results = await Promise.all(held.map((h) => h.closed));
    for (const { ms, received } of results) {
      // The 408 says the server closed it for the request timeout (a connection it kept would be ended by the
      // client at 30 s, with nothing received); never before the timeout.
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms).toBeGreaterThanOrEqual(requestMs - 200);
      // Twenty 408s at one instant, each a problem body and a log line: on a 2-core machine running two suites at
      // once they took up to 6 s past the timeout (seen in a double run), so the bound stops short of the give-up.
      expect(ms).toBeLessThan(requestMs + burstSlack);
    }
  });

  it('tells a stalled client why: a 408 request_timeout problem with its request id, before closing', async () => {
    const { received } = await hold(
      `POST /v1/scrape HTTP/1.1\r\nHost: kumo\r\n${auth}Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"url":`,
    ).closed;
    const [head = '', body = ''] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    const requestId = /request-id: (req_\w+)/i.exec(head)?.[1];
    const problem = JSON.parse(body) as { code: string; status: number; request_id: string };
    expect(problem).toMatchObject({ code: 'request_timeout', status: 408, request_id: requestId });
  });

  it('answers a half-sent body without a valid key 401 at once, and closes it well before the request timeout', async () => {
    const heads = ['', 'Authorization: Bearer kumo_live_nosuchkey_0123456789\r\n'].map(
      (authorization) =>
        `POST /v1/scrape HTTP/1.1\r\nHost: kumo\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"url":`,
    );
    for (const { ms, received } of await Promise.all(heads.map((head) => hold(head).closed))) {
      expect(received).toMatch(/^HTTP\/1\.1 401 /);
      expect(received).toMatch(/"code":"unauthorized"/);
      expect(ms).toBeLessThan(requestMs);
    }
  });

  it('closes a slowloris header drip after the headers timeout, well before the request timeout', async () => {
    const drip = hold('GET /healthz HTTP/1.1\r\nHost: kumo\r\n');
    let n = 0;
    const timer = setInterval(() => {
      if (!drip.socket.destroyed) drip.socket.write(`X-Drip-${n++}: a\r\n`);
    }, 50);
    const { ms } = await drip.closed;
    clearInterval(timer);
    expect(n).toBeGreaterThan(2);
    expect(ms).toBeLessThan(requestMs);
  });

  it('closes a connection that never sends a byte', async () => {
    const { ms } = await hold('').closed;
    expect(ms).toBeLessThan(requestMs + slack);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const idle = hold('GET /healthz HTTP/1.1\r\nHost: kumo\r\nConnection: keep-alive\r\n\r\n');
    const { ms, received } = await idle.closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('keep-alive');
    expect(ms).toBeGreaterThanOrEqual(keepAliveMs - 100);
    expect(ms).toBeLessThan(requestMs);
  });

  it('refuses a header section over the size cap with 431 and closes', async () => {
    const { ms, received } = await hold(`GET /healthz HTTP/1.1\r\nHost: kumo\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
      .closed;
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(ms).toBeLessThan(requestMs);
  });

  it('still answers a scrape call whose origin is slower than the request timeout', async () => {
    const started = performance.now();
    const res = await scrape(kumo.baseUrl, { url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750001' });
    expect(performance.now() - started).toBeGreaterThan(requestMs);
    expect(res.status).toBe(200);
    expect(res.body.data.price).toBe(2200);
  });
});
