// Cron evaluation: the fixed-offset evaluator agrees with the zoned one, offsets, and a cron's shortest gap.
import { describe, expect, it } from 'vitest';
import { cronForWindow, cronPatternProblem, shortestGapMs, utcOffsetMinutes, zonedCron } from './schedule-cron.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

function walk(next: (t: number) => number | null, from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = next(from); t !== null && t <= to; t = next(t)) out.push(t);
  return out;
}

describe('cronForWindow', () => {
  it.each([
    ['*/15 * * * *', 'Asia/Tokyo', '2026-11-01T00:00:00Z'],
    ['0 9,13,18 * * 1-5', 'Asia/Tokyo', '2026-12-20T00:00:00Z'],
    ['30 2 * * *', 'America/New_York', '2026-06-01T00:00:00Z'],
    ['0 */4 L * *', 'Asia/Kolkata', '2026-01-10T00:00:00Z'],
  ])('%s in %s: the same runs as croner in the zone, over 30 days without a transition', (pattern, zone, start) => {
    const from = Date.parse(start);
    const to = from + 30 * day;
    const window = cronForWindow(pattern, zone, from, to);
    expect(window).not.toBe(zonedCron(pattern, zone));
    const fast = walk((t) => window.nextRun(new Date(t))?.getTime() ?? null, from, to);
    const zoned = walk((t) => zonedCron(pattern, zone).nextRun(new Date(t))?.getTime() ?? null, from, to);
    expect(fast.length).toBeGreaterThan(0);
    expect(fast).toEqual(zoned);
  });

  it('falls back to the zone when the window holds a DST transition', () => {
    const from = Date.parse('2026-10-20T00:00:00Z');
    expect(cronForWindow('30 1 * * *', 'America/New_York', from, from + 30 * day)).toBe(
      zonedCron('30 1 * * *', 'America/New_York'),
    );
  });
});

describe('utcOffsetMinutes', () => {
  it('reads the zone at the instant, east positive', () => {
    expect(utcOffsetMinutes('Asia/Tokyo', Date.parse('2026-07-01T00:00:00Z'))).toBe(540);
    expect(utcOffsetMinutes('America/New_York', Date.parse('2026-01-01T00:00:00Z'))).toBe(-300);
    expect(utcOffsetMinutes('America/New_York', Date.parse('2026-07-01T00:00:00Z'))).toBe(-240);
    expect(utcOffsetMinutes('Asia/Kolkata', Date.parse('2026-07-01T00:00:00Z'))).toBe(330);
    expect(utcOffsetMinutes('UTC', Date.parse('2026-07-01T00:00:00Z'))).toBe(0);
  });
});

describe('shortestGapMs', () => {
  it.each<[string, number | null]>([
    ['0 9,13,18 * * *', 4 * hour],
    ['0 9 * * 1-5', day],
    // First run after 2026-01-01T00:00Z (09:00 JST itself, excluded) is 1 February; then 1 March.
    ['0 9 1 * *', 28 * day],
    ['5,50 0,23 * * *', 15 * minute],
    ['0 9 30 2 *', null],
  ])('%s → %s ms', (pattern, gap) => {
    expect(shortestGapMs(pattern, 'Asia/Tokyo')).toBe(gap);
  });

  it('stops a day after a gap below the bound, still finding the shortest of that day', () => {
    expect(shortestGapMs('0,10,12 * * * *', 'Asia/Tokyo', 15 * minute)).toBe(2 * minute);
    expect(shortestGapMs('* * * * *', 'Asia/Tokyo')).toBe(minute);
  });
});

describe('cronPatternProblem', () => {
  it("is croner's message without its prefix, or null", () => {
    expect(cronPatternProblem('0 9 * * *', 'Asia/Tokyo')).toBeNull();
    expect(cronPatternProblem('0 25 * * *', 'Asia/Tokyo')).toBe('Invalid value for hour: 25');
  });
});
