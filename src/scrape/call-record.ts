// A call's metadata row as it fills (site, page type, redacted URL, attempts) and the status it ends with.
import type { ErrorCode } from '../errors.js';
import { redactUrl } from '../sites/redact-url.js';
import type { CacheInfo } from '../cache/result-cache.js';
import type { Planned } from './plan.js';

/** Every status a call's request-log row can hold: a fetch's outcome, or `cancelled` when the client went away. */
export const requestStatuses = ['completed', 'not_found', 'blocked', 'failed', 'timed_out', 'cancelled'] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** The failures with a status of their own; every other code is `failed`. */
const statusOfError: Partial<Record<ErrorCode, RequestStatus>> = {
  fetch_timeout: 'timed_out',
  target_blocked: 'blocked',
};

/** What a call's metadata row says of it besides its outcome; filled as the call goes. */
export interface CallRecord {
  siteId: string | null;
  pageType: string | null;
  /** Caller credentials removed. */
  url: string | null;
  route: string | null;
  attempts: number;
  /** The target's HTTP status when a page was received; null otherwise. */
  httpStatus: number | null;
  artifactId: string | null;
  /** Where the answer came from, once there is one (DESIGN §10). */
  cacheState?: CacheInfo['state'];
}

/** The record of a planned call before it runs: what is asked, redacted. */
export function callRecordOf({ site, entry, url, route }: Planned): CallRecord {
  return {
    siteId: site.id,
    pageType: entry.pageType,
    url: redactUrl(url, site.secretQueryParams),
    route,
    attempts: 0,
    httpStatus: null,
    artifactId: null,
  };
}

/** The status of a call's metadata row when it fails with `code` (a timeout and a block have their own). */
export function requestStatusOf(code: ErrorCode): Exclude<RequestStatus, 'cancelled' | 'completed' | 'not_found'> {
  return (statusOfError[code] ?? 'failed') as Exclude<RequestStatus, 'cancelled' | 'completed' | 'not_found'>;
}
