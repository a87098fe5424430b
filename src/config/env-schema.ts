// Every environment variable Kumo reads, with its type, range, default and description (docs/configuration.md).
import Type from 'typebox';
import type { Static } from 'typebox';

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
