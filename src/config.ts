// The one validated, frozen configuration, read from the environment; the only module that knows env var names.
// The variables' schema and the formats of single values live in src/config/; loadConfig is the one entry point.
import Value from 'typebox/value';
import path from 'node:path';
import { EnvSchema, envVariableNames, type Env } from './config/env-schema.js';
import { ConfigError, expectation, invalidConfigurationMessage } from './config/config-error.js';
import {
  isBase64Of32Bytes,
  isLoopbackHost,
  parseOrigins,
  parseRetrySchedule,
  parseTrustProxy,
  type TrustProxy,
} from './config/value-formats.js';
import { browserEnvironment } from './config/browser-environment.js';
import { afterExtractMarginMs, leaseBeyondFetchMs } from './config/call-budget.js';

// What the rest of Kumo (and the tests, docs and deployment checks) read of the config, all from this one module.
export { EnvSchema, envVariableNames, type Env } from './config/env-schema.js';
export { ConfigError } from './config/config-error.js';
export { parseOrigins, parseTrustProxy, type TrustProxy } from './config/value-formats.js';
export { browserEnvironmentNames } from './config/browser-environment.js';
export { afterExtractMarginMs, leaseBeyondFetchMs } from './config/call-budget.js';

export interface Config {
  server: { host: string; port: number; bodyLimitBytes: number };
  log: { level: Env['LOG_LEVEL'] };
  environment: Env['KUMO_ENV'];
  dataDir: string;
  storage: { kind: 'sqlite'; path: string; busyTimeoutMs: number } | { kind: 'postgres'; url: string };
  limits: { kind: 'in-process' } | { kind: 'redis'; url: string; keyPrefix: string };
  /** Bounds on PostgreSQL (used only with DATABASE_URL), so a silent database fails a call instead of holding it. */
  postgres: {
    connectTimeoutMs: number;
    queryTimeoutMs: number;
    idleInTransactionTimeoutMs: number;
    keepAliveDelayMs: number;
  };
  /** Instance heartbeat and the sweep of what dead instances held (docs/architecture.md, liveness). */
  liveness: { heartbeatIntervalMs: number; staleAfterMs: number };
  bootstrap: { key: string; plan: Env['KUMO_BOOTSTRAP_PLAN'] } | null;
  connectTo: string;
  politenessOverride: { maxInFlight: number | null; minIntervalMs: number | null };
  fetch: {
    deadlineMs: number;
    connectTimeoutMs: number;
    headersTimeoutMs: number;
    maxBodyBytes: number;
    maxAttempts: number;
    retryBaseDelayMs: number;
    userAgent: string;
  };
  robots: { ttlMs: number; unreachableTtlMs: number };
  breaker: { failureThreshold: number; cooldownMs: number };
  artifacts: { dir: string; retentionMs: number };
  /** Bounds on what a client may hold open (Node's http server timeouts). */
  serverLimits: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    timeoutCheckIntervalMs: number;
    maxHeaderBytes: number;
  };
  /** The parse + extract worker pool; workers 0 = available cores. */
  extraction: { workers: number; deadlineMs: number; queueWaitMs: number; maxHeapMb: number; heavyPageBytes: number };
  output: { maxRows: number; maxBytes: number };
  /** The browser route: `path` '' = find Debian's Chromium, null = none; a `wsEndpoint` replaces the local browser. */
  browser: {
    path: string | null;
    wsEndpoint: string | null;
    /** Chromium's own sandbox (off only where it cannot start: root without user namespaces, tests). */
    sandbox: boolean;
    /** The few variables Chromium is given (never the whole environment: it holds database URLs and keys). */
    env: Record<string, string>;
    /**
     * PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set: Playwright would then drop `<-loopback>` and let
     * loopback bypass the egress proxy, so the browser route refuses to start.
     */
    loopbackBypass: boolean;
    proxyHost: string;
    maxPages: number;
    queueWaitMs: number;
    pageDeadlineMs: number;
    maxNavigations: number;
    maxDomBytes: number;
    maxWireBytes: number;
    recycleAfter: number;
  };
  /** Fastify trustProxy: false, a hop count, or the proxies' addresses/CIDRs (docs/console.md). */
  trustProxy: TrustProxy;
  console: { sessionTtlMs: number; signInFailures: number; signInWindowMs: number };
  /** The refusal limit (src/limits/refusal-limiter.ts): refusals a key may make per window before 429 rate_limited. */
  refusals: { maxRefusals: number; windowMs: number };
  /** KUMO_SECRETS_KEY as given ('' = unset; checked to be the base64 of 32 bytes). Never logged. */
  serverKey: string;
  /** Webhook delivery: one attempt's budget and the waits before each retry. */
  webhooks: { timeoutMs: number; retryScheduleMs: number[] };
  /** The batch dispatcher of each instance: its poll interval and how many items it runs at once. */
  batches: { pollMs: number; maxInFlight: number };
  /** The `kumo batch` client's server and key (the server itself never reads them). */
  client: { baseUrl: string; apiKey: string };
  /** POST /mcp: browser origins allowed besides the server's own (lower-case `scheme://host[:port]`). */
  mcp: { allowedOrigins: string[] };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Parses an environment (process.env in production, a literal object in tests); lists every problem at once. */
export function loadConfig(source: Record<string, string | undefined>): Readonly<Config> {
  const raw: Record<string, unknown> = {};
  for (const name of envVariableNames) {
    const value = source[name];
    // An empty variable means "use the default", as in most shells' `VAR=` idiom.
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  // Every mistake is collected and named in one start, not one per restart: each variable is checked on its own,
  // then the rules between variables whose values are themselves valid.
  const problems: string[] = [];
  const bad = new Set<string>();
  for (const name of envVariableNames) {
    const schema = EnvSchema.properties[name];
    const value = (converted as Record<string, unknown>)[name];
    if (!Value.Check(schema, value)) {
      bad.add(name);
      problems.push(`${name}: ${expectation(schema, value)}`);
    }
  }
  const env = converted as Env;
  const valid = (...names: (keyof Env)[]) => names.every((name) => !bad.has(name));

  if (env.DATABASE_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  if (env.KUMO_BROWSER_WS && !/^wss?:\/\//.test(env.KUMO_BROWSER_WS)) {
    problems.push('KUMO_BROWSER_WS must start with ws:// or wss://');
  }
  // The per-call proxies carry no credentials: off loopback, anything that reaches the address could use them (and
  // through KUMO_CONNECT_TO mappings reach private origins). Only a remote browser needs them elsewhere.
  if (!env.KUMO_BROWSER_WS && !isLoopbackHost(env.KUMO_BROWSER_PROXY_HOST)) {
    problems.push('KUMO_BROWSER_PROXY_HOST must be a loopback address unless KUMO_BROWSER_WS is set');
  }
  if (!/^https?:\/\/[^/?#]+/.test(env.KUMO_BASE_URL)) {
    problems.push('KUMO_BASE_URL must be an http:// or https:// URL');
  }
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL)) {
    problems.push('REDIS_URL must start with redis:// or rediss://');
  }
  // Limits held in one process are wrong as soon as a second instance shares the database.
  if (env.DATABASE_URL && !env.REDIS_URL) {
    problems.push('DATABASE_URL (shared PostgreSQL) needs REDIS_URL for shared limits');
  }

  // Node refuses a headers timeout above the request timeout: say so by name instead of failing at listen.
  if (
    valid('KUMO_SERVER_HEADERS_TIMEOUT_MS', 'KUMO_SERVER_REQUEST_TIMEOUT_MS') &&
    env.KUMO_SERVER_HEADERS_TIMEOUT_MS > env.KUMO_SERVER_REQUEST_TIMEOUT_MS
  ) {
    problems.push('KUMO_SERVER_HEADERS_TIMEOUT_MS must not exceed KUMO_SERVER_REQUEST_TIMEOUT_MS');
  }
  // A heartbeat slower than the staleness bound would have live instances swept as dead.
  if (
    valid('KUMO_INSTANCE_STALE_MS', 'KUMO_HEARTBEAT_INTERVAL_MS') &&
    env.KUMO_INSTANCE_STALE_MS <= env.KUMO_HEARTBEAT_INTERVAL_MS
  ) {
    problems.push('KUMO_INSTANCE_STALE_MS must exceed KUMO_HEARTBEAT_INTERVAL_MS');
  }

  // A call must end inside its concurrency lease (fetch deadline + 60 s; its credit hold is fetch deadline + 120 s):
  // the fetch has its own deadline, so after it the wait for a worker and the extraction, plus a margin for the
  // database steps, artifact and serialization, must fit in the other 60 s. Defaults: 30 s + 20 s + 10 s + 10 s
  // margin = 70 s < 90 s lease.
  if (
    valid('KUMO_EXTRACT_QUEUE_WAIT_MS', 'KUMO_EXTRACT_DEADLINE_MS') &&
    env.KUMO_EXTRACT_QUEUE_WAIT_MS + env.KUMO_EXTRACT_DEADLINE_MS + afterExtractMarginMs > leaseBeyondFetchMs
  ) {
    problems.push(
      `KUMO_EXTRACT_QUEUE_WAIT_MS + KUMO_EXTRACT_DEADLINE_MS must not exceed ${
        leaseBeyondFetchMs - afterExtractMarginMs
      } ms, or a call could outlive its concurrency lease (KUMO_FETCH_DEADLINE_MS + ${leaseBeyondFetchMs} ms)`,
    );
  }

  // One storage operation on a silent database gives up within connect + query timeout; that must fit in the margin
  // kept after extraction. A settlement whose COMMIT meets the silence adds its read-back (at most about 7 s); a
  // database that answers slowly can take the query timeout per statement (docs/architecture.md, "Backend outages").
  if (
    valid('KUMO_PG_CONNECT_TIMEOUT_MS', 'KUMO_PG_QUERY_TIMEOUT_MS') &&
    env.KUMO_PG_CONNECT_TIMEOUT_MS + env.KUMO_PG_QUERY_TIMEOUT_MS > afterExtractMarginMs
  ) {
    problems.push(`KUMO_PG_CONNECT_TIMEOUT_MS + KUMO_PG_QUERY_TIMEOUT_MS must not exceed ${afterExtractMarginMs} ms`);
  }

  const parsedTrust = parseTrustProxy(env.KUMO_TRUST_PROXY);
  let trustProxy: TrustProxy = false;
  if (!Array.isArray(parsedTrust) && typeof parsedTrust === 'object') problems.push(parsedTrust.problem);
  else trustProxy = parsedTrust;

  // Checked here so a bad key stops the start with the variable named; the value itself is never echoed.
  if (env.KUMO_SECRETS_KEY !== '' && !isBase64Of32Bytes(env.KUMO_SECRETS_KEY)) {
    problems.push('KUMO_SECRETS_KEY must be the base64 of exactly 32 bytes (openssl rand -base64 32)');
  }
  const parsedSchedule = parseRetrySchedule(env.KUMO_WEBHOOK_RETRY_SCHEDULE_MS);
  let retryScheduleMs: number[] = [];
  if (Array.isArray(parsedSchedule)) retryScheduleMs = parsedSchedule;
  else problems.push(parsedSchedule.problem);
  let allowedOrigins: string[] = [];
  try {
    allowedOrigins = parseOrigins(env.KUMO_MCP_ALLOWED_ORIGINS);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message.replace(/^invalid configuration: /, ''));
  }
  if (problems.length > 0) throw new ConfigError(invalidConfigurationMessage(problems));

  const dataDir = path.resolve(env.KUMO_DATA_DIR);
  const config: Config = {
    server: { host: env.HOST, port: env.PORT, bodyLimitBytes: env.KUMO_BODY_LIMIT_BYTES },
    log: { level: env.LOG_LEVEL },
    environment: env.KUMO_ENV,
    dataDir,
    storage: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'sqlite', path: path.join(dataDir, 'kumo.sqlite'), busyTimeoutMs: env.KUMO_SQLITE_BUSY_TIMEOUT_MS },
    limits: env.REDIS_URL
      ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: env.KUMO_REDIS_KEY_PREFIX }
      : { kind: 'in-process' },
    postgres: {
      connectTimeoutMs: env.KUMO_PG_CONNECT_TIMEOUT_MS,
      queryTimeoutMs: env.KUMO_PG_QUERY_TIMEOUT_MS,
      idleInTransactionTimeoutMs: env.KUMO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveDelayMs: env.KUMO_PG_KEEPALIVE_MS,
    },
    liveness: { heartbeatIntervalMs: env.KUMO_HEARTBEAT_INTERVAL_MS, staleAfterMs: env.KUMO_INSTANCE_STALE_MS },
    bootstrap: env.KUMO_BOOTSTRAP_KEY ? { key: env.KUMO_BOOTSTRAP_KEY, plan: env.KUMO_BOOTSTRAP_PLAN } : null,
    connectTo: env.KUMO_CONNECT_TO,
    politenessOverride: {
      maxInFlight: env.KUMO_HOST_MAX_IN_FLIGHT > 0 ? env.KUMO_HOST_MAX_IN_FLIGHT : null,
      minIntervalMs: env.KUMO_HOST_MIN_INTERVAL_MS >= 0 ? env.KUMO_HOST_MIN_INTERVAL_MS : null,
    },
    fetch: {
      deadlineMs: env.KUMO_FETCH_DEADLINE_MS,
      connectTimeoutMs: env.KUMO_FETCH_CONNECT_TIMEOUT_MS,
      headersTimeoutMs: env.KUMO_FETCH_HEADERS_TIMEOUT_MS,
      maxBodyBytes: env.KUMO_FETCH_MAX_BODY_BYTES,
      maxAttempts: env.KUMO_FETCH_MAX_ATTEMPTS,
      retryBaseDelayMs: env.KUMO_FETCH_RETRY_BASE_MS,
      userAgent: env.KUMO_USER_AGENT,
    },
    robots: { ttlMs: env.KUMO_ROBOTS_TTL_MS, unreachableTtlMs: env.KUMO_ROBOTS_UNREACHABLE_TTL_MS },
    breaker: { failureThreshold: env.KUMO_BREAKER_FAILURES, cooldownMs: env.KUMO_BREAKER_COOLDOWN_MS },
    artifacts: { dir: path.join(dataDir, 'artifacts'), retentionMs: env.KUMO_ARTIFACT_RETENTION_DAYS * 86_400_000 },
    serverLimits: {
      headersTimeoutMs: env.KUMO_SERVER_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.KUMO_SERVER_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.KUMO_SERVER_KEEPALIVE_MS,
      timeoutCheckIntervalMs: env.KUMO_SERVER_TIMEOUT_CHECK_MS,
      maxHeaderBytes: env.KUMO_SERVER_MAX_HEADER_BYTES,
    },
    extraction: {
      workers: env.KUMO_EXTRACT_WORKERS,
      deadlineMs: env.KUMO_EXTRACT_DEADLINE_MS,
      queueWaitMs: env.KUMO_EXTRACT_QUEUE_WAIT_MS,
      maxHeapMb: env.KUMO_EXTRACT_MAX_HEAP_MB,
      heavyPageBytes: env.KUMO_EXTRACT_HEAVY_PAGE_BYTES,
    },
    output: { maxRows: env.KUMO_OUTPUT_MAX_ROWS, maxBytes: env.KUMO_OUTPUT_MAX_BYTES },
    browser: {
      path: env.KUMO_BROWSER_PATH === 'none' ? null : env.KUMO_BROWSER_PATH,
      wsEndpoint: env.KUMO_BROWSER_WS || null,
      sandbox: env.KUMO_BROWSER_SANDBOX,
      env: browserEnvironment(source),
      // Any non-empty value, as Playwright reads it.
      loopbackBypass: Boolean(source.PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK),
      proxyHost: env.KUMO_BROWSER_PROXY_HOST,
      maxPages: env.KUMO_BROWSER_MAX_PAGES,
      queueWaitMs: env.KUMO_BROWSER_QUEUE_WAIT_MS,
      pageDeadlineMs: env.KUMO_BROWSER_PAGE_DEADLINE_MS,
      maxNavigations: env.KUMO_BROWSER_MAX_NAVIGATIONS,
      maxDomBytes: env.KUMO_BROWSER_MAX_DOM_BYTES,
      maxWireBytes: env.KUMO_BROWSER_MAX_WIRE_BYTES,
      recycleAfter: env.KUMO_BROWSER_RECYCLE_AFTER,
    },
    trustProxy,
    console: {
      sessionTtlMs: env.KUMO_CONSOLE_SESSION_MINUTES * 60_000,
      signInFailures: env.KUMO_CONSOLE_SIGN_IN_FAILURES,
      signInWindowMs: 15 * 60_000,
    },
    refusals: { maxRefusals: env.KUMO_REFUSAL_LIMIT, windowMs: env.KUMO_REFUSAL_WINDOW_MS },
    serverKey: env.KUMO_SECRETS_KEY,
    webhooks: { timeoutMs: env.KUMO_WEBHOOK_TIMEOUT_MS, retryScheduleMs },
    batches: { pollMs: env.KUMO_BATCH_POLL_MS, maxInFlight: env.KUMO_BATCH_MAX_IN_FLIGHT },
    client: { baseUrl: env.KUMO_BASE_URL.replace(/\/+$/, ''), apiKey: env.KUMO_API_KEY },
    mcp: { allowedOrigins },
  };
  return deepFreeze(config);
}

/** The process environment, read here and nowhere else. */
export function loadConfigFromProcess(): Readonly<Config> {
  return loadConfig(process.env);
}

/** For the startup log line: the effective config with credentials removed. */
export function redactedConfig(config: Readonly<Config>): Record<string, unknown> {
  const hideUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
  return {
    ...config,
    storage:
      config.storage.kind === 'postgres' ? { kind: 'postgres', url: hideUrl(config.storage.url) } : config.storage,
    limits: config.limits.kind === 'redis' ? { ...config.limits, url: hideUrl(config.limits.url) } : config.limits,
    bootstrap: config.bootstrap ? { key: '***', plan: config.bootstrap.plan } : null,
    serverKey: config.serverKey ? 'set' : 'unset',
    client: { baseUrl: hideUrl(config.client.baseUrl), apiKey: config.client.apiKey ? '***' : '' },
    // A remote browser's endpoint may carry a token in its path or query.
    browser: {
      ...config.browser,
      env: Object.keys(config.browser.env),
      wsEndpoint: config.browser.wsEndpoint ? '***' : null,
    },
  };
}
