// Validation of a caller's monitor rules for the API: every problem in words, so that one 400 can list them all.
import { enumFieldValues, numericFields, numericRuleOperators, watchableFields, type WatchedField } from './model.js';

const whenKeys: readonly string[] = ['field', ...numericRuleOperators, 'from', 'to'];
const ruleKeys: readonly string[] = ['id', 'when', 'mode'];
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const maxHistoryDays = 365;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

function whenProblems(when: Record<string, unknown>, mode: unknown, at: string): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(when)) if (!whenKeys.includes(key)) problems.push(`${at}.when: unknown key "${key}"`);
  const field = when.field;
  if (typeof field !== 'string' || !(watchableFields as readonly string[]).includes(field)) {
    problems.push(`${at}.when.field must be one of ${list(watchableFields)}`);
    return problems;
  }
  const watched = field as WatchedField;
  const present = numericRuleOperators.filter((op) => when[op] !== undefined);
  const transition = when.from !== undefined || when.to !== undefined;
  const operators: string[] = [...present, ...(transition ? ['from/to'] : [])];
  if (operators.length === 0) {
    problems.push(`${at}.when needs one operator: ${[...numericRuleOperators, 'from/to'].join(', ')}`);
    return problems;
  }
  if (operators.length > 1) {
    problems.push(`${at}.when has ${operators.length} operators (${operators.join(', ')}); a rule takes exactly one`);
    return problems;
  }
  const op = operators[0]!;

  if (op === 'from/to') {
    const allowed = enumFieldValues[watched];
    if (allowed === undefined) {
      const enums = Object.keys(enumFieldValues);
      problems.push(`${at}: from/to works on ${list(enums)}, not "${field}" (use a change or bound operator)`);
      return problems;
    }
    for (const side of ['from', 'to'] as const) {
      const values = when[side];
      if (values === undefined) continue;
      if (!Array.isArray(values) || values.length === 0) {
        problems.push(`${at}.when.${side} must be a non-empty list of ${list(allowed)}`);
        continue;
      }
      for (const value of values as unknown[]) {
        if (typeof value !== 'string' || !allowed.includes(value)) {
          problems.push(`${at}.when.${side}: ${JSON.stringify(value)} is not a value of ${field} (${list(allowed)})`);
        }
      }
    }
  } else {
    const value = when[op];
    if (!numericFields.includes(watched)) {
      problems.push(`${at}: ${op} works on numeric fields (${list(numericFields)}), not "${field}"`);
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push(`${at}.when.${op} must be a finite number`);
    } else if (op === 'below_lowest_days' && (!Number.isInteger(value) || value < 1 || value > maxHistoryDays)) {
      problems.push(`${at}.when.below_lowest_days must be a whole number of days from 1 to ${maxHistoryDays}`);
    }
  }

  if (mode !== undefined && mode !== 'change' && mode !== 'enter') {
    problems.push(`${at}.mode must be "change" or "enter"`);
  } else if (mode === 'enter' && op !== 'lte' && op !== 'gte') {
    problems.push(`${at}: mode "enter" is for lte/gte (a ${op} rule fires on a change)`);
  }
  return problems;
}

/**
 * Validation of caller rules for the API (returns human-readable problems, [] when fine): exactly one operator
 * (from/to together count as one); the operator fits the field's type (numeric operators on `numericFields`, from/to on
 * the enum fields availability / price_tax / shipping / on_sale, whose values are "true"/"false"); unique ids (1–64
 * chars [A-Za-z0-9_-]); below_lowest_days a whole number 1–365; values finite; from/to values within the field's enum;
 * mode "enter" only on lte/gte. With `watch`, a rule on a field the monitor does not watch is a problem too (its
 * operand would never be known).
 */
export function ruleProblems(rules: readonly unknown[], watch?: readonly WatchedField[]): string[] {
  const problems: string[] = [];
  const firstById = new Map<string, number>();
  rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (!isRecord(rule)) {
      problems.push(`${at} must be an object {id, when, mode?}`);
      return;
    }
    for (const key of Object.keys(rule)) if (!ruleKeys.includes(key)) problems.push(`${at}: unknown key "${key}"`);
    const id = rule.id;
    if (typeof id !== 'string' || !idPattern.test(id)) {
      problems.push(`${at}.id must be 1–64 characters of A–Z, a–z, 0–9, "_" and "-"`);
    } else if (firstById.has(id)) {
      problems.push(`${at}.id "${id}" is already the id of rules[${firstById.get(id)}]`);
    } else {
      firstById.set(id, i);
    }
    if (!isRecord(rule.when)) {
      problems.push(`${at}.when must be an object {field, <operator>}`);
      return;
    }
    problems.push(...whenProblems(rule.when, rule.mode, at));
    const field = rule.when.field;
    if (watch !== undefined && typeof field === 'string' && !(watch as readonly string[]).includes(field)) {
      if ((watchableFields as readonly string[]).includes(field)) {
        problems.push(`${at}: "${field}" is not watched by this monitor (add it to watch)`);
      }
    }
  });
  return problems;
}
