// One Chromium (local playwright-core launch or a remote Playwright server), a bounded number of pages, restarts.
import { existsSync } from 'node:fs';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  BrowserServer,
  BrowserType,
  LaunchOptions,
} from 'playwright-core';
import { KumoError } from '../errors.js';
import { EgressProxy } from './egress-proxy.js';

/**
 * playwright-core, loaded by the first browser call rather than at start: it adds ~85 MB to the resident memory of a
 * process that may never render a page (issue 12's memory target). Loaded once; later calls share it.
 */
let playwright: Promise<BrowserType> | null = null;
function chromiumType(): Promise<BrowserType> {
  playwright ??= import('playwright-core').then(
    (module) => module.chromium,
    (error: unknown) => {
      playwright = null;
      throw error;
    },
  );
  return playwright;
}

/** Where Debian puts its headless Chromium (chromium-headless-shell), then the full browser. */
export const chromiumCandidates = [
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/headless_shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
];

/** The configured executable, else the first Debian candidate that exists; null when there is none. */
export function findChromium(configured: string): string | null {
  if (configured !== '') return configured;
  return chromiumCandidates.find((candidate) => existsSync(candidate)) ?? null;
}

export interface BrowserPoolOptions {
  /** Local Chromium to launch; null when none is installed (then only `wsEndpoint` can give a browser). */
  executablePath: string | null;
  /** A remote Playwright browser server (`KUMO_BROWSER_WS`); wins over the local executable. */
  wsEndpoint: string | null;
  /** Chromium's own sandbox; false (`--no-sandbox`) only where it cannot start: root without user namespaces, tests. */
  sandbox: boolean;
  /** The whole environment the local Chromium gets (config's short list: never database URLs or keys). */
  env: Record<string, string>;
  /** PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set: loopback would bypass the proxy, so no browser. */
  loopbackBypass?: boolean;
  /** Pages (one context each) open at once. */
  maxPages: number;
  /** How long a call may wait for a free page before 503 unavailable. */
  queueWaitMs: number;
  /** Contexts one browser serves before it is replaced (leaks in long-lived renderers are a known fact of life). */
  recycleAfter: number;
  launchTimeoutMs: number;
  /** Where the pool's refuse-everything proxy listens (the browser's default for any context without its own). */
  proxyBindHost: string;
  /** Told each time the state changes (the browser thread posts it to the serving thread, whose status mirrors it). */
  onStateChange?: (state: BrowserPoolState) => void;
}

/** What the pool's status and refusals are computed from: plain data, so another thread can hold a copy. */
export interface BrowserPoolState {
  /** A browser is up and connected. */
  connected: boolean;
  /** Why the last start failed (or the browser went away), in words for /readyz; null after a good start. */
  failure: string | null;
  /** When `failure` was set (epoch ms). */
  failedAt: number;
  closed: boolean;
}

export const initialPoolState: BrowserPoolState = Object.freeze({
  connected: false,
  failure: null,
  failedAt: 0,
  closed: false,
});

type PoolSetup = Pick<BrowserPoolOptions, 'executablePath' | 'wsEndpoint' | 'loopbackBypass'>;

/** The pool's status for /readyz, from its setup and state (the same on either thread). */
export function poolStatus(o: PoolSetup, state: BrowserPoolState): BrowserPoolStatus {
  if (o.loopbackBypass) return { ready: false, reason: loopbackBypassReason };
  if (!o.executablePath && !o.wsEndpoint)
    return { ready: false, reason: 'no browser configured (no Chromium found and KUMO_BROWSER_WS is not set)' };
  if (state.connected) return { ready: true, reason: null };
  if (state.failure) return { ready: false, reason: state.failure };
  // Started on the first browser call, so that a service which never renders never pays for a browser.
  return { ready: true, reason: 'not started yet: it starts with the first browser call' };
}

/**
 * Why a call cannot be served now, or null when it can (the browser may still be launched for it): no browser at
 * all, or a start that failed moments ago.
 */
export function poolUnavailableReason(o: PoolSetup, state: BrowserPoolState, now: number): string | null {
  if (o.loopbackBypass || (!o.executablePath && !o.wsEndpoint)) return poolStatus(o, state).reason;
  if (state.closed) return 'the browser pool is closed';
  if (state.failure && !state.connected && now - state.failedAt < retryLaunchAfterMs) return state.failure;
  return null;
}

export interface BrowserPoolStatus {
  ready: boolean;
  /** Why not, in words for /readyz (never a path or an address). */
  reason: string | null;
}

/** What Playwright disables by default (background requests to Google, HTTPS upgrades, paint holding, …). */
const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** What Kumo disables beside them: features that talk to Google's services on their own. */
const kumoDisabledFeatures = ['Translate', 'AutofillServerCommunication', 'InterestFeedContentSuggestions'];

/** Chromium switches that keep the browser from talking to anyone on its own, or around the proxy. */
const quietArgs = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--no-first-run',
  '--no-pings',
  '--dns-prefetch-disable',
  // QUIC is UDP: through an HTTP proxy Chromium does not use it, and it is not allowed to try.
  '--disable-quic',
  '--disable-gpu',
  // window.open and target=_blank make no new page at all (checked to hold in Debian's headless shell); the
  // fetcher still caps and closes any popup that gets through.
  '--block-new-web-contents',
  // WebRTC's UDP would go around an HTTP proxy; only proxied (i.e. no) UDP is allowed.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium keeps only the last --disable-features, so ours repeats Playwright's own list (its chromiumSwitches, as
  // of playwright-core 1.65) beside Kumo's; a test fails when a Playwright upgrade disables a feature not listed here.
  `--disable-features=${[...playwrightDisabledFeatures, ...kumoDisabledFeatures].join(',')}`,
];

/**
 * How Kumo launches Chromium, locally (the pool) or as the remote browser server `kumo browser-server` runs for
 * KUMO_BROWSER_WS: the quiet switches (no unproxied WebRTC UDP, no background traffic), the sandbox setting, a minimal
 * environment, and a default proxy that refuses everything, so a context that somehow has no proxy of its own reaches
 * nobody. Playwright adds `<-loopback>` to the bypass list: loopback is proxied too.
 */
export function hardenedLaunchOptions(o: {
  executablePath: string;
  sandbox: boolean;
  env: Record<string, string>;
  launchTimeoutMs: number;
  defaultProxyUrl: string;
}): LaunchOptions {
  return {
    executablePath: o.executablePath,
    headless: true,
    timeout: o.launchTimeoutMs,
    proxy: { server: o.defaultProxyUrl },
    args: quietArgs,
    // Without it Playwright adds --no-sandbox; with it a Chromium that cannot sandbox (root without user
    // namespaces) refuses to start, and the route fails closed (503, /readyz says why).
    chromiumSandbox: o.sandbox,
    // Replaces process.env, which Playwright would otherwise hand over whole.
    env: o.env,
  };
}

/** The browser's default proxy: allows no host at all. */
function openRefusingProxy(bindHost: string): Promise<EgressProxy> {
  return EgressProxy.open({
    policy: { allowedHosts: [], allowedSchemes: [] },
    connectTo: new Map(),
    bindHost,
    connectTimeoutMs: 1_000,
  });
}

/** A running `kumo browser-server`: the Playwright server's endpoint, and how to stop it with its refusing proxy. */
export interface HardenedBrowserServer {
  wsEndpoint: string;
  close(): Promise<void>;
}

/**
 * The remote browser for KUMO_BROWSER_WS, launched with the same hardening as the local one (a plain
 * `launchServer` has none of it). Kumo's per-call proxies still decide every connection of a render.
 */
export async function launchHardenedBrowserServer(o: {
  executablePath: string;
  sandbox: boolean;
  env: Record<string, string>;
  host: string;
  port: number;
  /** The endpoint's path; default Playwright's random one. A fixed one, kept secret, lets a Service name the server. */
  wsPath?: string;
  proxyBindHost: string;
}): Promise<HardenedBrowserServer> {
  const refusing = await openRefusingProxy(o.proxyBindHost);
  let server: BrowserServer;
  try {
    server = await (
      await chromiumType()
    ).launchServer({
      ...hardenedLaunchOptions({
        executablePath: o.executablePath,
        sandbox: o.sandbox,
        env: o.env,
        launchTimeoutMs: 30_000,
        defaultProxyUrl: refusing.url,
      }),
      host: o.host,
      port: o.port,
      ...(o.wsPath === undefined ? {} : { wsPath: o.wsPath }),
    });
  } catch (error) {
    await refusing.close();
    throw error;
  }
  return {
    wsEndpoint: server.wsEndpoint(),
    close: async () => {
      await server.close().catch(() => undefined);
      await refusing.close();
    },
  };
}

export const loopbackBypassReason =
  'PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK is set, which would let loopback bypass the egress proxy; unset it';

/** After a failed start, calls are refused at once for this long before the next try. */
const retryLaunchAfterMs = 5_000;

interface Generation {
  browser: Browser;
  served: number;
  open: number;
  retiring: boolean;
}

export class BrowserPool {
  readonly #o: BrowserPoolOptions;
  #current: Generation | null = null;
  #launching: Promise<Generation> | null = null;
  #failure: string | null = null;
  #failedAt = 0;
  #inUse = 0;
  #peak = 0;
  #launches = 0;
  #closed = false;
  #fallbackProxy: EgressProxy | null = null;
  readonly #waiters: (() => void)[] = [];

  constructor(options: BrowserPoolOptions) {
    this.#o = options;
  }

  /** Launches (or connects to) the browser now (tests, benchmarks); a failure is remembered for /readyz, never thrown. */
  async start(): Promise<void> {
    await this.#generation().catch(() => undefined);
  }

  status(): BrowserPoolStatus {
    return poolStatus(this.#o, this.state());
  }

  /** See `poolUnavailableReason`. */
  unavailableReason(): string | null {
    return poolUnavailableReason(this.#o, this.state(), Date.now());
  }

  state(): BrowserPoolState {
    return {
      connected: this.#current?.browser.isConnected() ?? false,
      failure: this.#failure,
      failedAt: this.#failedAt,
      closed: this.#closed,
    };
  }

  #changed(): void {
    this.#o.onStateChange?.(this.state());
  }

  /** Pages in use now, the most ever at once, and how many browsers were started: for tests and metrics. */
  stats(): { inUse: number; peak: number; launches: number } {
    return { inUse: this.#inUse, peak: this.#peak, launches: this.#launches };
  }

  /**
   * A fresh context for one call, closed afterwards whatever happens. Waits for a page at most `queueWaitMs` (and never
   * past the deadline); a call that gets none is 503 unavailable with Retry-After.
   */
  async withContext<T>(
    options: BrowserContextOptions,
    deadlineAt: number,
    use: (context: BrowserContext) => Promise<T>,
  ): Promise<T> {
    if (this.#closed) throw unavailable('the browser pool is closed');
    await this.#acquire(Math.min(Date.now() + this.#o.queueWaitMs, deadlineAt));
    let generation: Generation | null = null;
    let context: BrowserContext | null = null;
    try {
      generation = await this.#generation();
      generation.open += 1;
      generation.served += 1;
      if (generation.served >= this.#o.recycleAfter) generation.retiring = true;
      context = await generation.browser.newContext(options);
      return await use(context);
    } finally {
      await context?.close().catch(() => undefined);
      if (generation) {
        generation.open -= 1;
        if (generation.retiring && generation.open === 0) void this.#retire(generation);
      }
      this.#release();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = null;
    this.#changed();
    await current?.browser.close().catch(() => undefined);
    await this.#fallbackProxy?.close();
    this.#fallbackProxy = null;
  }

  async #acquire(until: number): Promise<void> {
    if (this.#inUse < this.#o.maxPages) {
      this.#take();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = () => {
        clearTimeout(timer);
        this.#take();
        resolve();
      };
      const timer = setTimeout(
        () => {
          const at = this.#waiters.indexOf(waiter);
          if (at >= 0) this.#waiters.splice(at, 1);
          reject(unavailable('every browser page is busy'));
        },
        Math.max(0, until - Date.now()),
      );
      this.#waiters.push(waiter);
    });
  }

  #take(): void {
    this.#inUse += 1;
    this.#peak = Math.max(this.#peak, this.#inUse);
  }

  #release(): void {
    this.#inUse -= 1;
    this.#waiters.shift()?.();
  }

  /** The browser to open a context in: the current one unless it is gone or retiring, else a new one (one at a time). */
  async #generation(): Promise<Generation> {
    const current = this.#current;
    if (current && current.browser.isConnected() && !current.retiring) return current;
    if (this.#launching) return this.#launching;
    if (this.#o.loopbackBypass) throw unavailable(loopbackBypassReason);
    if (!this.#o.executablePath && !this.#o.wsEndpoint) throw unavailable(this.status().reason ?? 'no browser');
    // A browser that would not start is not tried again on every call: at most every few seconds.
    if (this.#failure && Date.now() - this.#failedAt < retryLaunchAfterMs) throw unavailable(this.#failure);
    this.#launching = this.#launch().finally(() => {
      this.#launching = null;
    });
    return this.#launching;
  }

  async #launch(): Promise<Generation> {
    let browser: Browser;
    try {
      if (this.#o.wsEndpoint) {
        browser = await (await chromiumType()).connect(this.#o.wsEndpoint, { timeout: this.#o.launchTimeoutMs });
      } else {
        this.#fallbackProxy ??= await openRefusingProxy(this.#o.proxyBindHost);
        browser = await (
          await chromiumType()
        ).launch(
          hardenedLaunchOptions({
            executablePath: this.#o.executablePath!,
            sandbox: this.#o.sandbox,
            env: this.#o.env,
            launchTimeoutMs: this.#o.launchTimeoutMs,
            defaultProxyUrl: this.#fallbackProxy.url,
          }),
        );
      }
    } catch (error) {
      this.#failure = this.#o.wsEndpoint
        ? 'the remote browser (KUMO_BROWSER_WS) could not be reached'
        : this.#o.sandbox && /sandbox/i.test(String(error))
          ? "Chromium's sandbox could not start (root without user namespaces?); KUMO_BROWSER_SANDBOX=false is unsafe outside a disposable container"
          : 'Chromium could not be started';
      this.#failedAt = Date.now();
      this.#changed();
      throw unavailable(this.#failure, error);
    }
    if (this.#closed) {
      await browser.close().catch(() => undefined);
      throw unavailable('the browser pool is closed');
    }
    this.#failure = null;
    this.#launches += 1;
    const generation: Generation = { browser, served: 0, open: 0, retiring: false };
    // A crash ends this generation: calls in it fail, the next call starts another browser.
    browser.on('disconnected', () => {
      if (this.#current === generation) {
        this.#current = null;
        if (!this.#closed) {
          this.#failure = 'the browser exited; it is restarted on the next call';
        }
        this.#changed();
      }
    });
    const previous = this.#current;
    this.#current = generation;
    if (previous && previous.open === 0) void this.#retire(previous);
    this.#changed();
    return generation;
  }

  async #retire(generation: Generation): Promise<void> {
    if (this.#current === generation) {
      this.#current = null;
      this.#changed();
    }
    await generation.browser.close().catch(() => undefined);
  }
}

/** The browser route's 503: why, and when to try again. */
export function unavailable(reason: string, cause?: unknown): KumoError {
  return new KumoError(
    'unavailable',
    `the browser route is unavailable: ${reason}`,
    { retryAfterSeconds: 5 },
    ...(cause === undefined ? [] : [{ cause }]),
  );
}
