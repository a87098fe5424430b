// The monitor's diff and rule engine (DESIGN §9): the changes since a target's baseline, the rules fired, the alert.
/**
 * Pure: no I/O, no clock (the check's time is an argument), and the stored state passed in is never mutated.
 *
 * Semantics (copied into docs/monitors.md):
 *
 * - **Null is no information.** A watched value the page did not state (null) is never a change, in either direction:
 *   when a known value goes missing the baseline keeps it; a first known value becomes the baseline without being
 *   reported. A rule whose field is null in the baseline or in the observation is skipped (`unknown_operand`).
 * - **Baseline.** The first good check's observation is the baseline (nothing to confirm it against). Every later good
 *   check is diffed against the baseline, and the baseline takes the values whose change counted.
 * - **Noise floor.** A change of a yen field (`price`, `price_excluding_tax`, `list_price`, `shipping_fee`,
 *   `effective_price`) or of `points` by at most `noise.price_abs_yen` is no change, and the baseline keeps its old
 *   value for that field: steps of 1 yen never drift the baseline, so 1000 → 1001 → 1002 counts as a change of +2 from
 *   1000 (with a floor of 1) and a price that stays within ±floor of the baseline never alerts. `points` takes the same
 *   floor because 1% points are rounded to the point. `points_rate` and every other field count any change.
 * - **Without rules**, any counted change of a watched field alerts (`rules_hit` is empty).
 * - **Change rules** (`change_gte` / `change_lte` in the field's unit, `change_pct_gte` / `change_pct_lte` in percent,
 *   `from` / `to`, `below_lowest_days`, and `lte` / `gte` with `mode: "change"`) read the counted change between the
 *   baseline and this check. `delta` is `after − before` exactly; `delta_pct` is `delta / before × 100` rounded half
 *   away from zero to two decimals, absent when `before` is 0 (a percent rule is then skipped, `unknown_operand`). On
 *   the first good check they are skipped with `first_check` and reported as skipped.
 * - **Tax basis.** When `price_tax` goes between `included` and `excluded`, the check is a basis change: the
 *   `price_tax` change is reported, and the changes of `price`, `list_price` and `effective_price` are reported with
 *   before and after but no `delta` / `delta_pct`; their `change_*`, `change_pct_*` and `below_lowest_days` rules are
 *   skipped (`tax_basis_changed`). `lte` / `gte` rules still compare the current value. `unknown` on either side is
 *   no basis, so no basis change: the prices are compared as usual.
 * - **`lte` / `gte`** (default `mode: "enter"`) fire when the condition becomes true and re-arm only after a later good
 *   check where it is false; the rule ids inside their condition are kept in `inside`. They compare the field's value
 *   after the noise floor and `confirm_checks` (the new baseline), so a price flapping within the floor around the
 *   bound neither enters nor leaves. On the first good check a condition that already holds fires once: a caller who
 *   asks "tell me when it is ≤ 30,000" wants to hear that it is.
 * - **`from` / `to`** fire on a counted transition of an enum field from one of `from` (any when absent) to one of `to`
 *   (any when absent); `on_sale` is written `"true"` / `"false"`.
 * - **`below_lowest_days: N`** fires on a counted change to a value strictly below the lowest value of the last N days
 *   of history before this check (given by the caller); without that history it is skipped (`no_history`).
 * - **`confirm_checks: N`** (N > 1): a check that differs from the baseline must be seen N checks in a row (the same
 *   watched values, yen fields and points within the floor) before it becomes the baseline and its changes are
 *   reported; until then the baseline does not move and nothing on it alerts. A check back at the baseline resets the
 *   wait; so does a check where a waiting field is unstated (a confirmation has to see the value).
 * - **`cooldown_minutes`**: no alert sooner than that after the target's last alert. **`max_alerts_per_day`**: at most
 *   that many alerts per target per JST calendar day (Asia/Tokyo, UTC+9, no DST; the day turns at 15:00 UTC). A
 *   suppressed alert is recorded (its changes and rules hit, `suppressed` says why) but the baseline still moves: the
 *   change is not replayed later. An `enter` rule whose alert was suppressed stays armed, so it fires on the first
 *   later check that may alert while its condition still holds.
 * - **A failed check is never a change**: it counts failures in a row (`monitor.check.failed` once when the count
 *   reaches `failures.alert_after`) and leaves the baseline and the rule state alone; the next good check is diffed
 *   against the last good baseline.
 */
import {
  numericFields,
  numericRuleOperators,
  taxBasisFields,
  yenFields,
  type FieldChange,
  type FieldValue,
  type NoiseSettings,
  type Observation,
  type Rule,
  type RuleOperator,
  type RuleWhen,
  type SkippedRule,
  type TargetState,
  type WatchedField,
} from './model.js';
import { japanDate } from './schedule-calendar.js';

export { observationOf, effectivePriceOf } from './observation.js';
export { ruleProblems } from './rule-problems.js';

export interface CheckInput {
  watch: readonly WatchedField[];
  rules: readonly Rule[];
  noise: NoiseSettings;
  state: TargetState;
  observation: Observation;
  /** ISO instant of this check. */
  at: string;
  /**
   * For below_lowest_days rules: the lowest value of the field over the last N days of history BEFORE this check, keyed
   * `${field}:${days}` (see `lowsKey`); null or absent = no history (rule skipped, reason no_history).
   */
  lows?: ReadonlyMap<string, number | null>;
}

export interface CheckVerdict {
  /** The new state to store. */
  state: TargetState;
  /** The changes that counted this check (noise floor + confirm applied); [] when none. */
  changes: FieldChange[];
  /** Ids of rules that fired, suppressed or not (for no rules: empty, alert decided by changes). */
  rulesHit: string[];
  /** An alert is to be sent (after cooldown / max_alerts_per_day). */
  alert: boolean;
  /** Why an alert that would have fired was held back. */
  suppressed: 'cooldown' | 'max_per_day' | null;
  skippedRules: SkippedRule[];
  /**
   * price_tax went between included and excluded in the counted transition (baseline → new baseline): a basis change,
   * no % or change_* rule on price fields is evaluated. False while a change waits for confirm_checks.
   */
  basisChanged: boolean;
  /**
   * Whether this check's observation (after the noise floor) became the new baseline: true on every good check except
   * while a differing observation waits for confirm_checks.
   */
  baselineMoved: boolean;
}

/** The key of `CheckInput.lows` for a field and a window. */
export function lowsKey(field: WatchedField, days: number): string {
  return `${field}:${days}`;
}

/** The rule's operator (the first one present: rules are validated by `ruleProblems` before they are stored). */
export function operatorOf(when: RuleWhen): RuleOperator | null {
  for (const op of numericRuleOperators) if (when[op] !== undefined) return op;
  return when.from !== undefined || when.to !== undefined ? 'from_to' : null;
}

/** A rule's mode: `enter` by default for lte/gte, `change` for everything else. */
export function modeOf(rule: Rule, op: RuleOperator): 'change' | 'enter' {
  return rule.mode ?? (op === 'lte' || op === 'gte' ? 'enter' : 'change');
}

/** The Asia/Tokyo calendar date of an ISO instant, YYYY-MM-DD (the schedules' Japanese date). */
export function jstDay(at: string): string {
  return japanDate(Date.parse(at));
}

const flooredFields: readonly WatchedField[] = [...yenFields, 'points'];

function floorOf(field: WatchedField, noise: NoiseSettings): number {
  return flooredFields.includes(field) ? Math.max(0, noise.price_abs_yen) : 0;
}

function differs(field: WatchedField, a: FieldValue, b: FieldValue, noise: NoiseSettings): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(b - a) > floorOf(field, noise);
  return a !== b;
}

/**
 * Percent of `before`, two decimals, half away from zero. `delta * 10000 / before` is one division of the exact
 * values, so the rounding sees the true quotient (a ×100 after the division could land a hair under a half).
 */
export function percentOf(delta: number, before: number): number {
  const hundredths = (delta * 10000) / before;
  const rounded = Math.sign(hundredths) * Math.round(Math.abs(hundredths));
  return rounded / 100 || 0;
}

function changeOf(field: WatchedField, before: FieldValue, after: FieldValue, withDelta: boolean): FieldChange {
  const change: FieldChange = { field, before, after };
  if (withDelta && typeof before === 'number' && typeof after === 'number' && numericFields.includes(field)) {
    change.delta = after - before;
    if (before !== 0) change.delta_pct = percentOf(change.delta, before);
  }
  return change;
}

function sameWaiting(a: Observation, b: Observation, watch: readonly WatchedField[], noise: NoiseSettings): boolean {
  for (const field of watch) if (differs(field, a[field] ?? null, b[field] ?? null, noise)) return false;
  return true;
}

const knownBases: readonly FieldValue[] = ['included', 'excluded'];

function isBasisChange(baseline: Observation, next: Observation): boolean {
  const before = baseline.price_tax ?? null;
  const after = next.price_tax ?? null;
  return before !== after && knownBases.includes(before) && knownBases.includes(after);
}

interface Diff {
  next: Observation;
  changes: FieldChange[];
  pending: TargetState['pending'];
  moved: boolean;
  basisChanged: boolean;
}

function diff(input: CheckInput, baseline: Observation): Diff {
  const { watch, noise, observation, state } = input;
  const candidate: Observation = {};
  let differing = false;
  for (const field of watch) {
    const before = baseline[field] ?? null;
    const now = observation[field] ?? null;
    const counts = now !== null && before !== null && differs(field, before, now, noise);
    candidate[field] = now !== null && (before === null || counts) ? now : before;
    if (counts) differing = true;
  }
  if (!differing) return { next: candidate, changes: [], pending: null, moved: true, basisChanged: false };

  const confirm = Math.max(1, Math.floor(noise.confirm_checks));
  if (confirm > 1) {
    const waiting = state.pending;
    const again = waiting !== null && sameWaiting(waiting.observation, candidate, watch, noise);
    const seen = again ? waiting.seen + 1 : 1;
    if (seen < confirm) {
      // The first sighting stays the reference, so a wait cannot creep by a floor's worth each check.
      const pending = { observation: again ? waiting.observation : candidate, seen };
      return { next: { ...baseline }, changes: [], pending, moved: false, basisChanged: false };
    }
  }

  const basisChanged = isBasisChange(baseline, candidate);
  const changes: FieldChange[] = [];
  for (const field of watch) {
    const before = baseline[field] ?? null;
    const after = candidate[field] ?? null;
    if (before === null || after === null || !differs(field, before, after, noise)) continue;
    changes.push(changeOf(field, before, after, !(basisChanged && taxBasisFields.includes(field))));
  }
  return { next: candidate, changes, pending: null, moved: true, basisChanged };
}

function firstDiff(input: CheckInput): Diff {
  const next: Observation = {};
  for (const field of input.watch) next[field] = input.observation[field] ?? null;
  return { next, changes: [], pending: null, moved: true, basisChanged: false };
}

function inList(list: readonly string[] | undefined, value: FieldValue): boolean {
  return list === undefined || list.includes(String(value));
}

interface RulesOutcome {
  hits: string[];
  /** Enter rules that fired this check (they join `inside` only if the alert goes out). */
  entered: string[];
  /** Enter rules whose condition is true and that were already inside. */
  stayed: string[];
  /** Enter rules not evaluated this check: their `inside` membership is kept as it was. */
  untouched: string[];
  skipped: SkippedRule[];
}

function evaluateRules(input: CheckInput, baseline: Observation | null, d: Diff): RulesOutcome {
  const out: RulesOutcome = { hits: [], entered: [], stayed: [], untouched: [], skipped: [] };
  const { rules, observation, state } = input;
  for (const rule of rules) {
    const { when, id } = rule;
    const op = operatorOf(when);
    if (op === null) continue;
    const field = when.field;
    const now = observation[field] ?? null;
    const skip = (reason: SkippedRule['reason']) => out.skipped.push({ id, reason });

    if (modeOf(rule, op) === 'enter') {
      const value = d.next[field] ?? null;
      const bound = op === 'lte' ? when.lte : op === 'gte' ? when.gte : undefined;
      if (bound === undefined) continue;
      if (now === null || typeof value !== 'number') {
        skip('unknown_operand');
        out.untouched.push(id);
        continue;
      }
      if (!(op === 'lte' ? value <= bound : value >= bound)) continue;
      if (state.inside.includes(id)) out.stayed.push(id);
      else {
        out.entered.push(id);
        out.hits.push(id);
      }
      continue;
    }

    if (baseline === null) {
      skip('first_check');
      continue;
    }
    if (now === null || (baseline[field] ?? null) === null) {
      skip('unknown_operand');
      continue;
    }
    const change = d.changes.find((c) => c.field === field);
    const basisBound = d.basisChanged && taxBasisFields.includes(field);
    let fired = false;
    switch (op) {
      case 'change_gte':
      case 'change_lte': {
        if (basisBound) {
          skip('tax_basis_changed');
          continue;
        }
        const delta = change?.delta;
        fired = delta !== undefined && (op === 'change_gte' ? delta >= when[op]! : delta <= when[op]!);
        break;
      }
      case 'change_pct_gte':
      case 'change_pct_lte': {
        if (basisBound) {
          skip('tax_basis_changed');
          continue;
        }
        if (change === undefined) continue;
        const pct = change.delta_pct;
        if (pct === undefined) {
          skip('unknown_operand');
          continue;
        }
        fired = op === 'change_pct_gte' ? pct >= when[op]! : pct <= when[op]!;
        break;
      }
      case 'lte':
      case 'gte': {
        const after = change?.after;
        fired = typeof after === 'number' && (op === 'lte' ? after <= when.lte! : after >= when.gte!);
        break;
      }
      case 'below_lowest_days': {
        if (basisBound) {
          skip('tax_basis_changed');
          continue;
        }
        const low = input.lows?.get(lowsKey(field, when.below_lowest_days!)) ?? null;
        if (low === null) {
          skip('no_history');
          continue;
        }
        fired = typeof change?.after === 'number' && change.after < low;
        break;
      }
      case 'from_to':
        fired = change !== undefined && inList(when.from, change.before) && inList(when.to, change.after);
        break;
    }
    if (fired) out.hits.push(id);
  }
  return out;
}

function suppressionOf(state: TargetState, noise: NoiseSettings, at: string, day: string): CheckVerdict['suppressed'] {
  if (noise.cooldown_minutes > 0 && state.lastAlertAt !== null) {
    if (Date.parse(at) - Date.parse(state.lastAlertAt) < noise.cooldown_minutes * 60_000) return 'cooldown';
  }
  const sentToday = state.alertsDay === day ? state.alertsThatDay : 0;
  return sentToday >= noise.max_alerts_per_day ? 'max_per_day' : null;
}

/** One good check: the diff against the baseline, the rules, the alert decision and the state to store. */
export function evaluateCheck(input: CheckInput): CheckVerdict {
  const { state, rules, noise, at } = input;
  const baseline = state.last;
  const d = baseline === null ? firstDiff(input) : diff(input, baseline);
  const outcome = evaluateRules(input, baseline, d);

  const wouldAlert = rules.length === 0 ? d.changes.length > 0 : outcome.hits.length > 0;
  const day = wouldAlert ? jstDay(at) : null;
  const suppressed = day === null ? null : suppressionOf(state, noise, at, day);
  const alert = wouldAlert && suppressed === null;

  const inside = [...outcome.stayed, ...(alert ? outcome.entered : [])];
  for (const id of outcome.untouched) if (state.inside.includes(id)) inside.push(id);

  const next: TargetState = {
    last: d.next,
    lastAt: d.moved ? at : state.lastAt,
    pending: d.pending,
    inside,
    lastAlertAt: alert ? at : state.lastAlertAt,
    alertsDay: alert ? day : state.alertsDay,
    alertsThatDay: alert ? (state.alertsDay === day ? state.alertsThatDay + 1 : 1) : state.alertsThatDay,
    failuresInARow: 0,
  };
  return {
    state: next,
    changes: d.changes,
    rulesHit: outcome.hits,
    alert,
    suppressed,
    skippedRules: outcome.skipped,
    basisChanged: d.basisChanged,
    baselineMoved: d.moved,
  };
}

/**
 * A failed check: never a change. failuresInARow+1; `alertFailed` true exactly when the count reaches alertAfter (once
 * per run of failures, not again at alertAfter+1…; an alertAfter below 1 never alerts). The baseline and the rule state
 * are untouched.
 */
export function recordFailure(state: TargetState, alertAfter: number): { state: TargetState; alertFailed: boolean } {
  const failuresInARow = state.failuresInARow + 1;
  return { state: { ...state, failuresInARow }, alertFailed: failuresInARow === alertAfter };
}
