// The Japanese business-day calendar: dates read in Asia/Tokyo whatever the process's time zone, 祝日, 年末年始.
import holidayJp from '@holiday-jp/holiday_jp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isJapaneseBusinessDay,
  japanDate,
  japanDayOff,
  startOfJapanDay,
  startOfNextJapanDay,
} from './schedule-calendar.js';

const jst = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 9, min);

describe('Japanese dates', () => {
  it('an instant is read as its date in Japan (UTC+9), across midnight JST', () => {
    expect(japanDate(Date.UTC(2026, 10, 22, 14, 59, 59, 999))).toBe('2026-11-22');
    expect(japanDate(Date.UTC(2026, 10, 22, 15))).toBe('2026-11-23');
    expect(japanDate(new Date('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
  });

  it('the Japanese day of an instant starts and ends at 00:00 JST', () => {
    expect(startOfJapanDay(jst(2026, 11, 23, 13, 30))).toBe(jst(2026, 11, 23));
    expect(startOfNextJapanDay(jst(2026, 11, 23, 13, 30))).toBe(jst(2026, 11, 24));
    expect(startOfNextJapanDay(jst(2026, 11, 23))).toBe(jst(2026, 11, 24));
    expect(startOfNextJapanDay(jst(2026, 11, 24) - 1)).toBe(jst(2026, 11, 24));
  });
});

describe('jp_business_days', () => {
  const originalTz = process.env.TZ; // eslint-disable-line no-restricted-properties
  afterEach(() => {
    // eslint-disable-next-line no-restricted-properties
    if (originalTz === undefined) delete process.env.TZ;
    // eslint-disable-next-line no-restricted-properties
    else process.env.TZ = originalTz;
  });

  it.each(['UTC', 'Asia/Tokyo', 'America/Los_Angeles', 'Pacific/Kiritimati'])(
    '2026-11-23 勤労感謝の日 is a holiday from 00:00 to 24:00 JST with the process in %s',
    (tz) => {
      // Node applies a TZ set at run time to every later Date.
      process.env.TZ = tz; // eslint-disable-line no-restricted-properties
      expect(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset()).toBe(
        { UTC: 0, 'Asia/Tokyo': -540, 'America/Los_Angeles': 480, 'Pacific/Kiritimati': -840 }[tz],
      );
      expect(japanDayOff(jst(2026, 11, 23))).toBe('holiday');
      expect(japanDayOff(jst(2026, 11, 24) - 1)).toBe('holiday');
      expect(japanDayOff(jst(2026, 11, 22, 23, 59))).toBe('sunday');
      expect(japanDayOff(jst(2026, 11, 24))).toBeNull();
    },
  );

  it("holiday_jp's own isHoliday(Date) reads the process's time zone, which is why the date is computed in JST", () => {
    process.env.TZ = 'UTC'; // eslint-disable-line no-restricted-properties
    // 00:00 JST on the 23rd is 15:00 UTC on the 22nd: the library sees the 22nd.
    expect(holidayJp.isHoliday(new Date(jst(2026, 11, 23)))).toBe(false);
    expect(holidayJp.isHoliday('2026-11-23')).toBe(true);
  });

  it('振替休日 and 国民の休日 are holidays of their own in the table', () => {
    expect(japanDayOff(jst(2026, 5, 6, 12))).toBe('holiday'); // こどもの日 振替休日 (5/3 was a Sunday)
    expect(japanDayOff(jst(2026, 9, 22, 12))).toBe('holiday'); // 国民の休日 between 敬老の日 and 秋分の日
    expect(japanDayOff(jst(2026, 9, 24, 12))).toBeNull();
  });

  it('年末年始 12/31–1/3 are days off, 12/29 and 12/30 are not', () => {
    expect(japanDayOff(jst(2026, 12, 29, 9))).toBeNull();
    expect(japanDayOff(jst(2026, 12, 30, 9))).toBeNull();
    expect(japanDayOff(jst(2026, 12, 31, 9))).toBe('year_end');
    expect(japanDayOff(jst(2027, 1, 1, 9))).toBe('holiday'); // 元日 is in the table too
    expect(japanDayOff(jst(2027, 1, 2, 9))).toBe('year_end');
    expect(japanDayOff(jst(2027, 1, 3, 9))).toBe('year_end');
    expect(isJapaneseBusinessDay(jst(2027, 1, 4, 9))).toBe(true);
  });

  it('weekends are days off; ordinary weekdays are business days', () => {
    expect(japanDayOff(jst(2026, 11, 21, 9))).toBe('saturday');
    expect(japanDayOff(jst(2026, 11, 22, 9))).toBe('sunday');
    expect(isJapaneseBusinessDay(new Date(jst(2026, 11, 20, 9)))).toBe(true);
  });

  it('the holiday table ends with 2050: later years keep only weekends and 年末年始', () => {
    expect(japanDayOff(jst(2050, 11, 23, 9))).toBe('holiday');
    expect(japanDayOff(jst(2051, 11, 23, 9))).toBeNull(); // a Thursday, a holiday in fact, not in the table
    expect(japanDayOff(jst(2051, 1, 1, 9))).toBe('year_end');
  });
});
