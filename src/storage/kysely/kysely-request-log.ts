// RequestLog over Kysely: one metadata row per call; there is no column that could hold a body, HTML or JSON.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { RequestLog, RequestRecord } from '../storage.js';
import type { KumoDatabase, RequestsTable } from './schema.js';
import { isoOf, toIso } from './columns.js';

function toRecord(row: Selectable<RequestsTable>): RequestRecord {
  return {
    requestId: row.request_id,
    accountId: row.account_id,
    keyId: row.key_id,
    siteId: row.site_id,
    pageType: row.page_type,
    url: row.url,
    status: row.status,
    errorCode: row.error_code,
    httpStatus: row.http_status,
    attempts: row.attempts,
    route: row.route,
    costUnits: row.cost_units,
    latencyMs: row.latency_ms,
    artifactId: row.artifact_id,
    createdAt: isoOf(row.created_at),
  };
}

export class KyselyRequestLog implements RequestLog {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async insert(record: RequestRecord): Promise<void> {
    await this.insertIn(this.#db, record);
  }

  /** `insert` inside a caller's transaction (KyselyStorage.settle). */
  async insertIn(db: Kysely<KumoDatabase> | Transaction<KumoDatabase>, record: RequestRecord): Promise<void> {
    await db
      .insertInto('requests')
      .values({
        request_id: record.requestId,
        account_id: record.accountId,
        key_id: record.keyId,
        site_id: record.siteId,
        page_type: record.pageType,
        url: record.url,
        status: record.status,
        error_code: record.errorCode,
        http_status: record.httpStatus,
        attempts: record.attempts,
        route: record.route,
        cost_units: record.costUnits,
        latency_ms: record.latencyMs,
        artifact_id: record.artifactId,
        created_at: toIso(record.createdAt),
      })
      .execute();
  }

  async get(requestId: string, accountId: string): Promise<RequestRecord | null> {
    const row = await this.#db
      .selectFrom('requests')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }
}
