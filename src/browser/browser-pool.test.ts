// The browser pool with real Chromium: the page bound, 503 when no page frees in time, restarts after a crash or N uses.
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { isKumoError } from '../errors.js';
import { BrowserPool, findChromium, type BrowserPoolOptions } from './browser-pool.js';
import { browserProcessesUnder } from '../../test/support/chromium.js';

const chromiumPath = findChromium('');
if (!chromiumPath)
  console.warn('browser-pool tests skipped: no Chromium binary (apt-get install chromium-headless-shell)');

const pools: BrowserPool[] = [];

function pool(changes: Partial<BrowserPoolOptions> = {}): BrowserPool {
  const made = new BrowserPool({
    executablePath: chromiumPath,
    wsEndpoint: null,
    // This suite runs as root, where Chromium's sandbox cannot start; off here only (KUMO_BROWSER_SANDBOX=false).
    sandbox: false,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp' },
    maxPages: 2,
    queueWaitMs: 300,
    recycleAfter: 1000,
    launchTimeoutMs: 30_000,
    proxyBindHost: '127.0.0.1',
    ...changes,
  });
  pools.push(made);
  return made;
}

afterEach(async () => {
  for (const made of pools.splice(0)) await made.close();
});

const launchedBrowsers = () => browserProcessesUnder(process.pid);

const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a pool without a browser', () => {
  it('says why in its status and refuses calls with 503 unavailable', async () => {
    const none = pool({ executablePath: null });
    expect(none.status()).toEqual({ ready: false, reason: expect.stringContaining('no browser configured') });
    expect(none.unavailableReason()).toContain('no browser configured');
    const error = await none.withContext({}, Date.now() + 1000, async () => 1).catch((e: unknown) => e);
    expect(isKumoError(error) && error.code).toBe('unavailable');
  });

  it('refuses to start at all when PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK would let loopback bypass the proxy', async () => {
    const bypassing = pool({ loopbackBypass: true });
    await bypassing.start();
    expect(bypassing.status()).toEqual({ ready: false, reason: expect.stringContaining('PROXIED_LOOPBACK') });
    expect(bypassing.unavailableReason()).toContain('PROXIED_LOOPBACK');
    const error = await bypassing.withContext({}, Date.now() + 1000, async () => 1).catch((e: unknown) => e);
    expect(isKumoError(error) && error.code).toBe('unavailable');
    expect(bypassing.stats().launches).toBe(0);
  });

  it('remembers a browser that would not start, for /readyz, and refuses at once for a while', async () => {
    const broken = pool({ executablePath: '/nonexistent/chromium' });
    await broken.start();
    expect(broken.status()).toEqual({ ready: false, reason: 'Chromium could not be started' });
    expect(broken.unavailableReason()).toBe('Chromium could not be started');
  });
});

describe.skipIf(!chromiumPath)('what the launched Chromium is given', () => {
  it('only the environment config passes, never the process secrets; --no-sandbox only when the sandbox is off', async () => {
    // A secret planted in this process's own environment, which Playwright would hand over whole by default.
    // eslint-disable-next-line no-restricted-properties
    process.env.DATABASE_URL_PLANTED = 'postgres://planted-secret@db/kumo';
    try {
      const unsandboxed = pool({ sandbox: false });
      await unsandboxed.start();
      expect(unsandboxed.status().ready).toBe(true);
      const [browser] = launchedBrowsers();
      expect(browser).toBeDefined();
      expect(browser!.environ).not.toContain('planted-secret');
      expect(browser!.environ).not.toContain('DATABASE_URL');
      expect(browser!.environ).toContain('PATH=');
      expect(browser!.cmdline).toContain('--no-sandbox');
    } finally {
      // eslint-disable-next-line no-restricted-properties
      delete process.env.DATABASE_URL_PLANTED;
    }
  }, 30_000);

  it("the one --disable-features Chromium keeps (the last) holds Playwright's own list as well as Kumo's", async () => {
    const disabled = (cmdline: string[]) =>
      (cmdline.filter((arg) => arg.startsWith('--disable-features=')).at(-1) ?? '')
        .slice('--disable-features='.length)
        .split(',')
        .filter(Boolean);
    const plain = await chromium.launch({ executablePath: chromiumPath!, env: { PATH: '/usr/bin:/bin' } });
    let playwrights: string[];
    try {
      playwrights = disabled(launchedBrowsers()[0]!.cmdline);
    } finally {
      await plain.close();
    }
    expect(playwrights.length).toBeGreaterThan(5);
    const ours = pool();
    await ours.start();
    const kept = disabled(launchedBrowsers()[0]!.cmdline);
    expect(kept).toEqual(expect.arrayContaining([...playwrights, 'Translate', 'MediaRouter']));
  }, 30_000);

  it('with the sandbox on, Chromium runs without --no-sandbox, or (as root without user namespaces) the route fails closed and says why', async () => {
    const sandboxed = pool({ sandbox: true });
    await sandboxed.start();
    if (sandboxed.status().ready) {
      const [browser] = launchedBrowsers();
      expect(browser!.cmdline).not.toContain('--no-sandbox');
      return;
    }
    expect(sandboxed.status().reason).toContain('sandbox');
    expect(sandboxed.unavailableReason()).toContain('sandbox');
    const error = await sandboxed.withContext({}, Date.now() + 5_000, async () => 1).catch((e: unknown) => e);
    expect(isKumoError(error) && error.code).toBe('unavailable');
    expect(launchedBrowsers()).toHaveLength(0);
  }, 30_000);
});

describe.skipIf(!chromiumPath)('a pool with Chromium', () => {
  it('never has more pages open than its bound; a call that waits too long is 503 with Retry-After', async () => {
    const bounded = pool({ maxPages: 2, queueWaitMs: 200 });
    await bounded.start();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () =>
        bounded.withContext({}, Date.now() + 5_000, async (context) => {
          await context.newPage();
          await hold(600);
          return bounded.stats().inUse;
        }),
      ),
    );
    const served = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(served).toHaveLength(2);
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason as unknown;
    expect(isKumoError(reason) && reason.code).toBe('unavailable');
    expect(isKumoError(reason) && reason.extras.retryAfterSeconds).toBeGreaterThan(0);
    expect(bounded.stats().peak).toBe(2);
    expect(bounded.stats().inUse).toBe(0);
  }, 30_000);

  it('starts a new browser after a crash, on the next call', async () => {
    const crashy = pool();
    await crashy.start();
    await crashy.withContext({}, Date.now() + 5_000, async (context) => {
      // What a crash looks like from here: the browser's connection ends.
      await context.browser()!.close();
    });
    expect(crashy.status().ready).toBe(false);
    const title = await crashy.withContext({}, Date.now() + 10_000, async (context) => {
      const page = await context.newPage();
      await page.setContent('<title>again</title>');
      return page.title();
    });
    expect(title).toBe('again');
    expect(crashy.stats().launches).toBe(2);
  }, 30_000);

  it('replaces the browser after it has served recycleAfter contexts', async () => {
    const recycled = pool({ recycleAfter: 2 });
    for (let i = 0; i < 5; i++)
      await recycled.withContext({}, Date.now() + 10_000, async (context) => context.newPage());
    expect(recycled.stats().launches).toBe(3);
  }, 60_000);
});
