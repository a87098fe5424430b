// Retry-After parsing: a site's own wait is honoured, but capped at an hour, and nonsense gets a sane default.
import { describe, expect, it } from 'vitest';
import { defaultPauseMs, maxRetryAfterMs, parseRetryAfter, retryAfterSeconds } from './retry-policy.js';

const now = Date.parse('2026-11-22T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('caps every form at an hour, so no site can shut a host off for years', () => {
    for (const value of [
      '3601',
      '86400',
      '99999999999999999999999',
      '1'.repeat(400),
      'Fri, 31 Dec 9999 23:59:59 GMT',
      'Mon, 23 Nov 2026 00:00:00 GMT',
      'Tuesday, 22-Nov-2050 00:00:00 GMT',
    ]) {
      expect(parseRetryAfter(value, now), value).toBe(maxRetryAfterMs);
    }
    expect(maxRetryAfterMs).toBe(3_600_000);
  });

  it('a date in the past means now', () => {
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', now)).toBe(0);
  });

  it('a value that is present but unreadable still asks for a pause: the default minute', () => {
    for (const value of ['-5', '-1', '1.5', '1e9', 'soon', '', '0x10', 'NaN', 'Infinity', '120 seconds', 'tomorrow']) {
      expect(parseRetryAfter(value, now), JSON.stringify(value)).toBe(defaultPauseMs);
    }
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up and is never below 1', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(-500)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1_001)).toBe(2);
    expect(retryAfterSeconds(30_000)).toBe(30);
  });
});
