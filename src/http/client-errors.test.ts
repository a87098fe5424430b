// Router and HTTP-parser failures map onto catalogue codes (the e2e tier sends the real bytes; timeouts land here).
import { describe, expect, it } from 'vitest';
import { clientKumoError, frameworkKumoError } from './client-errors.js';
import { statusByCode } from './problem.js';

describe('client and framework errors', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 'headers_too_large', 431],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'request_timeout', 408],
    ['ERR_HTTP_HEADERS_TIMEOUT', 'request_timeout', 408],
    ['HPE_INVALID_CONTENT_LENGTH', 'invalid_request', 400],
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 'invalid_request', 400],
    ['HPE_INVALID_METHOD', 'invalid_request', 400],
    [undefined, 'invalid_request', 400],
  ])('Node %s → %s (%i)', (code, expected, status) => {
    const error = clientKumoError({ code });
    expect(error.code).toBe(expected);
    expect(statusByCode[error.code]).toBe(status);
    expect(error.message).not.toMatch(/HPE_|ERR_/);
  });

  it.each([
    ['FST_ERR_MAX_PARAM_LENGTH', 'uri_too_long', 414],
    ['FST_ERR_BAD_URL', 'invalid_request', 400],
    ['FST_ERR_ASYNC_CONSTRAINT', 'internal', 500],
  ])('Fastify %s → %s (%i)', (code, expected, status) => {
    const error = frameworkKumoError({ code });
    expect(error.code).toBe(expected);
    expect(statusByCode[error.code]).toBe(status);
    expect(error.message).not.toContain('FST_');
  });
});
