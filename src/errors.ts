// The closed catalogue of error codes Kumo can answer with, and the one error class that carries them.
// HTTP statuses live in http/problem.ts; docs/errors.md is kept equal to this table by a test.

export const errorCatalogue = {
  invalid_request: { title: 'Invalid request', summary: 'Bad JSON, wrong types, unknown fields or a missing url.' },
  invalid_url: {
    title: 'Invalid URL',
    summary: 'Not http(s), has userinfo, a non-default port, an IP literal, or is too long.',
  },
  unauthorized: {
    title: 'Unauthorized',
    summary: 'Missing, unknown, revoked or expired API key (one answer for all).',
  },
  key_scope_denied: {
    title: 'Key scope denied',
    summary: 'The key may not use this site, operation or output, or needs review approval.',
  },
  origin_not_allowed: {
    title: 'Origin not allowed',
    summary: 'A browser Origin that is not the server itself nor on KUMO_MCP_ALLOWED_ORIGINS (POST /mcp).',
  },
  not_found: { title: 'Not found', summary: 'No such route, or no such resource for this account.' },
  method_not_allowed: { title: 'Method not allowed', summary: 'The route exists but not for this HTTP method.' },
  payload_too_large: { title: 'Payload too large', summary: 'The request body is over the limit.' },
  unsupported_media_type: { title: 'Unsupported media type', summary: 'The request body is not application/json.' },
  site_not_supported: { title: 'Site not supported', summary: 'The host is not an enabled supported site.' },
  page_not_supported: {
    title: 'Page not supported',
    summary: 'Supported site, but no reviewed path for this page or work_type.',
  },
  robots_disallowed: { title: 'Disallowed by robots.txt', summary: "The site's robots.txt forbids the path." },
  credits_exhausted: {
    title: 'Credits exhausted',
    summary: 'The monthly allowance (plus overage cap) or the key credit limit is used up.',
  },
  concurrency_limited: { title: 'Concurrency limited', summary: 'Too many calls in flight for the key or account.' },
  rate_limited: {
    title: 'Rate limited',
    summary: 'The key had too many calls refused in a short time; retry after Retry-After.',
  },
  destination_forbidden: {
    title: 'Destination forbidden',
    summary: 'A supported host resolved or redirected to a non-public address.',
  },
  fetch_failed: { title: 'Fetch failed', summary: 'The target could not be fetched after all attempts.' },
  target_blocked: {
    title: 'Target blocked',
    summary: 'The target refused us (403, CAPTCHA or block page) after all attempts.',
  },
  content_too_large: { title: 'Content too large', summary: 'The target sent more than the body-size cap.' },
  extraction_failed: {
    title: 'Extraction failed',
    summary: 'The reviewed extractor could not produce a valid result; nothing is served.',
  },
  content_too_complex: {
    title: 'Content too complex',
    summary: 'The page took more than the time or memory budget to parse and extract.',
  },
  output_too_large: {
    title: 'Output too large',
    summary: 'The answer would be larger than the output byte cap; nothing is served.',
  },
  site_busy: { title: 'Site busy', summary: "The site's politeness queue is full; retry after Retry-After." },
  site_stopped: { title: 'Site stopped', summary: 'The site is switched off.' },
  unavailable: { title: 'Unavailable', summary: 'A backend (database, limiter, browser) is down; retry later.' },
  fetch_timeout: { title: 'Fetch timeout', summary: 'The target did not answer within the deadline.' },
  internal: { title: 'Internal error', summary: 'Anything else. No details leave the process.' },
  uri_too_long: { title: 'URI too long', summary: 'A path segment (such as an id) is longer than any valid value.' },
  headers_too_large: {
    title: 'Headers too large',
    summary: 'The request line and headers together are over the server limit.',
  },
  request_timeout: { title: 'Request timeout', summary: 'The request (headers or body) did not arrive in time.' },
  idempotency_conflict: {
    title: 'Idempotency conflict',
    summary: 'An Idempotency-Key was reused with another request body.',
  },
  idempotency_key_in_use: {
    title: 'Idempotency key in use',
    summary: 'A call with this Idempotency-Key is still in flight; retry after Retry-After.',
  },
  idempotency_key_spent: {
    title: 'Idempotency key spent',
    summary: 'This Idempotency-Key was already replayed as often as allowed; use a new key.',
  },
  batch_limit_exceeded: {
    title: 'Batch limit exceeded',
    summary:
      'More items per batch, or longer retention, than the plan allows (items: Free 100, Starter 5,000, Growth 50,000).',
  },
  batch_sealed: {
    title: 'Batch sealed',
    summary: 'The batch is sealed (or cancelled): no items can be appended to it.',
  },
  monitor_limit_exceeded: {
    title: 'Monitor limit exceeded',
    summary:
      "A monitor over the plan's limits (interval, targets, monitors, history) or its fair share of a host's capacity.",
  },
} as const satisfies Record<string, { title: string; summary: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** Extra fields a problem body may carry beside the standard ones (never secrets, never page content). */
export interface ErrorExtras {
  /** Seconds, sent as Retry-After. */
  retryAfterSeconds?: number;
  /** Body fields added to the problem document, such as `field`, `resets_at` or `fetch_summary`. */
  body?: Record<string, unknown>;
}

/** The only error domain code throws on purpose; anything else becomes `internal`. */
export class KumoError extends Error {
  readonly code: ErrorCode;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode, detail: string, extras: ErrorExtras = {}, options?: ErrorOptions) {
    super(detail, options);
    this.name = 'KumoError';
    this.code = code;
    this.extras = extras;
  }
}

export function isKumoError(value: unknown): value is KumoError {
  return value instanceof KumoError;
}
