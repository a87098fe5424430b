// How `kumo monitors` shows monitors and checks to a person: JST times, ¥12,800, changes worded as the alerts are.
import { formatYen, renderMessage, type MessageLanguage } from '../monitors/messages.js';
import type { FieldChange, FieldValue, Observation } from '../monitors/model.js';

/** The parts of the API's `monitor` JSON (DESIGN §9) shown here; --json prints the whole of it. */
export interface MonitorView {
  id: string;
  name: string | null;
  status: string;
  paused_reason?: string | null;
  schedule: {
    every_minutes: number | null;
    cron: string | null;
    timezone: string;
    calendar: string | null;
    next_run_at: string | null;
  };
  estimate?: {
    checks_per_month: number;
    credits_per_month: number;
    within_plan: boolean;
    host_load: { host: string; checks_per_day: number; share_per_day: number | null }[];
  };
  targets: TargetView[];
}

export interface TargetView {
  id: string;
  url: string;
  ref: string | null;
  site: string;
  page_type: string;
  removed: boolean;
  /** The watched values of the last good check, and `at`. */
  last: Record<string, FieldValue> | null;
  last_check: { at: string | null; state: string | null; error_code: string | null };
}

export interface CheckView {
  id: string;
  target_id: string;
  state: string;
  reason: string | null;
  cost_units: number;
  changes: FieldChange[];
  rules_hit: string[];
  error: { code: string; status: number } | null;
}

/** Japanese when the locale is (Node takes its default locale from LC_ALL, LC_MESSAGES or LANG), else English. */
export function languageOf(locale: string): MessageLanguage {
  return /^ja\b/i.test(locale) ? 'ja' : 'en';
}

/**
 * Text the caller chose (a name, a ref) on one line and without control characters, so that it can neither forge
 * a line of the output nor send escape sequences to the terminal.
 */
export function oneLine(text: string): string {
  return text
    .replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ')
    .trim()
    .slice(0, 200);
}

/** `2026-06-01 09:00 JST` (Japan has no daylight saving: UTC+9 all year); `—` for no time. */
export function jstTime(iso: string | null): string {
  if (iso === null) return '—';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return oneLine(iso);
  const t = new Date(ms + 9 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())} ` +
    `${two(t.getUTCHours())}:${two(t.getUTCMinutes())} JST`
  );
}

/** `every 60 min`, `cron "0 9 * * 1-5"`; then the timezone when it is not Japan's, and the business-day calendar. */
export function scheduleText(schedule: MonitorView['schedule'], alwaysTimezone = false): string {
  const parts = [
    schedule.cron !== null ? `cron "${oneLine(schedule.cron)}"` : `every ${schedule.every_minutes ?? '?'} min`,
  ];
  if (alwaysTimezone || schedule.timezone !== 'Asia/Tokyo') parts.push(oneLine(schedule.timezone));
  if (schedule.calendar === 'jp_business_days') parts.push('JP business days');
  return parts.join(', ');
}

function grouped(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function statusText(monitor: MonitorView): string {
  return monitor.status === 'paused' && monitor.paused_reason
    ? `paused (${oneLine(monitor.paused_reason)})`
    : monitor.status;
}

/** A target's last price and availability: `A-1 ¥12,800 in_stock`; `—` for a value the page did not state. */
export function targetSummary(target: TargetView): string {
  const label = target.ref !== null ? `${oneLine(target.ref)} ` : '';
  if (target.removed) return `${label}removed`;
  const failed =
    target.last_check.state === 'failed' ? ` (last check failed: ${oneLine(target.last_check.error_code ?? '?')})` : '';
  if (target.last === null) return `${label}${failed ? 'no good check yet' : 'not checked yet'}${failed}`;
  const price = target.last.price;
  const availability = target.last.availability;
  const priceText = typeof price === 'number' ? formatYen(price) : '—';
  const availabilityText = typeof availability === 'string' ? oneLine(availability) : '—';
  return `${label}${priceText} ${availabilityText}${failed}`;
}

/** `kumo monitors list`: one line per monitor (id, name, status, schedule, next run, each target's last values). */
export function monitorLine(monitor: MonitorView): string {
  return [
    monitor.id,
    monitor.name === null ? '-' : oneLine(monitor.name),
    statusText(monitor),
    scheduleText(monitor.schedule),
    `next ${jstTime(monitor.schedule.next_run_at)}`,
    monitor.targets.map(targetSummary).join(' · '),
  ].join('  ');
}

/** `kumo monitors create`: the monitor as made, with what it will cost and the load it puts on each host. */
export function describeMonitor(monitor: MonitorView): string {
  const lines = [
    `${monitor.id}${monitor.name === null ? '' : `  ${oneLine(monitor.name)}`}`,
    `status     ${statusText(monitor)}`,
    `schedule   ${scheduleText(monitor.schedule, true)}`,
    `next run   ${jstTime(monitor.schedule.next_run_at)}`,
    `targets    ${monitor.targets.length}`,
    ...monitor.targets.map(
      (t) => `  ${t.id}  ${t.site} ${t.page_type}${t.ref === null ? '' : `  ${oneLine(t.ref)}`}  ${oneLine(t.url)}`,
    ),
  ];
  const estimate = monitor.estimate;
  if (estimate) {
    lines.push(
      `estimate   ${grouped(estimate.checks_per_month)} checks / month · ` +
        `${grouped(estimate.credits_per_month)} credits / month at most ` +
        `(${estimate.within_plan ? "within the plan's monthly credits" : "over the plan's monthly credits"})`,
    );
    for (const [i, load] of estimate.host_load.entries()) {
      const label = i === 0 ? 'host load  ' : '           ';
      lines.push(
        `${label}${oneLine(load.host)}: ${grouped(load.checks_per_day)} checks / day ` +
          // Null: the server spaces requests to the host not at all, so no account's share of it is bounded.
          (load.share_per_day === null
            ? '(no per-host limit on this server)'
            : `(this account's fair share: ${grouped(load.share_per_day)} / day)`),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The few words of a check's report that the alert messages do not have. */
const words: Record<MessageLanguage, { noChange: string; credits(n: number): string; error: string }> = {
  ja: { noChange: '変化なし', credits: (n) => `${n}クレジット`, error: 'エラー' },
  en: { noChange: 'no change', credits: (n) => `${n} credit${n === 1 ? '' : 's'}`, error: 'error' },
};

/**
 * The lines of a check's changes (`価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）`), the target's values now and the rules
 * hit, as the alert message of src/monitors/messages.ts words them: that renderer is the one place these words live,
 * and its alert body is those lines followed by three of its own (monitor, checked at, URL) when there is no ref.
 */
export function changeLines(
  changes: FieldChange[],
  current: Observation,
  rulesHit: string[],
  language: MessageLanguage,
): string[] {
  const { text } = renderMessage(
    'monitor.alert',
    {
      monitor_id: 'mon',
      monitor_name: null,
      check_id: 'chk',
      target_id: 'tgt',
      ref: null,
      url: 'https://kumo.invalid/',
      site: '',
      observed_at: '',
      previous_at: null,
      rules_hit: rulesHit,
      changes,
      current,
      request_id: null,
      cost_units: 0,
    },
    language,
  );
  return text.split('\n').slice(0, -3);
}

/**
 * A check as `kumo monitors run` prints it: `chk_…  completed  1 credit  A-1  https://…`, then indented, its changes
 * (or that nothing changed, or its error), the rules it hit and, when given, what the target's page says now.
 */
export function checkLines(check: CheckView, target: TargetView | undefined, language: MessageLanguage): string[] {
  const w = words[language];
  const about = target
    ? [...(target.ref === null ? [] : [oneLine(target.ref)]), oneLine(target.url)]
    : [check.target_id];
  const lines = [[check.id, check.state, w.credits(check.cost_units), ...about].join('  ')];
  if (check.error) lines.push(`  ${w.error}: ${oneLine(check.error.code)} (${check.error.status})`);
  if (check.state === 'completed') {
    const last: Observation = {};
    for (const [field, value] of Object.entries(target?.last ?? {}))
      if (field !== 'at') (last as Record<string, FieldValue>)[field] = value;
    const body = changeLines(check.changes, last, check.rules_hit, language);
    if (check.changes.length === 0) body.unshift(w.noChange);
    lines.push(...body.map((line) => `  ${line}`));
  }
  return lines;
}
