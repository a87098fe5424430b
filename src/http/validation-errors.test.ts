// What a caller reads when a body or query fails its schema, or a body is over its route's limit: the field, what
// would have been accepted (allowed values, types, fields), and which limit, on every route, never the value sent.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildApp, formatBytes, type AppServices } from './app.js';
import { batchBodyLimitBytes } from './routes/batches.js';
import { monitorBodyLimitBytes } from './routes/monitors.js';

const caller = {
  account: { id: 'acc_test', plan: 'growth', overageCapCredits: 0, createdAt: '2026-11-01T00:00:00.000Z' },
  key: { id: 'key_test', operations: null, sites: null, outputs: null },
};

async function appFor() {
  const services = {
    accounts: { authenticate: async () => caller },
    usage: { headers: async () => ({}) },
    readiness: {},
  } as unknown as AppServices;
  return buildApp(services, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
}

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';

async function send(method: 'POST' | 'PATCH' | 'GET', path: string, payload?: unknown) {
  const app = await appFor();
  try {
    const res = await app.inject({
      method,
      url: path,
      headers: { authorization: 'Bearer good-key-0123456789', 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    return { status: res.statusCode, problem: res.json<Record<string, unknown>>() };
  } finally {
    await app.close();
  }
}

describe('a body or query that fails its schema: 400 invalid_request naming the field and what it takes', () => {
  const cases: [string, 'POST' | 'PATCH' | 'GET', string, unknown, string, string][] = [
    // Unions of literals anywhere, from the schema: before, "invalid field params.mode: must be equal to constant".
    [
      'a scrape mode',
      'POST',
      '/v1/scrape',
      { url, params: { mode: 'json' } },
      'params.mode',
      'params.mode must be one of: html_json, html',
    ],
    [
      'a batch webhook payload',
      'POST',
      '/v1/batches',
      { items: [{ url }], webhook: { endpoint_id: 'whe_1', payload: 'fat' } },
      'webhook.payload',
      'webhook.payload must be one of: full, thin',
    ],
    [
      'a batch webhook event, inside an array',
      'POST',
      '/v1/batches',
      { items: [{ url }], webhook: { endpoint_id: 'whe_1', events: ['item.done'] } },
      'webhook.events.0',
      'webhook.events.0 must be one of: item.succeeded, item.failed, item.not_found, item.skipped, batch.completed, ' +
        'batch.cancelled',
    ],
    [
      'a monitor rule field',
      'POST',
      '/v1/monitors',
      { targets: [{ url }], schedule: { every_minutes: 60 }, rules: [{ id: 'a', when: { field: 'prise', lte: 1 } }] },
      'rules.0.when.field',
      'rules.0.when.field must be one of: price, price_tax, price_excluding_tax, list_price, points, points_rate, ' +
        'shipping, shipping_fee, availability, on_sale, effective_price',
    ],
    [
      'a monitor language, inside an object that may also be null',
      'PATCH',
      '/v1/monitors/mon_1',
      { notify: { language: 'fr' } },
      'notify.language',
      'notify.language must be one of: ja, en',
    ],
    [
      'a monitor status',
      'PATCH',
      '/v1/monitors/mon_1',
      { status: 'stopped' },
      'status',
      'status must be one of: active, paused',
    ],
    [
      'a query value',
      'GET',
      '/v1/batches/bat_1/items?state=nope',
      undefined,
      'state',
      'state must be one of: queued, running, ready, delivered, failed, not_found, skipped, cancelled, expired',
    ],
    // Types: before, "invalid field url: must be string".
    ['a url that is a number', 'POST', '/v1/scrape', { url: 7 }, 'url', 'url must be a string, not an integer'],
    [
      'a boolean sent as a string',
      'POST',
      '/v1/scrape',
      { url, params: { include_html: 'yes' } },
      'params.include_html',
      'params.include_html must be a boolean (true or false), not a string',
    ],
    [
      'a nullable integer sent as a string',
      'PATCH',
      '/v1/monitors/mon_1',
      { max_credits_per_month: 'lots' },
      'max_credits_per_month',
      'max_credits_per_month must be an integer or null, not a string',
    ],
    ['a body that is an array', 'POST', '/v1/scrape', [1], 'body', 'body must be an object, not an array'],
    [
      'params that are a string',
      'POST',
      '/v1/scrape',
      { url, params: 'html' },
      'params',
      'params must be an object, not a string',
    ],
    // Unknown fields name the fields that are allowed there.
    [
      'an unknown top-level field',
      'POST',
      '/v1/scrape',
      { url, format: 'json' },
      'format',
      'unknown field: format (allowed here: url, params)',
    ],
    [
      'an unknown params field',
      'POST',
      '/v1/scrape',
      { url, params: { js: true } },
      'params.js',
      'unknown field: params.js (allowed here: mode, work_type, include_html, store_artifact, render_js, max_age_s)',
    ],
    ['a missing url', 'POST', '/v1/scrape', {}, 'url', 'missing field: url'],
    ['an empty url', 'POST', '/v1/scrape', { url: '' }, 'url', 'url must not be empty'],
    [
      'a number under its minimum',
      'POST',
      '/v1/scrape',
      { url, params: { max_age_s: -1 } },
      'params.max_age_s',
      'params.max_age_s must be at least 0',
    ],
  ];

  for (const [name, method, path, payload, field, detail] of cases) {
    it(`${name}: ${detail}`, async () => {
      const { status, problem } = await send(method, path, payload);
      expect(status).toBe(400);
      expect(problem).toMatchObject({ code: 'invalid_request', field, detail });
    });
  }

  // An unknown field's own name is repeated (DESIGN §1: "400 naming the field"); a value never is.
  it('never repeats the value sent, only its JSON type', async () => {
    const secret = 'kumo_live_should_not_be_echoed';
    for (const payload of [
      { url, params: { mode: secret } },
      { url, params: { include_html: secret } },
      { url, params: { max_age_s: secret } },
      { url: { secret } },
    ]) {
      const { problem } = await send('POST', '/v1/scrape', payload);
      expect(JSON.stringify(problem.detail)).not.toContain('should_not_be_echoed');
    }
  });
});

describe('a body over its route limit: 413 naming that limit', () => {
  it('formats limits in KiB or MiB with the exact bytes', () => {
    expect(formatBytes(16_384)).toBe('16 KiB (16384 bytes)');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MiB (2097152 bytes)');
    expect(formatBytes(1536)).toBe('1.5 KiB (1536 bytes)');
    expect(formatBytes(512)).toBe('512 bytes');
  });

  const routes: [string, 'POST' | 'PATCH', string, number, string][] = [
    ['scrape', 'POST', '/v1/scrape', 16_384, '16 KiB (16384 bytes) body limit of POST /v1/scrape'],
    ['batch', 'POST', '/v1/batches', batchBodyLimitBytes, '2 MiB (2097152 bytes) body limit of POST /v1/batches'],
    [
      'batch append',
      'POST',
      '/v1/batches/bat_1/items',
      batchBodyLimitBytes,
      '2 MiB (2097152 bytes) body limit of POST /v1/batches/:id/items',
    ],
    [
      'monitor',
      'POST',
      '/v1/monitors',
      monitorBodyLimitBytes,
      '256 KiB (262144 bytes) body limit of POST /v1/monitors',
    ],
    [
      'monitor change',
      'PATCH',
      '/v1/monitors/mon_1',
      monitorBodyLimitBytes,
      '256 KiB (262144 bytes) body limit of PATCH /v1/monitors/:id',
    ],
  ];
  for (const [name, method, path, limit, named] of routes) {
    it(`${name}: the request body is over the ${named}`, async () => {
      const { status, problem } = await send(method, path, `{"pad":"${'x'.repeat(limit)}"}`);
      expect(status).toBe(413);
      expect(problem).toMatchObject({
        code: 'payload_too_large',
        detail: `the request body is over the ${named}`,
        limit_bytes: limit,
      });
    });
  }
});
