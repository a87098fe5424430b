// Compression over real HTTP on loopback: the API's large answers in br, gzip or deflate when asked (and the same JSON
// after decoding), small ones and unasked ones as they are, and a compressed request body never inflated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { pino } from 'pino';
import { buildApp, compressAboveBytes, type AppServices, type KumoApp } from './app.js';

let app: KumoApp;
let base: URL;

beforeAll(async () => {
  const services = {
    // One key, so that a body reaches parsing (the scrape itself is never reached here).
    accounts: {
      authenticate: async (key: string) =>
        key === 'good-key-0123456789'
          ? { account: { id: 'acc_1', plan: 'free' }, key: { id: 'key_1', operations: null, sites: null } }
          : null,
    },
    usage: { headers: async () => ({}) },
    readiness: { storage: async () => undefined, limits: async () => undefined },
  } as unknown as AppServices;
  app = await buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  base = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
});

afterAll(async () => {
  await app?.close();
});

/** One request with node:http (fetch would decode for us): status, headers and the raw bytes. */
function get(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('response compression', () => {
  it('sends /openapi.json in the encoding asked for, the same JSON once decoded, and says it varies', async () => {
    const plain = await get('/openapi.json', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const document = JSON.parse(plain.body.toString('utf8')) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    expect(plain.body.length).toBeGreaterThan(compressAboveBytes);
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync } as const;
    for (const [encoding, decode] of Object.entries(decoders)) {
      const packed = await get('/openapi.json', { 'accept-encoding': encoding });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(String(packed.headers.vary)).toMatch(/accept-encoding/i);
      expect(packed.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decode(packed.body).toString('utf8'))).toEqual(document);
    }
    // The client's order of preference among what it accepts is kept.
    const preferred = await get('/openapi.json', { 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    expect(preferred.headers['content-encoding']).toBe('gzip');
  });

  it('leaves small answers, an identity request and problems alone', async () => {
    const problem = await get('/v1/usage', { 'accept-encoding': 'gzip, br' });
    expect(problem.status).toBe(401);
    expect(problem.body.length).toBeLessThan(compressAboveBytes);
    expect(problem.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(problem.body.toString('utf8'))).toMatchObject({ code: 'unauthorized' });
    const identity = await get('/openapi.json', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const health = await get('/healthz', { 'accept-encoding': 'gzip' });
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('never inflates a compressed request body: a gzip body is refused from the catalogue, not expanded', async () => {
    // 1 MiB of JSON that gzips to about a kilobyte: were it inflated, it would pass the body limit unseen.
    const bomb = gzipSync(Buffer.from(JSON.stringify({ url: 'https://example.com/', pad: 'a'.repeat(1 << 20) })));
    expect(bomb.length).toBeLessThan(16_384);
    const answer = await get(
      '/v1/scrape',
      { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: 'Bearer good-key-0123456789' },
      'POST',
      bomb,
    );
    expect([answer.status, JSON.parse(answer.body.toString('utf8')).code]).toEqual([400, 'invalid_request']);
  });
});
