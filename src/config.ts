// The one validated, frozen configuration, read from the environment; the only module that knows env var names.
import Type from 'typebox';
import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import path from 'node:path';
import { isIP } from 'node:net';

/** How far a call's concurrency lease reaches past its fetch deadline (services.ts gives it to ScrapeService). */
export const leaseBeyondFetchMs = 60_000;
/** Kept free in that reach for what follows extraction: artifact write, serialization, the settlement transaction. */
export const afterExtractMarginMs = 10_000;

const Int = (min: number, def: number, description: string, max?: number) =>
  Type.Integer({ minimum: min, ...(max === undefined ? {} : { maximum: max }), default: def, description });

/**
 * Every variable Kumo reads. docs/configuration.md and .env.example list exactly these (a test checks);
 * `default` is what applies when a variable is unset or empty.
 */
export const EnvSchema = Type.Object(
  {
    PORT: Int(0, 8080, 'TCP port the API listens on (0 = any free port).', 65535),
    HOST: Type.String({
      default: '127.0.0.1',
      description: 'Address the API binds to; 0.0.0.0 to accept remote callers.',
    }),
    LOG_LEVEL: Type.Union(
      [
        Type.Literal('fatal'),
        Type.Literal('error'),
        Type.Literal('warn'),
        Type.Literal('info'),
        Type.Literal('debug'),
        Type.Literal('silent'),
      ],
      {
        default: 'info',
        description: 'pino log level.',
      },
    ),
    KUMO_ENV: Type.Union([Type.Literal('production'), Type.Literal('development')], {
      default: 'production',
      description: 'development also serves `verifying`/`experimental` page types to keys allowed to use them.',
    }),
    KUMO_DATA_DIR: Type.String({
      default: './data',
      description:
        'Folder of the embedded SQLite database and of stored artifacts (in shared mode these are in PostgreSQL).',
    }),
    DATABASE_URL: Type.String({
      default: '',
      description: 'postgres://… to share PostgreSQL between instances; empty = embedded SQLite in KUMO_DATA_DIR.',
    }),
    REDIS_URL: Type.String({
      default: '',
      description: 'redis://… for shared concurrency leases and politeness; required with DATABASE_URL.',
    }),
    KUMO_BOOTSTRAP_KEY: Type.String({
      default: '',
      description:
        'At start, make sure an account with a key of exactly this secret exists (demos, tests, first deployments).',
    }),
    KUMO_BOOTSTRAP_PLAN: Type.Union([Type.Literal('free'), Type.Literal('starter'), Type.Literal('growth')], {
      default: 'free',
      description: 'Plan of the bootstrap account.',
    }),
    KUMO_CONNECT_TO: Type.String({
      default: '',
      description:
        'Operator-only origin override `host=http://127.0.0.1:PORT,…`; the private-address policy is waived for exactly these hosts.',
    }),
    KUMO_HOST_MAX_IN_FLIGHT: Type.Integer({
      minimum: 0,
      default: 0,
      description: 'When > 0, overrides every site’s per-host in-flight limit (hosts you own, tests, benchmarks).',
    }),
    KUMO_HOST_MIN_INTERVAL_MS: Type.Integer({
      minimum: -1,
      default: -1,
      description: 'When ≥ 0, overrides every site’s minimum spacing between requests to one host.',
    }),
    KUMO_FETCH_DEADLINE_MS: Int(
      1000,
      30_000,
      'Total wall-clock budget of one fetch, all attempts and redirects included.',
    ),
    KUMO_FETCH_CONNECT_TIMEOUT_MS: Int(100, 5_000, 'TCP/TLS connect timeout per attempt.'),
    KUMO_FETCH_HEADERS_TIMEOUT_MS: Int(100, 15_000, 'Time to receive response headers per attempt.'),
    KUMO_FETCH_MAX_BODY_BYTES: Int(
      1024,
      10 * 1024 * 1024,
      'Cap on decoded response bytes (compression bombs included).',
    ),
    KUMO_FETCH_MAX_ATTEMPTS: Int(1, 3, 'Tries per fetch for timeouts, network errors, 5xx and 429.', 10),
    KUMO_FETCH_RETRY_BASE_MS: Int(0, 250, 'First retry backoff; doubles per try, with jitter.'),
    KUMO_ROBOTS_TTL_MS: Int(
      1000,
      86_400_000,
      'How long a fetched or missing (4xx) robots.txt is trusted; RFC 9309 allows at most 24 h.',
      86_400_000,
    ),
    KUMO_ROBOTS_UNREACHABLE_TTL_MS: Int(
      1000,
      60_000,
      'How long a host whose robots.txt is unreachable (5xx, network, timeout) stays disallowed before a new try.',
      86_400_000,
    ),
    KUMO_BREAKER_FAILURES: Int(
      1,
      5,
      'Consecutive failed fetches to a host (network, timeout, 5xx, 429) that open its circuit breaker.',
    ),
    KUMO_BREAKER_COOLDOWN_MS: Int(
      100,
      30_000,
      "How long an open breaker refuses calls to the host (site_busy) before one probe; a target's Retry-After lengthens it.",
    ),
    KUMO_USER_AGENT: Type.String({
      default: 'KumoBot/0.1 (+https://kumo.dev/bot)',
      description: 'User-Agent sent to target sites; keep a contact URL in it.',
    }),
    KUMO_ARTIFACT_RETENTION_DAYS: Int(1, 7, 'How long a stored artifact (store_artifact: true) is kept.', 365),
    KUMO_BODY_LIMIT_BYTES: Int(1024, 16 * 1024, 'Largest accepted request body.'),
    KUMO_SERVER_HEADERS_TIMEOUT_MS: Int(
      100,
      10_000,
      'Time a client has to send the request headers, from its first byte (slowloris bound).',
    ),
    KUMO_SERVER_REQUEST_TIMEOUT_MS: Int(
      100,
      30_000,
      'Time a client has to send the whole request, body included; the scrape work after that is not counted.',
    ),
    KUMO_SERVER_KEEPALIVE_MS: Int(100, 5_000, 'How long an idle keep-alive connection is kept open.'),
    KUMO_SERVER_TIMEOUT_CHECK_MS: Int(
      50,
      1_000,
      'How often open connections are checked against the headers and request timeouts.',
    ),
    KUMO_SERVER_MAX_HEADER_BYTES: Int(1024, 16 * 1024, 'Largest accepted request header section (431 past it).'),
    KUMO_EXTRACT_WORKERS: Int(
      0,
      0,
      'Worker threads that parse and extract pages off the event loop; 0 = the available CPU cores.',
      256,
    ),
    KUMO_EXTRACT_DEADLINE_MS: Int(
      100,
      10_000,
      'Wall-clock budget of one parse + extract; past it the worker is stopped and the call is content_too_complex.',
    ),
    KUMO_EXTRACT_QUEUE_WAIT_MS: Int(
      100,
      20_000,
      'Longest a fetched page may wait for a free extraction worker; past it the call is 503 unavailable, free of charge.',
    ),
    KUMO_EXTRACT_MAX_HEAP_MB: Int(
      32,
      512,
      'Heap cap of one extraction worker; a page that needs more is content_too_complex.',
    ),
    KUMO_EXTRACT_HEAVY_PAGE_BYTES: Int(
      1024,
      262_144,
      "A page of more bytes is heavy: heavy pages hold at most all extraction workers but one (half of them per account), so others' pages keep a worker.",
    ),
    KUMO_OUTPUT_MAX_ROWS: Int(
      1,
      10_000,
      'Longest list (table rows, list items) served in data; longer ones are cut and say so in warnings.',
    ),
    KUMO_OUTPUT_MAX_BYTES: Int(
      1024,
      20 * 1024 * 1024,
      'Largest serialized data + html of one answer; past it the call is output_too_large, free of charge.',
    ),
    KUMO_HEARTBEAT_INTERVAL_MS: Int(
      50,
      10_000,
      'How often each instance records that it is alive and sweeps what dead instances held.',
    ),
    KUMO_INSTANCE_STALE_MS: Int(
      100,
      30_000,
      'An instance whose heartbeat is older than this is dead: its reservations and slots are freed (> heartbeat interval).',
    ),
    KUMO_REDIS_KEY_PREFIX: Type.String({
      default: 'kumo',
      description: 'Namespace of every Redis key Kumo writes (one per deployment sharing a Redis).',
    }),
    KUMO_PG_CONNECT_TIMEOUT_MS: Int(
      100,
      3_000,
      'PostgreSQL: how long taking a pooled connection (opening one included) may wait before answering 503 unavailable.',
    ),
    KUMO_PG_QUERY_TIMEOUT_MS: Int(
      100,
      5_000,
      'PostgreSQL: how long one statement may take (the server cancels it; the client gives up on a silent connection and drops it) before 503 unavailable.',
    ),
    KUMO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: Int(
      1_000,
      10_000,
      'PostgreSQL: the server ends a session that sits inside a transaction this long (a client gone silent mid-settlement), freeing its row locks.',
    ),
    KUMO_PG_KEEPALIVE_MS: Int(
      1_000,
      10_000,
      'PostgreSQL: idle time after which TCP keepalive probes a pooled connection, so a dead path is found without a query.',
    ),
    KUMO_SQLITE_BUSY_TIMEOUT_MS: Int(
      0,
      5_000,
      'How long an SQLite write waits for another process holding the write lock before answering 503 unavailable.',
    ),
    KUMO_BROWSER_PATH: Type.String({
      default: '',
      description:
        "Chromium for the browser route; empty = Debian's chromium-headless-shell (or chromium) where installed; `none` = no browser (browser page types answer 503).",
    }),
    KUMO_BROWSER_WS: Type.String({
      default: '',
      description:
        'ws://… of a remote Playwright browser server (`launchServer`) used instead of a local Chromium; it must reach KUMO_BROWSER_PROXY_HOST.',
    }),
    KUMO_BROWSER_SANDBOX: Type.Boolean({
      default: true,
      description:
        "Run Chromium inside its own sandbox. `false` is UNSAFE (a renderer exploit then runs with Kumo's rights): only for a disposable container or tests running as root without user namespaces.",
    }),
    KUMO_BROWSER_PROXY_HOST: Type.String({
      default: '127.0.0.1',
      description:
        'Address the per-call egress proxies listen on (they take no credentials): loopback, unless KUMO_BROWSER_WS is set; then an address of this host that only the remote browser reaches.',
    }),
    KUMO_BROWSER_MAX_PAGES: Int(1, 4, 'Browser pages (one fresh context each) rendering at once.', 64),
    KUMO_BROWSER_QUEUE_WAIT_MS: Int(
      0,
      5_000,
      'Longest a call waits for a free browser page; past it the call is 503 unavailable (Retry-After), free of charge.',
    ),
    KUMO_BROWSER_PAGE_DEADLINE_MS: Int(
      1000,
      20_000,
      'Budget of one render (navigation, scripts, the wait for the data); the fetch deadline applies when shorter.',
    ),
    KUMO_BROWSER_MAX_NAVIGATIONS: Int(
      1,
      5,
      'Main-frame navigations one render may make (redirects and script navigations included).',
      50,
    ),
    KUMO_BROWSER_MAX_DOM_BYTES: Int(
      1024,
      5 * 1024 * 1024,
      'Cap on the rendered HTML taken back; larger is content_too_large.',
    ),
    KUMO_BROWSER_MAX_WIRE_BYTES: Int(
      65_536,
      32 * 1024 * 1024,
      'Bytes one render may move through its egress proxy (both ways, all connections); past it the render is content_too_large.',
    ),
    KUMO_BROWSER_RECYCLE_AFTER: Int(1, 200, 'Renders one browser serves before it is replaced by a fresh one.'),
    KUMO_TRUST_PROXY: Type.String({
      default: 'false',
      description:
        'Which reverse proxies to believe: false, a hop count (1 = one proxy in front), or a comma-separated list of proxy addresses/CIDRs; client address and https are then read from X-Forwarded-For/-Proto/-Host (console cookies, sign-in limits). true is refused.',
    }),
    KUMO_CONSOLE_SESSION_MINUTES: Int(
      5,
      480,
      'How long a console sign-in lasts before the key is asked for again.',
      10_080,
    ),
    KUMO_CONSOLE_SIGN_IN_FAILURES: Int(
      1,
      10,
      'Failed console sign-ins allowed per client address and per key prefix in 15 minutes (per instance).',
    ),
    KUMO_REFUSAL_LIMIT: Int(
      1,
      100,
      'Refused calls (4xx) one key may make in KUMO_REFUSAL_WINDOW_MS (per instance); its further calls in that window are 429 rate_limited.',
    ),
    KUMO_REFUSAL_WINDOW_MS: Int(
      1_000,
      10_000,
      "The window of KUMO_REFUSAL_LIMIT, started by a key's first refusal; Retry-After says when it ends.",
      3_600_000,
    ),
    KUMO_SECRETS_KEY: Type.String({
      default: '',
      description:
        'Server key sealing webhook signing secrets and batch data keys: the base64 of exactly 32 random bytes (`openssl rand -base64 32`). Unset: the embedded default creates `secrets.key` (0600) in KUMO_DATA_DIR; shared mode (DATABASE_URL) then answers batch and webhook routes 503. Every instance sharing a database needs the same key.',
    }),
    KUMO_WEBHOOK_TIMEOUT_MS: Int(
      1000,
      15_000,
      'Budget of one webhook delivery (connect, request, response headers); past it the attempt failed and is retried.',
      120_000,
    ),
    KUMO_WEBHOOK_RETRY_SCHEDULE_MS: Type.String({
      default: '5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,86400000',
      description:
        'Waits before each webhook retry (ms, comma-separated, ±20 % jitter); a delivery is retried at most this many times and never past its batch results_expire_at.',
    }),
    KUMO_BATCH_POLL_MS: Int(
      10,
      1_000,
      "Longest wait between the batch dispatcher's looks for queued items (a submission on this instance wakes it at once; one on another instance is found within this).",
      1_000,
    ),
    KUMO_BATCH_MAX_IN_FLIGHT: Int(
      1,
      32,
      "Batch items one instance runs at once over all hosts (each host's politeness and each account's batch lane bound it further).",
      1_000,
    ),
    KUMO_BASE_URL: Type.String({
      default: 'http://127.0.0.1:8080',
      description:
        'Where `kumo batch`, `kumo monitors` and `kumo mcp` send their API requests (the server, or the proxy in front of it); ' +
        'unused by the server.',
    }),
    KUMO_MCP_ALLOWED_ORIGINS: Type.String({
      default: '',
      description:
        'Browser origins (comma-separated, e.g. https://app.example.com) allowed to call POST /mcp besides the ' +
        "server's own, with CORS; a request with any other Origin header is refused 403 (DNS rebinding). Empty: same origin only.",
    }),
    KUMO_API_KEY: Type.String({
      default: '',
      description:
        'The API key `kumo batch`, `kumo monitors` and `kumo mcp` send as their bearer token (needs the batch or ' +
        'monitor operation for those commands); unused by the server.',
    }),
  },
  { additionalProperties: true },
);

export type Env = Static<typeof EnvSchema>;
export const envVariableNames = Object.keys(EnvSchema.properties) as (keyof Env)[];

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

/** What Fastify may safely trust: never every hop (the leftmost X-Forwarded-For entry is the client's to forge). */
export type TrustProxy = false | number | string[];

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `KUMO_TRUST_PROXY` → false, a hop count, or a list of addresses/CIDRs; a message naming the problem otherwise. */
export function parseTrustProxy(value: string): TrustProxy | { problem: string } {
  const text = value.trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    return {
      problem:
        'KUMO_TRUST_PROXY=true would trust every X-Forwarded-For entry, which a client can forge; set the number of proxies in front of Kumo (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { problem: 'KUMO_TRUST_PROXY: a hop count must be at most 10' };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (proxyNames.has(entry)) continue;
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || rest.length > 0) {
      return { problem: `KUMO_TRUST_PROXY: "${entry}" is not an address, a CIDR, loopback, linklocal or uniquelocal` };
    }
  }
  return entries;
}

/** `KUMO_MCP_ALLOWED_ORIGINS` → normalized origins; anything that is not a bare http(s) origin is refused. */
export function parseOrigins(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry) => {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '').toLowerCase())
      throw new ConfigError(
        `invalid configuration: KUMO_MCP_ALLOWED_ORIGINS: "${entry}" is not an origin like https://app.example.com`,
      );
    return url.origin;
  });
}

export class ConfigError extends Error {
  override name = 'ConfigError';
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
  const retryScheduleMs = env.KUMO_WEBHOOK_RETRY_SCHEDULE_MS.split(',').map((part) => part.trim());
  if (retryScheduleMs.some((part) => !/^\d{1,9}$/.test(part))) {
    problems.push('KUMO_WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated whole milliseconds');
  }
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
    webhooks: { timeoutMs: env.KUMO_WEBHOOK_TIMEOUT_MS, retryScheduleMs: retryScheduleMs.map(Number) },
    batches: { pollMs: env.KUMO_BATCH_POLL_MS, maxInFlight: env.KUMO_BATCH_MAX_IN_FLIGHT },
    client: { baseUrl: env.KUMO_BASE_URL.replace(/\/+$/, ''), apiKey: env.KUMO_API_KEY },
    mcp: { allowedOrigins },
  };
  return deepFreeze(config);
}

/** One line per problem, so that a start with several mistakes names them all (exit status 2, main.ts). */
function invalidConfigurationMessage(problems: readonly string[]): string {
  if (problems.length === 1) return `invalid configuration: ${problems[0]}`;
  return `invalid configuration (${problems.length} problems):\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}

/**
 * What a variable must be, from its schema: the allowed values of an enumeration, the range of a number. The value
 * given is never repeated (some variables hold credentials).
 */
function expectation(schema: unknown, value: unknown): string {
  const s = schema as {
    anyOf?: { const?: unknown }[];
    type?: string;
    minimum?: number;
    maximum?: number;
  };
  if (s.anyOf && s.anyOf.every((branch) => 'const' in branch)) {
    return `must be one of: ${s.anyOf.map((branch) => String(branch.const)).join(', ')}`;
  }
  if (s.type === 'integer') {
    const range = s.maximum === undefined ? `of at least ${s.minimum ?? 0}` : `from ${s.minimum ?? 0} to ${s.maximum}`;
    return `must be a whole number ${range}`;
  }
  if (s.type === 'boolean') return 'must be true or false';
  const last = [...Value.Errors(schema as TSchema, value)].at(-1);
  return last?.message ?? 'is invalid';
}

/**
 * What Chromium may see of the environment: where programs, home, temp files, locale and fonts are. Nothing else
 * passes (DATABASE_URL, REDIS_URL, KUMO_* hold credentials a compromised renderer must not read).
 */
export const browserEnvironmentNames = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
] as const;

function browserEnvironment(source: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of browserEnvironmentNames) {
    const value = source[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** Standard or url-safe base64, padding optional, decoding to exactly 32 bytes (Node's decoder skips bad characters). */
function isBase64Of32Bytes(text: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return false;
  return Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64').length === 32;
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
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
