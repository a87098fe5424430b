// The metadata row of a completed, charged call, for tests that write request rows (storage, console).
import { newId } from '../../src/accounts/ids.js';
import type { Kysely } from 'kysely';
import type { RequestRecord } from '../../src/storage/storage.js';
import type { KumoDatabase } from '../../src/storage/kysely/schema.js';

export function completedRequest(
  ids: { accountId: string; keyId: string },
  overrides: Partial<RequestRecord> = {},
): RequestRecord {
  return {
    requestId: newId('req'),
    ...ids,
    siteId: 'ikebe_gakki',
    pageType: 'item',
    url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
    status: 'completed',
    errorCode: null,
    httpStatus: 200,
    attempts: 1,
    route: 'http',
    costUnits: 1,
    latencyMs: 431,
    artifactId: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * Writes a request row as code before migration 0014 did (no `cache_state` column): for upgrade tests whose database
 * stops at an older migration, where the current RequestLog's insert would name a column that is not there yet.
 */
export async function insertRowBefore0014(db: Kysely<KumoDatabase>, r: RequestRecord): Promise<void> {
  await db
    .insertInto('requests')
    .values({
      request_id: r.requestId,
      account_id: r.accountId,
      key_id: r.keyId,
      site_id: r.siteId,
      page_type: r.pageType,
      url: r.url,
      status: r.status,
      error_code: r.errorCode,
      http_status: r.httpStatus,
      attempts: r.attempts,
      route: r.route,
      cost_units: r.costUnits,
      latency_ms: r.latencyMs,
      artifact_id: r.artifactId,
      created_at: r.createdAt,
    })
    .execute();
}
