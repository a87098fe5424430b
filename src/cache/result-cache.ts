// The ResultCache role: an account's own extracted JSON, kept for later calls that ask for it (DESIGN §5, §10).
import type { SiteRoute } from '../sites/site.js';

/** Where an answer came from (DESIGN §10): this account's cache, or a fetch that was (`miss`) or was not kept. */
export interface CacheInfo {
  state: 'hit' | 'miss' | 'bypass';
  /** When Kumo fetched the page the answer comes from. */
  fetched_at: string;
  age_s: number;
}

/** The fetch summary of a kept answer, as it was answered (only completed fetches are kept). */
export interface CachedFetchSummary {
  status: 'completed';
  attempts: number;
  route: SiteRoute;
  http_status: number | null;
  final_url: string | null;
  charset: string | null;
  bytes: number | null;
  elapsed_ms: number | null;
}

/** What an entry holds of an answer: the extracted JSON and its description, never the page or its HTML. */
export interface CachedAnswer {
  data: Record<string, unknown> | null;
  warnings: string[];
  extractor: { id: string; version: number; coverage: string; provenance: Record<string, string> };
  fetch_summary: CachedFetchSummary;
}

export interface CacheEntry {
  accountId: string;
  /** SHA-256 (hex) of what makes two calls the same call (cache-key.ts); the account is part of it. */
  key: string;
  /** The target URL with caller credentials removed: what DELETE /v1/cache?url= matches. */
  url: string;
  siteId: string;
  pageType: string;
  /** The charged call whose answer this is. */
  requestId: string;
  fetchedAt: string;
  /** fetchedAt + the site's cache limit: past this the entry is never served and the sweep deletes it. */
  expiresAt: string;
  answer: CachedAnswer;
}

export interface ResultCache {
  /** Keeps an entry, replacing the account's entry under the same key. */
  put(entry: CacheEntry): Promise<void>;
  /**
   * The account's entry under `key` fetched at or after `fetchedSince` and not expired at `now`; null otherwise.
   * Another account's entry is never found: the account is in the key and in the condition.
   */
  get(accountId: string, key: string, fetchedSince: string, now: string): Promise<CacheEntry | null>;
  /** Deletes the account's entries (all, or those of one redacted URL); returns how many. */
  delete(accountId: string, url?: string): Promise<number>;
  /** Deletes every entry expired at `now`, of every account; returns how many. */
  sweepExpired(now: string): Promise<number>;
}
