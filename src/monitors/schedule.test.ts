// Monitor schedules: validation and plan minimums, jitter, next runs (JP business days, DST, anchoring), estimates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJapaneseBusinessDay } from './schedule-calendar.js';
import {
  checksPerMonth,
  hostDailyCapacity,
  hostShareCheck,
  jitterSeconds,
  nextRunAt,
  parseSchedule,
  type Schedule,
  type ScheduleSpec,
} from './schedule.js';

const minute = 60_000;
const day = 86_400_000;
const jst = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 9, min);
const epoch = new Date(0);

function cron(pattern: string, timezone = 'Asia/Tokyo', calendar: Schedule['calendar'] = null): Schedule {
  return { every_minutes: null, cron: pattern, timezone, calendar };
}
function every(minutes: number, calendar: Schedule['calendar'] = null): Schedule {
  return { every_minutes: minutes, cron: null, timezone: 'Asia/Tokyo', calendar };
}
function problems(spec: unknown, plan: 'free' | 'starter' | 'growth' = 'growth'): string[] {
  const parsed = parseSchedule(spec as ScheduleSpec, plan);
  return parsed.ok ? [] : parsed.problems;
}
/** The runs nextRunAt returns one after the other, starting after `from`. */
function runs(schedule: Schedule, id: string, from: number, count: number, anchor = epoch): number[] {
  const out: number[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    after = nextRunAt(schedule, id, anchor, after);
    out.push(after.getTime());
  }
  return out;
}

describe('parseSchedule', () => {
  it('normalizes: Asia/Tokyo by default, one space between the 5 fields, the zone as Intl spells it', () => {
    expect(parseSchedule({ cron: ' 0  9,13,18 * * * ' }, 'growth')).toEqual({
      ok: true,
      schedule: { every_minutes: null, cron: '0 9,13,18 * * *', timezone: 'Asia/Tokyo', calendar: null },
    });
    expect(
      parseSchedule({ every_minutes: 60, timezone: 'america/new_york', calendar: 'jp_business_days' }, 'starter'),
    ).toEqual({
      ok: true,
      schedule: { every_minutes: 60, cron: null, timezone: 'America/New_York', calendar: 'jp_business_days' },
    });
    // JSON bodies may send null for what they leave out.
    expect(parseSchedule({ every_minutes: 60, cron: null } as unknown as ScheduleSpec, 'starter').ok).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['neither cadence', {}, 'schedule needs one of every_minutes (e.g. 60) or cron (e.g. "0 9 * * *")'],
    [
      'both cadences',
      { every_minutes: 60, cron: '0 9 * * *' },
      'schedule takes exactly one of every_minutes and cron, not both',
    ],
    [
      'every_minutes 0',
      { every_minutes: 0 },
      'every_minutes must be a whole number of minutes from 1 to 43200 (30 days); got 0',
    ],
    [
      'every_minutes 1.5',
      { every_minutes: 1.5 },
      'every_minutes must be a whole number of minutes from 1 to 43200 (30 days); got 1.5',
    ],
    [
      'every_minutes over 30 days',
      { every_minutes: 43_201 },
      'every_minutes must be a whole number of minutes from 1 to 43200 (30 days); got 43201',
    ],
    [
      'every_minutes as a string',
      { every_minutes: '60' },
      'every_minutes must be a whole number of minutes from 1 to 43200 (30 days); got "60"',
    ],
    [
      'a seconds field',
      { cron: '0 0 9 * * *' },
      'cron "0 0 9 * * *" has 6 fields: a seconds field is not accepted; ' +
        'write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"',
    ],
    [
      'seconds and year fields',
      { cron: '0 0 9 * * * 2026' },
      'cron "0 0 9 * * * 2026" has 7 fields: seconds and year fields are not accepted; ' +
        'write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"',
    ],
    [
      'too few fields',
      { cron: '0 9 *' },
      'cron "0 9 *" has 3 fields; write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"',
    ],
    [
      'a nickname',
      { cron: '@daily' },
      'cron nicknames such as "@daily" are not accepted; write the 5 fields ("0 0 * * *")',
    ],
    ['a field out of range', { cron: '61 * * * *' }, 'cron "61 * * * *" is not valid: Invalid value for minute: 61'],
    ['a date that never comes', { cron: '0 9 30 2 *' }, 'cron "0 9 30 2 *" never runs: no date matches it'],
    [
      'a cron that is no string',
      { cron: 900 },
      'cron must be a string of 5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"; got 900',
    ],
    [
      'an unknown time zone',
      { cron: '0 9 * * *', timezone: 'Mars/Olympus' },
      'timezone "Mars/Olympus" is not an IANA time zone name such as "Asia/Tokyo" or "America/New_York"',
    ],
    [
      'an offset for a time zone',
      { cron: '0 9 * * *', timezone: '+09:00' },
      'timezone "+09:00" is not an IANA time zone name such as "Asia/Tokyo" or "America/New_York"',
    ],
    [
      'an unknown calendar',
      { cron: '0 9 * * *', calendar: 'us_business_days' },
      'calendar must be "jp_business_days" or absent; got "us_business_days"',
    ],
    [
      'a cron with no business day',
      { cron: '0 9 * * 0,6', calendar: 'jp_business_days' },
      'cron "0 9 * * 0,6" never runs on a Japanese business day (calendar jp_business_days)',
    ],
    [
      'whole weeks with the business-day calendar',
      { every_minutes: 10_080, calendar: 'jp_business_days' },
      'every_minutes 10080 is a whole number of weeks, so every run falls on the same weekday; ' +
        'with calendar jp_business_days use cron instead (e.g. "0 9 * * 1" for Mondays at 09:00)',
    ],
  ])('refuses %s, saying why', (_name, spec, message) => {
    expect(problems(spec)).toEqual([message]);
  });

  it('reports every problem at once', () => {
    expect(problems({ every_minutes: 0, timezone: 'Nowhere/Town', calendar: 'weekdays' })).toEqual([
      'timezone "Nowhere/Town" is not an IANA time zone name such as "Asia/Tokyo" or "America/New_York"',
      'calendar must be "jp_business_days" or absent; got "weekdays"',
      'every_minutes must be a whole number of minutes from 1 to 43200 (30 days); got 0',
    ]);
  });

  it.each([
    ['free', 360],
    ['starter', 60],
    ['growth', 15],
  ] as const)('every_minutes: the %s plan allows %i minutes and not one less', (plan, minimum) => {
    expect(parseSchedule({ every_minutes: minimum }, plan).ok).toBe(true);
    expect(problems({ every_minutes: minimum - 1 }, plan)).toEqual([
      `every_minutes ${minimum - 1} is below the ${plan} plan's minimum of ${minimum} minutes`,
    ]);
  });

  it('every_minutes 30 on starter names the plan and the numbers', () => {
    expect(problems({ every_minutes: 30 }, 'starter')).toEqual([
      "every_minutes 30 is below the starter plan's minimum of 60 minutes",
    ]);
  });

  it('cron: its shortest gap between runs counts against the plan', () => {
    expect(problems({ cron: '*/10 * * * *' }, 'growth')).toEqual([
      `cron "*/10 * * * *" runs as often as every 10 minutes, below the growth plan's minimum of 15 minutes`,
    ]);
    expect(parseSchedule({ cron: '*/15 * * * *' }, 'growth').ok).toBe(true);
    expect(parseSchedule({ cron: '0 9 * * *' }, 'free').ok).toBe(true);
    expect(parseSchedule({ cron: '0 */6 * * *' }, 'free').ok).toBe(true);
    expect(parseSchedule({ cron: '0 9,13,18 * * *', calendar: 'jp_business_days' }, 'starter').ok).toBe(true);
    // 09:00, 13:00 and 18:00: the 4 hours between the first two are what count, not the day's average.
    expect(problems({ cron: '0 9,13,18 * * *' }, 'free')).toEqual([
      `cron "0 9,13,18 * * *" runs as often as every 240 minutes, below the free plan's minimum of 360 minutes`,
    ]);
  });

  it('cron: the shortest gap, not the first, and on the days the cron runs however rare', () => {
    expect(problems({ cron: '0,10,12 * * * *' }, 'growth')).toEqual([
      `cron "0,10,12 * * * *" runs as often as every 2 minutes, below the growth plan's minimum of 15 minutes`,
    ]);
    // Every 5 minutes on 1 January only: measured on 1 January, not on the 14 days after whatever today is.
    expect(problems({ cron: '0-59/5 * 1 1 *' }, 'growth')).toEqual([
      `cron "0-59/5 * 1 1 *" runs as often as every 5 minutes, below the growth plan's minimum of 15 minutes`,
    ]);
    // 23:50 and 00:05 are 15 minutes apart across midnight.
    expect(problems({ cron: '5,50 0,23 * * *' }, 'growth')).toEqual([]);
    expect(problems({ cron: '5,50 0,23 * * *' }, 'starter')).toEqual([
      `cron "5,50 0,23 * * *" runs as often as every 15 minutes, below the starter plan's minimum of 60 minutes`,
    ]);
  });

  it('an unknown plan is a programming error', () => {
    expect(() => parseSchedule({ every_minutes: 60 }, 'platinum' as 'growth')).toThrow('unknown plan platinum');
  });
});

describe('jitterSeconds', () => {
  const daily = cron('0 9 * * *', 'Asia/Tokyo', 'jp_business_days');

  it('is stable: a hash of the monitor id, the same for the same id on every call and every instance', () => {
    expect(jitterSeconds('mon_01JE2', daily)).toBe(430);
    expect(jitterSeconds('mon_01JE2', cron('0 9 * * *', 'Asia/Tokyo', 'jp_business_days'))).toBe(430);
    expect(jitterSeconds('mon_01JE2', every(60))).toBe(111);
    expect(jitterSeconds('mon_01JE3', daily)).not.toBe(430);
  });

  it.each<[string, Schedule, number]>([
    ['every minute', every(1), 6],
    ['every 15 minutes', every(15), 90],
    ['hourly', every(60), 360],
    ['every 2 hours', every(120), 720],
    ['daily', every(1440), 900],
    ['a cron every 15 minutes', cron('*/15 * * * *'), 90],
    ['a cron at 09:00 and 09:20', cron('0,20 9 * * *'), 120],
    ['a cron at 9, 13 and 18', cron('0 9,13,18 * * *'), 900],
    ['a monthly cron', cron('0 9 1 * *'), 900],
  ])('%s: at most 10 %% of the (shortest) interval and 900 s, at least 0', (_name, schedule, bound) => {
    const values = Array.from({ length: 2_000 }, (_, i) => jitterSeconds(`mon_${i}`, schedule));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThanOrEqual(bound);
    // …and the whole window is used: 2,000 ids reach its last percent.
    expect(Math.max(...values)).toBeGreaterThanOrEqual(Math.floor(bound * 0.99));
  });

  it('spreads 10,000 monitors over the whole window', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => jitterSeconds(`mon_01JE${i.toString(36)}`, daily));
    // 901 possible values for 10,000 ids: a uniform hash leaves almost none unused, and averages near 450.
    expect(new Set(values).size).toBeGreaterThan(890);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeGreaterThan(435);
    expect(mean).toBeLessThan(465);
  });
});

describe('nextRunAt', () => {
  const id = 'mon_01JE2';

  it('jp_business_days with 0 9 * * * Asia/Tokyo: Fri 11-20, then Tue 11-24 (Sat, Sun, 勤労感謝の日 skipped)', () => {
    const schedule = cron('0 9 * * *', 'Asia/Tokyo', 'jp_business_days');
    const jitter = jitterSeconds(id, schedule) * 1000;
    expect(jitter).toBe(430_000);
    expect(runs(schedule, id, jst(2026, 11, 20), 3)).toEqual([
      jst(2026, 11, 20, 9) + jitter,
      jst(2026, 11, 24, 9) + jitter,
      jst(2026, 11, 25, 9) + jitter,
    ]);
  });

  it('is strictly after `after`, and a time is still due until its jitter has passed', () => {
    const schedule = cron('0 9 * * *');
    const due = jst(2026, 11, 20, 9) + jitterSeconds(id, schedule) * 1000;
    expect(nextRunAt(schedule, id, epoch, new Date(due - 1)).getTime()).toBe(due);
    expect(nextRunAt(schedule, id, epoch, new Date(due)).getTime()).toBe(due + day);
    // Between 09:00 and 09:00 + jitter the 09:00 run has not happened yet.
    expect(nextRunAt(schedule, id, epoch, new Date(jst(2026, 11, 20, 9, 1))).getTime()).toBe(due);
  });

  it('年末年始: from 12-30 the next business-day run is Mon 2027-01-04', () => {
    const schedule = cron('0 9 * * *', 'Asia/Tokyo', 'jp_business_days');
    const jitter = jitterSeconds(id, schedule) * 1000;
    expect(runs(schedule, id, jst(2026, 12, 30), 2)).toEqual([
      jst(2026, 12, 30, 9) + jitter,
      jst(2027, 1, 4, 9) + jitter,
    ]);
  });

  it("the calendar is Japan's whatever the zone: a New York evening run on a Japanese Saturday is skipped", () => {
    // 20:00 EST is 10:00 JST the next day. Thu 11-19 → Fri in Japan (runs); Fri 11-20 → Sat; Sat → Sun; Sun 11-22 →
    // Mon 11-23 勤労感謝の日; Mon 11-23 → Tue 11-24 in Japan (runs).
    const schedule = cron('0 20 * * *', 'America/New_York', 'jp_business_days');
    const jitter = jitterSeconds(id, schedule) * 1000;
    expect(runs(schedule, id, Date.UTC(2026, 10, 19, 12), 2)).toEqual([
      Date.UTC(2026, 10, 20, 1) + jitter,
      Date.UTC(2026, 10, 24, 1) + jitter,
    ]);
    for (const run of runs(schedule, id, Date.UTC(2026, 10, 1), 40)) {
      expect(isJapaneseBusinessDay(run - jitter)).toBe(true);
    }
  });

  it('DST (America/New_York), as croner documents: a time in the gap runs at its end, a repeated one once', () => {
    const zone = 'America/New_York';
    const base = (schedule: Schedule, from: string, count: number) => {
      const jitter = jitterSeconds(id, schedule) * 1000;
      return runs(schedule, id, Date.parse(from), count).map((t) => new Date(t - jitter).toISOString());
    };
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT, so 02:30 does not exist. The 02:30 job (a fixed-time job)
    // runs at 03:00 EDT (07:00Z), the first valid time after the gap, that same day: no day is skipped or doubled.
    expect(base(cron('30 2 * * *', zone), '2026-03-06T12:00:00Z', 4)).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
      '2026-03-10T06:30:00.000Z',
    ]);
    // 2026-11-01: clocks go from 02:00 EDT back to 01:00 EST; 01:00–01:59 happens twice, 02:30 once (EST).
    expect(base(cron('30 2 * * *', zone), '2026-10-30T12:00:00Z', 3)).toEqual([
      '2026-10-31T06:30:00.000Z', // 02:30 EDT
      '2026-11-01T07:30:00.000Z', // 02:30 EST
      '2026-11-02T07:30:00.000Z',
    ]);
    // 01:30 occurs twice that night: a fixed-time job runs at the first (EDT), not again an hour later.
    expect(base(cron('30 1 * * *', zone), '2026-10-30T12:00:00Z', 3)).toEqual([
      '2026-10-31T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT; 06:30Z (01:30 EST) is not a run
      '2026-11-02T06:30:00.000Z', // 01:30 EST
    ]);
    // A list of hours is a fixed-time job too (fixedTimeRule "no-wildcard", as in Vixie cron).
    expect(base(cron('30 1,13 * * *', zone), '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-10-31T17:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T18:30:00.000Z',
    ]);
    expect(base(cron('30 2,14 * * *', zone), '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-07T19:30:00.000Z',
      '2026-03-08T07:00:00.000Z', // 02:30 → 03:00 EDT
      '2026-03-08T18:30:00.000Z',
    ]);
    // A step follows the clock: both passes of the repeated hour run, and the times in the gap do not exist.
    expect(base(cron('*/30 * * * *', zone), '2026-11-01T04:50:00Z', 5)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T06:30:00.000Z', // 01:30 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
    ]);
    expect(base(cron('*/30 * * * *', zone), '2026-03-08T06:20:00Z', 3)).toEqual([
      '2026-03-08T06:30:00.000Z', // 01:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT: 02:00 and 02:30 do not exist
      '2026-03-08T07:30:00.000Z',
    ]);
  });

  it('every_minutes runs on anchor + k·N (+ jitter) however late each check asks, so runs never drift', () => {
    const anchor = new Date('2026-01-15T03:00:07.250Z');
    const schedule = every(60);
    const jitter = jitterSeconds(id, schedule) * 1000;
    let after = anchor.getTime();
    const seen: number[] = [];
    for (let i = 0; i < 50; i++) {
      const next = nextRunAt(schedule, id, anchor, new Date(after)).getTime();
      seen.push(next);
      // The check starts late by up to 40 minutes; the next is still asked for after its start.
      after = next + ((i * 7_919) % 40) * minute;
    }
    expect(seen).toEqual(Array.from({ length: 50 }, (_, k) => anchor.getTime() + k * 60 * minute + jitter));
    const yearLater = nextRunAt(schedule, id, anchor, new Date(anchor.getTime() + 365 * day + 1)).getTime();
    expect((yearLater - jitter - anchor.getTime()) % (60 * minute)).toBe(0);
  });

  it('every_minutes with jp_business_days skips the lattice points on days off, without moving the lattice', () => {
    const anchor = new Date(jst(2026, 11, 20, 9)); // Fri
    const schedule = every(360, 'jp_business_days');
    const jitter = jitterSeconds(id, schedule) * 1000;
    // The anchor is a lattice point itself: asked at the anchor, the first run is the anchor plus jitter.
    expect(runs(schedule, id, anchor.getTime(), 4, anchor)).toEqual([
      jst(2026, 11, 20, 9) + jitter,
      jst(2026, 11, 20, 15) + jitter,
      jst(2026, 11, 20, 21) + jitter,
      jst(2026, 11, 24, 3) + jitter, // Sat, Sun and Mon 23 (勤労感謝の日) skipped
    ]);
  });

  it('throws, rather than looping, when a schedule has no run the calendar allows', () => {
    const sundays = cron('0 9 * * 0', 'Asia/Tokyo', 'jp_business_days');
    expect(() => nextRunAt(sundays, id, epoch, new Date(jst(2026, 11, 20)))).toThrow(
      /^schedule cron "0 9 \* \* 0" \(calendar jp_business_days\) has no run after .* on a Japanese business day/,
    );
    expect(() => nextRunAt(cron('0 9 30 2 *'), id, epoch, new Date(jst(2026, 11, 20)))).toThrow(/has no run after/);
    expect(() => nextRunAt(every(60), id, new Date(Number.NaN), new Date(0))).toThrow(RangeError);
  });
});

describe('checksPerMonth', () => {
  const id = 'mon_01JE2';
  const november = new Date(jst(2026, 11, 1)); // a Sunday; November 2026 has 19 business days (11/3 and 11/23 off)

  it('every 15 minutes: 2,880 in 30 days, computed, whatever the anchor', () => {
    expect(checksPerMonth(every(15), id, epoch, november)).toBe(2_880);
    expect(checksPerMonth(every(15), id, new Date(123_456_789), new Date(987_654_321))).toBe(2_880);
    expect(checksPerMonth(every(360), id, epoch, november)).toBe(120);
    expect(checksPerMonth(cron('*/15 * * * *'), id, epoch, november)).toBe(2_880);
  });

  it('with jp_business_days: the runs of the 19 business days of November 2026', () => {
    expect(checksPerMonth(cron('0 9,13,18 * * *', 'Asia/Tokyo', 'jp_business_days'), id, epoch, november)).toBe(57);
    expect(checksPerMonth(every(15, 'jp_business_days'), id, new Date(jst(2026, 1, 1)), november)).toBe(19 * 96);
    expect(checksPerMonth(cron('0 9 * * *'), id, epoch, november)).toBe(30);
  });

  it('counts what nextRunAt returns, step by step (calendar, DST)', () => {
    const cases: [Schedule, Date][] = [
      [cron('0 9,13,18 * * *', 'Asia/Tokyo', 'jp_business_days'), new Date(jst(2026, 12, 20, 13, 5))],
      [every(360, 'jp_business_days'), new Date(jst(2026, 4, 25, 2))],
      [every(97), new Date(jst(2026, 4, 25, 2))],
      // Across the fall-back night: 01:30 once, so 30 + 30 runs.
      [cron('30 1,13 * * *', 'America/New_York'), new Date('2026-10-20T00:00:00Z')],
      [cron('*/30 * * * *', 'America/New_York', 'jp_business_days'), new Date('2026-10-20T00:00:00Z')],
    ];
    for (const [schedule, from] of cases) {
      const end = from.getTime() + 30 * day;
      let count = 0;
      for (let t = nextRunAt(schedule, id, epoch, from); t.getTime() <= end; t = nextRunAt(schedule, id, epoch, t)) {
        count += 1;
      }
      expect(checksPerMonth(schedule, id, epoch, from)).toBe(count);
    }
  });
});

describe('host capacity and fair share', () => {
  it("a host's capacity is a day divided by its spacing; parallel slots share the one spacing", () => {
    expect(hostDailyCapacity({ maxInFlight: 1, minIntervalMs: 2_000 })).toBe(43_200);
    expect(hostDailyCapacity({ maxInFlight: 4, minIntervalMs: 2_000 })).toBe(43_200);
    expect(hostDailyCapacity({ maxInFlight: 1, minIntervalMs: 1_000 })).toBe(86_400);
    expect(hostDailyCapacity({ maxInFlight: 1, minIntervalMs: 7_000 })).toBe(12_342);
    expect(hostDailyCapacity({ maxInFlight: 2, minIntervalMs: 0 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('monitors get half of it, split evenly between the accounts on the host', () => {
    // 43,200 a day → 21,600 for monitors → 7,200 for each of 3 accounts.
    const base = { capacityPerDay: 43_200, accountsOnHost: 3, accountChecksPerDay: 7_000 };
    expect(hostShareCheck({ ...base, addingChecksPerDay: 96 })).toEqual({
      allowed: true,
      sharePerDay: 7_200,
      usedPerDay: 7_000,
      addingPerDay: 96,
    });
    expect(hostShareCheck({ ...base, addingChecksPerDay: 200 }).allowed).toBe(true);
    expect(hostShareCheck({ ...base, addingChecksPerDay: 201 })).toEqual({
      allowed: false,
      sharePerDay: 7_200,
      usedPerDay: 7_000,
      addingPerDay: 201,
    });
    expect(hostShareCheck({ ...base, addingChecksPerDay: 1, monitorShare: 0.25 }).sharePerDay).toBe(3_600);
    // An account not yet counted still gets a share of its own.
    expect(hostShareCheck({ ...base, accountsOnHost: 0, addingChecksPerDay: 1 }).sharePerDay).toBe(21_600);
    expect(
      hostShareCheck({ capacityPerDay: Infinity, accountsOnHost: 9, accountChecksPerDay: 1e6, addingChecksPerDay: 1 })
        .allowed,
    ).toBe(true);
  });
});

describe('properties', () => {
  // Fixed, so that CI runs the same cases every time (docs/decisions/0020).
  const settings = { seed: 25_2026, numRuns: 300 };
  const instants = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) });

  it('every_minutes: the next run is after `after`, within one interval of it, on the anchor lattice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 43_200 }),
        instants,
        instants,
        fc.string({ minLength: 1, maxLength: 30 }),
        (minutes, anchor, after, monitorId) => {
          const schedule = every(minutes);
          const jitter = jitterSeconds(monitorId, schedule) * 1000;
          const next = nextRunAt(schedule, monitorId, new Date(anchor), new Date(after)).getTime();
          expect(next).toBeGreaterThan(after);
          expect(next).toBeLessThanOrEqual(after + minutes * minute);
          expect(next).toBeLessThanOrEqual(after + minutes * minute + jitter);
          expect((((next - jitter - anchor) % (minutes * minute)) + minutes * minute) % (minutes * minute)).toBe(0);
        },
      ),
      settings,
    );
  });

  it('jp_business_days: the next run is after `after` and its scheduled time falls on a business day in Japan', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0 9 * * *', '0 9,13,18 * * *', '30 1 * * 1-5', '*/30 * * * *'),
        fc.constantFrom('Asia/Tokyo', 'America/New_York', 'Europe/London'),
        instants,
        (pattern, timezone, after) => {
          const schedule = cron(pattern, timezone, 'jp_business_days');
          const jitter = jitterSeconds('mon_x', schedule) * 1000;
          const next = nextRunAt(schedule, 'mon_x', epoch, new Date(after)).getTime();
          expect(next).toBeGreaterThan(after);
          expect(next).toBeLessThan(after + 10 * day);
          expect(isJapaneseBusinessDay(next - jitter)).toBe(true);
        },
      ),
      { ...settings, numRuns: 100 },
    );
  });
});
