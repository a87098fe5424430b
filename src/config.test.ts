// Config parsing: defaults, every problem listed at once, mode rules, frozen result.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import {
  afterExtractMarginMs,
  ConfigError,
  leaseBeyondFetchMs,
  loadConfig,
  parseOrigins,
  redactedConfig,
} from './config.js';

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.server).toEqual({ host: '127.0.0.1', port: 8080, bodyLimitBytes: 16384 });
    expect(config.storage).toEqual({ kind: 'sqlite', path: path.resolve('data/kumo.sqlite'), busyTimeoutMs: 5_000 });
    expect(config.liveness).toEqual({ heartbeatIntervalMs: 10_000, staleAfterMs: 30_000 });
    expect(config.limits).toEqual({ kind: 'in-process' });
    expect(config.bootstrap).toBeNull();
    expect(config.politenessOverride).toEqual({ maxInFlight: null, minIntervalMs: null });
    expect(config.fetch.deadlineMs).toBe(30_000);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.fetch)).toBe(true);
  });

  it('takes KUMO_TRUST_PROXY as false, a hop count or a list of proxies, and refuses true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ KUMO_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ KUMO_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ KUMO_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ KUMO_TRUST_PROXY: 'true' })).toThrow(
      /set the number of proxies in front of Kumo \(e\.g\. 1\)/,
    );
    expect(() => loadConfig({ KUMO_TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ KUMO_TRUST_PROXY: 'proxy.example' })).toThrow(/not an address/);
  });

  it('treats empty variables as unset and converts numbers', () => {
    const config = loadConfig({ PORT: '', KUMO_FETCH_MAX_ATTEMPTS: '5', KUMO_HOST_MIN_INTERVAL_MS: '0' });
    expect(config.server.port).toBe(8080);
    expect(config.fetch.maxAttempts).toBe(5);
    expect(config.politenessOverride.minIntervalMs).toBe(0);
  });

  it('gives Chromium only the short list of variables, and notices the loopback-bypass switch', () => {
    const config = loadConfig({
      PATH: '/usr/bin',
      HOME: '/home/kumo',
      DATABASE_URL: 'postgres://user:secret@db/kumo',
      REDIS_URL: 'redis://:secret@cache',
      KUMO_BOOTSTRAP_KEY: 'kumo_secret',
      PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK: '1',
    });
    expect(config.browser.env).toEqual({ PATH: '/usr/bin', HOME: '/home/kumo' });
    expect(config.browser.sandbox).toBe(true);
    expect(config.browser.loopbackBypass).toBe(true);
    expect(loadConfig({}).browser.loopbackBypass).toBe(false);
  });

  it('keeps the per-call proxies on loopback unless a remote browser needs them elsewhere', () => {
    expect(() => loadConfig({ KUMO_BROWSER_PROXY_HOST: '0.0.0.0' })).toThrow(/KUMO_BROWSER_PROXY_HOST/);
    expect(() => loadConfig({ KUMO_BROWSER_PROXY_HOST: '10.0.0.5' })).toThrow(/KUMO_BROWSER_PROXY_HOST/);
    expect(loadConfig({ KUMO_BROWSER_PROXY_HOST: '127.0.0.1' }).browser.proxyHost).toBe('127.0.0.1');
    expect(loadConfig({ KUMO_BROWSER_PROXY_HOST: '::1' }).browser.proxyHost).toBe('::1');
    expect(
      loadConfig({ KUMO_BROWSER_PROXY_HOST: '10.0.0.5', KUMO_BROWSER_WS: 'ws://browser:3000/x' }).browser.proxyHost,
    ).toBe('10.0.0.5');
  });

  it('lists every invalid variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', KUMO_FETCH_MAX_ATTEMPTS: '0', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('PORT');
    expect(message).toContain('KUMO_FETCH_MAX_ATTEMPTS');
    expect(message).toContain('LOG_LEVEL');
  });

  it('names every mistake of one start, rules between variables included, with the allowed values', () => {
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('loadConfig accepted a bad configuration');
    };
    // Before: only PORT was named, and LOG_LEVEL said "must match a schema in anyOf".
    const message = messageOf({
      PORT: 'abc',
      KUMO_TRUST_PROXY: 'true',
      LOG_LEVEL: 'verbose',
      KUMO_BROWSER_SANDBOX: 'maybe',
      KUMO_BOOTSTRAP_PLAN: 'enterprise',
      DATABASE_URL: 'postgres://db/kumo',
      KUMO_SERVER_HEADERS_TIMEOUT_MS: '40000',
      KUMO_MCP_ALLOWED_ORIGINS: 'app.example.com',
      KUMO_SECRETS_KEY: 'not-a-key-secret-value',
    });
    expect(message.split('\n')).toEqual([
      'invalid configuration (9 problems):',
      '  - PORT: must be a whole number from 0 to 65535',
      '  - LOG_LEVEL: must be one of: fatal, error, warn, info, debug, silent',
      '  - KUMO_BOOTSTRAP_PLAN: must be one of: free, starter, growth',
      '  - KUMO_BROWSER_SANDBOX: must be true or false',
      '  - DATABASE_URL (shared PostgreSQL) needs REDIS_URL for shared limits',
      '  - KUMO_SERVER_HEADERS_TIMEOUT_MS must not exceed KUMO_SERVER_REQUEST_TIMEOUT_MS',
      expect.stringMatching(/^ {2}- KUMO_TRUST_PROXY=true would trust every X-Forwarded-For entry/),
      '  - KUMO_SECRETS_KEY must be the base64 of exactly 32 bytes (openssl rand -base64 32)',
      '  - KUMO_MCP_ALLOWED_ORIGINS: "app.example.com" is not an origin like https://app.example.com',
    ]);
    // A credential is never repeated, whatever is wrong with it.
    expect(message).not.toContain('not-a-key-secret-value');
    // One mistake stays one line; a rule between variables is not checked on a value that is itself invalid.
    expect(messageOf({ KUMO_SERVER_HEADERS_TIMEOUT_MS: 'soon' })).toBe(
      'invalid configuration: KUMO_SERVER_HEADERS_TIMEOUT_MS: must be a whole number of at least 100',
    );
  });

  it('chooses PostgreSQL and Redis together, and refuses PostgreSQL alone', () => {
    const shared = loadConfig({ DATABASE_URL: 'postgres://u:secret@db/kumo', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(shared.storage).toEqual({ kind: 'postgres', url: 'postgres://u:secret@db/kumo' });
    expect(shared.limits).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6379', keyPrefix: 'kumo' });
    expect(JSON.stringify(redactedConfig(shared))).not.toContain('secret');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/kumo' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/kumo', REDIS_URL: 'redis://x' })).toThrow(/postgres/);
  });

  it('refuses a staleness bound that a live instance beating on time could pass', () => {
    expect(loadConfig({ KUMO_HEARTBEAT_INTERVAL_MS: '200', KUMO_INSTANCE_STALE_MS: '1000' }).liveness).toEqual({
      heartbeatIntervalMs: 200,
      staleAfterMs: 1_000,
    });
    expect(() => loadConfig({ KUMO_HEARTBEAT_INTERVAL_MS: '30000', KUMO_INSTANCE_STALE_MS: '30000' })).toThrow(
      /KUMO_INSTANCE_STALE_MS/,
    );
  });

  it('never shows the bootstrap key in the redacted config', () => {
    const config = loadConfig({ KUMO_BOOTSTRAP_KEY: 'kumo_live_supersecret', KUMO_BOOTSTRAP_PLAN: 'growth' });
    expect(config.bootstrap).toEqual({ key: 'kumo_live_supersecret', plan: 'growth' });
    expect(JSON.stringify(redactedConfig(config))).not.toContain('supersecret');
  });

  it('bounds what a client may hold open by default, and refuses a headers timeout above the request timeout', () => {
    expect(loadConfig({}).serverLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      timeoutCheckIntervalMs: 1_000,
      maxHeaderBytes: 16_384,
    });
    expect(() => loadConfig({ KUMO_SERVER_REQUEST_TIMEOUT_MS: '0' })).toThrow(/KUMO_SERVER_REQUEST_TIMEOUT_MS/);
    expect(() =>
      loadConfig({ KUMO_SERVER_HEADERS_TIMEOUT_MS: '20000', KUMO_SERVER_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(/must not exceed/);
  });

  it('sizes the extraction pool and the output caps', () => {
    expect(loadConfig({}).extraction).toEqual({
      workers: 0,
      deadlineMs: 10_000,
      queueWaitMs: 20_000,
      maxHeapMb: 512,
      heavyPageBytes: 262_144,
    });
    expect(loadConfig({ KUMO_EXTRACT_HEAVY_PAGE_BYTES: '1048576' }).extraction.heavyPageBytes).toBe(1_048_576);
    expect(loadConfig({}).output).toEqual({ maxRows: 10_000, maxBytes: 20 * 1024 * 1024 });
    expect(loadConfig({ KUMO_EXTRACT_WORKERS: '3' }).extraction.workers).toBe(3);
  });

  it('keeps a call inside its concurrency lease: fetch deadline + queue wait + extraction + margin', () => {
    const defaults = loadConfig({});
    // The default budget: 30 s + 20 s + 10 s + 10 s margin, within the lease of fetch deadline + 60 s.
    expect(
      defaults.fetch.deadlineMs +
        defaults.extraction.queueWaitMs +
        defaults.extraction.deadlineMs +
        afterExtractMarginMs,
    ).toBeLessThanOrEqual(defaults.fetch.deadlineMs + leaseBeyondFetchMs);
    expect(loadConfig({ KUMO_EXTRACT_QUEUE_WAIT_MS: '40000' }).extraction.queueWaitMs).toBe(40_000);
    for (const env of [
      { KUMO_EXTRACT_QUEUE_WAIT_MS: '40001' },
      { KUMO_EXTRACT_DEADLINE_MS: '30001' },
      { KUMO_EXTRACT_QUEUE_WAIT_MS: '25000', KUMO_EXTRACT_DEADLINE_MS: '25001' },
      { KUMO_EXTRACT_QUEUE_WAIT_MS: '600000', KUMO_FETCH_DEADLINE_MS: '600000' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(
        /KUMO_EXTRACT_QUEUE_WAIT_MS \+ KUMO_EXTRACT_DEADLINE_MS/,
      );
    }
    expect(() => loadConfig({ KUMO_EXTRACT_QUEUE_WAIT_MS: '0' })).toThrow(/KUMO_EXTRACT_QUEUE_WAIT_MS/);
  });

  it('bounds every wait on PostgreSQL, one operation within the margin after extraction', () => {
    const { postgres } = loadConfig({});
    expect(postgres).toEqual({
      connectTimeoutMs: 3_000,
      queryTimeoutMs: 5_000,
      idleInTransactionTimeoutMs: 10_000,
      keepAliveDelayMs: 10_000,
    });
    expect(postgres.connectTimeoutMs + postgres.queryTimeoutMs).toBeLessThanOrEqual(afterExtractMarginMs);
    expect(
      loadConfig({ KUMO_PG_CONNECT_TIMEOUT_MS: '2000', KUMO_PG_QUERY_TIMEOUT_MS: '8000' }).postgres.queryTimeoutMs,
    ).toBe(8_000);
    expect(() => loadConfig({ KUMO_PG_QUERY_TIMEOUT_MS: '8000' })).toThrow(
      /KUMO_PG_CONNECT_TIMEOUT_MS \+ KUMO_PG_QUERY_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ KUMO_PG_QUERY_TIMEOUT_MS: '0' })).toThrow(/KUMO_PG_QUERY_TIMEOUT_MS/);
  });

  it('takes KUMO_SECRETS_KEY only as the base64 of 32 bytes, naming the variable and never echoing it', () => {
    const good = Buffer.alloc(32, 9).toString('base64');
    const config = loadConfig({ KUMO_SECRETS_KEY: good });
    expect(config.serverKey).toBe(good);
    expect(JSON.stringify(redactedConfig(config))).not.toContain(good);
    expect(loadConfig({}).serverKey).toBe('');
    for (const bad of [Buffer.alloc(31, 9).toString('base64'), Buffer.alloc(33, 9).toString('base64'), 'hunter2!!']) {
      let message = '';
      try {
        loadConfig({ KUMO_SECRETS_KEY: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/KUMO_SECRETS_KEY must be the base64 of exactly 32 bytes/);
      expect(message).not.toContain(bad);
    }
  });

  it('reads the webhook timeout and retry schedule, refusing a malformed schedule', () => {
    expect(loadConfig({}).webhooks).toEqual({
      timeoutMs: 15_000,
      retryScheduleMs: [5000, 300000, 1800000, 7200000, 18000000, 36000000, 50400000, 72000000, 86400000],
    });
    expect(loadConfig({ KUMO_WEBHOOK_RETRY_SCHEDULE_MS: '10, 20' }).webhooks.retryScheduleMs).toEqual([10, 20]);
    expect(() => loadConfig({ KUMO_WEBHOOK_RETRY_SCHEDULE_MS: '10,,x' })).toThrow(/KUMO_WEBHOOK_RETRY_SCHEDULE_MS/);
  });
});

describe('KUMO_MCP_ALLOWED_ORIGINS', () => {
  it('takes bare http(s) origins, normalized, and nothing by default', () => {
    expect(parseOrigins('')).toEqual([]);
    expect(parseOrigins(' https://App.Example.com , http://127.0.0.1:3000/ ')).toEqual([
      'https://app.example.com',
      'http://127.0.0.1:3000',
    ]);
  });

  it.each(['*', 'app.example.com', 'https://app.example.com/path', 'ftp://app.example.com', 'https://a.example?x=1'])(
    'refuses %s: only an exact origin can be trusted',
    (value) => {
      expect(() => parseOrigins(value)).toThrow(ConfigError);
    },
  );
});
