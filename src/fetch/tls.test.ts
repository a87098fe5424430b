// TLS is always verified (test matrix D.71): a self-signed certificate on the target is fetch_failed, and no option
// exists to skip the check. The certificate is made per run with the openssl CLI; without it the test skips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KumoError } from '../errors.js';
import { parseConnectTo } from './connect-to.js';
import { InProcessHostGate } from './host-gate.js';
import { HttpFetcher } from './http-fetcher.js';

const HOST = 'tls.kumo-test.jp';
let openssl = true;
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
} catch {
  openssl = false;
  console.warn('skipping the TLS test: the openssl command is not installed');
}

let server: Server;
let dir: string;
let hits = 0;

beforeAll(async () => {
  if (!openssl) return;
  dir = mkdtempSync(join(tmpdir(), 'kumo-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${HOST}`,
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>secret</p>');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  if (!openssl) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!openssl)('TLS verification', () => {
  it('a self-signed certificate is fetch_failed after one try, and no page is read', async () => {
    const port = (server.address() as AddressInfo).port;
    const fetcher = new HttpFetcher({
      userAgent: 'KumoBot/test (+https://kumo.dev/bot)',
      connectTimeoutMs: 1_000,
      headersTimeoutMs: 1_000,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 5,
      maxAttempts: 3,
      retryBaseDelayMs: 5,
      connectTo: parseConnectTo(`${HOST}=https://127.0.0.1:${port}`),
      hostGate: new InProcessHostGate(),
      politeness: () => ({ maxInFlight: 1, minIntervalMs: 0 }),
    });
    try {
      const error = await fetcher
        .fetch({
          url: new URL(`https://${HOST}/item`),
          target: { allowedHosts: [HOST], allowedSchemes: ['https:'], acceptContentTypes: ['text/html'] },
          deadlineAt: Date.now() + 3_000,
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(KumoError);
      expect((error as KumoError).code).toBe('fetch_failed');
      expect((error as KumoError).message).toContain('TLS');
      expect((error as KumoError).extras.body?.attempts).toBe(1);
      expect(hits).toBe(0);
    } finally {
      await fetcher.close();
    }
  });
});
