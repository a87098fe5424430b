// The egress proxy on its own, spoken to with raw sockets: what a hostile page could ask of it, and what it refuses.
import { globalAgent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConnectTo } from '../fetch/connect-to.js';
import { startOrigin, type Origin } from '../../test/support/origin.js';
import { EgressProxy } from './egress-proxy.js';

let internal: Origin;
let site: Origin;
const proxies: EgressProxy[] = [];

beforeAll(async () => {
  internal = await startOrigin();
  site = await startOrigin();
  site.route('GET', '/', { status: 200, headers: { 'content-type': 'text/plain' }, body: 'site' });
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await internal.close();
  await site.close();
});

async function proxyFor(extra: { lookupTo?: string } = {}): Promise<EgressProxy> {
  const proxy = await EgressProxy.open({
    policy: { allowedHosts: ['shop.example', 'rebind.example', 'cdn.example'], allowedSchemes: ['https:', 'http:'] },
    connectTo: parseConnectTo(`shop.example=${site.url}`),
    // Every name resolves to loopback (or what the test says): only the operator mapping may reach it.
    lookup: async () => [{ address: extra.lookupTo ?? '127.0.0.1', family: 4 }],
    bindHost: '127.0.0.1',
    connectTimeoutMs: 500,
  });
  proxies.push(proxy);
  return proxy;
}

/** Sends raw bytes to the proxy and returns what it answers until it closes (or 1 s passes). */
async function exchange(proxy: EgressProxy, text: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.startsWith('HTTP/1.1 200 Connection Established')) done();
    });
    socket.on('close', done);
    socket.on('error', done);
    setTimeout(done, 1000);
    socket.write(text);
  });
}

describe('the egress proxy', () => {
  it('keeps at most maxConnections target connections open for a render; one more is refused', async () => {
    const proxy = await EgressProxy.open({
      policy: { allowedHosts: ['shop.example'], allowedSchemes: ['https:'] },
      connectTo: parseConnectTo(`shop.example=${site.url}`),
      bindHost: '127.0.0.1',
      connectTimeoutMs: 500,
      maxConnections: 1,
    });
    proxies.push(proxy);
    const { port } = new URL(proxy.url);
    const held = connect(Number(port), '127.0.0.1');
    try {
      await new Promise<void>((resolve) => {
        held.on('data', (chunk) => {
          if (chunk.toString('latin1').startsWith('HTTP/1.1 200')) resolve();
        });
        held.write('CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\n\r\n');
      });
      const second = await exchange(proxy, 'CONNECT shop.example:443 HTTP/1.1\r\nHost: shop.example:443\r\n\r\n');
      expect(second).toMatch(/^HTTP\/1.1 403/);
      expect(proxy.refusals).toEqual(['too_many_connections']);
    } finally {
      held.destroy();
    }
  });

  it("forwards plain HTTP on a connection of its own, never through Node's shared keep-alive agent", async () => {
    const proxy = await proxyFor();
    const pooled = () =>
      Object.values(globalAgent.sockets).flat().length + Object.values(globalAgent.freeSockets).flat().length;
    let seen = 0;
    const watcher = setInterval(() => (seen = Math.max(seen, pooled())), 1);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          exchange(proxy, 'GET http://shop.example/ HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n'),
        ),
      );
      for (const answer of answers) expect(answer).toContain('site');
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      clearInterval(watcher);
    }
    seen = Math.max(seen, pooled());
    expect(seen).toBe(0);
  });

  it('refuses CONNECT to an IP literal, a host outside the site, and a non-default port, without connecting', async () => {
    const proxy = await proxyFor();
    const { port } = internal;
    expect(await exchange(proxy, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).toMatch(
      /^HTTP\/1.1 403/,
    );
    expect(await exchange(proxy, `CONNECT [::1]:${port} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403/);
    expect(await exchange(proxy, 'CONNECT internal.example:443 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1.1 403/);
    expect(await exchange(proxy, `CONNECT cdn.example:${port} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403/);
    expect(proxy.refusals).toEqual(['ip_literal', 'ip_literal', 'not_allowed_host', 'port']);
    expect(proxy.connections).toBe(0);
    expect(internal.accepts).toBe(0);
  });

  it('refuses an allowed name that resolves to loopback, link-local or private space (every answer checked)', async () => {
    for (const address of ['127.0.0.1', '169.254.169.254', '10.0.0.8', '::ffff:7f00:1', '::1']) {
      const proxy = await proxyFor({ lookupTo: address });
      expect(await exchange(proxy, 'CONNECT rebind.example:443 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1.1 403/);
      expect(proxy.refusals).toEqual(['non_public_address']);
      expect(proxy.connections).toBe(0);
    }
  });

  it('refuses plain-HTTP and WebSocket requests in absolute form to forbidden places', async () => {
    const proxy = await proxyFor();
    const { port } = internal;
    expect(await exchange(proxy, `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).toMatch(
      /^HTTP\/1.1 403/,
    );
    expect(
      await exchange(
        proxy,
        'GET http://rebind.example/ HTTP/1.1\r\nHost: rebind.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      ),
    ).toMatch(/^HTTP\/1.1 403/);
    // Origin form (not a proxy request at all) is refused too: the proxy is not a web server for the machine.
    expect(await exchange(proxy, 'GET / HTTP/1.1\r\nHost: shop.example\r\n\r\n')).toMatch(/^HTTP\/1.1 403/);
    expect(proxy.connections).toBe(0);
    expect(internal.accepts).toBe(0);
  });

  it('reaches an operator-mapped host, and only at its mapped origin', async () => {
    const proxy = await proxyFor();
    const before = site.hits('/');
    const answer = await exchange(
      proxy,
      'GET http://shop.example/ HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('site');
    expect(site.hits('/')).toBe(before + 1);
    expect(site.requests('/').at(-1)?.headers.host).toBe('shop.example');
    expect(await exchange(proxy, 'CONNECT shop.example:443 HTTP/1.1\r\n\r\n')).toMatch(/^HTTP\/1.1 200/);
    expect(proxy.connections).toBe(2);
    expect(internal.accepts).toBe(0);
  });

  it('resolves each host once: a rebinding answer later in the render is never used', async () => {
    let calls = 0;
    const proxy = await EgressProxy.open({
      policy: { allowedHosts: ['cdn.example'], allowedSchemes: ['https:'] },
      connectTo: new Map(),
      // First a public address (nothing listens there from this machine's point of view), then loopback.
      lookup: async () => [{ address: calls++ === 0 ? '192.0.2.10' : '127.0.0.1', family: 4 }],
      bindHost: '127.0.0.1',
      connectTimeoutMs: 200,
    });
    proxies.push(proxy);
    // 192.0.2.0/24 is documentation space, not global unicast: refused; the second ask reuses that verdict.
    await exchange(proxy, 'CONNECT cdn.example:443 HTTP/1.1\r\n\r\n');
    await exchange(proxy, 'CONNECT cdn.example:443 HTTP/1.1\r\n\r\n');
    expect(calls).toBe(1);
    expect(proxy.refusals).toEqual(['non_public_address', 'non_public_address']);
  });
});
