// The monitor's vocabulary (DESIGN §9): watched fields, observations, rules, noise settings and what a check found.
// Pure types and constants, shared by the rule engine, the scheduler, the store, the channels and the HTTP schemas.
import type { PlanId } from '../storage/storage.js';

/** Item fields a monitor can watch (data-model.md `item`), plus the derived `effective_price`. */
export const watchableFields = [
  'price',
  'price_tax',
  'price_excluding_tax',
  'list_price',
  'points',
  'points_rate',
  'shipping',
  'shipping_fee',
  'availability',
  'on_sale',
  'effective_price',
] as const;
export type WatchedField = (typeof watchableFields)[number];

/** Whole-yen fields: the noise floor (`noise.price_abs_yen`) applies to their changes, and `delta` is in yen. */
export const yenFields: readonly WatchedField[] = [
  'price',
  'price_excluding_tax',
  'list_price',
  'shipping_fee',
  'effective_price',
];
/** Fields compared as numbers (the yen fields, points and the points rate). */
export const numericFields: readonly WatchedField[] = [...yenFields, 'points', 'points_rate'];

/** What a monitor watches when the caller names nothing. */
export const defaultWatch: readonly WatchedField[] = [
  'price',
  'price_tax',
  'points',
  'shipping',
  'shipping_fee',
  'availability',
];

export const availabilityStates = [
  'in_stock',
  'out_of_stock',
  'preorder',
  'backorder',
  'limited',
  'discontinued',
] as const;
export type Availability = (typeof availabilityStates)[number];

/** `price_tax` as data-model.md `item` writes it: what the page says about `price`. */
export const priceTaxValues = ['included', 'excluded', 'unknown'] as const;
/** `shipping` as data-model.md `item` writes it. */
export const shippingValues = ['free', 'included', 'extra', 'unknown'] as const;

/**
 * Fields with a closed set of values, the ones `from` / `to` rules name. `on_sale` is a boolean, written `"true"` /
 * `"false"` in a rule so that every transition rule is a list of strings.
 */
export const enumFieldValues: Readonly<Partial<Record<WatchedField, readonly string[]>>> = Object.freeze({
  availability: availabilityStates,
  price_tax: priceTaxValues,
  shipping: shippingValues,
  on_sale: ['true', 'false'],
});

/**
 * The amounts whose tax basis is the one `price_tax` states: across a basis change (included ↔ excluded) their
 * change is no price movement, so it carries no delta and no change rule reads it. `price_excluding_tax` is 税抜 by
 * definition and a shipping fee is stated on its own, so neither is here.
 */
export const taxBasisFields: readonly WatchedField[] = ['price', 'list_price', 'effective_price'];

export type FieldValue = number | string | boolean | null;

/**
 * The watched values one good check read (null: the page did not say). Only these are ever kept of a check: never the
 * page, its title or any other field (DESIGN §5).
 */
export type Observation = Partial<Record<WatchedField, FieldValue>>;

/**
 * One rule's condition, on one field. Exactly one operator besides `field`:
 * - `change_gte` / `change_lte`: the change in the field's own unit (yen, points, percentage points) between two
 *   consecutive good checks, e.g. `change_lte: -500` fires on a drop of 500 yen or more;
 * - `change_pct_gte` / `change_pct_lte`: the same in percent of the earlier value (`change_pct_lte: -5`);
 * - `lte` / `gte`: the value is at most / at least a bound (fires on entering, re-arms on leaving);
 * - `below_lowest_days`: a value under the lowest of the last N days of history (needs history);
 * - `from` / `to` (availability and other enum fields): a transition from one of `from` (any when absent) to one of
 *   `to` (any when absent); at least one of the two.
 */
export interface RuleWhen {
  field: WatchedField;
  change_gte?: number;
  change_lte?: number;
  change_pct_gte?: number;
  change_pct_lte?: number;
  lte?: number;
  gte?: number;
  below_lowest_days?: number;
  from?: string[];
  to?: string[];
}

/** The operators of `RuleWhen` that take a number; `from` / `to` together are the one other operator. */
export const numericRuleOperators = [
  'change_gte',
  'change_lte',
  'change_pct_gte',
  'change_pct_lte',
  'lte',
  'gte',
  'below_lowest_days',
] as const;
export type RuleOperator = (typeof numericRuleOperators)[number] | 'from_to';

export interface Rule {
  /** The caller's name for the rule (`drop5`), reported in `rules_hit`. */
  id: string;
  when: RuleWhen;
  /**
   * `change`: fires on a qualifying change between two consecutive good checks (default for change_*, from/to and
   * below_lowest_days); `enter`: fires when the condition becomes true and re-arms only once it was false on a later
   * check (default for lte/gte).
   */
  mode?: 'change' | 'enter';
}

export interface NoiseSettings {
  /** Changes of a yen field of at most this many yen are no change (default 1: 税込 rounding). */
  price_abs_yen: number;
  /** A new value must be seen on this many checks in a row before it counts (default 1). */
  confirm_checks: number;
  /** After an alert, none for this long for the same target (default 0). */
  cooldown_minutes: number;
  /** Alerts per target per JST day at most (default 20). */
  max_alerts_per_day: number;
}

export const defaultNoise: Readonly<NoiseSettings> = Object.freeze({
  price_abs_yen: 1,
  confirm_checks: 1,
  cooldown_minutes: 0,
  max_alerts_per_day: 20,
});

/** One watched field that changed between two consecutive good checks. */
export interface FieldChange {
  field: WatchedField;
  before: FieldValue;
  after: FieldValue;
  /** after − before, for numeric fields with both known; absent otherwise. */
  delta?: number;
  /** delta in percent of before, two decimals; absent when before is 0 or not numeric. */
  delta_pct?: number;
}

/** What the rule engine keeps per target between checks (stored with the target; only watched values). */
export interface TargetState {
  /** The last good observation that counted (the baseline of the next diff); null before the first good check. */
  last: Observation | null;
  lastAt: string | null;
  /** A new observation waiting for `confirm_checks`. */
  pending: { observation: Observation; seen: number } | null;
  /** `enter` rules whose condition was true at the last good check (not armed until it is false again). */
  inside: string[];
  lastAlertAt: string | null;
  /** Alerts sent on `alertsDay` (a JST date, YYYY-MM-DD). */
  alertsDay: string | null;
  alertsThatDay: number;
  /** Failed checks in a row since the last good one. */
  failuresInARow: number;
}

export const emptyTargetState: Readonly<TargetState> = Object.freeze({
  last: null,
  lastAt: null,
  pending: null,
  inside: [],
  lastAlertAt: null,
  alertsDay: null,
  alertsThatDay: 0,
  failuresInARow: 0,
});

/** A rule that could not be evaluated this check, and why (reported in the check record). */
export interface SkippedRule {
  id: string;
  reason: 'unknown_operand' | 'tax_basis_changed' | 'no_history' | 'first_check';
}

/** Plan minimum intervals between checks of one monitor (DESIGN §9; the research's guess). */
export const minIntervalMinutesByPlan: Readonly<Record<PlanId, number>> = Object.freeze({
  free: 360,
  starter: 60,
  growth: 15,
});

/** History retention caps by plan, in days. */
export const historyCapDaysByPlan: Readonly<Record<PlanId, number>> = Object.freeze({
  free: 30,
  starter: 180,
  growth: 365,
});

export const checkStates = ['queued', 'running', 'completed', 'failed', 'skipped'] as const;
export type CheckState = (typeof checkStates)[number];

export const monitorStatuses = ['active', 'paused'] as const;
export type MonitorStatus = (typeof monitorStatuses)[number];

export const monitorEventTypes = [
  'monitor.alert',
  'monitor.check.failed',
  'monitor.target.removed',
  'monitor.paused',
] as const;
export type MonitorEventType = (typeof monitorEventTypes)[number];

/** A normalized schedule (schedule.ts's `Schedule` has this shape): one of every_minutes or cron, in a time zone. */
export interface MonitorSchedule {
  every_minutes: number | null;
  cron: string | null;
  timezone: string;
  calendar: 'jp_business_days' | null;
}

/** Where a schedule's times are read when the caller names no time zone (DESIGN §9). */
export const defaultScheduleTimezone = 'Asia/Tokyo';

/**
 * Calendars a schedule may follow: `jp_business_days` skips runs on Japanese non-business days (土日, 祝日 including
 * 振替休日 and 国民の休日, and 年末年始 12/31–1/3), judged by the date in Asia/Tokyo.
 */
export const scheduleCalendars = ['jp_business_days'] as const;
export type ScheduleCalendar = (typeof scheduleCalendars)[number];

/** The longest `every_minutes`: 30 days. */
export const maxEveryMinutes = 43_200;

/** The part of a host's daily politeness capacity that monitor checks may take, shared evenly by the accounts. */
export const monitorHostShare = 0.5;
