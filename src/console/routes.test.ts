// The console in-process over real SQLite: sign-in and its bounds, cookies, CSRF and Origin checks, ownership by URL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildApp, type AppServices, type KumoApp } from '../http/app.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import { UsageReporter } from '../accounts/usage-report.js';
import { InProcessConcurrencyLimiter } from '../limits/in-process-concurrency-limiter.js';
import { SiteRegistry } from '../sites/registry.js';
import { ConsoleSessions } from './console-sessions.js';
import type { EventStreamCaps } from './routes.js';
import { get as httpGet, type ClientRequest } from 'node:http';
import { newId } from '../accounts/ids.js';
import type { TrustProxy } from '../config.js';
import { requestStatuses } from '../scrape/scrape-service.js';
import { completedRequest } from '../../test/support/request-records.js';

let storage: KyselyStorage;
let accounts: Accounts;
let app: KumoApp;
const origin = 'http://kumo.test';

async function build(
  options: { trustProxy?: TrustProxy; failures?: number; streamCaps?: Partial<EventStreamCaps> } = {},
) {
  const limiter = new InProcessConcurrencyLimiter();
  const registry = new SiteRegistry();
  const sessions = new ConsoleSessions({
    sessions: storage.sessions,
    keys: storage.keys,
    accounts: storage.accounts,
    authenticate: (secret) => accounts.authenticate(secret),
    ttlMs: 60_000,
    signIn: { maxFailures: options.failures ?? 10, windowMs: 60_000 },
  });
  const services = {
    accounts,
    usage: new UsageReporter({ ledger: storage.ledger, limiter }),
    requests: storage.requests,
    registry,
    readiness: {},
    console: { sessions, eventIntervalMs: 50, eventStreamCaps: options.streamCaps },
  } as unknown as AppServices;
  app = await buildApp(services, {
    logger: pino({ level: 'silent' }),
    bodyLimitBytes: 16_384,
    trustProxy: options.trustProxy ?? false,
  });
}

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  accounts = new Accounts(storage);
});
afterEach(async () => {
  await app?.close();
  await storage.close();
});

const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  return params.toString();
};

async function signIn(key: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/console/sign-in',
    headers: { host: 'kumo.test', origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form({ key }),
  });
}

function cookieOf(response: { headers: Record<string, unknown> }): string {
  const header = [response.headers['set-cookie']].flat().find((c) => String(c).includes('kumo_console='));
  return String(header).split(';')[0]!;
}

function csrfOf(body: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(body)![1]!;
}

async function get(url: string, cookie = '', headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers: { host: 'kumo.test', cookie, ...headers } });
}

async function post(
  url: string,
  cookie: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { host: 'kumo.test', origin, cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form(fields),
  });
}

describe('the console', () => {
  it('sends strangers to sign-in, in Japanese for Accept-Language: ja, with the security headers on every page', async () => {
    await build();
    const home = await get('/console');
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/console/sign-in');
    const ja = await get('/console/sign-in', '', { 'accept-language': 'ja,en;q=0.5' });
    expect(ja.body).toContain('<html lang="ja">');
    expect(ja.body).toContain('サインイン');
    expect(ja.body).toContain('hreflang="en"');
    // Not a password field: browsers would offer to save the key.
    expect(ja.body).not.toContain('type="password"');
    expect(ja.body).toMatch(/<input\s+id="key"[^>]*type="text"[^>]*autocomplete="off"/);
    expect(ja.headers['content-security-policy']).toContain("script-src 'self'");
    expect(ja.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(ja.headers['cache-control']).toBe('no-store');
    expect(ja.headers['x-frame-options']).toBe('DENY');
    expect(ja.body).not.toMatch(/<script>|<style|style=/);
    const en = await get('/console/sign-in?lang=en', '', { 'accept-language': 'ja' });
    expect(en.body).toContain('<html lang="en">');
    expect(String(en.headers['set-cookie'])).toContain('kumo_console_lang=en');
    // Pages, not API: the OpenAPI document does not list them.
    const paths = Object.keys((await get('/openapi.json')).json<{ paths: object }>().paths);
    expect(paths.filter((path) => path.startsWith('/console'))).toEqual([]);
    expect(paths).toContain('/v1/usage');
  });

  it('serves only its own assets: inherited names such as constructor are 404, in the page language', async () => {
    await build();
    const css = await get('/console/assets/console.css');
    expect(css.statusCode).toBe(200);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const answer = await get(`/console/assets/${name}`, '', { 'if-none-match': 'undefined' });
      expect(answer.statusCode, name).toBe(404);
    }
    const ja = await get('/console/assets/constructor', '', { 'accept-language': 'ja' });
    expect(ja.body).not.toContain('Not found');
  });

  it('exchanges a key for an HttpOnly, SameSite=Strict session cookie that never holds the key; a wrong key is refused', async () => {
    await build();
    const { key } = await accounts.createKey({ plan: 'starter' });
    const wrong = await signIn('kumo_live_not-a-key');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie'] ?? '').not.toContain('kumo_console=');
    const ok = await signIn(key);
    expect(ok.statusCode).toBe(303);
    const setCookie = String([ok.headers['set-cookie']].flat().find((c) => String(c).startsWith('kumo_console=')));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/);
    expect(setCookie).not.toContain(key);
    const overview = await get('/console', cookieOf(ok));
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain('starter');
    expect(overview.body).not.toContain(key);
  });

  it('behind a trusted TLS proxy the cookie is __Host- and Secure, and the expected Origin is https', async () => {
    await build({ trustProxy: 1 });
    const { key } = await accounts.createKey({ plan: 'free' });
    const tls = { 'x-forwarded-proto': 'https' };
    expect((await signIn(key, tls)).statusCode).toBe(403);
    const ok = await signIn(key, { ...tls, origin: 'https://kumo.test' });
    expect(ok.statusCode).toBe(303);
    expect(String(ok.headers['set-cookie'])).toMatch(/__Host-kumo_console=[^;]+; .*Secure/);
  });

  it('offers as status filters exactly the statuses calls write to the request log', async () => {
    await build();
    const { key } = await accounts.createKey({ plan: 'starter' });
    const page = await get('/console/requests', cookieOf(await signIn(key)));
    const select = /<select[^>]*name="status"[^>]*>([\s\S]*?)<\/select>/.exec(page.body)![1]!;
    const offered = [...select.matchAll(/<option(?: selected)?>([^<]+)<\/option>/g)].map((m) => m[1]);
    expect(offered).toEqual([...requestStatuses]);
    expect(offered).toContain('cancelled');
    expect(offered).not.toContain('rejected');
  });

  it('lists each request with its URL (as logged: credentials already gone), site and error code', async () => {
    await build();
    const { key, accountId, keyId } = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(key));
    const long = `https://www.e-stat.go.jp/api/1.0/app/json/getStatsData?statsDataId=0003412312&cdCat01=${'1'.repeat(80)}`;
    for (const [url, errorCode] of [
      ['https://kakaku.com/item/K0001234567/', null],
      [long, 'fetch_timeout'],
    ] as const) {
      await storage.requests.insert({
        requestId: newId('req'),
        accountId,
        keyId,
        createdAt: new Date().toISOString(),
        siteId: errorCode ? 'estat_api' : 'kakaku',
        pageType: errorCode ? 'table' : 'item',
        url,
        status: errorCode ? 'timed_out' : 'completed',
        errorCode,
        httpStatus: errorCode ? null : 200,
        attempts: 1,
        costUnits: errorCode ? 0 : 1,
        latencyMs: 10,
        route: 'http',
        artifactId: null,
      });
    }
    const page = await get('/console/requests', cookie);
    expect(page.body).toContain('>kakaku.com/item/K0001234567/</span>');
    // A long URL is cut in the middle in the cell, whole in its title.
    expect(page.body).toContain(`title="${long.replaceAll('&', '&amp;')}"`);
    expect(page.body).toMatch(/>www\.e-stat\.go\.jp\/api\/1\.0\/app\/json\/getSta…1{19}<\/span>/);
    expect(page.body).toContain('<code>fetch_timeout</code>');
    expect(page.body).toContain('<td>estat_api</td>');
  });

  it('Sites speaks to a buyer in each language: page types by name, URL shapes, levels in words, real pages counted', async () => {
    await build();
    const { key } = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(key));
    const ja = (await get('/console/sites', cookie, { 'accept-language': 'ja' })).body;
    expect(ja).toContain('<td>商品</td>');
    expect(ja).toContain('<td>天気予報</td>');
    expect(ja).toMatch(/<span class="level level-stable">安定<\/span>/);
    expect(ja).toMatch(/記録した実ページ \d+ 件・模擬ページ \d+ 件/);
    expect(ja).toContain('<code>/bc/item/&lt;item number&gt;/</code>');
    // Outside code, hosts and the sites' own names (e-Stat API, …), no English phrase is left on the Japanese page.
    const main = /<main[\s\S]*<\/main>/.exec(ja)![0];
    const prose = main
      .replace(/<code>[\s\S]*?<\/code>/g, '')
      .replace(/<strong>[^<]*<\/strong>/g, '')
      .replace(/<span class="muted host">[^<]*<\/span>/g, '')
      .replace(/<[^>]+>/g, ' ');
    expect(prose.match(/.{0,30}[A-Za-z]{3,}[ ,]+[A-Za-z]{3,}.{0,30}/)?.[0] ?? null).toBeNull();
    const en = (await get('/console/sites', cookie, { 'accept-language': 'en' })).body;
    expect(en).toContain('<td>Item</td>');
    expect(en).toMatch(/\d+ recorded real pages, \d+ modelled/);
    expect(en).toContain('verified against recorded real pages of the site');
  });

  it('refuses impossible, out-of-range and reversed date filters, and says so on the page', async () => {
    await build();
    const { key, accountId, keyId } = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(key));
    const inMarch = newId('req');
    await storage.requests.insert({
      requestId: inMarch,
      accountId,
      keyId,
      createdAt: '2026-03-02T03:00:00.000Z',
      siteId: 'kakaku',
      pageType: 'item',
      url: null,
      status: 'completed',
      errorCode: null,
      httpStatus: 200,
      attempts: 1,
      costUnits: 1,
      latencyMs: 10,
      route: 'http',
      artifactId: null,
    });
    // 2026-02-31 is no day: it must not become March 3 (which would hide the March 2 row).
    const impossible = await get('/console/requests?from=2026-02-31', cookie);
    expect(impossible.body).toContain('2026-02-31');
    expect(impossible.body).toMatch(/role="alert">[^<]*2026-02-31/);
    expect(impossible.body).toContain(inMarch);
    const ancient = await get('/console/requests?to=0001-01-01', cookie);
    expect(ancient.body).toMatch(/role="alert">[^<]*0001-01-01/);
    expect(ancient.body).toContain(inMarch);
    const reversed = await get('/console/requests?from=2026-03-05&to=2026-03-01', cookie, { 'accept-language': 'ja' });
    expect(reversed.body).toMatch(/role="alert">[^<]*開始日/);
    expect(reversed.body).toContain(inMarch);
    const fine = await get('/console/requests?from=2026-03-02&to=2026-03-02', cookie);
    expect(fine.body).not.toContain('role="alert"');
    expect(fine.body).toContain(inMarch);
    expect((await get('/console/requests?from=2026-03-03', cookie)).body).not.toContain(inMarch);
  });

  it('says form refusals on Japanese pages in Japanese', async () => {
    await build();
    const { key, accountId } = await accounts.createKey({ plan: 'starter' });
    const worker = await accounts.createKey({ accountId, sites: ['kakaku'] });
    const cookie = cookieOf(await signIn(key));
    const ja = { 'accept-language': 'ja' };
    const csrf = csrfOf((await get('/console/keys', cookie)).body);
    const post_ = (url: string, fields: Record<string, string | string[]>) =>
      app.inject({
        method: 'POST',
        url,
        headers: { host: 'kumo.test', origin, cookie, 'content-type': 'application/x-www-form-urlencoded', ...ja },
        payload: form({ _csrf: csrf, ...fields }),
      });
    const badLimit = await post_('/console/keys', { monthly_credit_limit: 'lots' });
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.body).toContain('クレジット上限は整数で指定してください。');
    const unknown = await post_(`/console/keys/${worker.keyId}/narrow`, { sites: 'nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('キーは絞り込まれませんでした：不明なサイトです。');
    const widen = await post_(`/console/keys/${worker.keyId}/narrow`, { sites: ['kakaku', 'ikebe_gakki'] });
    expect(widen.statusCode).toBe(400);
    expect(widen.body).toContain('キーは絞り込まれませんでした：対応サイトは絞り込むことしかできません。ikebe_gakki');
    expect(widen.body).not.toContain('may only narrow');
    const raise = await post_(`/console/keys/${worker.keyId}/narrow`, { concurrency_limit: '99' });
    expect(raise.statusCode).toBe(400);
    expect(raise.body).toContain('プランの上限');
    await accounts.narrowKey(worker.keyId, { concurrencyLimit: 2 });
    const above = await post_(`/console/keys/${worker.keyId}/narrow`, { concurrency_limit: '3' });
    expect(above.body).toContain('同時実行数の上限は下げることしかできません（現在 2）');
    await accounts.revokeKey(worker.keyId);
    const rotate = await post_(`/console/keys/${worker.keyId}/rotate`, {});
    expect([404, 409]).toContain(rotate.statusCode);
    expect(rotate.body).not.toMatch(/no active key/);
  });

  it("says a new key over the plan's concurrency in the page's language, from the refusal's code", async () => {
    await build();
    const { key } = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(key));
    const csrf = csrfOf((await get('/console/keys', cookie)).body);
    // The service's English for this one is longer when creating than when narrowing; the code is the same.
    const ja = await post(
      '/console/keys',
      cookie,
      { _csrf: csrf, concurrency_limit: '9' },
      { 'accept-language': 'ja' },
    );
    expect(ja.statusCode).toBe(400);
    expect(ja.body).toContain(
      'キーは作成されませんでした：同時実行数の上限 9 は starter プランの上限 5 を超えています。',
    );
    expect(ja.body).not.toContain('above the');
    const en = await post('/console/keys', cookie, { _csrf: csrf, concurrency_limit: '9' });
    expect(en.body).toContain('The key was not created: the concurrency limit 9 is above the starter plan&#39;s 5.');
  });

  it('creates a key with a label, shows each key’s label and its credits this month, and words a bad label', async () => {
    await build();
    const { key, accountId } = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(key));
    const csrf = csrfOf((await get('/console/keys', cookie)).body);
    const made = await post('/console/keys', cookie, { _csrf: csrf, label: '本番 <b>API</b>' });
    expect(made.statusCode).toBe(303);
    const labelled = (await accounts.listKeys(accountId)).find((k) => k.label !== undefined)!;
    expect(labelled.label).toBe('本番 <b>API</b>');
    const page = await get('/console/keys', cookie, { 'accept-language': 'ja' });
    // Escaped, as every value on the page is.
    expect(page.body).toContain('<strong>本番 &lt;b&gt;API&lt;/b&gt;</strong><br /><code>' + labelled.id);
    expect(page.body).toContain('今月の使用クレジット');
    expect(page.body).toMatch(/<td class="num">0<\/td>/);
    const bad = await post(
      '/console/keys',
      cookie,
      { _csrf: csrf, label: 'a'.repeat(65) },
      { 'accept-language': 'ja' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('ラベルは 1〜64 文字で');
  });

  it("asks before a rotate or revoke (a GET changes nothing), warning when it is the session's own key", async () => {
    await build();
    const { key, keyId, accountId } = await accounts.createKey({ plan: 'starter' });
    const other = await accounts.createKey({ accountId });
    const cookie = cookieOf(await signIn(key));
    const keys = await get('/console/keys', cookie);
    // The row offers links to the confirmation, not forms that act at once.
    expect(keys.body).not.toMatch(/<form method="post" action="\/console\/keys\/[^"]+\/(rotate|revoke)"/);
    expect(keys.body).toContain(`href="/console/keys/${other.keyId}/revoke"`);
    for (const action of ['rotate', 'revoke']) {
      const confirm = await get(`/console/keys/${other.keyId}/${action}`, cookie);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`<form method="post" action="/console/keys/${other.keyId}/${action}"`);
      expect(confirm.body).toContain(`name="_csrf" value="${csrfOf(keys.body)}"`);
      expect(confirm.body).not.toContain('role="alert"');
    }
    expect((await accounts.listKeys(accountId)).every((k) => k.status === 'active')).toBe(true);
    const own = await get(`/console/keys/${keyId}/revoke`, cookie, { 'accept-language': 'ja' });
    expect(own.body).toMatch(/role="alert">[^<]*サインアウトされます/);
    const done = await post(`/console/keys/${other.keyId}/revoke`, cookie, { _csrf: csrfOf(keys.body) });
    expect(done.statusCode).toBe(303);
    expect((await get('/console/keys', cookie)).body).toMatch(new RegExp(`role="status"[^>]*>[^<]*${other.keyId}`));
    expect((await get(`/console/keys/${other.keyId}/revoke`, cookie)).statusCode).toBe(303);
  });

  it('sends Strict-Transport-Security on console answers over TLS only', async () => {
    await build({ trustProxy: 1 });
    const tls = await get('/console/sign-in', '', { 'x-forwarded-proto': 'https' });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
    const missing = await get('/console/nothing-here', '', { 'x-forwarded-proto': 'https' });
    expect(missing.headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await get('/console/sign-in')).headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses a sign-in or a form from another origin, and a form without the session token', async () => {
    await build();
    const { key } = await accounts.createKey({ plan: 'free' });
    expect((await signIn(key, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const noOrigin = await app.inject({
      method: 'POST',
      url: '/console/sign-in',
      headers: { host: 'kumo.test', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ key }),
    });
    expect(noOrigin.statusCode).toBe(403);
    const cookie = cookieOf(await signIn(key));
    const keys = await get('/console/keys', cookie);
    const csrf = csrfOf(keys.body);
    expect((await post('/console/keys', cookie, {})).statusCode).toBe(403);
    expect((await post('/console/keys', cookie, { _csrf: 'x'.repeat(43) })).statusCode).toBe(403);
    expect((await post('/console/keys', cookie, { _csrf: csrf }, { origin: 'https://evil.example' })).statusCode).toBe(
      403,
    );
    const created = await post('/console/keys', cookie, { _csrf: csrf, sites: ['kakaku'], concurrency_limit: '1' });
    // POST/Redirect/GET: the secret is never in the answer to the POST nor in a URL; the Keys page shows it once.
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/console/keys');
    expect(created.body).not.toContain('kumo_live_');
    const shown = await get('/console/keys', cookie);
    const secret = /id="new-secret">(kumo_live_[^<]+)</.exec(shown.body)![1]!;
    expect(await accounts.authenticate(secret)).not.toBeNull();
    expect((await accounts.listKeys()).length).toBe(2);
    // Reloading the page shows it no more, and re-running nothing.
    const again = await get('/console/keys', cookie);
    expect(again.body).not.toContain(secret);
    expect(again.body).not.toContain('id="new-secret"');
  });

  it('narrows an existing key, and refuses to widen it', async () => {
    await build();
    const admin = await accounts.createKey({ plan: 'starter' });
    const worker = await accounts.createKey({ accountId: admin.accountId, sites: ['kakaku', 'ikebe_gakki'] });
    const cookie = cookieOf(await signIn(admin.key));
    const csrf = csrfOf((await get('/console/keys', cookie)).body);
    const narrowed = await post(`/console/keys/${worker.keyId}/narrow`, cookie, {
      _csrf: csrf,
      sites: 'kakaku',
      outputs: 'json',
      monthly_credit_limit: '7',
    });
    expect(narrowed.statusCode).toBe(303);
    expect((await get('/console/keys', cookie)).body).toContain(worker.keyId);
    expect((await accounts.authenticate(worker.key))?.key).toMatchObject({
      sites: ['kakaku'],
      outputs: ['json'],
      monthlyCreditLimit: 7,
    });
    const wider = await post(`/console/keys/${worker.keyId}/narrow`, cookie, { _csrf: csrf, sites: 'mercari' });
    expect(wider.statusCode).toBe(400);
    expect((await accounts.authenticate(worker.key))?.key.sites).toEqual(['kakaku']);
  });

  it('bounds failed sign-ins per address with 429 and Retry-After', async () => {
    await build({ failures: 3 });
    const { key } = await accounts.createKey({ plan: 'free' });
    for (let i = 0; i < 3; i++) expect((await signIn(`kumo_live_wrong${i}`)).statusCode).toBe(401);
    const limited = await signIn(key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  describe('the sign-in bound behind KUMO_TRUST_PROXY, with forged X-Forwarded-For', () => {
    const wrong = (i: number, xff: string, remoteAddress = '127.0.0.1') =>
      app.inject({
        method: 'POST',
        url: '/console/sign-in',
        remoteAddress,
        headers: {
          host: 'kumo.test',
          origin,
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': xff,
        },
        payload: form({ key: `kumo_live_w${i}ng${'x'.repeat(i)}` }),
      });

    it('off: X-Forwarded-For is ignored, the socket address is counted', async () => {
      await build({ failures: 3, trustProxy: false });
      for (let i = 0; i < 3; i++) expect((await wrong(i, `198.51.100.${i}`)).statusCode).toBe(401);
      expect((await wrong(9, '198.51.100.77')).statusCode).toBe(429);
    });

    it('a hop count: only the entry the proxy appended is the client, the forged left part is not', async () => {
      await build({ failures: 3, trustProxy: 1 });
      for (let i = 0; i < 3; i++) expect((await wrong(i, `198.51.100.${i}, 203.0.113.9`)).statusCode).toBe(401);
      expect((await wrong(9, '198.51.100.77, 203.0.113.9')).statusCode).toBe(429);
      // Another real client behind the same proxy is not locked out by the first.
      expect((await wrong(10, '198.51.100.77, 203.0.113.10')).statusCode).toBe(401);
    });

    it('a list of proxies: the rightmost untrusted address is the client', async () => {
      await build({ failures: 3, trustProxy: ['127.0.0.1', '10.0.0.0/8'] });
      for (let i = 0; i < 3; i++) {
        expect((await wrong(i, `198.51.100.${i}, 203.0.113.9, 10.1.2.3`)).statusCode).toBe(401);
      }
      expect((await wrong(9, '198.51.100.77, 203.0.113.9, 10.9.9.9')).statusCode).toBe(429);
      // From an address that is not a listed proxy the header is not believed at all.
      expect((await wrong(10, '203.0.113.9', '192.0.2.50')).statusCode).toBe(401);
    });

    it('IPv6 clients are counted per /64', async () => {
      await build({ failures: 3, trustProxy: 1 });
      for (let i = 0; i < 3; i++) expect((await wrong(i, `2001:db8:1:2::${i + 1}`)).statusCode).toBe(401);
      expect((await wrong(9, '2001:db8:1:2:ffff:1:2:3')).statusCode).toBe(429);
      expect((await wrong(10, '2001:db8:1:3::1')).statusCode).toBe(401);
    });
  });

  it("shows only the account's own requests and keys: another account's ids are 404 by URL", async () => {
    await build();
    const mine = await accounts.createKey({ plan: 'starter' });
    const theirs = await accounts.createKey({ plan: 'starter' });
    const theirRow = newId('req');
    await storage.requests.insert(
      completedRequest(
        { accountId: theirs.accountId, keyId: theirs.keyId },
        { requestId: theirRow, siteId: 'kakaku', url: 'https://kakaku.com/item/K0000000001/', latencyMs: 10 },
      ),
    );
    const cookie = cookieOf(await signIn(mine.key));
    const detail = await get(`/console/requests/${theirRow}`, cookie);
    expect(detail.statusCode).toBe(404);
    expect(detail.body).not.toContain('K0000000001');
    expect((await get('/console/requests', cookie)).body).not.toContain(theirRow);
    const keys = await get('/console/keys', cookie);
    expect(keys.body).not.toContain(theirs.keyId);
    const csrf = csrfOf(keys.body);
    expect((await post(`/console/keys/${theirs.keyId}/revoke`, cookie, { _csrf: csrf })).statusCode).toBe(404);
    expect((await post(`/console/keys/${theirs.keyId}/rotate`, cookie, { _csrf: csrf })).statusCode).toBe(404);
    expect(
      (await post(`/console/keys/${theirs.keyId}/narrow`, cookie, { _csrf: csrf, sites: 'kakaku' })).statusCode,
    ).toBe(404);
    expect(await accounts.authenticate(theirs.key)).not.toBeNull();
  });

  it('a narrowed key sees its keys read-only; a key without usage may not sign in', async () => {
    await build();
    const full = await accounts.createKey({ plan: 'starter' });
    const narrowed = await accounts.createKey({ accountId: full.accountId, sites: ['kakaku'] });
    const scrapeOnly = await accounts.createKey({ accountId: full.accountId, operations: ['scrape'] });
    expect((await signIn(scrapeOnly.key)).statusCode).toBe(403);
    const cookie = cookieOf(await signIn(narrowed.key));
    const keys = await get('/console/keys', cookie);
    expect(keys.body).toContain(full.keyId);
    expect(keys.body).not.toContain('/revoke');
    const csrf = csrfOf(keys.body);
    expect((await post(`/console/keys/${full.keyId}/revoke`, cookie, { _csrf: csrf })).statusCode).toBe(403);
    expect((await post('/console/keys', cookie, { _csrf: csrf })).statusCode).toBe(403);
  });

  it('streams the usage numbers over server-sent events to a session only, and ends the stream at shutdown', async () => {
    await build();
    const a = await accounts.createKey({ plan: 'starter' });
    const cookie = cookieOf(await signIn(a.key));
    expect((await get('/console/events')).statusCode).toBe(401);
    expect((await get('/console/events', '', { 'accept-language': 'ja' })).body).toBe(
      '先にコンソールにサインインしてください。',
    );
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${base}/console/events`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('event: usage')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    const data = JSON.parse(/event: usage\ndata: (.*)\n/.exec(received)![1]!) as {
      credits: { used: number; remaining: number };
      concurrency: { in_use: number; limit: number };
    };
    expect(data.credits).toMatchObject({ used: 0, remaining: 5_000 });
    expect(data.concurrency).toEqual({ in_use: 0, limit: 5 });
    expect(JSON.stringify(data)).not.toContain(a.key);
    // Closing the app ends the open stream rather than waiting on it.
    await app.close();
    let ended = false;
    while (!ended) ended = (await reader.read()).done;
    expect(ended).toBe(true);
  });

  it('caps open event streams per session and per account with 429, and frees a slot when a stream closes', async () => {
    await build({ streamCaps: { perSession: 2, perAccount: 3 } });
    const a = await accounts.createKey({ plan: 'starter' });
    const one = cookieOf(await signIn(a.key));
    const two = cookieOf(await signIn(a.key));
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const opened: ClientRequest[] = [];
    // node:http without an agent: each stream its own connection, destroyed at the end (no keep-alive left over).
    const open = (cookie: string, lang = 'en') =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = httpGet(`${base}/console/events?lang=${lang}`, { headers: { cookie }, agent: false }, (res) => {
          if (res.statusCode === 200) {
            opened.push(request);
            resolve({ status: 200, text: '' });
            return;
          }
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        request.on('error', reject);
      });
    try {
      expect((await open(one)).status).toBe(200);
      expect((await open(one)).status).toBe(200);
      const perSession = await open(one);
      expect(perSession.status).toBe(429);
      expect(perSession.text).toContain('2 tabs');
      expect((await open(two)).status).toBe(200);
      const perAccount = await open(two, 'ja');
      expect(perAccount.status).toBe(429);
      expect(perAccount.text).toContain('ライブ更新');
      opened.shift()!.destroy();
      // The server sees the close a moment later (asked for up to 5 s: a loaded machine's moment can pass 0.5 s).
      let again = await open(two);
      for (let i = 0; i < 200 && again.status === 429; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        again = await open(two);
      }
      expect(again.status).toBe(200);
    } finally {
      for (const request of opened) request.destroy();
    }
  });

  it('signs out, and a revoked key ends its sessions', async () => {
    await build();
    const a = await accounts.createKey({ plan: 'free' });
    const cookie = cookieOf(await signIn(a.key));
    const page = await get('/console', cookie);
    const out = await post('/console/sign-out', cookie, { _csrf: csrfOf(page.body) });
    expect(out.statusCode).toBe(303);
    expect((await get('/console', cookie)).statusCode).toBe(303);
    // Signing out of a session already gone changes nothing and is let through; from another origin it is not.
    expect((await post('/console/sign-out', cookie, {})).statusCode).toBe(303);
    expect((await post('/console/sign-out', cookie, {}, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const again = cookieOf(await signIn(a.key));
    expect((await get('/console', again)).statusCode).toBe(200);
    await accounts.revokeKey(a.keyId);
    expect((await get('/console', again)).statusCode).toBe(303);
  });
});
