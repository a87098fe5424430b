// The metadata row of a completed, charged call, for tests that write request rows (storage, console).
import { newId } from '../../src/accounts/ids.js';
import type { RequestRecord } from '../../src/storage/storage.js';

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
