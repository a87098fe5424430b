// What a supported site is: hosts, page types with URL patterns and coverage, route, politeness.
import type { Extractor } from '../extract/extractor.js';
import type { PageType } from '../extract/page-types.js';

// The page types a site may serve (extract's list), for the modules that read sites and may not read extract.
export { isPageType, pageTypes, type PageType } from '../extract/page-types.js';

/** DESIGN.md §6: stable and beta are served; verifying/experimental only in development; stopped never. */
export type Coverage = 'stable' | 'beta' | 'verifying' | 'experimental' | 'stopped';

/**
 * How a page's data is fetched (DESIGN §6): the page itself over HTTP, in the headless browser, or through the JSON
 * API that the site's own web app calls for that page (`api`: the page URL is mapped to the API request).
 */
export type SiteRoute = 'http' | 'browser' | 'api';

/** The API request that stands for a page URL on the `api` route. */
export interface ApiRequest {
  url: URL;
  /**
   * Headers the site's web app sends with it (never credentials of ours or the caller's), made anew for every request
   * the fetcher sends, after any politeness wait: a proof of possession (DPoP) is bound to its URL and time, and a
   * retry must not replay it.
   */
  headers?: (url: URL) => Readonly<Record<string, string>>;
}

/**
 * A page type's browser route: the page rendered in headless Chromium (DESIGN §1 `render_js`, 2 credits), then read by
 * an HTML extractor of the rendered DOM.
 */
export interface BrowserRoute {
  /** Reads the rendered page (input `html`); its own id and version, beside the default route's extractor. */
  extractor: Extractor;
  /**
   * Hosts the page's app loads scripts, styles and data from (its CDNs, the API it calls), beside the site's own:
   * subresources only, never a document. Everything else (trackers included) is refused.
   */
  subresourceHosts: readonly string[];
  /** A CSS selector present once the app has built its data; absent = the page loaded and its network went quiet. */
  readySelector?: string;
  /** The level this route is served at (never above the page type's, capped by what it declares here). */
  coverage: Coverage;
  /** What verified the route, for /v1/sites. */
  verifiedBy: string;
}

/**
 * How long an answer may be kept in an account's cache and served from it (DESIGN §5, §10: at most 24 h unless the
 * site's terms allow longer), and why: the site's terms, or how fast what the page shows changes.
 */
export interface CacheLimit {
  seconds: number;
  reason: string;
}

/** The contract's ceiling on a cache limit (DESIGN §5) where no site terms allow longer. */
export const cacheLimitCapSeconds = 86_400;

export interface PageTypeEntry {
  pageType: PageType;
  /** This page type's own cache limit where it differs from the site's. */
  cacheLimit?: CacheLimit;
  /** The route used when the caller does not ask for `render_js`; absent = the site's `route`. */
  route?: SiteRoute;
  /** Present when the page type can also (or only, with `route: 'browser'`) be rendered in the browser. */
  browser?: BrowserRoute;
  /** True when `auto` should choose this page type for the URL. */
  matches(url: URL): boolean;
  /** The URL pattern in words, for /v1/sites and docs/sites.md (e.g. `/dp/<ASIN>`). */
  urlPattern: string;
  /**
   * `api` route only: the hosts the API lives on (the fetch may contact only these) and the request that stands for
   * a page URL. Pure: no I/O, no clock beyond what a request signature needs.
   */
  api?: { hosts: readonly string[]; request(pageUrl: URL): ApiRequest };
  /**
   * High-risk data (DESIGN: reviewed, not served by default): personal data of private persons or a site whose terms
   * restrict use. Served only to accounts an operator approved for this site (`kumo accounts approve`).
   */
  review?: { reason: string };
  extractor: Extractor;
  /** Content types (essence) accepted from the target for this page type. */
  contentTypes: readonly string[];
  /** As served: the declared level capped by what verification earned (the registry computes it). */
  coverage: Coverage;
  /** The level the site definition claims; `coverage` never exceeds it. Set by the registry. */
  declaredCoverage?: Coverage;
  /** Fixture counts behind the earned level, set by the registry. */
  verification?: { earned: Coverage; pass: number; fail: number; skipped: number; real: number; modelled: number };
  /** What verified it, shown by GET /v1/sites (e.g. "recorded page: ikebe-gakki/product.html"). */
  verifiedBy: string;
}

export interface Site {
  id: string;
  name: string;
  kind: 'commerce' | 'public_data';
  /** Exact canonical hosts: lower-case, punycode, no trailing dot. */
  hosts: readonly string[];
  schemes: readonly ('https:' | 'http:')[];
  /** The default route of the site's page types (a page type may name its own, and offer the browser beside it). */
  route: SiteRoute;
  politeness: { maxInFlight: number; minIntervalMs: number };
  /** The cache limit of the site's page types, unless one states its own. */
  cacheLimit: CacheLimit;
  pageTypes: readonly PageTypeEntry[];
  /** Query parameters that are caller credentials: never stored, logged or echoed (e.g. e-Stat `appId`). */
  secretQueryParams: readonly string[];
  /** Where the golden fixtures are; default `src/sites/<id with dashes>/fixtures`. Tests point it elsewhere. */
  fixturesDir?: string;
}

/** DESIGN §6: only these levels are served in production; verifying/experimental only in development. */
export function servedInProduction(coverage: Coverage): boolean {
  return coverage === 'stable' || coverage === 'beta';
}

/** The cache limit of a page type: its own, else its site's. */
export function cacheLimitOf(site: Pick<Site, 'cacheLimit'>, entry: Pick<PageTypeEntry, 'cacheLimit'>): CacheLimit {
  return entry.cacheLimit ?? site.cacheLimit;
}

/** The route a page type uses unless the caller asks for `render_js`. */
export function defaultRouteOf(site: Pick<Site, 'route'>, entry: Pick<PageTypeEntry, 'route'>): SiteRoute {
  return entry.route ?? site.route;
}

/** Every route a page type offers, its default first. */
export function routesOf(site: Pick<Site, 'route'>, entry: Pick<PageTypeEntry, 'route' | 'browser'>): SiteRoute[] {
  const first = defaultRouteOf(site, entry);
  return entry.browser && first !== 'browser' ? [first, 'browser'] : [first];
}
