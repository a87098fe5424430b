// The cache steps of a call (DESIGN §10, docs/cache.md): whether it may use the cache, the hit that answers it, and
// keeping a charged answer for later calls. ScrapeService runs them; it knows nothing of keys, ages or limits.
import type { Clock } from '../time/clock.js';
import { cacheLimitOf, type CacheLimit, type PageTypeEntry, type Site, type SiteRoute } from '../sites/site.js';
import type { Extractor } from '../extract/extractor.js';
import { redactUrl } from '../sites/redact-url.js';
import { cacheKeyOf } from './cache-key.js';
import type { CachedAnswer, CacheInfo, ResultCache } from './result-cache.js';

/** The params that decide whether the cache may take part (ScrapeParams has them). */
export interface CacheParams {
  mode: string;
  include_html: boolean;
  store_artifact: boolean;
  max_age_s?: number;
}

/** A hit's answer: the kept answer under this call's request id, at cost 0 (a ScrapeResult). */
export interface HitAnswer extends CachedAnswer {
  request_id: string;
  resolved_site: string;
  page_type: string;
  cost_units: 0;
  latency_ms: number;
  cache: CacheInfo;
}

/** What the cache reads of a fetched answer (a ScrapeResult). */
export interface FetchedAnswer extends Omit<CachedAnswer, 'fetch_summary'> {
  request_id: string;
  fetch_summary: Omit<CachedAnswer['fetch_summary'], 'status'> & { status: string };
  cache: CacheInfo;
}

/** What the cache does for one call, decided before anything is fetched. */
export type CacheTicket =
  | {
      use: false;
      /** Why a call that asked for max_age_s was not served from or kept in the cache (a warning); null if not asked. */
      warning: string | null;
    }
  | {
      use: true;
      accountId: string;
      key: string;
      /** The URL with caller credentials removed: what DELETE /v1/cache?url= matches. */
      url: string;
      siteId: string;
      pageType: string;
      /** The oldest answer the caller accepts: min(max_age_s, the page type's cache limit). */
      maxAgeS: number;
      limit: CacheLimit;
    };

/** The call as planned (ScrapeService.plan): what the ticket is made of. */
export interface PlannedCall {
  url: URL;
  site: Site;
  entry: PageTypeEntry;
  route: SiteRoute;
  extractor: Extractor;
}

/** The warning of a call that asked for max_age_s and an output the cache does not hold. */
export const htmlBypassWarning =
  'cache not used: the cache keeps extracted JSON only, and this call asked for HTML (mode html, include_html or ' +
  'store_artifact); fetched now and nothing kept';

export class Freshness {
  readonly #cache: ResultCache;
  readonly #clock: Clock;

  constructor(options: { cache: ResultCache; clock: Clock }) {
    this.#cache = options.cache;
    this.#clock = options.clock;
  }

  ticketOf(accountId: string, planned: PlannedCall, params: CacheParams): CacheTicket {
    const maxAge = params.max_age_s ?? 0;
    if (maxAge <= 0) return { use: false, warning: null };
    // The cache never holds HTML: an answer with HTML can neither come from it nor go into it.
    if (params.mode !== 'html_json' || params.include_html || params.store_artifact)
      return { use: false, warning: htmlBypassWarning };
    const { url, site, entry, route, extractor } = planned;
    const limit = cacheLimitOf(site, entry);
    return {
      use: true,
      accountId,
      key: cacheKeyOf({
        accountId,
        url: url.href,
        pageType: entry.pageType,
        route,
        extractorId: extractor.id,
        extractorVersion: extractor.version,
        mode: 'html_json',
      }),
      url: redactUrl(url, site.secretQueryParams),
      siteId: site.id,
      pageType: entry.pageType,
      maxAgeS: Math.min(maxAge, limit.seconds),
      limit,
    };
  }

  /** The answer of a hit (cost 0, this call's request id), or null: nothing fresh enough is kept for this call. */
  async lookup(ticket: CacheTicket, call: { requestId: string; started: number }): Promise<HitAnswer | null> {
    if (!ticket.use) return null;
    const now = this.#clock.now();
    const entry = await this.#cache.get(
      ticket.accountId,
      ticket.key,
      new Date(now - ticket.maxAgeS * 1000).toISOString(),
      new Date(now).toISOString(),
    );
    if (!entry) return null;
    const { answer } = entry;
    return {
      request_id: call.requestId,
      resolved_site: ticket.siteId,
      page_type: ticket.pageType,
      fetch_summary: answer.fetch_summary,
      cost_units: 0,
      latency_ms: Math.round(performance.now() - call.started),
      extractor: answer.extractor,
      data: answer.data,
      cache: {
        state: 'hit',
        fetched_at: entry.fetchedAt,
        // A clock stepped back never makes an age negative.
        age_s: Math.max(0, Math.floor((now - Date.parse(entry.fetchedAt)) / 1000)),
      },
      warnings: answer.warnings,
    };
  }

  /** Marks a fetched answer with what the cache did: `miss` (it may be kept), or `bypass` with the reason asked for. */
  answered(ticket: CacheTicket, result: Pick<FetchedAnswer, 'warnings' | 'cache'>): void {
    if (!ticket.use) {
      if (ticket.warning) result.warnings.push(ticket.warning);
      return;
    }
    result.cache = { state: 'miss', fetched_at: new Date(this.#clock.now()).toISOString(), age_s: 0 };
  }

  /**
   * Keeps a charged answer until fetched_at + the page type's cache limit. Run after the charge committed: a crash in
   * between leaves a charged call without an entry (the next call fetches again), never an entry of a call that was
   * not charged.
   */
  async keep(ticket: CacheTicket, result: FetchedAnswer): Promise<void> {
    if (!ticket.use || result.cache.state !== 'miss' || result.fetch_summary.status !== 'completed') return;
    const fetchedAt = result.cache.fetched_at;
    await this.#cache.put({
      accountId: ticket.accountId,
      key: ticket.key,
      url: ticket.url,
      siteId: ticket.siteId,
      pageType: ticket.pageType,
      requestId: result.request_id,
      fetchedAt,
      expiresAt: new Date(Date.parse(fetchedAt) + ticket.limit.seconds * 1000).toISOString(),
      answer: {
        data: result.data,
        warnings: result.warnings,
        extractor: result.extractor,
        fetch_summary: { ...result.fetch_summary, status: 'completed' },
      },
    });
  }
}
