// The billing month: the calendar month in Asia/Tokyo (DESIGN.md §3), its key `YYYY-MM` and when the next one starts.

// Japan has kept UTC+9 without daylight saving since 1951, so a fixed offset is exact for every date we bill.
const jstOffsetMs = 9 * 60 * 60 * 1000;

/** The Asia/Tokyo calendar month containing `date`, as `YYYY-MM`. */
export function periodOf(date: Date): string {
  const jst = new Date(date.getTime() + jstOffsetMs);
  return `${String(jst.getUTCFullYear()).padStart(4, '0')}-${String(jst.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Midnight JST on the 1st of the month containing `date` (15:00 UTC on the last day of the previous month). */
export function periodStart(date: Date): Date {
  const jst = new Date(date.getTime() + jstOffsetMs);
  return new Date(Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), 1) - jstOffsetMs);
}

/** Midnight JST on the 1st of the next month: when credits reset. */
export function nextPeriodStart(date: Date): Date {
  const jst = new Date(date.getTime() + jstOffsetMs);
  // Date.UTC rolls month 12 over into January of the next year.
  return new Date(Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth() + 1, 1) - jstOffsetMs);
}

/** Whole seconds until the next period starts, at least 1: the `Retry-After` of `credits_exhausted`. */
export function secondsUntilReset(date: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(date).getTime() - date.getTime()) / 1000));
}
