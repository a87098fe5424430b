// Cron evaluation for monitor schedules on croner: one set of options, reused evaluators, and a cron's shortest gap.
import { Cron, type CronOptions } from 'croner';

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** How far ahead the shortest gap between runs is measured (plan minimum and jitter). */
export const gapWindowDays = 14;

/**
 * The instant a cron's runs are measured from when no "now" is at hand (plan check, jitter): a fixed one, so that
 * the same schedule always gets the same verdict and the same jitter. The window starts at the cron's first run after
 * it, not at it: a cron's times of day are the same on every day it runs, so a window that begins on a run day shows
 * the shortest gap, even for a cron that runs on few days (`0-59/5 * 1 1 *` is measured on 1 January).
 */
export const gapReference = Date.UTC(2026, 0, 1);

/**
 * The options every schedule is evaluated with (docs/decisions/0025):
 * - `5-part`: minute hour day-of-month month day-of-week, no seconds or year field (checked before, to say so);
 * - `fixedTimeRule: 'no-wildcard'`: a cron without `*` or a step in its minute and hour fields (`0 9,13,18 * * *`)
 *   is a fixed-time job in DST transitions, as in Vixie cron: a time that does not exist (spring forward) runs at the
 *   end of the gap, the same day; a time that occurs twice (fall back) runs once, at the first. Crons with `*` or a
 *   step (`0-59/30 * * * *`) follow the clock: they run in both passes of a repeated hour and skip a gap's times;
 * - day-of-month and day-of-week combine with OR, as in every cron since Vixie's (croner's default `domAndDow:
 *   false`); `+` before the day of week asks for AND.
 */
function options(zone: { timezone: string } | { utcOffset: number }): CronOptions {
  return { ...zone, paused: true, mode: '5-part', fixedTimeRule: 'no-wildcard' };
}

/** Croner's complaint about a 5-field pattern, or null when it parses. */
export function cronPatternProblem(pattern: string, timezone: string): string | null {
  try {
    new Cron(pattern, options({ timezone }));
    return null;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/^CronPattern:\s*/, '');
  }
}

// Parsed evaluators by pattern and zone: a paused Cron keeps no state between nextRun(date) calls, and parsing costs
// more than a step. Bounded, oldest out first.
const evaluators = new Map<string, Cron>();
const maxCached = 1_000;

function cached<V>(map: Map<string, V>, key: string, make: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined) return hit;
  const value = make();
  if (map.size >= maxCached) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** The cron evaluated in its time zone (the reference for every instant a schedule returns). */
export function zonedCron(pattern: string, timezone: string): Cron {
  return cached(evaluators, `${timezone}\n${pattern}`, () => new Cron(pattern, options({ timezone })));
}

/**
 * An evaluator for runs between `fromMs` and `toMs`. Croner reads every step through Intl in a named zone (about
 * 85 µs a run); when the zone keeps one offset through the window (Asia/Tokyo always; others between transitions),
 * the same cron on that fixed UTC offset gives the same runs about seven times faster, which is what lets a monthly
 * estimate of a quarter-hourly cron count its 2,880 runs. Offsets are sampled every 6 hours: zones change offset at
 * most a few times a year.
 */
export function cronForWindow(pattern: string, timezone: string, fromMs: number, toMs: number): Cron {
  const offset = utcOffsetMinutes(timezone, fromMs);
  for (let t = fromMs; t < toMs + 6 * 3_600_000; t += 6 * 3_600_000) {
    if (utcOffsetMinutes(timezone, Math.min(t, toMs)) !== offset) return zonedCron(pattern, timezone);
  }
  return cached(evaluators, `${offset}\n${pattern}`, () => new Cron(pattern, options({ utcOffset: offset })));
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in minutes (east positive: Asia/Tokyo is 540). */
export function utcOffsetMinutes(timezone: string, atMs: number): number {
  const format = cached(
    offsetFormats,
    timezone,
    () => new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' }),
  );
  const name = format.formatToParts(atMs).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

const shortestGaps = new Map<string, number | null>();

/**
 * The shortest time between two consecutive runs of a cron over {@link gapWindowDays} days from its first run after
 * {@link gapReference}, in ms; when it runs once in that window, the gap to its next run; Infinity when it runs only
 * once; null when it never runs (`0 9 30 2 *`). With `stopBelowMs`, the measure ends a day after a gap shorter than
 * that was seen (a cron's shortest gap shows within a run day), enough to say how short without walking 14 days of
 * a cron that runs every minute.
 */
export function shortestGapMs(pattern: string, timezone: string, stopBelowMs = 0): number | null {
  const key = `${timezone}\n${pattern}`;
  const known = shortestGaps.get(key);
  if (known !== undefined) return known;
  const first = zonedCron(pattern, timezone).nextRun(new Date(gapReference));
  if (!first) return remember(key, null, true);
  let end = first.getTime() + gapWindowDays * dayMs;
  const cron = cronForWindow(pattern, timezone, first.getTime(), end);
  let shortest = Number.POSITIVE_INFINITY;
  let complete = true;
  let previous = first.getTime();
  for (;;) {
    const next = cron.nextRun(new Date(previous))?.getTime();
    if (next === undefined || next > end) break;
    shortest = Math.min(shortest, next - previous);
    // Five fields step by minutes: nothing shorter can follow.
    if (shortest <= minuteMs) break;
    if (shortest < stopBelowMs && end > next + dayMs) {
      end = next + dayMs;
      complete = false;
    }
    previous = next;
  }
  if (shortest === Number.POSITIVE_INFINITY) {
    // One run in the window: its gap is to the next one, wherever that falls (read in the zone, past the window).
    const later = zonedCron(pattern, timezone).nextRun(new Date(previous));
    if (later) shortest = later.getTime() - previous;
  }
  return remember(key, shortest, complete);
}

function remember(key: string, gap: number | null, complete: boolean): number | null {
  // A measure cut short is an upper bound only, kept for no one else.
  if (complete) cached(shortestGaps, key, () => gap);
  return gap;
}
