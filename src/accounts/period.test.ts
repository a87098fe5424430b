// The Asia/Tokyo billing month at its edges.
import { describe, expect, it } from 'vitest';
import { nextPeriodStart, periodOf, periodStart, secondsUntilReset } from './period.js';

describe('periodOf', () => {
  it('turns over at midnight JST, which is 15:00 UTC the day before', () => {
    expect(periodOf(new Date('2026-11-30T14:59:59.999Z'))).toBe('2026-11');
    expect(periodOf(new Date('2026-11-30T15:00:00.000Z'))).toBe('2026-12');
  });

  it('carries December into January of the next year', () => {
    expect(periodOf(new Date('2026-12-31T14:59:59.999Z'))).toBe('2026-12');
    expect(periodOf(new Date('2026-12-31T15:00:00.000Z'))).toBe('2027-01');
  });

  it('counts the first hours of a UTC month in the JST month already begun', () => {
    expect(periodOf(new Date('2026-03-01T00:00:00.000Z'))).toBe('2026-03');
    expect(periodOf(new Date('2026-02-28T16:00:00.000Z'))).toBe('2026-03');
  });

  it('handles a leap February', () => {
    expect(periodOf(new Date('2028-02-29T14:59:59.999Z'))).toBe('2028-02');
    expect(periodOf(new Date('2028-02-29T15:00:00.000Z'))).toBe('2028-03');
  });
});

describe('nextPeriodStart and periodStart', () => {
  it('is midnight JST on the 1st of the next month', () => {
    expect(nextPeriodStart(new Date('2026-11-30T14:59:59.999Z')).toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-11-30T15:00:00.000Z')).toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-12-15T00:00:00.000Z')).toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(nextPeriodStart(new Date('2027-01-01T00:00:00.000Z')).toISOString()).toBe('2027-01-31T15:00:00.000Z');
  });

  it('periodStart is the instant the current month began', () => {
    expect(periodStart(new Date('2026-12-31T15:00:00.000Z')).toISOString()).toBe('2026-12-31T15:00:00.000Z');
    expect(periodStart(new Date('2026-12-31T14:59:59.999Z')).toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('every instant lies in [periodStart, nextPeriodStart) of its own period', () => {
    for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-03-01T00:00:00Z'); t += 13 * 3_600_000 + 1) {
      const date = new Date(t);
      const start = periodStart(date);
      const next = nextPeriodStart(date);
      expect(start.getTime()).toBeLessThanOrEqual(t);
      expect(next.getTime()).toBeGreaterThan(t);
      expect(periodOf(start)).toBe(periodOf(date));
      expect(periodOf(next)).not.toBe(periodOf(date));
    }
  });
});

describe('secondsUntilReset', () => {
  it('counts whole seconds up to the reset, never 0', () => {
    expect(secondsUntilReset(new Date('2026-11-30T14:59:59.999Z'))).toBe(1);
    expect(secondsUntilReset(new Date('2026-11-30T14:59:00.000Z'))).toBe(60);
    expect(secondsUntilReset(new Date('2026-11-30T15:00:00.000Z'))).toBe(31 * 86_400);
  });
});
