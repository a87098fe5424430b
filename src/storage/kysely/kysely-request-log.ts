// RequestLog over Kysely: one metadata row per call; there is no column that could hold a body, HTML or JSON.
import { type Insertable, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { RequestLog, RequestQuery, RequestRecord, RequestSpend } from '../storage.js';
import type { KumoDatabase, RequestsTable } from './schema.js';
import { isoOf, toIso } from './columns.js';
import { PreparedQuery } from './prepared.js';

/**
 * Each column of a request row and how a record fills it. One list for both sides of the prepared insert (its slots
 * and the values bound to them), so the two cannot fall out of order; the type asks for every column.
 */
const ROW: { readonly [C in keyof RequestsTable]-?: (record: RequestRecord) => unknown } = {
  request_id: (r) => r.requestId,
  account_id: (r) => r.accountId,
  key_id: (r) => r.keyId,
  site_id: (r) => r.siteId,
  page_type: (r) => r.pageType,
  url: (r) => r.url,
  status: (r) => r.status,
  error_code: (r) => r.errorCode,
  http_status: (r) => r.httpStatus,
  attempts: (r) => r.attempts,
  route: (r) => r.route,
  cost_units: (r) => r.costUnits,
  latency_ms: (r) => r.latencyMs,
  artifact_id: (r) => r.artifactId,
  created_at: (r) => toIso(r.createdAt),
  cache_state: (r) => r.cacheState ?? null,
};
const ROW_COLUMNS = Object.keys(ROW) as (keyof RequestsTable)[];

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
    // Only when recorded: rows of calls that never answered (and rows from before 0014) read as they were written.
    ...(row.cache_state === null ? {} : { cacheState: row.cache_state as NonNullable<RequestRecord['cacheState']> }),
  };
}

/** The Asia/Tokyo calendar day (`YYYY-MM-DD`) of `requests.created_at`, in the dialect's own SQL. */
export type JstDayOf = () => RawBuilder<string>;

export class KyselyRequestLog implements RequestLog {
  readonly #db: Kysely<KumoDatabase>;
  readonly #jstDay: JstDayOf;
  /** Runs once per call, in its settlement. */
  readonly #insert: PreparedQuery<unknown, unknown[]>;

  constructor(db: Kysely<KumoDatabase>, jstDay: JstDayOf) {
    this.#db = db;
    this.#jstDay = jstDay;
    this.#insert = new PreparedQuery(ROW_COLUMNS.length, (...slots) =>
      db
        .insertInto('requests')
        .values(Object.fromEntries(ROW_COLUMNS.map((column, i) => [column, slots[i]])) as Insertable<RequestsTable>),
    );
  }

  async insert(record: RequestRecord): Promise<void> {
    await this.insertIn(this.#db, record);
  }

  /** `insert` inside a caller's transaction (KyselyStorage.settle). */
  async insertIn(db: Kysely<KumoDatabase> | Transaction<KumoDatabase>, record: RequestRecord): Promise<void> {
    await this.#insert.execute(db, ...ROW_COLUMNS.map((column) => ROW[column](record)));
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

  async list(query: RequestQuery): Promise<RequestRecord[]> {
    let select = this.#db.selectFrom('requests').selectAll().where('account_id', '=', query.accountId);
    if (query.siteId !== undefined) select = select.where('site_id', '=', query.siteId);
    if (query.status !== undefined) select = select.where('status', '=', query.status);
    if (query.errorCode !== undefined) select = select.where('error_code', '=', query.errorCode);
    if (query.from !== undefined) select = select.where('created_at', '>=', toIso(query.from));
    if (query.to !== undefined) select = select.where('created_at', '<', toIso(query.to));
    // Ids are time-prefixed: they break ties between rows written in the same millisecond, newest first.
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('request_id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return rows.map(toRecord);
  }

  async spend(accountId: string, from: string, to: string): Promise<RequestSpend> {
    const inRange = this.#db
      .selectFrom('requests')
      .where('account_id', '=', accountId)
      .where('created_at', '>=', toIso(from))
      .where('created_at', '<', toIso(to));
    const day = this.#jstDay();
    const [days, sites] = await Promise.all([
      inRange
        .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('calls')])
        .select((eb) => eb.fn.sum<number | string>('cost_units').as('credits'))
        .groupBy(day)
        .orderBy(day)
        .execute(),
      inRange
        .select(['site_id', (eb) => eb.fn.countAll<number | string>().as('calls')])
        .select((eb) => eb.fn.sum<number | string>('cost_units').as('credits'))
        .groupBy('site_id')
        .execute(),
    ]);
    return {
      byDay: days.map((row) => ({ day: String(row.day), calls: Number(row.calls), credits: Number(row.credits) })),
      bySite: sites
        .map((row) => ({ siteId: row.site_id, calls: Number(row.calls), credits: Number(row.credits) }))
        .sort((a, b) => b.credits - a.credits || b.calls - a.calls || String(a.siteId).localeCompare(String(b.siteId))),
    };
  }
}
