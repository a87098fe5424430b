// One render in Chromium: the page's request rules, its egress proxy and budgets, the rendered DOM taken back.
import { Agent } from 'undici';
import type { Page, Request, Route } from 'playwright-core';
import { KumoError } from '../errors.js';
import type { Resolver } from '../fetch/address-guard.js';
import { readBody } from '../fetch/body-reader.js';
import type { ConnectToMap } from '../fetch/connect-to.js';
import type { FetchedPage } from '../fetch/fetcher.js';
import { canonicalHost, isIpLiteral } from '../fetch/url-policy.js';
import type { BrowserPool, BrowserPoolStatus } from './browser-pool.js';
import { EgressProxy, type Refusal } from './egress-proxy.js';

/**
 * What one render needs, as plain data: it is posted to the browser thread as it is. The URL has passed the
 * destination checks already (the fetcher's, on the calling thread).
 */
export interface RenderJob {
  url: string;
  target: { allowedHosts: readonly string[]; allowedSchemes: readonly string[] };
  render: { subresourceHosts: readonly string[]; readySelector?: string };
  /** Absolute wall-clock deadline (epoch ms), the same on every thread. */
  deadlineAt: number;
}

/**
 * Renders pages: in this thread (`PlaywrightRenderer`: tests, and the browser thread itself) or in the browser thread
 * (`WorkerThreadRenderer`, production), so that the browser's protocol traffic never lands on the thread that serves.
 */
export interface PageRenderer {
  /**
   * The rendered page (its `elapsedMs` is the caller's to set), or a KumoError; `onReached` is called once the page
   * is about to be asked for, before the outcome. Ends early when `signal` aborts.
   */
  render(job: RenderJob, signal: AbortSignal, onReached: () => void): Promise<FetchedPage>;
  /** Launches (or connects to) the browser now; a failure is remembered for /readyz, never thrown. */
  start(): Promise<void>;
  status(): BrowserPoolStatus;
  /** Why a call cannot be served now, or null when it can (see `BrowserPool.unavailableReason`). */
  unavailableReason(): string | null;
  close(): Promise<void>;
}

export interface PlaywrightRendererOptions {
  pool: BrowserPool;
  userAgent: string;
  connectTo: ConnectToMap;
  /** Replaces DNS in the egress proxy (tests); its answers still go through the address policy. */
  lookup?: Resolver;
  /** Where per-call egress proxies listen: loopback, or an address a remote browser reaches. */
  proxyBindHost: string;
  connectTimeoutMs: number;
  /** Main-frame navigations one render may make (the first included); more are refused. */
  maxNavigations: number;
  /** Cap on the serialized DOM taken back. */
  maxDomBytes: number;
  /** Bytes one render may move through its egress proxy; past it the render ends (content_too_large). */
  maxWireBytes?: number;
  /**
   * Tests only: operator-mapped hosts are reached through the egress proxy (`route.continue`), the path every real
   * host takes, instead of being answered from Node; lets a test exercise that path over plain HTTP.
   */
  mapInProxyOnly?: boolean;
  /** Cap on one response fetched for an operator-mapped host (KUMO_CONNECT_TO). */
  maxBodyBytes: number;
  /** Told what each render tried and was refused, as it goes (tests). */
  observe?: (record: RenderRecord) => void;
  /** Told once a render is over, with its final record and the page's host (metrics and the refusals log line). */
  finished?: (record: RenderRecord, host: string) => void;
}

/** Connections a render's proxy keeps open to targets at once (Chromium uses at most 6 per host, 256 in all). */
export const maxConnectionsPerRender = 32;

/** Popups one render may open (each closed at once) before the render is ended. */
export const maxPopupsPerRender = 3;

/** What a render is told not to load: no pixels, no sound, no type faces. */
const blockedResourceTypes = new Set(['image', 'media', 'font']);

/** What the page tried and was refused, for tests and the docs' claims. */
export interface RenderRecord {
  refusedByRules: number;
  refusedByProxy: readonly Refusal[];
  navigations: number;
  /** A main-frame navigation (the first document, a redirect, a script or meta refresh) was refused. */
  refusedNavigation: boolean;
  /** Popups (window.open, target=_blank) closed as they opened. */
  popupsClosed: number;
}

/** Runs in every frame before the page's scripts: no peer connections, so no STUN/TURN/ICE UDP from the page. */
const removeWebRtc = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCIceCandidate',
    'RTCSessionDescription', 'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false }); }
    catch { try { delete globalThis[name]; } catch {} }
  }
})();`;

/** The render half of the browser route, on the thread that holds the Playwright connection. */
export class PlaywrightRenderer implements PageRenderer {
  readonly #o: PlaywrightRendererOptions;
  // Operator-mapped hosts are served from Node, as the HTTP fetcher does (plain HTTP to the mapped origin, Host kept).
  readonly #mapped = new Agent({ connect: { timeout: 5_000 }, keepAliveTimeout: 4_000 });

  constructor(options: PlaywrightRendererOptions) {
    this.#o = options;
  }

  start(): Promise<void> {
    return this.#o.pool.start();
  }

  status(): BrowserPoolStatus {
    return this.#o.pool.status();
  }

  unavailableReason(): string | null {
    return this.#o.pool.unavailableReason();
  }

  /** Closes what the renderer holds; the pool is its owner's to close. */
  async close(): Promise<void> {
    await this.#mapped.close();
  }

  render(job: RenderJob, signal: AbortSignal, onReached: () => void): Promise<FetchedPage> {
    return this.#render(job, new URL(job.url), job.deadlineAt, signal, performance.now(), onReached);
  }

  async #render(
    request: RenderJob,
    url: URL,
    deadlineAt: number,
    signal: AbortSignal,
    started: number,
    onReached: () => void,
  ): Promise<FetchedPage> {
    const render = request.render;
    const pageHosts = request.target.allowedHosts;
    const allHosts = [...new Set([...pageHosts, ...render.subresourceHosts])];
    // Set once the page exists: ends the render when its proxy's byte budget is spent.
    let overBudget: () => void = () => undefined;
    const proxy = await EgressProxy.open({
      maxBytes: this.#o.maxWireBytes ?? Infinity,
      maxConnections: maxConnectionsPerRender,
      onOverBudget: () => overBudget(),
      policy: { allowedHosts: allHosts, allowedSchemes: request.target.allowedSchemes },
      connectTo: this.#o.connectTo,
      ...(this.#o.lookup ? { lookup: this.#o.lookup } : {}),
      bindHost: this.#o.proxyBindHost,
      connectTimeoutMs: this.#o.connectTimeoutMs,
    });
    const record: RenderRecord = {
      refusedByRules: 0,
      refusedByProxy: proxy.refusals,
      navigations: 0,
      refusedNavigation: false,
      popupsClosed: 0,
    };
    this.#o.observe?.(record);
    try {
      return await this.#o.pool.withContext(
        {
          proxy: { server: proxy.url },
          serviceWorkers: 'block',
          acceptDownloads: false,
          javaScriptEnabled: true,
          userAgent: this.#o.userAgent,
          locale: 'ja-JP',
          timezoneId: 'Asia/Tokyo',
          viewport: { width: 1280, height: 900 },
        },
        deadlineAt,
        async (context) => {
          const closeOnAbort = () => void context.close().catch(() => undefined);
          signal.addEventListener('abort', closeOnAbort, { once: true });
          try {
            if (signal.aborted) throw signal.reason;
            // WebRTC's UDP goes around any HTTP proxy; a remote browser not launched by `kumo browser-server` lacks
            // the switch that forbids it, so pages never get the API at all (every frame, before any page script).
            await context.addInitScript(removeWebRtc);
            const page = await context.newPage();
            let breach: (error: KumoError) => void = () => undefined;
            const breached = new Promise<never>((_, reject) => (breach = reject));
            breached.catch(() => undefined);
            // Chromium makes no popups (--block-new-web-contents); should one get through (a browser launched
            // otherwise), it is closed at once and its requests meet the same rules meanwhile, and a page that keeps
            // opening them ends its render.
            overBudget = () => {
              breach(new KumoError('content_too_large', 'the page moved more bytes than a render may'));
              void page.close().catch(() => undefined);
            };
            context.on('page', (other) => {
              if (other === page) return;
              record.popupsClosed += 1;
              void other.close().catch(() => undefined);
              if (record.popupsClosed > maxPopupsPerRender) {
                breach(new KumoError('fetch_failed', 'the page opened too many windows'));
                void page.close().catch(() => undefined);
              }
            });
            page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
            await context.route('**/*', (route, req) =>
              this.#decide(
                route,
                req,
                page,
                { pageHosts, allHosts, schemes: request.target.allowedSchemes },
                record,
                signal,
              ),
            );
            // Chromium follows a redirect of a request that was continued without asking the route again, so every
            // hop of a main-frame navigation is judged here, as it is issued: counted, and its host checked against
            // the page hosts (a CDN gives subresources, never the document). A hop out of bounds ends the render.
            page.on('request', (req) => {
              if (!req.redirectedFrom() || !req.isNavigationRequest() || !isFrameOf(req, page)) return;
              record.navigations += 1;
              let error: KumoError | null = null;
              if (!documentAllowed(req.url(), pageHosts, request.target.allowedSchemes))
                error = new KumoError('destination_forbidden', 'the page led outside the site’s hosts');
              else if (record.navigations > this.#o.maxNavigations)
                error = new KumoError('fetch_failed', 'the page redirected too many times');
              if (!error) return;
              record.refusedByRules += 1;
              record.refusedNavigation = true;
              breach(error);
              void page.close().catch(() => undefined);
            });
            onReached();
            return await Promise.race([
              this.#load(page, url, render.readySelector, deadlineAt, started, record),
              breached,
            ]);
          } finally {
            signal.removeEventListener('abort', closeOnAbort);
          }
        },
      );
    } finally {
      await proxy.close();
      this.#o.finished?.(record, canonicalHost(url));
    }
  }

  async #load(
    page: Page,
    url: URL,
    readySelector: string | undefined,
    deadlineAt: number,
    started: number,
    record: RenderRecord,
  ): Promise<FetchedPage> {
    const remaining = () => Math.max(1, deadlineAt - Date.now());
    const forbidden = () =>
      new KumoError('destination_forbidden', 'the page led outside the site’s hosts or to a non-public address');
    let response;
    try {
      // Committed is enough here: a page whose scripts navigate (or try to) during parsing would otherwise keep the
      // wait for its first `load` from ever ending. What "rendered" means is decided below.
      response = await page.goto(url.href, { waitUntil: 'commit', timeout: remaining() });
    } catch (error) {
      if (Date.now() >= deadlineAt) throw error;
      // The first document was refused (a redirect out of the site's hosts, or to a forbidden address).
      if (record.refusedNavigation || /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY/.test(String(error))) throw forbidden();
      throw error;
    }
    // The egress proxy's own refusal, should a redirect hop ever reach it rather than the rules here.
    if (response?.headers()['x-kumo-egress'] === 'refused') throw forbidden();
    const status = response?.status() ?? 0;
    if (status === 404 || status === 410) return this.#pageOf(page, status, started, false);
    if (status === 401 || status === 403)
      throw new KumoError('target_blocked', 'the site refused the request (block or challenge page)');
    if (status === 429)
      throw new KumoError('site_busy', 'the site asked us to slow down (429)', { retryAfterSeconds: 60 });
    if (status < 200 || status > 299) throw new KumoError('fetch_failed', `the site answered ${status}`);
    // An app is rendered when the element its data lives in exists; any other page when it has loaded and its scripts
    // have gone quiet for a moment (never past the deadline).
    if (readySelector) await page.waitForSelector(readySelector, { state: 'attached', timeout: remaining() });
    else {
      await page.waitForLoadState('load', { timeout: remaining() });
      await page.waitForLoadState('networkidle', { timeout: Math.min(remaining(), 3_000) }).catch(() => undefined);
    }
    return this.#pageOf(page, status, started, true);
  }

  async #pageOf(page: Page, status: number, started: number, check: boolean): Promise<FetchedPage> {
    const html = await this.#serialize(page);
    if (html === null)
      throw new KumoError('content_too_large', `the rendered page is larger than ${this.#o.maxDomBytes} bytes`);
    const body = new TextEncoder().encode(html);
    if (body.byteLength > this.#o.maxDomBytes)
      throw new KumoError('content_too_large', `the rendered page is larger than ${this.#o.maxDomBytes} bytes`);
    const finalUrl = page.url();
    if (check && !/^https?:/.test(finalUrl)) throw new KumoError('fetch_failed', 'the page ended on no web address');
    return {
      route: 'browser',
      finalUrl,
      httpStatus: status,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body,
      attempts: 1,
      elapsedMs: Math.round(performance.now() - started),
    };
  }

  /**
   * The rendered document, measured and serialized in one evaluation in a world of our own, or null when it is over
   * the cap: the page's scripts cannot redefine what we call there (each world has its own prototypes), and nothing
   * over the cap is copied into this process.
   */
  async #serialize(page: Page): Promise<string | null> {
    const cdp = await page.context().newCDPSession(page);
    try {
      const tree = await cdp.send('Page.getFrameTree');
      const world = await cdp.send('Page.createIsolatedWorld', {
        frameId: tree.frameTree.frame.id,
        worldName: 'kumo-serialize',
        grantUniveralAccess: false,
      });
      // A UTF-16 length never exceeds the UTF-8 byte count, so a longer string is certainly over the byte cap.
      const expression = `(() => {
        const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
        const root = document.documentElement ? document.documentElement.outerHTML : '';
        return doctype.length + root.length > ${this.#o.maxDomBytes} ? null : doctype + root;
      })()`;
      const result = await cdp.send('Runtime.evaluate', {
        expression,
        contextId: world.executionContextId,
        returnByValue: true,
      });
      if (result.exceptionDetails) throw new KumoError('fetch_failed', 'the rendered page could not be read');
      const value: unknown = result.result.value;
      return typeof value === 'string' ? value : null;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  /** Every request the page makes: refused here unless the site may be asked for it; the proxy checks again. */
  async #decide(
    route: Route,
    req: Request,
    page: Page,
    hosts: { pageHosts: readonly string[]; allHosts: readonly string[]; schemes: readonly string[] },
    record: RenderRecord,
    signal: AbortSignal,
  ): Promise<void> {
    const mainNavigation = req.isNavigationRequest() && isFrameOf(req, page);
    const refuse = () => {
      record.refusedByRules += 1;
      if (mainNavigation) record.refusedNavigation = true;
      // A refused navigation is aborted, not blocked: Chromium then keeps the document it has instead of showing an
      // error page, so a page that tries to leave (meta refresh, form post, script) is still rendered as it was.
      return route.abort(mainNavigation ? 'aborted' : 'blockedbyclient').catch(() => undefined);
    };
    let url: URL;
    try {
      url = new URL(req.url());
    } catch {
      return refuse();
    }
    if (!hosts.schemes.includes(url.protocol) || url.username !== '' || url.password !== '' || url.port !== '')
      return refuse();
    if (isIpLiteral(url.hostname)) return refuse();
    const host = canonicalHost(url);
    const navigation = req.isNavigationRequest();
    // Documents (any frame) only from the site's own hosts; CDNs and APIs only give subresources.
    if (!(navigation ? hosts.pageHosts : hosts.allHosts).includes(host)) return refuse();
    if (blockedResourceTypes.has(req.resourceType())) return refuse();
    // Redirect hops are counted where they are issued (the request listener in #render), on every path.
    if (mainNavigation && !req.redirectedFrom()) {
      record.navigations += 1;
      if (record.navigations > this.#o.maxNavigations) return refuse();
    }
    const mapped = this.#o.mapInProxyOnly ? undefined : this.#o.connectTo.get(host);
    if (!mapped) return route.continue().catch(() => undefined);
    return this.#fulfilFromOrigin(route, req, url, mapped, signal, (location) => {
      // A redirect is judged here before Chromium sees it, by the rule for where it leads (a document or not).
      try {
        const next = new URL(location, url);
        const allowed = navigation ? hosts.pageHosts : hosts.allHosts;
        return (
          hosts.schemes.includes(next.protocol) &&
          next.port === '' &&
          next.username === '' &&
          !isIpLiteral(next.hostname) &&
          allowed.includes(canonicalHost(next))
        );
      } catch {
        return false;
      }
    }).then((redirectRefused) => {
      if (redirectRefused) {
        record.refusedByRules += 1;
        if (mainNavigation) record.refusedNavigation = true;
      }
    });
  }

  /** An operator-mapped host's answer, fetched here from its origin (plain HTTP allowed, Host kept) and handed over. */
  async #fulfilFromOrigin(
    route: Route,
    req: Request,
    url: URL,
    origin: URL,
    signal: AbortSignal,
    redirectAllowed: (location: string) => boolean,
  ): Promise<boolean> {
    try {
      const headers = await req.allHeaders();
      const sent: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (name.startsWith(':') || name === 'host' || name === 'connection' || name === 'content-length') continue;
        sent[name] = value;
      }
      sent.host = url.host;
      const body = req.postDataBuffer();
      const answer = await this.#mapped.request({
        origin: origin.origin,
        path: url.pathname + url.search,
        method: req.method(),
        headers: sent,
        ...(body ? { body } : {}),
        signal,
      });
      const location = single(answer.headers.location);
      if (answer.statusCode >= 300 && answer.statusCode < 400 && location !== undefined && !redirectAllowed(location)) {
        answer.body.on('error', () => undefined);
        answer.body.destroy();
        await route.abort('aborted');
        return true;
      }
      const bytes = await readBody(
        answer.body,
        single(answer.headers['content-encoding']),
        this.#o.maxBodyBytes,
        signal,
      );
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
        if (name === 'transfer-encoding' || name === 'connection' || name === 'keep-alive') continue;
        out[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      await route.fulfill({ status: answer.statusCode, headers: out, body: Buffer.from(bytes) });
      return false;
    } catch {
      await route.abort('failed').catch(() => undefined);
      return false;
    }
  }
}

/** Whether a request belongs to the page's main frame; a popup's first request has no frame yet (then: not ours). */
/** Whether a document may come from this URL: the site's schemes and hosts, default port, no userinfo or IP literal. */
function documentAllowed(href: string, pageHosts: readonly string[], schemes: readonly string[]): boolean {
  try {
    const url = new URL(href);
    return (
      schemes.includes(url.protocol) &&
      url.port === '' &&
      url.username === '' &&
      url.password === '' &&
      !isIpLiteral(url.hostname) &&
      pageHosts.includes(canonicalHost(url))
    );
  } catch {
    return false;
  }
}

function isFrameOf(req: Request, page: Page): boolean {
  try {
    return req.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
