// The one place error codes become HTTP: status per code and the RFC 9457 problem+json body.
import { errorCatalogue, type ErrorCode, type KumoError } from '../errors.js';

export const statusByCode: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_url: 400,
  unauthorized: 401,
  key_scope_denied: 403,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  site_not_supported: 422,
  page_not_supported: 422,
  robots_disallowed: 422,
  credits_exhausted: 429,
  concurrency_limited: 429,
  rate_limited: 429,
  destination_forbidden: 502,
  fetch_failed: 502,
  target_blocked: 502,
  content_too_large: 502,
  extraction_failed: 502,
  content_too_complex: 502,
  output_too_large: 502,
  site_busy: 503,
  site_stopped: 503,
  unavailable: 503,
  fetch_timeout: 504,
  internal: 500,
  uri_too_long: 414,
  headers_too_large: 431,
  request_timeout: 408,
  idempotency_conflict: 422,
  idempotency_key_in_use: 409,
  idempotency_key_spent: 422,
  batch_limit_exceeded: 422,
  batch_sealed: 409,
  monitor_limit_exceeded: 422,
};

export const problemContentType = 'application/problem+json; charset=utf-8';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  request_id: string;
  [extra: string]: unknown;
}

export function problemBody(error: KumoError, requestId: string): ProblemBody {
  const entry = errorCatalogue[error.code];
  return {
    ...(error.extras.body ?? {}),
    type: `https://kumo.dev/errors/${error.code}`,
    title: entry.title,
    status: statusByCode[error.code],
    code: error.code,
    detail: error.message,
    request_id: requestId,
  };
}
