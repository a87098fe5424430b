// The per-host circuit breaker, alone on a fake clock and inside HttpFetcher over loopback (test matrix D.67).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, type Origin } from '../../test/support/origin.js';
import { KumoError } from '../errors.js';
import { InProcessCircuitBreaker, type BreakerState } from './circuit-breaker.js';
import { parseConnectTo } from './connect-to.js';
import { InProcessHostGate } from './host-gate.js';
import { HttpFetcher } from './http-fetcher.js';

function refusal(fn: () => void): KumoError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(KumoError);
    return error as KumoError;
  }
  throw new Error('expected a refusal');
}

describe('InProcessCircuitBreaker', () => {
  let now = 0;
  const changes: [string, BreakerState][] = [];
  const make = () =>
    new InProcessCircuitBreaker({
      failureThreshold: 3,
      cooldownMs: 10_000,
      now: () => now,
      onStateChange: (host, state) => changes.push([host, state]),
    });

  it('opens after N consecutive failures, refuses with site_busy and Retry-After, per host', () => {
    now = 0;
    const breaker = make();
    breaker.failed('a.jp');
    breaker.failed('a.jp');
    breaker.permit('a.jp');
    breaker.failed('a.jp');
    expect(breaker.state('a.jp')).toBe('open');
    const error = refusal(() => breaker.permit('a.jp'));
    expect(error.code).toBe('site_busy');
    expect(error.extras.retryAfterSeconds).toBe(10);
    expect(() => breaker.permit('b.jp')).not.toThrow();
  });

  it('a success resets the count', () => {
    const breaker = make();
    breaker.failed('a.jp');
    breaker.failed('a.jp');
    breaker.succeeded('a.jp');
    breaker.failed('a.jp');
    breaker.failed('a.jp');
    expect(breaker.state('a.jp')).toBe('closed');
  });

  it('after the cool-down lets exactly one probe through; its success closes, its failure reopens', () => {
    now = 0;
    const breaker = make();
    for (let i = 0; i < 3; i++) breaker.failed('a.jp');
    now = 10_000;
    expect(() => breaker.permit('a.jp')).not.toThrow();
    expect(breaker.state('a.jp')).toBe('half_open');
    expect(refusal(() => breaker.permit('a.jp')).code).toBe('site_busy');
    breaker.failed('a.jp');
    expect(breaker.state('a.jp')).toBe('open');
    now = 20_000;
    breaker.permit('a.jp');
    breaker.succeeded('a.jp');
    expect(breaker.state('a.jp')).toBe('closed');
    expect(() => breaker.permit('a.jp')).not.toThrow();
    expect(changes.filter(([host]) => host === 'a.jp').map(([, s]) => s)).toContain('half_open');
  });

  it("a target's Retry-After opens at once for at least that long", () => {
    now = 0;
    const breaker = make();
    breaker.failed('a.jp', 120_000);
    expect(breaker.state('a.jp')).toBe('open');
    now = 100_000;
    expect(refusal(() => breaker.permit('a.jp')).extras.retryAfterSeconds).toBe(20);
    now = 120_000;
    expect(() => breaker.permit('a.jp')).not.toThrow();
  });

  it('a probe that never reports frees its slot after a cool-down', () => {
    now = 0;
    const breaker = make();
    for (let i = 0; i < 3; i++) breaker.failed('a.jp');
    now = 10_000;
    breaker.permit('a.jp');
    now = 20_001;
    expect(() => breaker.permit('a.jp')).not.toThrow();
  });
});

describe('HttpFetcher with a breaker', () => {
  const SHOP = 'shop.kumo-test.jp';
  const target = { allowedHosts: [SHOP], allowedSchemes: ['https:'], acceptContentTypes: ['text/html'] };
  let shop: Origin;
  let fetcher: HttpFetcher;
  let breaker: InProcessCircuitBreaker;

  beforeAll(async () => {
    shop = await startOrigin();
    breaker = new InProcessCircuitBreaker({ failureThreshold: 2, cooldownMs: 150 });
    fetcher = new HttpFetcher({
      userAgent: 'KumoBot/test',
      connectTimeoutMs: 500,
      headersTimeoutMs: 300,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 5,
      maxAttempts: 2,
      retryBaseDelayMs: 5,
      connectTo: parseConnectTo(`${SHOP}=${shop.url}`),
      hostGate: new InProcessHostGate(),
      politeness: () => ({ maxInFlight: 1, minIntervalMs: 0 }),
      breaker,
    });
  });
  afterAll(async () => {
    await fetcher.close();
    await shop.close();
  });
  const get = (path: string) =>
    fetcher.fetch({ url: new URL(`https://${SHOP}${path}`), target, deadlineAt: Date.now() + 2_000 }).then(
      (page) => ({ ok: true as const, page }),
      (error: KumoError) => ({ ok: false as const, error }),
    );

  it('opens after consecutive failed fetches (not tries); then answers site_busy without a request', async () => {
    shop.route('GET', '/down', { status: 500, body: 'x' });
    shop.route('GET', '/up', { status: 200, headers: { 'content-type': 'text/html' }, body: '<p/>' });
    const first = await get('/down');
    expect(!first.ok && first.error.code).toBe('fetch_failed');
    expect(breaker.state(SHOP)).toBe('closed');
    await get('/down');
    expect(breaker.state(SHOP)).toBe('open');
    const hits = shop.hits();
    const refused = await get('/up');
    expect(!refused.ok && refused.error.code).toBe('site_busy');
    expect(!refused.ok && refused.error.extras.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(shop.hits()).toBe(hits);
    await new Promise((r) => setTimeout(r, 170));
    const probe = await get('/up');
    expect(probe.ok).toBe(true);
    expect(breaker.state(SHOP)).toBe('closed');
  });

  it('a 503 with Retry-After opens it at once for that long', async () => {
    shop.route('GET', '/busy', { status: 503, headers: { 'retry-after': '120' }, body: 'busy' });
    const busy = await get('/busy');
    expect(!busy.ok && busy.error.extras.retryAfterSeconds).toBe(120);
    expect(breaker.state(SHOP)).toBe('open');
    const hits = shop.hits();
    const next = await get('/up');
    expect(!next.ok && next.error.code).toBe('site_busy');
    expect(!next.ok && next.error.extras.retryAfterSeconds).toBeGreaterThan(100);
    expect(shop.hits()).toBe(hits);
  });
});
