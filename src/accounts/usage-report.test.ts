// The IETF RateLimit fields: structured-field syntax, the month as the window, and `t` yielding to a shorter Retry-After.
import { describe, expect, it } from 'vitest';
import { rateLimitFields } from './usage-report.js';

const values = (now: string) => ({
  creditLimit: 500,
  creditRemaining: 123,
  concurrencyLimit: 2,
  concurrencyRemaining: 1,
  now: new Date(now),
});

describe('rateLimitFields', () => {
  it('writes both fields as structured-field Lists of named Items', () => {
    // 2026-11-30T15:00Z is midnight JST on 1 December: 86,400 s before it is the last JST day of November.
    const fields = rateLimitFields(values('2026-11-29T15:00:00.000Z'));
    expect(fields['RateLimit-Policy']).toBe(
      '"credits";q=500;w=2592000;kumo-unit="credits", "concurrency";q=2;qu="concurrent-requests"',
    );
    expect(fields.RateLimit).toBe('"credits";r=123;t=86400, "concurrency";r=1');
  });

  it.each([
    ['2027-02-10T00:00:00.000Z', 28 * 86_400],
    ['2028-02-10T00:00:00.000Z', 29 * 86_400],
    ['2026-12-31T14:59:59.000Z', 31 * 86_400],
    ['2026-12-31T15:00:00.000Z', 31 * 86_400],
    ['2026-04-30T16:00:00.000Z', 31 * 86_400],
  ])('the window is the Asia/Tokyo month around %s', (now, seconds) => {
    expect(rateLimitFields(values(now))['RateLimit-Policy']).toContain(`;w=${seconds};`);
  });

  it('leaves out t when the answer carries a shorter Retry-After, and keeps it otherwise', () => {
    expect(rateLimitFields(values('2026-11-29T15:00:00.000Z'), 1).RateLimit).toBe('"credits";r=123, "concurrency";r=1');
    expect(rateLimitFields(values('2026-11-29T15:00:00.000Z'), 86_400).RateLimit).toContain(';t=86400');
  });
});
