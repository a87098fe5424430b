// The Japanese business-day calendar of monitor schedules: dates in Asia/Tokyo, weekends, 祝日 and 年末年始.
import holidayJp from '@holiday-jp/holiday_jp';

const dayMs = 86_400_000;
// Japan has kept UTC+9 all year since 1952 (its last summer time was 1951), so a fixed offset gives the Japanese date
// of any instant a monitor can have, without Intl and whatever the process's own time zone is.
const japanOffsetMs = 9 * 3_600_000;

/** The date in Japan of an instant, as YYYY-MM-DD. */
export function japanDate(instant: Date | number): string {
  return new Date(toMs(instant) + japanOffsetMs).toISOString().slice(0, 10);
}

/** The instant the Japanese day after the one containing `instant` begins (00:00 JST). */
export function startOfNextJapanDay(instant: Date | number): number {
  return (Math.floor((toMs(instant) + japanOffsetMs) / dayMs) + 1) * dayMs - japanOffsetMs;
}

/** The instant the Japanese day containing `instant` begins (00:00 JST). */
export function startOfJapanDay(instant: Date | number): number {
  return Math.floor((toMs(instant) + japanOffsetMs) / dayMs) * dayMs - japanOffsetMs;
}

/** Why a Japanese date is no business day, or null when it is one. */
export type JapanDayOff = 'saturday' | 'sunday' | 'holiday' | 'year_end';

/**
 * Whether the Japanese date of `instant` is a day off: Saturday, Sunday, a public holiday (holiday_jp's table, which
 * lists 振替休日 and 国民の休日 as holidays of their own; it ends with 2050, after which only weekends and 年末年始
 * count), or 12/31–1/3. The year-end days are included because banks are closed on them by law (銀行法施行令 §5) and
 * so is the Tokyo Stock Exchange: the two calendars "business day" means in Japan, and what a price or stock page
 * follows. Many firms also close 12/29–12/30 (as government offices do); that varies, so those days stay business days.
 */
export function japanDayOff(instant: Date | number): JapanDayOff | null {
  const date = japanDate(instant);
  const monthDay = date.slice(5);
  // holiday_jp's isHoliday(Date) reads the Date in the process's time zone; its table is keyed by the date string,
  // so the Japanese date computed above is looked up directly.
  if (Object.hasOwn(holidayJp.holidays, date)) return 'holiday';
  if (monthDay === '12-31' || monthDay === '01-01' || monthDay === '01-02' || monthDay === '01-03') return 'year_end';
  const weekday = new Date(toMs(instant) + japanOffsetMs).getUTCDay();
  if (weekday === 6) return 'saturday';
  if (weekday === 0) return 'sunday';
  return null;
}

/** Whether the Japanese date of `instant` is a business day (see {@link japanDayOff}). */
export function isJapaneseBusinessDay(instant: Date | number): boolean {
  return japanDayOff(instant) === null;
}

function toMs(instant: Date | number): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}
