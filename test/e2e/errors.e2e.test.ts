// Every error code this build can produce, over real HTTP: status, problem+json body, request id, nothing charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import {
  startKumo,
  scrape,
  call,
  kumoCli,
  testKey,
  type KumoProcess,
  type ApiAnswer,
} from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const item = (id: string) => `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
let origin: Origin;
let other: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  origin = await startOrigin();
  other = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100001', { status: 200, headers: html, body: itemPage() });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100002', { status: 200, headers: html, body: itemPage({ price: null }) });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100003', { status: 404, headers: html, body: '<h1>not here</h1>' });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100004', { status: 500, headers: html, body: 'oops' });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100005', { status: 403, headers: html, body: 'denied' });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100006', {
    status: 200,
    headers: { ...html, 'content-encoding': 'gzip' },
    body: gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x61)),
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100007', (_req, res) => {
    // Headers never come: the deadline must end the call.
    setTimeout(() => res.destroy(), 10_000).unref();
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100008', {
    status: 302,
    headers: { location: 'https://www.evil-example.com/steal' },
    body: '',
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100010', {
    status: 429,
    headers: { ...html, 'retry-after': '120' },
    body: 'slow down',
  });
  origin.route('GET', '/c/c-/kb/kb01/kb011427/100009', {
    status: 302,
    headers: { location: 'http://127.0.0.1:1/admin' },
    body: '',
  });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url, 'www.evil-example.com': other.url }),
    KUMO_FETCH_MAX_BODY_BYTES: String(1024 * 1024),
    KUMO_FETCH_DEADLINE_MS: '2000',
    KUMO_FETCH_HEADERS_TIMEOUT_MS: '1000',
    KUMO_FETCH_MAX_ATTEMPTS: '2',
  });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
  await other?.close();
});

function expectProblem(res: ApiAnswer, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status, code, type: `https://kumo.dev/errors/${code}` });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.request_id).toMatch(/^req_/);
  expect(res.headers.get('request-id')).toBe(res.body.request_id);
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/at .*\.js:\d+/); // no stack trace
  expect(text).not.toContain(testKey);
}

async function usedCredits(): Promise<number> {
  const usage = await call(kumo.baseUrl, '/v1/usage');
  expect(usage.body.credits.reserved).toBe(0);
  return usage.body.credits.used as number;
}

describe('400 invalid_request names the field', () => {
  const cases: [string, unknown, string][] = [
    ['bad JSON', '{"url": ', 'body'],
    ['a top-level array', '[1,2]', 'body'],
    ['missing url', {}, 'url'],
    ['url of the wrong type', { url: 123 }, 'url'],
    ['unknown top-level field', { url: item('100001'), proxy: 'http://x' }, 'proxy'],
    ['unknown params field', { url: item('100001'), params: { webhook_url: 'x' } }, 'params.webhook_url'],
    ['params of the wrong type', { url: item('100001'), params: { store_artifact: 'yes' } }, 'params.store_artifact'],
    ['params null', { url: item('100001'), params: null }, 'params'],
    ['a bad mode', { url: item('100001'), params: { mode: 'markdown' } }, 'params.mode'],
    [
      'a prototype-pollution key',
      '{"url":"https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/100001","__proto__":{"x":1}}',
      'body',
    ],
  ];
  for (const [name, body, field] of cases) {
    it(name, async () => {
      const res = await scrape(kumo.baseUrl, body);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.field).toBe(field);
    });
  }
});

describe('hostile bodies and headers', () => {
  it('a deeply nested JSON body is a quick 400, and the server keeps serving', async () => {
    const nested = `{"url":"${item('100001')}","params":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await scrape(kumo.baseUrl, nested);
    expectProblem(res, 400, 'invalid_request');
    expect((await call(kumo.baseUrl, '/healthz', null)).status).toBe(200);
  });

  it('odd Authorization headers are a 401, never a 500', async () => {
    for (const authorization of ['bearer ' + testKey, 'Basic dXNlcjpwdw==', 'Bearer ', `Bearer ${'k'.repeat(8000)}`]) {
      const response = await fetch(`${kumo.baseUrl}/v1/usage`, { headers: { authorization } });
      const body = (await response.json()) as Record<string, unknown>;
      expectProblem({ status: response.status, headers: response.headers, body }, 401, 'unauthorized');
    }
  });

  it('a key in the query string is ignored', async () => {
    const res = await call(kumo.baseUrl, `/v1/usage?api_key=${testKey}`, null);
    expectProblem(res, 401, 'unauthorized');
  });
});

describe('400 invalid_url', () => {
  const cases: [string, string][] = [
    ['ftp scheme', 'ftp://www.ikebe-gakki.com/x'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['a relative URL', '/c/c-/kb/kb01/kb011427/100001'],
    ['userinfo', 'https://user:pw@www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/100001'],
    ['a non-default port', 'https://www.ikebe-gakki.com:8443/c/c-/kb/kb01/kb011427/100001'],
    ['an IPv4 literal', 'https://127.0.0.1/'],
    ['an IPv6 literal', 'https://[::1]/'],
    ['a decimal IPv4', 'http://2130706433/'],
    ['over 2,048 characters', `https://www.ikebe-gakki.com/${'a'.repeat(2100)}`],
  ];
  for (const [name, url] of cases) {
    it(name, async () => {
      const res = await scrape(kumo.baseUrl, { url });
      expectProblem(res, 400, 'invalid_url');
      expect(res.body.field).toBe('url');
      expect(JSON.stringify(res.body)).not.toContain('pw@');
    });
  }
});

describe('401 unauthorized is one answer for every bad key', () => {
  it('missing, unknown, malformed and revoked keys get the same body', async () => {
    const created = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'free', '--json']);
    await kumoCli(kumo.dataDir, ['keys', 'revoke', created.key_id]);
    const answers = [
      await scrape(kumo.baseUrl, { url: item('100001') }, null),
      await scrape(kumo.baseUrl, { url: item('100001') }, 'kumo_live_unknownunknownunknownunknown'),
      await scrape(kumo.baseUrl, { url: item('100001') }, 'x'),
      await scrape(kumo.baseUrl, { url: item('100001') }, created.key),
    ];
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined });
    for (const res of answers) {
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(strip(res.body)).toEqual(strip(answers[0]!.body));
      expect(res.headers.get('x-credits-limit')).toBeNull();
    }
  });
});

describe('the key is checked before the body is read or validated', () => {
  it.each([
    ['invalid JSON', '{"url":', 400, 'invalid_request'],
    ['an unknown field', JSON.stringify({ url: item('100001'), extra: true }), 400, 'invalid_request'],
    ['a missing url', '{}', 400, 'invalid_request'],
    [
      'a body over the limit',
      JSON.stringify({ url: item('100001'), pad: 'x'.repeat(100_000) }),
      413,
      'payload_too_large',
    ],
  ])('%s: 401 unauthorized without a key, naming no field; %i %s with one', async (_name, body, status, code) => {
    for (const key of [null, 'kumo_live_unknownunknownunknownunknown']) {
      const res = await scrape(kumo.baseUrl, body, key);
      expectProblem(res, 401, 'unauthorized');
      expect(res.body).not.toHaveProperty('field');
    }
    expectProblem(await scrape(kumo.baseUrl, body), status, code);
  });

  it('a text/plain body: 401 without a key, 415 with one', async () => {
    const send = async (authorization: Record<string, string>) => {
      const response = await fetch(`${kumo.baseUrl}/v1/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...authorization },
        body: 'url=x',
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    };
    expectProblem(await send({}), 401, 'unauthorized');
    expectProblem(await send({ authorization: `Bearer ${testKey}` }), 415, 'unsupported_media_type');
  });
});

describe('403 key_scope_denied', () => {
  it('for a site, an output and an operation the key may not use', async () => {
    const narrow = await kumoCli(kumo.dataDir, [
      'keys',
      'create',
      '--plan',
      'free',
      '--sites',
      'jma_forecast',
      '--outputs',
      'json',
      '--operations',
      'scrape',
      '--json',
    ]);
    expectProblem(await scrape(kumo.baseUrl, { url: item('100001') }, narrow.key), 403, 'key_scope_denied');
    const json = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'free', '--outputs', 'json', '--json']);
    expectProblem(
      await scrape(kumo.baseUrl, { url: item('100001'), params: { include_html: true } }, json.key),
      403,
      'key_scope_denied',
    );
    expectProblem(await call(kumo.baseUrl, '/v1/usage', narrow.key), 403, 'key_scope_denied');
  });
});

describe('the rest of the catalogue', () => {
  it('413 payload_too_large', async () => {
    const res = await scrape(kumo.baseUrl, JSON.stringify({ url: item('100001'), pad: 'x'.repeat(100_000) }));
    expectProblem(res, 413, 'payload_too_large');
  });

  it('415 unsupported_media_type', async () => {
    const response = await fetch(`${kumo.baseUrl}/v1/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${testKey}` },
      body: JSON.stringify({ url: item('100001') }),
    });
    expectProblem(
      { status: response.status, headers: response.headers, body: await response.json() },
      415,
      'unsupported_media_type',
    );
  });

  it('405 method_not_allowed and 404 not_found for routes', async () => {
    expectProblem(await call(kumo.baseUrl, '/v1/scrape'), 405, 'method_not_allowed');
    expectProblem(await call(kumo.baseUrl, '/v2/scrape', null, 'POST'), 404, 'not_found');
  });

  it('422 site_not_supported', async () => {
    const res = await scrape(kumo.baseUrl, { url: 'https://shop.example.net/item/1' });
    expectProblem(res, 422, 'site_not_supported');
    expect(res.body.detail).toContain('shop.example.net');
  });

  it('422 page_not_supported for an unknown path and for a work_type the site does not serve', async () => {
    expectProblem(
      await scrape(kumo.baseUrl, { url: 'https://www.ikebe-gakki.com/company/' }),
      422,
      'page_not_supported',
    );
    expectProblem(
      await scrape(kumo.baseUrl, { url: item('100001'), params: { work_type: 'table' } }),
      422,
      'page_not_supported',
    );
  });

  it('200 not_found with data null and cost 0 when the target says 404', async () => {
    const before = await usedCredits();
    const res = await scrape(kumo.baseUrl, { url: item('100003') });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.cost_units).toBe(0);
    expect(res.body.fetch_summary.status).toBe('not_found');
    expect(res.body.fetch_summary.http_status).toBe(404);
    expect(await usedCredits()).toBe(before);
  });

  const failures: [string, string, number, string][] = [
    ['502 extraction_failed when the page has no price', '100002', 502, 'extraction_failed'],
    ['502 fetch_failed after retries on 500', '100004', 502, 'fetch_failed'],
    ['502 target_blocked on 403', '100005', 502, 'target_blocked'],
    ['502 content_too_large on a gzip bomb', '100006', 502, 'content_too_large'],
    ['504 fetch_timeout when headers never come', '100007', 504, 'fetch_timeout'],
    ['502 destination_forbidden on a redirect off the site', '100008', 502, 'destination_forbidden'],
    ['502 destination_forbidden on a redirect to an IP literal', '100009', 502, 'destination_forbidden'],
  ];
  for (const [name, id, status, code] of failures) {
    it(`${name}, charging nothing`, async () => {
      const before = await usedCredits();
      const res = await scrape(kumo.baseUrl, { url: item(id) });
      expectProblem(res, status, code);
      expect(await usedCredits()).toBe(before);
      const row = await call(kumo.baseUrl, `/v1/requests/${res.body.request_id}`);
      expect(row.body).toMatchObject({ error_code: code, cost_units: 0 });
    });
  }

  it('a 500 is retried and every try is counted', async () => {
    const before = origin.hits('/c/c-/kb/kb01/kb011427/100004');
    const res = await scrape(kumo.baseUrl, { url: item('100004') });
    expect(origin.hits('/c/c-/kb/kb01/kb011427/100004') - before).toBe(2);
    expect(res.body.fetch_summary).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('the redirect target off the site is never contacted', async () => {
    expect(other.hits('/steal')).toBe(0);
  });

  it('after all of that, a good call still succeeds', async () => {
    const res = await scrape(kumo.baseUrl, { url: item('100001') });
    expect(res.status).toBe(200);
    expect(res.body.data.price).toBe(2200);
  });

  // Last: the site's pause request rests the host for everyone, so nothing after this may need it.
  it('503 site_busy when the site answers 429 with Retry-After, passing its wait on and charging nothing', async () => {
    const before = await usedCredits();
    const res = await scrape(kumo.baseUrl, { url: item('100010') });
    expectProblem(res, 503, 'site_busy');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(120);
    expect(await usedCredits()).toBe(before);
    const hits = origin.hits('/c/c-/kb/kb01/kb011427/100001');
    const rested = await scrape(kumo.baseUrl, { url: item('100001') });
    expectProblem(rested, 503, 'site_busy');
    expect(origin.hits('/c/c-/kb/kb01/kb011427/100001')).toBe(hits);
  });
});
