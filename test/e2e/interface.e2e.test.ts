// What a caller sees at the edges of the API, over real HTTP against the built server: every route × bad input is
// a catalogue problem with its request id, success bodies carry the id, RateLimit headers agree with X-Credits-*,
// credentials are redacted in every form, target text is never echoed, and a redirect is matched again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, testKey, repoRoot, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';
import { errorCatalogue, type ErrorCode } from '../../src/errors.js';
import { statusByCode } from '../../src/http/problem.js';

const itemPath = (id: string) => `/c/c-/kb/kb01/kb011427/${id}`;
const item = (id: string) => `https://www.ikebe-gakki.com${itemPath(id)}`;
const html = { 'content-type': 'text/html; charset=utf-8' };
const statsPath = '/rest/3.0/app/json/getStatsData';
const estatJson = { 'content-type': 'application/json;charset=utf-8' };
const marksPage = readFileSync(path.join(repoRoot, 'src/sites/estat-api/fixtures/modelled-api3-marks.json'));
const secrets = ['S3CRETone', 'S3CRETtwo', 'S3CRETthree', 'S3CRETfour', 'S3CRETfive'];
const planted = 'PLANTEDBYTARGET';

let origin: Origin;
let kumo: KumoProcess;

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', itemPath('200001'), { status: 200, headers: html, body: itemPage() });
  // An item gone away: the shop sends it to its top page, which must not be extracted as an item.
  origin.route('GET', itemPath('200002'), { status: 302, headers: { location: '/' }, body: '' });
  origin.route('GET', '/', { status: 200, headers: html, body: itemPage({ title: 'トップページ' }) });
  // … and to a search page.
  origin.route('GET', itemPath('200003'), { status: 301, headers: { location: '/p/search?keyword=usb' }, body: '' });
  origin.route('GET', '/p/search', { status: 200, headers: html, body: itemPage() });
  // An item moved to another item URL: the same kind of page, served.
  origin.route('GET', itemPath('200004'), { status: 301, headers: { location: itemPath('200001') }, body: '' });
  // e-Stat: a redirect that carries the credential in other forms; the table at the end.
  origin.route('GET', statsPath, (req, res) => {
    const id = new URL(req.url ?? '/', 'http://origin').searchParams.get('statsDataId');
    if (id === '1') {
      // The final URL carries the credential in two more forms: a percent-encoded name and a `;` separated pair.
      res.writeHead(302, { location: `${statsPath}?app%49d=${secrets[3]};APPID=${secrets[4]}&statsDataId=2` });
      res.end();
    } else if (id === '2') {
      res.writeHead(200, estatJson).end(marksPage);
    } else {
      const body = { GET_STATS_DATA: { RESULT: { STATUS: Number(id), ERROR_MSG: `<b>${planted}</b> call us` } } };
      res.writeHead(200, estatJson).end(JSON.stringify(body));
    }
  });
  // Target text in every channel a fetch failure has: body, headers, content type, redirect target, page.
  const mark = planted.toLowerCase();
  origin.route('GET', itemPath('200005'), { status: 500, headers: { ...html, 'x-error': mark }, body: mark });
  origin.route('GET', itemPath('200006'), { status: 403, headers: html, body: `<h1>${mark}</h1>` });
  origin.route('GET', itemPath('200007'), {
    status: 200,
    headers: { 'content-type': `application/x-${mark}` },
    body: mark,
  });
  origin.route('GET', itemPath('200008'), {
    status: 302,
    headers: { location: `https://www.${mark}.example/x` },
    body: '',
  });
  origin.route('GET', itemPath('200009'), { status: 200, headers: html, body: itemPage({ title: mark, price: null }) });
  origin.route('GET', itemPath('200010'), { status: 418, headers: { ...html, 'x-reason': mark }, body: mark });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url, 'api.e-stat.go.jp': origin.url }),
    KUMO_FETCH_MAX_ATTEMPTS: '1',
  });
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  text: string;
}

/** Sends bytes as written (no client normalizes them) and reads the answer until the server closes. */
function raw(request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(kumo.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.slice(0, 200))}`));
      const [statusLine, ...lines] = all.slice(0, split).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, text: all.slice(split + 4) });
    });
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
}

const request = (method: string, target: string, headers: Record<string, string> = {}, body = '') =>
  raw(
    `${method} ${target} HTTP/1.1\r\nHost: kumo.test\r\nConnection: close\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      `\r\n${body}`,
  );

/** The class assertion: a catalogue problem, its status, and the same id in body and header. */
function expectCatalogueProblem(answer: RawAnswer, expected: { status: number; code: ErrorCode }, head = false): void {
  const context = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBe(expected.status);
  expect(answer.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  const requestId = answer.headers.get('request-id');
  expect(requestId, context).toMatch(/^req_[0-9A-Z]{26}$/);
  if (head) {
    expect(answer.text).toBe('');
    return;
  }
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(errorCatalogue)).toContain(body.code);
  expect(body).toMatchObject({
    code: expected.code,
    status: statusByCode[expected.code],
    type: `https://kumo.dev/errors/${expected.code}`,
    title: errorCatalogue[expected.code].title,
    request_id: requestId,
  });
  expect(typeof body.detail).toBe('string');
  expect(answer.text).not.toMatch(/FST_|HPE_|ERR_|at .*\.js:\d+/);
}

const auth = { authorization: `Bearer ${testKey}` };
const json = { 'content-type': 'application/json' };

describe('every route × bad input answers a catalogue problem with its request id', () => {
  const longId = 'a'.repeat(300);
  const routes: { method: string; path: string; authenticated: boolean; id: boolean }[] = [
    { method: 'POST', path: '/v1/scrape', authenticated: true, id: false },
    { method: 'GET', path: '/v1/usage', authenticated: true, id: false },
    { method: 'GET', path: '/v1/requests/:id', authenticated: true, id: true },
    { method: 'GET', path: '/v1/artifacts/:id', authenticated: true, id: true },
    { method: 'DELETE', path: '/v1/artifacts/:id', authenticated: true, id: true },
    { method: 'GET', path: '/v1/sites', authenticated: false, id: false },
  ];
  const at = (p: string, id = 'req_00000000000000000000000000') => p.replace(':id', id);

  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    if (route.authenticated) {
      it(`${name}: no key → 401 unauthorized`, async () => {
        // A valid body: the key is what is missing (the key is checked before the body; errors.e2e has bad bodies).
        const body = route.method === 'POST' ? JSON.stringify({ url: item('200001') }) : '';
        const headers = body ? { ...json, 'content-length': String(body.length) } : {};
        expectCatalogueProblem(await request(route.method, at(route.path), headers, body), {
          status: 401,
          code: 'unauthorized',
        });
      });
    }
    if (route.id) {
      it(`${name}: a 300-character id → 414 uri_too_long`, async () => {
        expectCatalogueProblem(await request(route.method, at(route.path, longId), auth), {
          status: 414,
          code: 'uri_too_long',
        });
      });
      it(`${name}: bad percent-encoding in the id → 400 invalid_request`, async () => {
        for (const bad of ['%E0%A4%A', '%zz', '%', '%C0%AF%']) {
          expectCatalogueProblem(await request(route.method, at(route.path, bad), auth), {
            status: 400,
            code: 'invalid_request',
          });
        }
      });
      it(`${name}: an unknown id → 404 not_found`, async () => {
        expectCatalogueProblem(await request(route.method, at(route.path), auth), { status: 404, code: 'not_found' });
      });
    }
    it(`${name}: a method the route has not → 405 method_not_allowed with Allow`, async () => {
      for (const method of ['PUT', 'PATCH', 'OPTIONS']) {
        const answer = await request(method, at(route.path), auth);
        expectCatalogueProblem(answer, { status: 405, code: 'method_not_allowed' });
        expect(answer.headers.get('allow')).toContain(route.method);
      }
    });
    it(`${name}: HEAD answers the GET's headers, or a 405 problem, never a body`, async () => {
      const answer = await request('HEAD', at(route.path), route.authenticated ? {} : auth);
      expect(answer.text).toBe('');
      expect(answer.headers.get('request-id')).toMatch(/^req_/);
      const hasGet = routes.some((r) => r.path === route.path && r.method === 'GET');
      if (!hasGet) {
        expectCatalogueProblem(answer, { status: 405, code: 'method_not_allowed' }, true);
      } else if (route.authenticated) {
        expectCatalogueProblem(answer, { status: 401, code: 'unauthorized' }, true);
      } else {
        expect(answer.status).toBe(200);
      }
    });
    it(`${name}: headers over the server limit → 431 headers_too_large`, async () => {
      const answer = await request(route.method, at(route.path), { ...auth, 'x-padding': 'p'.repeat(20_000) });
      expectCatalogueProblem(answer, { status: 431, code: 'headers_too_large' });
    });
    it(`${name}: a broken Content-Length → 400 invalid_request`, async () => {
      for (const length of ['abc', '-1', '1, 2']) {
        const answer = await request(
          route.method,
          at(route.path),
          { ...auth, ...json, 'content-length': length },
          '{}',
        );
        expectCatalogueProblem(answer, { status: 400, code: 'invalid_request' });
      }
      const twice = await raw(
        `${route.method} ${at(route.path)} HTTP/1.1\r\nHost: k\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      );
      expectCatalogueProblem(twice, { status: 400, code: 'invalid_request' });
    });
  }

  it('an unknown route, under /v1 and elsewhere, with and without a key → 404 not_found', async () => {
    for (const target of [
      '/v2/scrape',
      '/v1/scrape/extra',
      '/v1/requests',
      '//v1//usage',
      '/%E3%81%82',
      `/${'x'.repeat(3000)}`,
    ]) {
      for (const headers of [{}, auth]) {
        expectCatalogueProblem(await request('GET', target, headers), { status: 404, code: 'not_found' });
      }
    }
  });

  it('the operator routes (/openapi.json, /metrics, /healthz) refuse other methods the same way', async () => {
    for (const target of ['/openapi.json', '/metrics', '/healthz']) {
      for (const method of ['POST', 'DELETE', 'OPTIONS']) {
        const answer = await request(method, target);
        expectCatalogueProblem(answer, { status: 405, code: 'method_not_allowed' });
        expect(answer.headers.get('allow')).toContain('GET');
      }
    }
  });

  it('bad percent-encoding in any path → 400 invalid_request', async () => {
    for (const target of ['/v1/%zz', '/%', '/v1/usage%']) {
      expectCatalogueProblem(await request('GET', target, auth), { status: 400, code: 'invalid_request' });
    }
  });

  it('a method no route knows, and a malformed request line → 400 invalid_request', async () => {
    expectCatalogueProblem(await request('BREW', '/v1/scrape', auth), { status: 400, code: 'invalid_request' });
    expectCatalogueProblem(await raw('GET /v1/usage HTTP/9.9\r\nHost: k\r\n\r\n'), {
      status: 400,
      code: 'invalid_request',
    });
    expectCatalogueProblem(await raw('GET /v1/usage HTTP/1.1\r\nBad Header Line\r\n\r\n'), {
      status: 400,
      code: 'invalid_request',
    });
  });

  it('CONNECT → 405 method_not_allowed, and an HTTP/1.1 request without Host → 400 invalid_request', async () => {
    expectCatalogueProblem(await raw('CONNECT kumo.test:443 HTTP/1.1\r\nHost: kumo.test:443\r\n\r\n'), {
      status: 405,
      code: 'method_not_allowed',
    });
    for (const target of ['/v1/sites', '/v1/usage', '/nowhere']) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`);
      expectCatalogueProblem(answer, { status: 400, code: 'invalid_request' });
      expect(JSON.parse(answer.text)).toMatchObject({ field: 'host' });
    }
  });

  it('after all of that, the server still answers', async () => {
    expect((await call(kumo.baseUrl, '/v1/usage')).status).toBe(200);
  });
});

describe('request_id in success bodies', () => {
  it('GET /v1/usage and GET /v1/sites carry the id of the Request-Id header', async () => {
    for (const [pathname, key] of [
      ['/v1/usage', testKey],
      ['/v1/sites', null],
    ] as const) {
      const res = await call(kumo.baseUrl, pathname, key);
      expect(res.status).toBe(200);
      expect(res.body.request_id).toMatch(/^req_/);
      expect(res.body.request_id).toBe(res.headers.get('request-id'));
    }
  });

  it('POST /v1/scrape carries it too', async () => {
    const res = await scrape(kumo.baseUrl, { url: item('200001') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.request_id).toBe(res.headers.get('request-id'));
  });
});

describe('RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers)', () => {
  /** A minimal structured-field List parser for these two fields: items are Strings with Integer/String params. */
  function sfList(value: string): { name: string; params: Record<string, number | string> }[] {
    const item = /^"([a-z0-9_-]+)"((?:;[a-z*][a-z0-9_.*-]*=(?:\d{1,15}|"[^"\\]*"))*)$/;
    return value.split(/,[ \t]*/).map((member) => {
      const m = item.exec(member);
      expect(m, `not a structured-field item: ${member}`).not.toBeNull();
      const params: Record<string, number | string> = {};
      for (const p of m![2]!.split(';').slice(1)) {
        const [k, v] = p.split('=') as [string, string];
        params[k] = v.startsWith('"') ? v.slice(1, -1) : Number(v);
      }
      return { name: m![1]!, params };
    });
  }

  it('every authenticated answer, success or error, carries both, agreeing with X-Credits-* and X-Concurrency-*', async () => {
    const answers = [
      await call(kumo.baseUrl, '/v1/usage'),
      await scrape(kumo.baseUrl, { url: item('200001') }),
      await scrape(kumo.baseUrl, { url: 'https://shop.example.net/x' }),
      await call(kumo.baseUrl, '/v1/artifacts/art_nope'),
    ];
    for (const res of answers) {
      const policy = sfList(res.headers.get('ratelimit-policy') ?? '');
      const limit = sfList(res.headers.get('ratelimit') ?? '');
      const credits = policy.find((p) => p.name === 'credits')!;
      const concurrency = policy.find((p) => p.name === 'concurrency')!;
      expect(credits.params.q).toBe(Number(res.headers.get('x-credits-limit')));
      // The window is this month in Asia/Tokyo: 28 to 31 days.
      expect(credits.params.w).toBeGreaterThanOrEqual(28 * 86_400);
      expect(credits.params.w).toBeLessThanOrEqual(31 * 86_400);
      expect(concurrency.params).toMatchObject({
        q: Number(res.headers.get('x-concurrency-limit')),
        qu: 'concurrent-requests',
      });
      const left = limit.find((p) => p.name === 'credits')!;
      expect(left.params.r).toBe(Number(res.headers.get('x-credits-remaining')));
      expect(left.params.t).toBeGreaterThan(0);
      expect(left.params.t).toBeLessThanOrEqual(credits.params.w as number);
      expect(limit.find((p) => p.name === 'concurrency')!.params.r).toBe(
        Number(res.headers.get('x-concurrency-remaining')),
      );
    }
    // A call that is charged moves both the same way.
    const before = await call(kumo.baseUrl, '/v1/usage');
    await scrape(kumo.baseUrl, { url: item('200001') });
    const after = await call(kumo.baseUrl, '/v1/usage');
    const r = (res: typeof before) => sfList(res.headers.get('ratelimit')!).find((p) => p.name === 'credits')!.params.r;
    expect(Number(r(before)) - Number(r(after))).toBe(1);
    expect(after.body.credits.remaining).toBe(r(after));
  });

  it('an unauthenticated answer carries neither', async () => {
    const res = await call(kumo.baseUrl, '/v1/usage', null);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(res.headers.get('ratelimit-policy')).toBeNull();
  });
});

describe('after a redirect, the final URL is matched again', () => {
  async function used(): Promise<number> {
    return (await call(kumo.baseUrl, '/v1/usage')).body.credits.used as number;
  }

  it.each([
    ['an item redirected to the top page', '200002'],
    ['an item redirected to a search page', '200003'],
  ])('%s → 422 page_not_supported, charging nothing', async (_name, id) => {
    const before = await used();
    const res = await scrape(kumo.baseUrl, { url: item(id) });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ code: 'page_not_supported', request_id: res.headers.get('request-id') });
    expect(JSON.stringify(res.body)).not.toContain('トップ');
    expect(await used()).toBe(before);
  });

  it('an item redirected to another item URL is served', async () => {
    const res = await scrape(kumo.baseUrl, { url: item('200004') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.fetch_summary.final_url).toBe(item('200001'));
    expect(res.body.data.price).toBe(2200);
  });
});

describe('caller credentials and target text', () => {
  it('an e-Stat appId is redacted in every form: query, case, encoding, matrix, fragment, after a redirect', async () => {
    const url =
      `https://api.e-stat.go.jp${statsPath}?APPID=${secrets[0]}&statsDataId=1&AppId=${secrets[1]}` +
      `#appId=${secrets[0]}`;
    const res = await scrape(kumo.baseUrl, { url });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The origin did receive the credentials (they are the caller's to send) …
    expect(origin.requests().some((r) => r.url.includes(secrets[3]!))).toBe(true);
    // … but nothing Kumo answers, stores or logs carries them.
    expect(res.body.fetch_summary.final_url).toContain('app%49d=REDACTED;APPID=REDACTED&statsDataId=2');
    const row = await call(kumo.baseUrl, `/v1/requests/${res.body.request_id}`);
    expect(row.status).toBe(200);
    expect(row.body.url).toContain('APPID=REDACTED');
    for (const text of [JSON.stringify(res.body), JSON.stringify(row.body), kumo.output()]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });

  it('a matrix-parameter appId is never echoed, stored or logged either', async () => {
    const res = await scrape(kumo.baseUrl, {
      url: `https://api.e-stat.go.jp${statsPath};appId=${secrets[2]}?statsDataId=2`,
    });
    // No e-Stat page type has a `;` in its path: refused before any fetch, and the secret is nowhere.
    expect(res.status).toBe(422);
    const row = await call(kumo.baseUrl, `/v1/requests/${res.body.request_id}`);
    for (const text of [JSON.stringify(res.body), JSON.stringify(row.body), kumo.output()]) {
      expect(text).not.toContain(secrets[2]);
    }
  });

  it.each([
    [100, 502, 'target_blocked'],
    [200, 502, 'fetch_failed'],
  ] as const)('e-Stat STATUS %i → %i %s in our words, never its ERROR_MSG', async (status, http, code) => {
    const res = await scrape(kumo.baseUrl, {
      url: `https://api.e-stat.go.jp${statsPath}?appId=${secrets[0]}&statsDataId=${status}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(http);
    expect(res.body).toMatchObject({ code, request_id: res.headers.get('request-id') });
    expect(JSON.stringify(res.body)).not.toContain(planted);
    expect(JSON.stringify(res.body)).not.toContain(secrets[0]);
    expect(kumo.output()).not.toContain(planted);
  });

  it.each([
    ['a 500 whose body and headers carry text', '200005', 'fetch_failed'],
    ['a 403 block page', '200006', 'target_blocked'],
    ['a content type of its own', '200007', 'fetch_failed'],
    ['a redirect to a host of its own', '200008', 'destination_forbidden'],
    ['a page without a price whose title is the text', '200009', 'extraction_failed'],
    ['an odd status with a reason', '200010', 'fetch_failed'],
  ])('%s: the answer names the failure in our words only', async (_name, id, code) => {
    const res = await scrape(kumo.baseUrl, { url: item(id) });
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expect(res.body).toMatchObject({ code, request_id: res.headers.get('request-id') });
    expect(JSON.stringify(res.body).toLowerCase()).not.toContain(planted.toLowerCase());
    expect(kumo.output().toLowerCase()).not.toContain(planted.toLowerCase());
  });
});
