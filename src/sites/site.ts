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
  /** As served: the declared level capped by what verification earned (the registry computes it). */
  coverage: Coverage;
  /** The level the site definition claims; `coverage` never exceeds it. Set by the registry. */
  declaredCoverage?: Coverage;
  /** Fixture counts behind the earned level, set by the registry. */
  verification?: { earned: Coverage; pass: number; fail: number; skipped: number };
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
  /** Where the golden fixtures are; default `src/sites/<id with dashes>/fixtures`. Tests point it elsewhere. */
  fixturesDir?: string;
}

/** DESIGN §6: only these levels are served in production; verifying/experimental only in development. */
export function servedInProduction(coverage: Coverage): boolean {
  return coverage === 'stable' || coverage === 'beta';
}
