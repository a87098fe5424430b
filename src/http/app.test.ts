// The HTTP layer in-process with fakes: what leaves the process when something breaks (500, 503) and what is logged.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { connect, type AddressInfo } from 'node:net';
import { buildApp, type AppServices } from './app.js';
import type { Caller } from '../scrape/caller.js';

const caller: Caller = {
  account: { id: 'acc_test', plan: 'free', overageCapCredits: 0, createdAt: '2026-11-01T00:00:00.000Z' },
  key: {
    id: 'key_test',
    accountId: 'acc_test',
    displayPrefix: 'kumo_live_test',
    hash: 'x',
    sites: null,
    operations: null,
    outputs: null,
    monthlyCreditLimit: null,
    concurrencyLimit: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    revokedAt: null,
    expiresAt: null,
  },
};

async function appWith(overrides: Partial<Record<keyof AppServices, unknown>>) {
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  const services = {
    accounts: { authenticate: async (secret: string) => (secret === 'good-key-0123456789' ? caller : null) },
    usage: {
      headers: async () => ({
        'X-Credits-Limit': '500',
        'X-Credits-Remaining': '500',
        'X-Concurrency-Limit': '2',
        'X-Concurrency-Remaining': '2',
      }),
    },
    readiness: { storage: async () => undefined, limits: async () => undefined },
    ...overrides,
  } as unknown as AppServices;
  const app = await buildApp(services, { logger: pino({ level: 'info' }, sink), bodyLimitBytes: 16_384 });
  return { app, logs: () => logged };
}

const body = { url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592' };

describe('when something breaks', () => {
  it('an unexpected error is a 500 internal problem with the request id, and no stack or message leaves', async () => {
    const secretMessage = 'boom at /srv/kumo/dist/secret.js:12 with kumo_live_leaked';
    const { app, logs } = await appWith({
      scrape: {
        scrape: async () => {
          throw new TypeError(secretMessage);
        },
      },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/scrape',
      headers: { authorization: 'Bearer good-key-0123456789', 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const problem = res.json<Record<string, unknown>>();
    expect(problem).toMatchObject({ code: 'internal', status: 500, title: 'Internal error' });
    expect(res.headers['request-id']).toBe(problem.request_id);
    expect(res.headers['x-credits-remaining']).toBe('500');
    expect(res.body).not.toContain('secret.js');
    expect(res.body).not.toContain('kumo_live_leaked');
    // The log names the failure class for the operator, without the stack or the message.
    expect(logs()).toContain('TypeError');
    expect(logs()).not.toContain('secret.js');
    expect(logs()).not.toContain('kumo_live_leaked');
    expect(logs()).not.toContain('good-key-0123456789');
    await app.close();
  });

  // /healthz was a readiness check that answered 503 when a backend was down; issue 7 splits the two: liveness
  // (/healthz) says only that the process answers, readiness (/readyz) reports each backend.
  it('/healthz is liveness: 200 with its request id while a backend is down', async () => {
    const { app } = await appWith({
      readiness: {
        storage: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:5432');
        },
      },
    });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', request_id: res.headers['request-id'] });
    await app.close();
  });

  it('/readyz reports each backend, and answers 503 with Retry-After when one is down or hung', async () => {
    const { app } = await appWith({
      readiness: {
        storage: async () => undefined,
        limits: async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
        },
        artifacts: () => new Promise<void>(() => undefined),
      },
    });
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    const body = res.json<{ status: string; checks: Record<string, { status: string; latency_ms: number }> }>();
    expect(body).toMatchObject({
      status: 'unavailable',
      request_id: res.headers['request-id'],
      checks: { storage: { status: 'ok' }, limits: { status: 'unavailable' }, artifacts: { status: 'unavailable' } },
    });
    expect(body.checks.artifacts!.latency_ms).toBeGreaterThanOrEqual(1_900);
    expect(res.body).not.toContain('6379');
    await app.close();

    const healthy = await appWith({});
    const ok = await healthy.app.inject({ method: 'GET', url: '/readyz' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ok', checks: { storage: { status: 'ok' }, limits: { status: 'ok' } } });
    await healthy.app.close();
  });

  it('/readyz says why the browser route is down without making the instance unready (other page types still serve)', async () => {
    const { app } = await appWith({
      browser: () => ({
        ready: false,
        reason: 'no browser configured (no Chromium found and KUMO_BROWSER_WS is not set)',
      }),
    });
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      browser: { status: 'unavailable', reason: expect.stringContaining('no browser configured') },
    });
    await app.close();
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg: server shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['ioredis: closed', new Error('Connection is closed.')],
    [
      'ioredis: retries',
      Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }),
    ],
    ['sqlite: busy', Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 })],
    [
      'sqlite: read-only',
      Object.assign(new Error('attempt to write a readonly database'), { code: 'ERR_SQLITE_ERROR', errcode: 8 }),
    ],
  ])(
    'a backend outage that reaches the handler unclassified (%s) is 503 unavailable, not 500',
    async (_name, error) => {
      const { app, logs } = await appWith({
        scrape: {
          scrape: async () => {
            throw error;
          },
        },
      });
      const res = await app.inject({
        method: 'POST',
        url: '/v1/scrape',
        headers: { authorization: 'Bearer good-key-0123456789', 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code: 'unavailable', request_id: res.headers['request-id'] });
      expect(res.body).not.toMatch(/5432|ECONN|terminat|locked|readonly/);
      expect(logs()).toContain('backend unavailable');
      await app.close();
    },
  );

  it('a bug that merely mentions a connection is still a 500 internal', async () => {
    const { app } = await appWith({
      scrape: {
        scrape: async () => {
          throw new TypeError('Cannot read properties of undefined (reading connection)');
        },
      },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/scrape',
      headers: { authorization: 'Bearer good-key-0123456789', 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(500);
    await app.close();
  });

  it('a request that reaches a closing server is a 503 unavailable problem with its id, not plain JSON', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { app } = await appWith({
      scrape: {
        scrape: async () => {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          throw new Error('slow call ends');
        },
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const json = JSON.stringify(body);
    const post = `POST /v1/scrape HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer good-key-0123456789\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`;
    // A connection busy with a slow call when close() begins: the next request on it arrives while closing.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(post);
    await running;
    // The slow call is released only once the server has the second request: a fixed sleep could end first on a
    // loaded machine, and the connection would then close idle before that request arrived.
    const secondArrived = new Promise<void>((resolve) =>
      app.server.on('request', (request: { method?: string }) => {
        if (request.method === 'GET') resolve();
      }),
    );
    const closed = app.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(`GET /v1/sites HTTP/1.1\r\nHost: k\r\n\r\n`);
    await secondArrived;
    release();
    await ended;
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    const second = answers[1]!;
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('content-type: application/problem+json');
    const id = /request-id: (req_\w+)/i.exec(second)?.[1];
    expect(id).toBeDefined();
    const problem = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: 'unavailable', status: 503, request_id: id });
  });
});

describe('the key is checked before the body', () => {
  const badBodies: [string, { payload: string; contentType: string }, number, string][] = [
    ['invalid JSON', { payload: '{"url":', contentType: 'application/json' }, 400, 'invalid_request'],
    ['an empty body', { payload: '', contentType: 'application/json' }, 400, 'invalid_request'],
    ['a missing url', { payload: '{}', contentType: 'application/json' }, 400, 'invalid_request'],
    [
      'an unknown field',
      { payload: JSON.stringify({ ...body, x: 1 }), contentType: 'application/json' },
      400,
      'invalid_request',
    ],
    ['a wrong type', { payload: JSON.stringify({ url: 7 }), contentType: 'application/json' }, 400, 'invalid_request'],
    ['a __proto__ key', { payload: '{"__proto__":{"a":1}}', contentType: 'application/json' }, 400, 'invalid_request'],
    [
      'a body over the limit',
      { payload: JSON.stringify({ ...body, pad: 'x'.repeat(20_000) }), contentType: 'application/json' },
      413,
      'payload_too_large',
    ],
    ['a text/plain body', { payload: JSON.stringify(body), contentType: 'text/plain' }, 415, 'unsupported_media_type'],
  ];

  for (const [name, { payload, contentType }, status, code] of badBodies) {
    it(`${name}: 401 unauthorized without a valid key (no field named), ${status} ${code} with one`, async () => {
      let scraped = 0;
      const { app } = await appWith({
        scrape: {
          scrape: async () => {
            scraped++;
            throw new Error('never reached');
          },
        },
      });
      for (const authorization of [undefined, 'Bearer wrong-key-0123456789', 'Basic dXNlcjpwdw==']) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/scrape',
          headers: { 'content-type': contentType, ...(authorization ? { authorization } : {}) },
          payload,
        });
        expect(res.statusCode, `${authorization}`).toBe(401);
        const problem = res.json<Record<string, unknown>>();
        expect(problem).toMatchObject({ code: 'unauthorized' });
        expect(problem).not.toHaveProperty('field');
        expect(res.headers['www-authenticate']).toContain('Bearer');
      }
      const res = await app.inject({
        method: 'POST',
        url: '/v1/scrape',
        headers: { 'content-type': contentType, authorization: 'Bearer good-key-0123456789' },
        payload,
      });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code });
      expect(scraped).toBe(0);
      await app.close();
    });
  }
});
