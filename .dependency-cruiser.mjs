// The import rules of docs/architecture.md ("Folders"), enforced by `npm run lint`: each folder uses only what its row allows.

/**
 * Each folder (or top-level module) of src/ and what it may import from the rest of src/ besides itself,
 * src/errors.ts and src/time/ (which every folder may use). Paths are regular expressions from the repository root.
 * Tests (`*.test.ts`) and contract suites (`*.contract.ts`) may import anything.
 */
const mayUse = {
  'src/errors\\.ts$': [],
  // The config's parts (the variables' schema, value formats, the call budget); other folders import src/config.ts.
  'src/config\\.ts$': ['src/config/'],
  'src/config/': [],
  'src/logger\\.ts$': [],
  'src/time/': [],
  // The entry checks the Node version before it imports the server (so nothing else may load first).
  'src/main\\.ts$': ['src/node-version\\.ts$', 'src/server\\.ts$'],
  'src/node-version\\.ts$': [],
  'src/server\\.ts$': ['src/config\\.ts$', 'src/services\\.ts$', 'src/http/', 'src/logger\\.ts$'],
  // npm start's build step runs from source before any build exists: Node's modules only.
  'src/prestart\\.mjs$': [],
  // The composition root and the command line build everything (the CLI never the HTTP app).
  'src/services\\.ts$': ['src/'],
  // The root's storage part, which the CLI's account commands open without the rest of the server.
  'src/open-storage\\.ts$': ['src/config\\.ts$', 'src/storage/'],
  'src/cli/': ['src/(?!http/)'],
  'src/http/': [
    'src/scrape/',
    'src/accounts/',
    'src/sites/',
    'src/extract/page-types\\.ts$',
    'src/console/',
    'src/storage/storage\\.ts$',
    'src/artifacts/artifact-store\\.ts$',
    'src/cache/result-cache\\.ts$',
    'src/fetch/url-policy\\.ts$',
    'src/backends/',
    'src/metrics/metrics\\.ts$',
    'src/config\\.ts$',
    'src/limits/refusal-limiter\\.ts$',
    'src/batches/',
    'src/webhooks/',
    'src/monitors/',
    'src/secrets/secret-box\\.ts$',
    'src/mcp/',
  ],
  // The MCP tools: defined over the KumoApi port from the API's own schemas (the server injects, `kumo mcp` fetches).
  'src/mcp/': ['src/http/schemas\\.ts$', 'src/http/monitor-schemas\\.ts$'],
  'src/scrape/': [
    'src/fetch/fetcher\\.ts$',
    'src/fetch/url-policy\\.ts$',
    'src/storage/storage\\.ts$',
    'src/limits/concurrency-limiter\\.ts$',
    'src/normalize/',
    'src/extract/',
    'src/sites/',
    'src/accounts/',
    'src/artifacts/artifact-store\\.ts$',
    'src/cache/freshness\\.ts$',
    'src/cache/result-cache\\.ts$',
    'src/backends/',
    'src/metrics/metrics\\.ts$',
  ],
  // The result cache (DESIGN §10): the steps of a call, the key (pure) and the store, on the storage's Kysely schema.
  'src/cache/': [
    'src/sites/',
    'src/extract/extractor\\.ts$',
    'src/storage/kysely/schema\\.ts$',
    'src/storage/kysely/columns\\.ts$',
  ],
  'src/fetch/': ['src/metrics/metrics\\.ts$', 'src/backends/'],
  'src/browser/': ['src/fetch/'],
  'src/normalize/': [],
  'src/extract/': ['src/normalize/'],
  'src/sites/': ['src/extract/', 'src/normalize/', 'src/fetch/fetcher\\.ts$'],
  'src/accounts/': ['src/storage/storage\\.ts$', 'src/limits/concurrency-limiter\\.ts$', 'src/sites/site\\.ts$'],
  'src/limits/': ['src/backends/', 'src/accounts/ids\\.ts$'],
  'src/backends/': [],
  'src/liveness/': ['src/storage/storage\\.ts$', 'src/limits/concurrency-limiter\\.ts$'],
  'src/storage/': ['src/backends/', 'src/accounts/ids\\.ts$'],
  // The PostgreSQL artifact store shares the storage's Kysely schema and pool (shared mode).
  'src/artifacts/': ['src/storage/kysely/schema\\.ts$', 'src/storage/kysely/columns\\.ts$', 'src/backends/'],
  'src/metrics/': ['src/fetch/circuit-breaker\\.ts$'],
  // Server-key and data-key encryption (node:crypto only).
  'src/secrets/': [],
  // Batches: submission, the work queue (SQLite, pg-boss), the dispatcher that runs items through the scrape use case,
  // the batch store (Kysely) and its outbox.
  'src/batches/': [
    'src/scrape/',
    'src/storage/',
    'src/secrets/',
    'src/limits/concurrency-limiter\\.ts$',
    'src/accounts/',
    'src/sites/',
    'src/fetch/fetcher\\.ts$',
    'src/fetch/url-policy\\.ts$',
    'src/backends/',
    'src/webhooks/endpoint-store\\.ts$',
    'src/metrics/metrics\\.ts$',
  ],
  // Webhook endpoints and delivery: signing, the address-policy transport, the delivery worker over the Outbox.
  'src/webhooks/': [
    'src/batches/batch-store\\.ts$',
    'src/batches/work-queue\\.ts$',
    'src/secrets/',
    'src/fetch/',
    'src/storage/',
    'src/backends/',
    'src/accounts/ids\\.ts$',
    'src/metrics/metrics\\.ts$',
  ],
  // Monitors: the rule engine and schedules (pure), the monitor store (Kysely) and its check runs on the batch work
  // queue, the scheduler, and the alerts' delivery through the webhooks' signer and transport.
  'src/monitors/': [
    'src/batches/',
    'src/scrape/',
    'src/storage/',
    'src/secrets/',
    'src/accounts/',
    'src/sites/',
    'src/fetch/host-gate\\.ts$',
    'src/webhooks/',
    'src/backends/',
    'src/metrics/metrics\\.ts$',
  ],
  'src/console/': [
    'src/monitors/',
    'src/accounts/',
    'src/storage/storage\\.ts$',
    'src/sites/',
    'src/scrape/scrape-service\\.ts$',
    'src/http/site-catalogue\\.ts$',
    'src/batches/',
  ],
};

const everyone = ['src/errors\\.ts$', 'src/time/'];
const tests = '\\.(test|contract)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...Object.entries(mayUse).map(([folder, allowed]) => ({
      name: `uses-of-${folder.replace(/[^a-z]+/g, '-').replace(/-+$/, '')}`,
      comment: `${folder} may use only ${allowed.length ? allowed.join(', ') : 'nothing else in src/'} (docs/architecture.md)`,
      severity: 'error',
      from: { path: `^${folder}`, pathNot: tests },
      to: {
        path: '^src/',
        pathNot: [`^${folder}`, ...[...everyone, ...allowed].map((p) => `^${p}`)],
      },
    })),
    {
      name: 'no-cycles',
      comment: 'Modules never import each other in a cycle, types included (routes get their types from app-types.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: tests },
      to: { circular: true },
    },
    {
      name: 'unmapped-folder',
      comment: 'A new folder of src/ needs its row in docs/architecture.md and in mayUse here.',
      severity: 'error',
      from: { path: '^src/', pathNot: [tests, ...Object.keys(mayUse).map((p) => `^${p}`)] },
      to: {},
    },
    {
      name: 'docs-generator-for-the-cli-only',
      comment:
        'What a call costs comes from src/sites/pricing.ts; the sites.md generator is a CLI command, not a source.',
      severity: 'error',
      from: { path: '^src/', pathNot: [tests, '^src/cli/'] },
      to: { path: '^src/sites/sites-doc\\.ts$' },
    },
    {
      name: 'no-tests-in-src',
      comment: 'Production code never imports test code or test support.',
      severity: 'error',
      from: { path: '^src/', pathNot: tests },
      to: { path: [tests, '^test/'] },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types still ties two modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
    doNotFollow: { path: 'node_modules' },
  },
};
