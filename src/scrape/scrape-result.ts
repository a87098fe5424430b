// The success body of a call as the API shapes it: what was fetched (fetch_summary), the extractor, the data.
import type { FetchedPage } from '../fetch/fetcher.js';
import { redactUrl } from '../sites/redact-url.js';
import type { Site, SiteRoute } from '../sites/site.js';
import type { CacheInfo, CachedFetchSummary } from '../cache/result-cache.js';
import type { RequestStatus } from './call-record.js';
import type { Planned } from './plan.js';
import type { Produced } from './produce.js';

/**
 * What was fetched for the answer: the outcome, attempts, route and the page's own facts (its URL redacted). The facts
 * are those a kept answer carries (cache/result-cache.ts); a live call may end in any outcome but `cancelled`.
 */
export type FetchSummary = Omit<CachedFetchSummary, 'status'> & { status: Exclude<RequestStatus, 'cancelled'> };

/** The success body of POST /v1/scrape (the route schema in http/schemas.ts shapes what is sent). */
export interface ScrapeResult {
  request_id: string;
  resolved_site: string;
  page_type: string;
  fetch_summary: FetchSummary;
  cost_units: number;
  latency_ms: number;
  extractor: { id: string; version: number; coverage: string; provenance: Record<string, string> };
  data: Record<string, unknown> | null;
  html?: string;
  artifact?: { id: string; expires_at: string };
  cache: CacheInfo;
  warnings: string[];
}

/**
 * The success body of a call (POST /v1/scrape's 200, a batch item's result without `request_id`): `data` null for a
 * target's 404/410 (`produced` null), `cache` a `bypass` that the cache's steps overwrite when they answer.
 */
export function resultOf(
  call: { requestId: string; started: number; fetchedAt: Date },
  { site, entry, route, extractor }: Planned,
  page: FetchedPage,
  produced: Produced | null,
  artifact: ScrapeResult['artifact'] | undefined,
  cost: number,
): ScrapeResult {
  const extraction = produced?.extraction ?? null;
  const result: ScrapeResult = {
    request_id: call.requestId,
    resolved_site: site.id,
    page_type: entry.pageType,
    fetch_summary: summaryOf(page, produced ? 'completed' : 'not_found', produced?.charset ?? null, site, route),
    cost_units: cost,
    latency_ms: Math.round(performance.now() - call.started),
    extractor: {
      id: extractor.id,
      version: extractor.version,
      coverage: route === 'browser' && entry.browser ? entry.browser.coverage : entry.coverage,
      provenance: extraction?.provenance ?? {},
    },
    data: extraction?.data ?? null,
    cache: { state: 'bypass', fetched_at: call.fetchedAt.toISOString(), age_s: 0 },
    warnings: extraction?.warnings ?? [],
  };
  if (artifact) result.artifact = artifact;
  return result;
}

function summaryOf(
  page: FetchedPage,
  status: FetchSummary['status'],
  charset: string | null,
  site: Site,
  route: SiteRoute,
): FetchSummary {
  return {
    status,
    attempts: page.attempts,
    route,
    http_status: page.httpStatus,
    final_url: redactUrl(new URL(page.finalUrl), site.secretQueryParams),
    charset,
    bytes: page.body.byteLength,
    elapsed_ms: page.elapsedMs,
  };
}
