// robots.txt per RFC 9309: the matcher on its own, then HttpFetcher honouring it over loopback (test matrix D.70).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOrigin, type Origin } from '../../test/support/origin.js';
import { KumoError } from '../errors.js';
import { ManualClock } from '../time/clock.js';
import { parseConnectTo } from './connect-to.js';
import type { FetchTarget } from './fetcher.js';
import { InProcessHostGate } from './host-gate.js';
import { HttpFetcher, type HttpFetcherOptions } from './http-fetcher.js';
import { InMemoryRobotsCache, parseRobots, productTokenOf } from './robots.js';

const enc = (text: string) => new TextEncoder().encode(text);
const rules = (text: string, token = 'KumoBot') => parseRobots(enc(text), token);

describe('parseRobots (RFC 9309 matching)', () => {
  it('takes the product token of a User-Agent', () => {
    expect(productTokenOf('KumoBot/0.1 (+https://kumo.dev/bot)')).toBe('kumobot');
  });

  it('prefers our group (case-insensitive) and does not inherit *', () => {
    const r = rules('User-agent: *\nDisallow: /\n\nuser-agent: KUMOBOT\nDisallow: /private\n');
    expect(r.allows('/item/1')).toBe(true);
    expect(r.allows('/private/x')).toBe(false);
    expect(rules('User-agent: *\nDisallow: /\n\nUser-agent: other\nAllow: /\n').allows('/a')).toBe(false);
  });

  it('merges groups naming the same agent and groups with several agents', () => {
    const r = rules('User-agent: a\nUser-agent: kumobot\nDisallow: /one\n\nUser-agent: KumoBot\nDisallow: /two\n');
    expect(r.allows('/one')).toBe(false);
    expect(r.allows('/two')).toBe(false);
    expect(r.allows('/three')).toBe(true);
  });

  it('lets the longest match win, and Allow win a tie', () => {
    const r = rules('User-agent: *\nDisallow: /item\nAllow: /item/public\nAllow: /page\nDisallow: /page\n');
    expect(r.allows('/item/1')).toBe(false);
    expect(r.allows('/item/public/1')).toBe(true);
    expect(r.allows('/page')).toBe(true);
  });

  it('supports * and $ and compares the query too', () => {
    const r = rules('User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*q=\nDisallow: /x**y\n');
    expect(r.allows('/doc/a.pdf')).toBe(false);
    expect(r.allows('/doc/a.pdf?x=1')).toBe(true);
    expect(r.allows('/search?page=1&q=guitar')).toBe(false);
    expect(r.allows('/search?page=1')).toBe(true);
    expect(r.allows('/x-and-y')).toBe(false);
  });

  it('compares percent-encoded octets: a UTF-8 pattern matches the encoded path', () => {
    const r = rules('User-agent: *\nDisallow: /商品\n');
    expect(r.allows(new URL('https://a.jp/商品/1').pathname)).toBe(false);
    expect(r.allows('/%e5%95%86%e5%93%81/1')).toBe(false);
  });

  it('ignores comments, empty Disallow and rules outside any group; always allows /robots.txt', () => {
    expect(rules('Disallow: /\nUser-agent: *\nDisallow:   # nothing\n').allows('/a')).toBe(true);
    expect(rules('User-agent: *\nDisallow: /\n').allows('/robots.txt')).toBe(true);
    expect(rules('').allows('/')).toBe(true);
  });

  it('reads Crawl-delay in seconds from the chosen group', () => {
    expect(rules('User-agent: *\nCrawl-delay: 2.5\n').crawlDelayMs).toBe(2500);
    expect(rules('User-agent: kumobot\nCrawl-delay: x\n').crawlDelayMs).toBe(0);
  });

  it('caps Crawl-delay at 60 s: it becomes the host spacing, and a day would shut the host off', () => {
    expect(rules('User-agent: *\nCrawl-delay: 60\n').crawlDelayMs).toBe(60_000);
    expect(rules('User-agent: *\nCrawl-delay: 61\n').crawlDelayMs).toBe(60_000);
    expect(rules('User-agent: *\nCrawl-delay: 86400\n').crawlDelayMs).toBe(60_000);
    expect(rules('User-agent: *\nCrawl-delay: 1e300\n').crawlDelayMs).toBe(60_000);
  });

  it('parses only the first 500 KiB, dropping the line cut by the limit', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(600);
    const r = rules(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`);
    expect(r.allows('/early')).toBe(false);
    expect(r.allows('/late')).toBe(true);
  });
});

const SHOP = 'shop.kumo-test.jp';
const OTHER = 'www.kumo-test.jp';
const html = { 'content-type': 'text/html; charset=utf-8' };
const target: FetchTarget = {
  allowedHosts: [SHOP, OTHER],
  allowedSchemes: ['https:'],
  acceptContentTypes: ['text/html'],
};

describe('HttpFetcher with robots.txt', () => {
  let shop: Origin;
  let other: Origin;
  const fetchers: HttpFetcher[] = [];

  beforeAll(async () => {
    shop = await startOrigin();
    other = await startOrigin();
  });
  afterAll(async () => {
    await Promise.all(fetchers.map((f) => f.close()));
    await shop.close();
    await other.close();
  });
  beforeEach(() => {
    shop.route('GET', '/item/1', { status: 200, headers: html, body: '<p>item</p>' });
    shop.route('GET', '/open/1', { status: 200, headers: html, body: '<p>open</p>' });
  });

  function make(overrides: Partial<HttpFetcherOptions> = {}, robotsOverrides = {}): HttpFetcher {
    const fetcher = new HttpFetcher({
      userAgent: 'KumoBot/test (+https://kumo.dev/bot)',
      connectTimeoutMs: 500,
      // Not 300 ms: a paused test process runs due timers before reading what arrived on time.
      headersTimeoutMs: 2_000,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 5,
      maxAttempts: 1,
      retryBaseDelayMs: 5,
      connectTo: parseConnectTo(`${SHOP}=${shop.url},${OTHER}=${other.url}`),
      hostGate: new InProcessHostGate(),
      politeness: () => ({ maxInFlight: 1, minIntervalMs: 0 }),
      robots: {
        cache: new InMemoryRobotsCache(),
        productToken: 'kumobot',
        ttlMs: 86_400_000,
        unreachableTtlMs: 60_000,
        timeoutMs: 1_000,
        ...robotsOverrides,
      },
      ...overrides,
    });
    fetchers.push(fetcher);
    return fetcher;
  }
  const get = (fetcher: HttpFetcher, path: string, now = Date.now()) =>
    fetcher.fetch({ url: new URL(`https://${SHOP}${path}`), target, deadlineAt: now + 2_000 });
  /** A fetcher whose robots.txt lifetimes (and gate, and deadlines) run on a ManualClock the test moves. */
  const onManualClock = (robotsOverrides = {}) => {
    const clock = new ManualClock();
    const fetcher = make({ clock, hostGate: new InProcessHostGate({ clock }) }, robotsOverrides);
    return { clock, get: (path: string) => get(fetcher, path, clock.now()) };
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KumoError);
    return error as KumoError;
  };
  const robots = (status: number, body = '', headers: Record<string, string> = {}) =>
    shop.route('GET', '/robots.txt', { status, headers: { 'content-type': 'text/plain', ...headers }, body });

  it('a disallowed path is robots_disallowed with no request for the page; others pass; one robots fetch', async () => {
    robots(200, 'User-agent: *\nDisallow: /item\n');
    const fetcher = make();
    const before = shop.hits('/item/1');
    const error = await refusal(get(fetcher, '/item/1'));
    expect(error.code).toBe('robots_disallowed');
    expect(error.extras.body?.attempts).toBe(0);
    expect(shop.hits('/item/1')).toBe(before);
    expect((await get(fetcher, '/open/1')).httpStatus).toBe(200);
    const robotsHits = shop.requests('/robots.txt');
    expect(robotsHits.at(-1)?.headers['user-agent']).toContain('KumoBot');
  });

  it('fetches robots.txt once for many parallel callers and keeps it cached', async () => {
    robots(200, 'User-agent: *\nAllow: /\n');
    const fetcher = make();
    const before = shop.hits('/robots.txt');
    await Promise.all(Array.from({ length: 5 }, () => get(fetcher, '/open/1')));
    await get(fetcher, '/open/1');
    expect(shop.hits('/robots.txt') - before).toBe(1);
  });

  it('a stale entry is fetched again before the next page', async () => {
    robots(200, 'User-agent: *\nAllow: /\n');
    const { clock, get } = onManualClock({ ttlMs: 50 });
    const before = shop.hits('/robots.txt');
    await get('/item/1');
    robots(200, 'User-agent: *\nDisallow: /item\n');
    await clock.advance(49);
    expect((await get('/item/1')).httpStatus).toBe(200);
    await clock.advance(1);
    expect((await refusal(get('/item/1'))).code).toBe('robots_disallowed');
    expect(shop.hits('/robots.txt') - before).toBe(2);
  });

  it('404 allows everything', async () => {
    robots(404, 'nope');
    expect((await get(make(), '/item/1')).httpStatus).toBe(200);
  });

  // Issue 7 §2: an unreachable robots.txt is an outage of the site, not its verdict. The page is still never
  // requested (RFC 9309 §2.3.1.4 "assume complete disallow"), but the caller gets 503 site_busy with the time left
  // until robots.txt is asked again, never 422 robots_disallowed (which said the site forbade the path).
  const unreachable = (error: KumoError, ttlSeconds: number) => {
    expect(error.code).toBe('site_busy');
    expect(error.extras.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.extras.retryAfterSeconds).toBeLessThanOrEqual(ttlSeconds);
    expect(error.extras.body?.attempts).toBe(0);
  };

  it('5xx is site_busy (not robots_disallowed) until the short unreachable TTL passes, then recovers', async () => {
    for (const status of [500, 502, 503, 504]) {
      robots(status, 'down');
      const { clock, get } = onManualClock({ unreachableTtlMs: 50 });
      const before = shop.hits('/item/1');
      unreachable(await refusal(get('/item/1')), 1);
      expect(shop.hits('/item/1'), String(status)).toBe(before);
      robots(404);
      await clock.advance(49);
      unreachable(await refusal(get('/item/1')), 1);
      await clock.advance(1);
      expect((await get('/item/1')).httpStatus).toBe(200);
    }
  });

  it('an unreachable TTL configured past an hour keeps the host (and Retry-After) at an hour', async () => {
    robots(503, 'down');
    const error = await refusal(get(make({}, { unreachableTtlMs: 2 * 3_600_000 }), '/item/1'));
    expect(error.code).toBe('site_busy');
    expect(error.extras.retryAfterSeconds).toBe(3600);
  });

  it('a 429 for robots.txt is site_busy too', async () => {
    robots(429, 'slow down');
    const before = shop.hits('/item/1');
    unreachable(await refusal(get(make(), '/item/1')), 60);
    expect(shop.hits('/item/1')).toBe(before);
  });

  it('Retry-After is the time left until robots.txt is asked again, and the cached outage is not re-fetched', async () => {
    robots(503, 'down');
    const { clock, get } = onManualClock({ unreachableTtlMs: 4_000 });
    const robotsBefore = shop.hits('/robots.txt');
    const first = await refusal(get('/item/1'));
    expect(first.extras.retryAfterSeconds).toBe(4);
    await clock.advance(1_100);
    const second = await refusal(get('/open/1'));
    expect(second.code).toBe('site_busy');
    // 2.9 s left, rounded up; the TTL (4) would be a lie.
    expect(second.extras.retryAfterSeconds).toBe(3);
    expect(shop.hits('/robots.txt') - robotsBefore).toBe(1);
  });

  it('a connection reset and a timeout are site_busy, never robots_disallowed', async () => {
    shop.route('GET', '/robots.txt', (req) => {
      req.socket.destroy();
    });
    const before = shop.hits('/item/1');
    unreachable(await refusal(get(make(), '/item/1')), 60);
    shop.route('GET', '/robots.txt', () => undefined);
    unreachable(await refusal(get(make({}, { timeoutMs: 100 }), '/item/1')), 60);
    expect(shop.hits('/item/1')).toBe(before);
  });

  it('a refused connection is site_busy', async () => {
    const gone = await startOrigin();
    const port = gone.port;
    await gone.close();
    const fetcher = make({ connectTo: parseConnectTo(`${SHOP}=http://127.0.0.1:${port}`) });
    unreachable(await refusal(get(fetcher, '/item/1')), 60);
  });

  it('a host name that does not resolve (DNS failure, via the injectable resolver) is site_busy', async () => {
    const asked: string[] = [];
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const fetcher = make({
        // Not mapped: the guarded connection asks the resolver, which fails as DNS would.
        connectTo: parseConnectTo(`${OTHER}=${other.url}`),
        lookup: async (hostname) => {
          asked.push(hostname);
          throw Object.assign(new Error('dns'), { code });
        },
      });
      unreachable(await refusal(get(fetcher, '/item/1')), 60);
    }
    expect(asked).toContain(SHOP);
  });

  it('a robots.txt host resolving to a private address is destination_forbidden, not an outage', async () => {
    const fetcher = make({
      connectTo: parseConnectTo(`${OTHER}=${other.url}`),
      lookup: async () => [{ address: '10.1.2.3', family: 4 }],
    });
    expect((await refusal(get(fetcher, '/item/1'))).code).toBe('destination_forbidden');
  });

  it('follows up to 5 redirects on the site hosts; 6 count as unavailable (allow)', async () => {
    for (let i = 0; i < 6; i++) {
      shop.route('GET', `/r${i}`, { status: 301, headers: { location: `/r${i + 1}` } });
    }
    shop.route('GET', '/robots.txt', { status: 301, headers: { location: `https://${OTHER}/robots.txt` } });
    other.route('GET', '/robots.txt', { status: 200, headers: {}, body: 'User-agent: *\nDisallow: /item\n' });
    expect((await refusal(get(make(), '/item/1'))).code).toBe('robots_disallowed');

    shop.route('GET', '/robots.txt', { status: 302, headers: { location: '/r0' } });
    shop.route('GET', '/r5', { status: 200, headers: {}, body: 'User-agent: *\nDisallow: /\n' });
    // robots.txt → r0 → … → r5: six redirects before r5's file; the file is never read.
    shop.route('GET', '/r4', { status: 301, headers: { location: '/r5b' } });
    shop.route('GET', '/r5b', { status: 301, headers: { location: '/r5' } });
    const before = shop.hits('/r5');
    expect((await get(make(), '/item/1')).httpStatus).toBe(200);
    expect(shop.hits('/r5')).toBe(before);
  });

  it('a redirect off the site hosts is not followed (allow)', async () => {
    robots(301, '', { location: 'https://elsewhere.example/robots.txt' });
    expect((await get(make(), '/item/1')).httpStatus).toBe(200);
  });

  it('Crawl-delay raises the spacing between requests to the host', async () => {
    robots(200, 'User-agent: *\nCrawl-delay: 0.2\n');
    const fetcher = make();
    const before = shop.requests('/open/1').length;
    const startedAt: number[] = [];
    shop.route('GET', '/open/1', (_req, res) => {
      startedAt.push(performance.now());
      res.writeHead(200, html).end('<p/>');
    });
    await Promise.all([get(fetcher, '/open/1'), get(fetcher, '/open/1'), get(fetcher, '/open/1')]);
    expect(shop.requests('/open/1').length - before).toBe(3);
    expect(startedAt[1]! - startedAt[0]!).toBeGreaterThanOrEqual(190);
    expect(startedAt[2]! - startedAt[1]!).toBeGreaterThanOrEqual(190);
  });
});

// Review of issue 7: a robots.txt fetch that waits in the politeness gate past its own budget (the host busy with a
// slow page) is undecided, not failed: 503 site_busy with the gate's estimate as Retry-After, never a bare timeout
// (502 fetch_failed), and not remembered as an outage of the site (the wait was in our own queue).
describe('robots.txt waiting in the politeness gate', () => {
  let shop: Origin;
  beforeAll(async () => {
    shop = await startOrigin();
  });
  afterAll(async () => {
    await shop.close();
  });

  it('is site_busy with a Retry-After when the robots budget runs out in the gate, and is not cached', async () => {
    shop.route('GET', '/robots.txt', { status: 200, headers: { 'content-type': 'text/plain' }, body: '' });
    shop.route('GET', '/item/1', { status: 200, headers: html, body: '<p>item</p>' });
    const gate = new InProcessHostGate();
    const rule = { maxInFlight: 1, minIntervalMs: 0 };
    const fetcher = new HttpFetcher({
      userAgent: 'KumoBot/test (+https://kumo.dev/bot)',
      connectTimeoutMs: 500,
      // Not 300 ms: a paused test process runs due timers before reading what arrived on time.
      headersTimeoutMs: 2_000,
      maxBodyBytes: 1024 * 1024,
      maxRedirects: 5,
      maxAttempts: 1,
      retryBaseDelayMs: 5,
      connectTo: parseConnectTo(`${SHOP}=${shop.url}`),
      hostGate: gate,
      politeness: () => rule,
      robots: {
        cache: new InMemoryRobotsCache(),
        productToken: 'kumobot',
        ttlMs: 86_400_000,
        unreachableTtlMs: 60_000,
        timeoutMs: 150,
      },
    });
    try {
      // Another call's page request holds the host's only slot for longer than the robots budget.
      const leave = await gate.enter(SHOP, rule, Date.now() + 5_000, undefined, 'other');
      const error = await fetcher
        .fetch({ url: new URL(`https://${SHOP}/item/1`), target, deadlineAt: Date.now() + 3_000 })
        .then(
          () => null,
          (e: unknown) => e,
        );
      leave();
      expect(error).toBeInstanceOf(KumoError);
      expect((error as KumoError).code).toBe('site_busy');
      expect((error as KumoError).extras.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(shop.hits('/robots.txt')).toBe(0);
      // Not remembered as unreachable: with the host free, the next call fetches robots.txt and its page.
      const page = await fetcher.fetch({
        url: new URL(`https://${SHOP}/item/1`),
        target,
        deadlineAt: Date.now() + 3_000,
      });
      expect(page.httpStatus).toBe(200);
      expect(shop.hits('/robots.txt')).toBe(1);
    } finally {
      await fetcher.close();
    }
  });
});
