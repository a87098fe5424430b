// Monitor schedules (DESIGN §9): plan-checked validation, jitter, next due run, monthly estimate, fair host share.
import type { PolitenessRule } from '../fetch/host-gate.js';
import type { PlanId } from '../storage/storage.js';
import {
  defaultScheduleTimezone,
  maxEveryMinutes,
  minIntervalMinutesByPlan,
  monitorHostShare,
  scheduleCalendars,
  type ScheduleCalendar,
} from './model.js';
import { isJapaneseBusinessDay, startOfJapanDay, startOfNextJapanDay } from './schedule-calendar.js';
import { cronForWindow, cronPatternProblem, gapReference, shortestGapMs, zonedCron } from './schedule-cron.js';

/** A schedule as the caller sends it (`POST /v1/monitors` `schedule`). */
export interface ScheduleSpec {
  every_minutes?: number;
  cron?: string;
  timezone?: string;
  calendar?: ScheduleCalendar;
}

/** A validated schedule, as stored and echoed: exactly one of `every_minutes` and `cron` is set. */
export interface Schedule {
  every_minutes: number | null;
  /** Five fields, single-spaced. */
  cron: string | null;
  /** An IANA name as Intl resolves it (`asia/tokyo` → `Asia/Tokyo`). Only a cron's times are read in it. */
  timezone: string;
  calendar: ScheduleCalendar | null;
}

export type ParsedSchedule = { ok: true; schedule: Schedule } | { ok: false; problems: string[] };

/** Jitter is at most this many seconds, whatever the interval. */
export const maxJitterSeconds = 900;
/** Runs a calendar may skip in a row before a schedule is said to have no run. */
export const maxSkippedRuns = 2_000;
/** The estimate's "month". */
export const estimateDays = 30;

const minuteMs = 60_000;
const dayMs = 86_400_000;
const weekMinutes = 7 * 1440;

const nicknames: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const fieldsHelp = '5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * *"';

/**
 * Validates and normalizes a schedule for an account on `plan`. Every problem found is reported, each a sentence
 * naming the allowed values or the numbers. A cron's frequency is its shortest gap between consecutive runs over
 * 14 days (schedule-cron.ts says from when), which must be at least the plan's minimum interval.
 */
export function parseSchedule(spec: ScheduleSpec, plan: PlanId): ParsedSchedule {
  const minimum = minIntervalMinutesByPlan[plan] as number | undefined;
  if (minimum === undefined) throw new Error(`unknown plan ${String(plan)}`);
  // The spec comes from a JSON body: its values may be of any type, and null reads as absent.
  const given = spec as Record<keyof ScheduleSpec, unknown>;
  const problems: string[] = [];

  const timezone = given.timezone == null ? defaultScheduleTimezone : parseTimezone(given.timezone, problems);
  const calendar = given.calendar == null ? null : parseCalendar(given.calendar, problems);
  let everyMinutes: number | null = null;
  let cron: string | null = null;
  if (given.every_minutes != null && given.cron != null) {
    problems.push('schedule takes exactly one of every_minutes and cron, not both');
  } else if (given.every_minutes == null && given.cron == null) {
    problems.push('schedule needs one of every_minutes (e.g. 60) or cron (e.g. "0 9 * * *")');
  } else if (given.every_minutes != null) {
    everyMinutes = parseEveryMinutes(given.every_minutes, plan, minimum, problems);
    if (everyMinutes !== null && calendar !== null && everyMinutes % weekMinutes === 0) {
      problems.push(
        `every_minutes ${everyMinutes} is a whole number of weeks, so every run falls on the same weekday; ` +
          'with calendar jp_business_days use cron instead (e.g. "0 9 * * 1" for Mondays at 09:00)',
      );
    }
  } else {
    cron = parseCron(given.cron, timezone, plan, minimum, problems);
  }
  if (problems.length > 0 || timezone === null) return { ok: false, problems };

  const schedule: Schedule = { every_minutes: everyMinutes, cron, timezone, calendar };
  if (cron !== null && calendar !== null) {
    try {
      nextBaseRun(schedule, gapReference, gapReference);
    } catch {
      return {
        ok: false,
        problems: [`cron "${cron}" never runs on a Japanese business day (calendar jp_business_days)`],
      };
    }
  }
  return { ok: true, schedule };
}

function parseTimezone(value: unknown, problems: string[]): string | null {
  const help = 'an IANA time zone name such as "Asia/Tokyo" or "America/New_York"';
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(`timezone must be ${help}`);
    return null;
  }
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: value.trim() }).resolvedOptions().timeZone;
  } catch {
    resolved = '';
  }
  // Intl also takes fixed offsets ("+09:00"), which are no zone names and would ignore a zone's summer time.
  if (!/^[A-Za-z]/.test(resolved)) {
    problems.push(`timezone "${value}" is not ${help}`);
    return null;
  }
  return resolved;
}

function parseCalendar(value: unknown, problems: string[]): ScheduleCalendar | null {
  const known = scheduleCalendars.find((calendar) => calendar === value);
  if (known) return known;
  problems.push(
    `calendar must be ${scheduleCalendars.map((c) => `"${c}"`).join(' or ')} or absent; got ${show(value)}`,
  );
  return null;
}

function parseEveryMinutes(value: unknown, plan: PlanId, minimum: number, problems: string[]): number | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maxEveryMinutes) {
    problems.push(
      `every_minutes must be a whole number of minutes from 1 to ${maxEveryMinutes} (30 days); got ${show(value)}`,
    );
    return null;
  }
  if (value < minimum) {
    problems.push(`every_minutes ${value} is below the ${plan} plan's minimum of ${minimum} minutes`);
    return null;
  }
  return value;
}

function parseCron(
  value: unknown,
  timezone: string | null,
  plan: PlanId,
  minimum: number,
  problems: string[],
): string | null {
  if (typeof value !== 'string') {
    problems.push(`cron must be a string of ${fieldsHelp}; got ${show(value)}`);
    return null;
  }
  const fields = value.trim().split(/\s+/).filter(Boolean);
  const nickname = fields.length === 1 ? nicknames[fields[0]!.toLowerCase()] : undefined;
  if (nickname) {
    problems.push(`cron nicknames such as "${fields[0]}" are not accepted; write the 5 fields ("${nickname}")`);
    return null;
  }
  if (fields.length === 6 || fields.length === 7) {
    const extra = fields.length === 7 ? 'seconds and year fields are' : 'a seconds field is';
    problems.push(`cron "${value}" has ${fields.length} fields: ${extra} not accepted; write ${fieldsHelp}`);
    return null;
  }
  if (fields.length !== 5) {
    problems.push(`cron "${value}" has ${fields.length} field${fields.length === 1 ? '' : 's'}; write ${fieldsHelp}`);
    return null;
  }
  const pattern = fields.join(' ');
  const invalid = cronPatternProblem(pattern, timezone ?? 'UTC');
  if (invalid !== null) {
    problems.push(`cron "${pattern}" is not valid: ${invalid}`);
    return null;
  }
  // Its frequency is read in its zone; without a valid one there is nothing more to say.
  if (timezone === null) return null;
  const gap = shortestGapMs(pattern, timezone, minimum * minuteMs);
  if (gap === null) {
    problems.push(`cron "${pattern}" never runs: no date matches it`);
    return null;
  }
  if (gap < minimum * minuteMs) {
    problems.push(
      `cron "${pattern}" runs as often as every ${gap / minuteMs} minutes, ` +
        `below the ${plan} plan's minimum of ${minimum} minutes`,
    );
    return null;
  }
  return pattern;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * A monitor's fixed delay after each of its scheduled times, in seconds, so that the monitors due at 09:00 JST do not
 * all start at 09:00:00. Stable: a hash of the monitor id. Bounded: 0 ≤ jitter ≤ 10 % of the schedule's interval
 * (for a cron, its shortest gap between runs, so jittered runs never reach the next one) and ≤ 15 minutes.
 */
export function jitterSeconds(monitorId: string, schedule: Schedule): number {
  const intervalMs = intervalOf(schedule);
  const bound = Math.floor(Math.min(maxJitterSeconds, intervalMs / 10 / 1000));
  return bound <= 0 ? 0 : stableHash(monitorId) % (bound + 1);
}

function intervalOf(schedule: Schedule): number {
  if (schedule.every_minutes !== null) return schedule.every_minutes * minuteMs;
  if (schedule.cron !== null) return shortestGapMs(schedule.cron, schedule.timezone) ?? Number.POSITIVE_INFINITY;
  throw new Error('a schedule has every_minutes or cron');
}

/** FNV-1a over the id's UTF-8 bytes, then murmur3's finalizer. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV-1a's low bits follow the last characters closely, and ids often differ only there ("mon_…41", "mon_…42");
  // the finalizer spreads every bit over the whole word before the remainder is taken.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * When the monitor is next due, strictly after `after`: the next scheduled time, plus the monitor's jitter.
 * - `every_minutes` N: the scheduled times are `anchor` + k·N minutes for every integer k (anchor: the monitor's
 *   creation, say), so runs never drift however late a check started; the time zone plays no part.
 * - `cron`: croner's next run in the schedule's time zone (its DST handling: schedule-cron.ts).
 * - `jp_business_days`: a scheduled time whose date in Asia/Tokyo is no Japanese business day is skipped, whatever
 *   the schedule's time zone (the calendar is Japan's); the date is the scheduled time's, before jitter.
 * Throws when no allowed run is found within {@link maxSkippedRuns} (a cron that never runs on a business day).
 */
export function nextRunAt(schedule: Schedule, monitorId: string, anchor: Date, after: Date): Date {
  const jitterMs = jitterSeconds(monitorId, schedule) * 1000;
  // A scheduled time up to one jitter before `after` is still due after it.
  return new Date(nextBaseRun(schedule, instant(anchor), instant(after) - jitterMs) + jitterMs);
}

/** The first scheduled time strictly after `afterMs` that the calendar allows, before jitter. */
function nextBaseRun(schedule: Schedule, anchorMs: number, afterMs: number): number {
  const step = stepper(schedule, anchorMs);
  let base = step(afterMs);
  for (let skipped = 0; base !== null && skipped <= maxSkippedRuns; skipped++) {
    if (schedule.calendar === null || isJapaneseBusinessDay(base)) return base;
    base = step(startOfNextJapanDay(base) - 1);
  }
  const calendar = schedule.calendar === null ? '' : ` on a Japanese business day (${maxSkippedRuns} runs skipped)`;
  throw new Error(`schedule ${describe(schedule)} has no run after ${new Date(afterMs).toISOString()}${calendar}`);
}

/** The first scheduled time strictly after an instant, or null when there is none. */
function stepper(
  schedule: Schedule,
  anchorMs: number,
  evaluator = schedule.cron === null ? null : zonedCron(schedule.cron, schedule.timezone),
): (afterMs: number) => number | null {
  if (schedule.every_minutes !== null) {
    const periodMs = schedule.every_minutes * minuteMs;
    return (afterMs) => anchorMs + (Math.floor((afterMs - anchorMs) / periodMs) + 1) * periodMs;
  }
  if (evaluator === null) throw new Error('a schedule has every_minutes or cron');
  return (afterMs) => evaluator.nextRun(new Date(afterMs))?.getTime() ?? null;
}

function describe(schedule: Schedule): string {
  const cadence = schedule.cron !== null ? `cron "${schedule.cron}"` : `every_minutes ${schedule.every_minutes}`;
  return schedule.calendar === null ? cadence : `${cadence} (calendar ${schedule.calendar})`;
}

function instant(date: Date): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('an invalid Date was given');
  return ms;
}

/**
 * How many times the monitor is due in the {@link estimateDays} days after `from` (`from` excluded, its end
 * included): what {@link nextRunAt} would return step by step, counted. `every_minutes` is counted by arithmetic
 * (per Japanese day with the calendar); a cron is walked run by run, on a fixed-offset evaluator when its zone keeps
 * one offset through the month.
 */
export function checksPerMonth(schedule: Schedule, monitorId: string, anchor: Date, from: Date): number {
  const jitterMs = jitterSeconds(monitorId, schedule) * 1000;
  // Scheduled times in (lo, hi] are due, jittered, in (from, from + 30 days].
  const lo = instant(from) - jitterMs;
  const hi = lo + estimateDays * dayMs;
  const anchorMs = instant(anchor);

  if (schedule.every_minutes !== null) {
    const periodMs = schedule.every_minutes * minuteMs;
    const between = (a: number, b: number) =>
      b <= a ? 0 : Math.floor((b - anchorMs) / periodMs) - Math.floor((a - anchorMs) / periodMs);
    if (schedule.calendar === null) return between(lo, hi);
    let count = 0;
    for (let day = startOfJapanDay(lo + 1); day <= hi; day = startOfNextJapanDay(day)) {
      if (isJapaneseBusinessDay(day))
        count += between(Math.max(lo, day - 1), Math.min(hi, startOfNextJapanDay(day) - 1));
    }
    return count;
  }

  if (schedule.cron === null) throw new Error('a schedule has every_minutes or cron');
  const step = stepper(schedule, anchorMs, cronForWindow(schedule.cron, schedule.timezone, lo, hi));
  let count = 0;
  for (let base = step(lo); base !== null && base <= hi;) {
    if (schedule.calendar === null || isJapaneseBusinessDay(base)) {
      count += 1;
      base = step(base);
    } else {
      base = step(startOfNextJapanDay(base) - 1);
    }
  }
  return count;
}

/**
 * The most requests a host's politeness rule lets start in a day. Its `minIntervalMs` spaces request starts on the
 * host as a whole, not per slot: the gate (InProcessHostGate's `lastStartAt` per host, the Redis gate's one `last`
 * key per host) makes every start wait that long after the previous start, and after the previous response ended,
 * whatever `maxInFlight` allows. So `maxInFlight` adds nothing here: 86,400,000 / minIntervalMs is the ceiling,
 * reached only when responses are instant. Pass the rule in force (a longer robots.txt crawl-delay or the operator's
 * politeness override replaces the site's). Without spacing (0) the rule sets no daily bound: Infinity.
 */
export function hostDailyCapacity(rule: PolitenessRule): number {
  if (!(rule.minIntervalMs > 0)) return Number.POSITIVE_INFINITY;
  return Math.floor(dayMs / rule.minIntervalMs);
}

export interface HostShareInput {
  /** {@link hostDailyCapacity} of the host's rule. */
  capacityPerDay: number;
  /** Accounts with monitors on the host, this one included (counted as 1 at least). */
  accountsOnHost: number;
  /** This account's monitor checks a day on the host today (its other monitors). */
  accountChecksPerDay: number;
  /** The checks a day the new or changed monitor would add there. */
  addingChecksPerDay: number;
  /** The part of the capacity monitors may take (default {@link monitorHostShare}). */
  monitorShare?: number;
}

export interface HostShareVerdict {
  allowed: boolean;
  /** This account's share of the host's monitor checks a day (whole checks). */
  sharePerDay: number;
  usedPerDay: number;
  addingPerDay: number;
}

/**
 * Whether a monitor fits the account's fair share of a host: monitors together may take `monitorShare` of the
 * host's daily capacity (the rest is left to live calls), split evenly between the accounts with monitors there.
 * A refusal states the three numbers rather than delaying checks silently.
 */
export function hostShareCheck(input: HostShareInput): HostShareVerdict {
  const share = Math.min(1, Math.max(0, input.monitorShare ?? monitorHostShare));
  const accounts = Math.max(1, Math.floor(input.accountsOnHost));
  const sharePerDay = Number.isFinite(input.capacityPerDay)
    ? Math.floor((Math.max(0, input.capacityPerDay) * share) / accounts)
    : Number.POSITIVE_INFINITY;
  const usedPerDay = Math.max(0, input.accountChecksPerDay);
  const addingPerDay = Math.max(0, input.addingChecksPerDay);
  return { allowed: usedPerDay + addingPerDay <= sharePerDay, sharePerDay, usedPerDay, addingPerDay };
}
