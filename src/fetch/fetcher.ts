// The Fetcher role: bytes for one URL of a supported site, within a deadline, or a KumoError.

export type FetchRoute = 'http' | 'browser';

/** Who may be contacted and how hard; built by the scrape service from the site registry entry. */
export interface FetchTarget {
  /** Exact, canonical hosts of the site (lower-case, no trailing dot, punycode). Redirects must stay inside. */
  allowedHosts: readonly string[];
  /** Schemes the site serves, e.g. ['https:']. */
  allowedSchemes: readonly string[];
  /** Content types (essence, lower-case) the page types of the site need, e.g. ['text/html']. */
  acceptContentTypes: readonly string[];
}

/** Browser route only: what the page may load besides the site's own hosts, and when it counts as rendered. */
export interface RenderRequest {
  /** Hosts the page's scripts, styles and data may come from (its CDNs, the API its app calls): never documents. */
  subresourceHosts: readonly string[];
  /** A CSS selector that appears once the app has built the data (else: the network goes quiet). */
  readySelector?: string;
}

export interface FetchRequest {
  url: URL;
  target: FetchTarget;
  /** Browser route: how to render (the HTTP fetcher ignores it). */
  render?: RenderRequest;
  /** Absolute wall-clock deadline (epoch ms) for every attempt together. */
  deadlineAt: number;
  /**
   * Extra request headers a site's web app sends (the `api` route's `X-Platform`, a DPoP proof), made for each request
   * sent (retries and redirect hops included). They cannot replace the ones the fetcher owns (Host, User-Agent,
   * Accept-Encoding, connection and length headers).
   */
  headers?: (url: URL) => Readonly<Record<string, string>>;
  /** Aborts the fetch when the caller gives up. */
  signal?: AbortSignal;
  /**
   * Whose call this is: the fairness identity at the per-host gate and the owner of its share of blame at the
   * circuit breaker (the account id for API calls; tools may pass a constant). Absent = one shared anonymous account.
   */
  accountId?: string;
}

export interface FetchedPage {
  route: FetchRoute;
  /** The URL after redirects. */
  finalUrl: string;
  httpStatus: number;
  /** Lower-cased header names; only the ones decoding needs are guaranteed (content-type). */
  headers: Readonly<Record<string, string>>;
  /** Raw (content-decoded) body bytes; charset decoding is normalize's job. */
  body: Uint8Array;
  attempts: number;
  elapsedMs: number;
}

/**
 * Fetches a page. A target 404/410 is returned (the scrape service answers `not_found`); every other
 * failure is thrown as a KumoError: fetch_failed, fetch_timeout, target_blocked, content_too_large,
 * destination_forbidden, site_busy. The error's `extras.body.attempts` carries the attempt count.
 */
export interface Fetcher {
  fetch(request: FetchRequest): Promise<FetchedPage>;
  close(): Promise<void>;
}
