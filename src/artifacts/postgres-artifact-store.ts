// ArtifactStore in PostgreSQL (shared mode): one table every instance reads, so any instance serves any artifact.
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { isoOf, toIso } from '../storage/kysely/columns.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { ArtifactContent, ArtifactMeta, ArtifactStore } from './artifact-store.js';

// In the libuv thread pool, not on the event loop: a page may be up to KUMO_OUTPUT_MAX_BYTES (20 MiB by default).
const compress = promisify(gzip);
const decompress = promisify(gunzip);

export interface PostgresArtifactStoreOptions {
  /**
   * The storage's own Kysely (its pool, and its dialect that turns a database outage into 503 `unavailable`), on a
   * database migrated through 0007_artifacts.
   */
  db: Kysely<KumoDatabase>;
  clock?: Clock;
}

export class PostgresArtifactStore implements ArtifactStore {
  readonly #db: Kysely<KumoDatabase>;
  readonly #clock: Clock;

  constructor(options: PostgresArtifactStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock ?? systemClock;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  async save(meta: ArtifactMeta, content: ArtifactContent): Promise<void> {
    // Pages compress several times over; the JSON text keeps the data exactly as it was served, key order included.
    const [html, data] = await Promise.all([
      content.html === null ? null : compress(Buffer.from(content.html, 'utf8')),
      compress(Buffer.from(JSON.stringify(content.data) ?? 'null', 'utf8')),
    ]);
    await this.#db
      .insertInto('artifacts')
      .values({
        id: meta.id,
        account_id: meta.accountId,
        request_id: meta.requestId,
        url: meta.url,
        created_at: toIso(meta.createdAt),
        expires_at: toIso(meta.expiresAt),
        html,
        data,
      })
      .execute();
  }

  async get(id: string, accountId: string): Promise<{ meta: ArtifactMeta; content: ArtifactContent } | null> {
    // Owner, id and expiry in one condition: another account's artifact and a missing one are the same null.
    const row = await this.#db
      .selectFrom('artifacts')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('expires_at', '>', this.#now())
      .executeTakeFirst();
    if (!row) return null;
    const [html, data] = await Promise.all([row.html === null ? null : decompress(row.html), decompress(row.data)]);
    return {
      meta: {
        id: row.id,
        accountId: row.account_id,
        requestId: row.request_id,
        url: row.url,
        createdAt: isoOf(row.created_at),
        expiresAt: isoOf(row.expires_at),
      },
      content: { html: html === null ? null : html.toString('utf8'), data: JSON.parse(data.toString('utf8')) },
    };
  }

  async delete(id: string, accountId: string): Promise<boolean> {
    // An expired artifact is already gone for its owner; the sweeper removes it.
    const result = await this.#db
      .deleteFrom('artifacts')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('expires_at', '>', this.#now())
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async sweepExpired(now: Date): Promise<number> {
    const result = await this.#db
      .deleteFrom('artifacts')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async checkWritable(): Promise<void> {
    // A write that matches no row: it proves the table is there and the server takes writes (a read-only standby
    // after a failover refuses it, 25006), at the cost of one index probe.
    await this.#db.deleteFrom('artifacts').where('id', '=', '').execute();
  }
}
