// The console over an in-process app for page tests: sessions on the given storage, one reader of the test's choosing,
// and a key's sign-in and GETs as a browser sends them.
import type { LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { buildApp, type AppServices, type KumoApp } from '../../src/http/app.js';
import type { KyselyStorage } from '../../src/storage/kysely/kysely-storage.js';
import type { Accounts } from '../../src/accounts/accounts-service.js';
import { UsageReporter } from '../../src/accounts/usage-report.js';
import { InProcessConcurrencyLimiter } from '../../src/limits/in-process-concurrency-limiter.js';
import { SiteRegistry } from '../../src/sites/registry.js';
import { ConsoleSessions } from '../../src/console/console-sessions.js';

const host = 'kumo.test';
const origin = `http://${host}`;

export interface ConsoleApp {
  app: KumoApp;
  /** Signs in with `key`; the session cookie (`name=value`). */
  signIn(key: string): Promise<string>;
  get(url: string, cookie: string, lang?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** `readers`: what the console reads besides sessions and usage (`{ batches }`, `{ monitors }`); absent = off. */
export async function consoleApp(
  storage: KyselyStorage,
  accounts: Accounts,
  readers: Record<string, unknown>,
): Promise<ConsoleApp> {
  const limiter = new InProcessConcurrencyLimiter();
  const sessions = new ConsoleSessions({
    sessions: storage.sessions,
    keys: storage.keys,
    accounts: storage.accounts,
    authenticate: (secret) => accounts.authenticate(secret),
    ttlMs: 60_000,
    signIn: { maxFailures: 10, windowMs: 60_000 },
  });
  const services = {
    accounts,
    usage: new UsageReporter({ ledger: storage.ledger, limiter }),
    requests: storage.requests,
    registry: new SiteRegistry(),
    readiness: {},
    console: { sessions, eventIntervalMs: 50, ...readers },
  } as unknown as AppServices;
  const app = await buildApp(services, {
    logger: pino({ level: 'silent' }),
    bodyLimitBytes: 16_384,
    trustProxy: false,
  });
  return {
    app,
    async signIn(key) {
      const answer = await app.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: { host, origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ key }).toString(),
      });
      const header = [answer.headers['set-cookie']].flat().find((c) => String(c).includes('kumo_console='));
      return String(header).split(';')[0]!;
    },
    get: (url, cookie, lang = 'ja') =>
      app.inject({ method: 'GET', url, headers: { host, cookie, 'accept-language': lang } }),
    close: () => app.close(),
  };
}
