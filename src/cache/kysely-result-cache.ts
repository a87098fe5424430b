// ResultCache over Kysely, one implementation for both backends: a table in SQLite (embedded) or PostgreSQL (shared).
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { isoOf, toIso } from '../storage/kysely/columns.js';
import type { CachedAnswer, CacheEntry, ResultCache } from './result-cache.js';

export interface KyselyResultCacheOptions {
  /** The storage's own Kysely (its pool, and its dialect that turns an outage into 503), migrated through 0014. */
  db: Kysely<KumoDatabase>;
  /**
   * Run after a delete that removed rows, so that what was deleted leaves the disk too: SQLite truncates its
   * write-ahead log, which still holds the pages as they were written (decision 0026). Absent: nothing more.
   */
  afterDelete?: (db: Kysely<KumoDatabase>) => Promise<void>;
}

export class KyselyResultCache implements ResultCache {
  readonly #db: Kysely<KumoDatabase>;
  readonly #afterDelete: ((db: Kysely<KumoDatabase>) => Promise<void>) | undefined;

  constructor(options: KyselyResultCacheOptions) {
    this.#db = options.db;
    this.#afterDelete = options.afterDelete;
  }

  async put(entry: CacheEntry): Promise<void> {
    // Text on both backends, not jsonb: the answer reads back byte for byte as it was served, key order included.
    const answer = JSON.stringify(entry.answer);
    const row = {
      url: entry.url,
      site_id: entry.siteId,
      page_type: entry.pageType,
      request_id: entry.requestId,
      fetched_at: toIso(entry.fetchedAt),
      expires_at: toIso(entry.expiresAt),
      answer,
    };
    await this.#db
      .insertInto('result_cache')
      .values({ account_id: entry.accountId, cache_key: entry.key, ...row })
      .onConflict((oc) => oc.columns(['account_id', 'cache_key']).doUpdateSet(row))
      .execute();
  }

  async get(accountId: string, key: string, fetchedSince: string, now: string): Promise<CacheEntry | null> {
    const row = await this.#db
      .selectFrom('result_cache')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('cache_key', '=', key)
      .where('fetched_at', '>=', toIso(fetchedSince))
      .where('expires_at', '>', toIso(now))
      .executeTakeFirst();
    if (!row) return null;
    return {
      accountId: row.account_id,
      key: row.cache_key,
      url: row.url,
      siteId: row.site_id,
      pageType: row.page_type,
      requestId: row.request_id,
      fetchedAt: isoOf(row.fetched_at),
      expiresAt: isoOf(row.expires_at),
      answer: JSON.parse(row.answer) as CachedAnswer,
    };
  }

  async delete(accountId: string, url?: string): Promise<number> {
    let query = this.#db.deleteFrom('result_cache').where('account_id', '=', accountId);
    if (url !== undefined) query = query.where('url', '=', url);
    return this.#deleted(await query.executeTakeFirst());
  }

  async sweepExpired(now: string): Promise<number> {
    const result = await this.#db.deleteFrom('result_cache').where('expires_at', '<=', toIso(now)).executeTakeFirst();
    return this.#deleted(result);
  }

  async #deleted(result: { numDeletedRows: bigint }): Promise<number> {
    const count = Number(result.numDeletedRows);
    if (count > 0) await this.#afterDelete?.(this.#db);
    return count;
  }
}
