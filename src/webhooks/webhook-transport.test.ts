// WebhookTransport against real loopback listeners that count connections: the address policy holds at connect time.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookTransport, retryAfterMsOf } from './webhook-transport.js';
import { parseConnectTo } from '../fetch/connect-to.js';
import { checkEndpointUrl } from './endpoint-url.js';
import type { Resolver } from '../fetch/address-guard.js';

interface Receiver {
  port: number;
  connections: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

const open: (Receiver | WebhookTransport)[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const state: Receiver = {
    port: 0,
    connections: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      state.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answer(req, res);
    });
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  open.push(state);
  return state;
}

function transport(connectTo: string, lookup?: Resolver, timeoutMs = 5_000): WebhookTransport {
  const t = new WebhookTransport({ timeoutMs, connectTo: parseConnectTo(connectTo), ...(lookup ? { lookup } : {}) });
  open.push(t);
  return t;
}

const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_1' };

describe('WebhookTransport', () => {
  it('POSTs to a KUMO_CONNECT_TO-mapped host with the real Host header, and reports the status', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const t = transport(`hooks.example.com=http://127.0.0.1:${r.port}`);
    const outcome = await t.send('https://hooks.example.com/in?x=1', headers, '{"a":1}');
    expect(outcome).toEqual({ kind: 'answered', status: 204 });
    expect(r.requests[0]).toMatchObject({ method: 'POST', url: '/in?x=1', body: '{"a":1}' });
    expect(r.requests[0]!.headers.host).toBe('hooks.example.com');
    expect(r.requests[0]!.headers['webhook-id']).toBe('evt_1');
  });

  it('never connects to a host that resolves to loopback, private, link-local or metadata addresses', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const answers: Record<string, string> = {
      'loop.example.com': '127.0.0.1',
      'private.example.com': '10.0.0.7',
      'linklocal.example.com': '169.254.169.254',
      'v6.example.com': '::1',
      'mapped6.example.com': '::ffff:127.0.0.1',
    };
    const lookup: Resolver = async (host) => [
      { address: answers[host] ?? '127.0.0.1', family: host.startsWith('v6') ? 6 : 4 },
    ];
    const t = transport('', lookup);
    for (const host of Object.keys(answers)) {
      expect(await t.send(`https://${host}:${r.port}/`, headers, '{}')).toEqual({
        kind: 'failed',
        failure: 'forbidden',
      });
    }
    // The system resolver too: localhost is loopback.
    const system = transport('');
    expect(await system.send(`https://localhost:${r.port}/`, headers, '{}')).toEqual({
      kind: 'failed',
      failure: 'forbidden',
    });
    expect(await system.send(`https://127.0.0.1:${r.port}/`, headers, '{}')).toEqual({
      kind: 'failed',
      failure: 'forbidden',
    });
    expect(r.connections).toBe(0);
  });

  it('does not follow a redirect (a failure), and the redirect target gets no connection', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const r = await receiver((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/steal` }).end('moved'),
    );
    const t = transport(`hooks.example.com=http://127.0.0.1:${r.port}`);
    expect(await t.send('https://hooks.example.com/', headers, '{}')).toEqual({
      kind: 'failed',
      failure: 'redirect',
      status: 307,
    });
    expect(target.connections).toBe(0);
  });

  it('times out a receiver that never answers', async () => {
    const r = await receiver(() => undefined);
    const t = transport(`slow.example.com=http://127.0.0.1:${r.port}`, undefined, 300);
    expect(await t.send('https://slow.example.com/', headers, '{}')).toEqual({ kind: 'failed', failure: 'timeout' });
  });

  it('reports a refused connection as connect', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const port = r.port;
    await r.close();
    open.splice(open.indexOf(r), 1);
    const t = transport(`gone.example.com=http://127.0.0.1:${port}`);
    expect(await t.send('https://gone.example.com/', headers, '{}')).toEqual({ kind: 'failed', failure: 'connect' });
  });

  it('reads Retry-After, and discards a large body without failing', async () => {
    const r = await receiver((_req, res) => res.writeHead(429, { 'retry-after': '120' }).end('x'.repeat(1_000_000)));
    const t = transport(`busy.example.com=http://127.0.0.1:${r.port}`);
    expect(await t.send('https://busy.example.com/', headers, '{}')).toEqual({
      kind: 'answered',
      status: 429,
      retryAfterMs: 120_000,
    });
    expect(retryAfterMsOf('Sat, 28 Nov 2026 00:01:00 GMT', Date.parse('2026-11-28T00:00:00Z'))).toBe(60_000);
    expect(retryAfterMsOf('soon', 0)).toBeUndefined();
  });
});

describe('checkEndpointUrl', () => {
  const lookup: Resolver = async (host) =>
    host === 'public.example.com'
      ? [{ address: '93.184.216.34', family: 4 }]
      : host === 'mixed.example.com'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ]
        : host === 'metadata.example.com'
          ? [{ address: '169.254.169.254', family: 4 }]
          : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
  const policy = { connectTo: parseConnectTo('receiver.test=http://127.0.0.1:9'), resolve: lookup };

  it('accepts a public https host, and a KUMO_CONNECT_TO-mapped one without resolving it', async () => {
    expect((await checkEndpointUrl('https://Public.Example.com/hook#frag', policy)).href).toBe(
      'https://public.example.com/hook',
    );
    expect((await checkEndpointUrl('https://receiver.test/in', policy)).href).toBe('https://receiver.test/in');
  });

  it('refuses, as invalid_url, malformed, non-https, userinfo, too long, IP literals and non-public hosts', async () => {
    const refused = [
      'not a url',
      'http://public.example.com/',
      'https://user:pw@public.example.com/',
      `https://public.example.com/${'a'.repeat(2048)}`,
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://mixed.example.com/',
      'https://metadata.example.com/',
      'https://nowhere.example.com/',
    ];
    for (const url of refused) {
      await expect(checkEndpointUrl(url, policy), url).rejects.toMatchObject({ code: 'invalid_url' });
    }
    await expect(checkEndpointUrl('https://localhost/', { connectTo: new Map() })).rejects.toMatchObject({
      code: 'invalid_url',
      message: expect.stringContaining('non-public'),
    });
  });
});
