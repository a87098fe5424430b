// What a supported site is: hosts, page types with URL patterns and coverage, route, politeness.
import type { Extractor } from '../extract/extractor.js';
import type { FetchRoute } from '../fetch/fetcher.js';

/** DESIGN.md §6: stable and beta are served; verifying/experimental only in development; stopped never. */
export type Coverage = 'stable' | 'beta' | 'verifying' | 'experimental' | 'stopped';

export interface PageTypeEntry {
  pageType: string;
  /** True when `auto` should choose this page type for the URL. */
  matches(url: URL): boolean;
  extractor: Extractor;
  /** Content types (essence) accepted from the target for this page type. */
  contentTypes: readonly string[];
  coverage: Coverage;
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
  route: FetchRoute;
  politeness: { maxInFlight: number; minIntervalMs: number };
  pageTypes: readonly PageTypeEntry[];
  /** Query parameters that are caller credentials: never stored, logged or echoed (e.g. e-Stat `appId`). */
  secretQueryParams: readonly string[];
}
