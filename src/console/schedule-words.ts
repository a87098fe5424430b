// A monitor's schedule as a person says it (「毎日 9:00, 13:00（営業日のみ）」, "Every 60 minutes"), for the console.
import type { MonitorSchedule } from '../monitors/model.js';
import { defaultScheduleTimezone } from '../monitors/model.js';
import { translator, type Lang } from './i18n.js';

/** Most times a day listed one by one; past this the cron itself is clearer than a long list. */
const maxTimes = 8;

const dayNumbers: Readonly<Record<string, number>> = {
  sun: 0,
  mon: 1,
  tue: 2,
  wed: 3,
  thu: 4,
  fri: 5,
  sat: 6,
};

/** A cron field of plain numbers (`9`, `9,13`, `1-5`, names for days) as its values; null for anything else. */
function valuesOf(
  field: string,
  min: number,
  max: number,
  names: Readonly<Record<string, number>> = {},
): number[] | null {
  const values = new Set<number>();
  for (const part of field.toLowerCase().split(',')) {
    const bounds = part.split('-').map((end) => (Object.hasOwn(names, end) ? String(names[end]) : end));
    if (bounds.length > 2 || bounds.some((end) => !/^\d{1,2}$/.test(end))) return null;
    const from = Number(bounds[0]);
    const to = bounds.length === 2 ? Number(bounds[1]) : from;
    if (from > to || from < min || to > max) return null;
    for (let n = from; n <= to; n++) values.add(n);
  }
  return [...values].sort((a, b) => a - b);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The words for a cron of the common shapes: fixed minutes and hours on every day, on weekdays, on some days of the
 * week or some days of the month, or every N minutes; null when it is none of these (the page then shows the cron).
 */
function cronWords(cron: string, lang: Lang): string | null {
  const t = translator(lang);
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  if (month !== '*') return null;
  const step = /^(?:\*|0)\/(\d{1,2})$/.exec(minute);
  if (step && hour === '*' && dom === '*' && dow === '*') return t('schedEveryMinutes', { n: Number(step[1]) });
  const minutes = valuesOf(minute, 0, 59);
  if (!minutes) return null;
  if (hour === '*' && dom === '*' && dow === '*' && minutes.length === 1) {
    return t('schedHourly', { minute: two(minutes[0]!) });
  }
  const hours = valuesOf(hour, 0, 23);
  if (!hours || hours.length * minutes.length > maxTimes) return null;
  const times = hours.flatMap((h) => minutes.map((m) => `${h}:${two(m)}`)).join(', ');
  const anyDom = dom === '*' || dom === '?';
  const anyDow = dow === '*' || dow === '?';
  if (anyDom && anyDow) return t('schedDaily', { times });
  if (anyDom) {
    // 7 is Sunday too in cron.
    const days = valuesOf(dow, 0, 7, dayNumbers)?.map((d) => d % 7);
    if (!days) return null;
    const unique = [...new Set(days)].sort((a, b) => a - b);
    if (unique.join() === '1,2,3,4,5') return t('schedWeekdays', { times });
    if (unique.length === 7) return t('schedDaily', { times });
    const names = t('schedDayNames').split(',');
    return t('schedWeekly', { days: unique.map((d) => names[d]).join(t('schedDaySep')), times });
  }
  if (anyDow) {
    const days = valuesOf(dom, 1, 31);
    if (!days) return null;
    return t('schedMonthly', { days: days.join(lang === 'ja' ? '・' : ', '), times });
  }
  return null;
}

/** every_minutes in the largest whole unit that reads naturally (60 stays 「60分ごと」; 180 is 「3時間ごと」). */
function intervalWords(minutes: number, lang: Lang): string {
  const t = translator(lang);
  if (minutes > 60 && minutes % 60 === 0) return t('schedEveryHours', { n: minutes / 60 });
  return t('schedEveryMinutes', { n: minutes });
}

export function scheduleWords(schedule: MonitorSchedule, lang: Lang): string {
  const t = translator(lang);
  let words: string;
  if (schedule.every_minutes !== null) words = intervalWords(schedule.every_minutes, lang);
  else if (schedule.cron !== null) {
    words = cronWords(schedule.cron, lang) ?? t('schedCron', { cron: schedule.cron });
    // Only a cron's times are read in its zone (an interval is the same everywhere).
    if (schedule.timezone !== defaultScheduleTimezone) words += t('schedZone', { zone: schedule.timezone });
  } else words = '—';
  if (schedule.calendar === 'jp_business_days') words += t('schedBusinessDays');
  return words;
}
