// The three plans (DESIGN.md §3) and the credit limits that follow from an account's plan and a key's narrowing.
import type { AccountRecord, KeyRecord, PlanId } from '../storage/storage.js';

export interface Plan {
  id: PlanId;
  /** Credits included each Asia/Tokyo calendar month. */
  monthlyCredits: number;
  /** Calls in flight per account; a key may narrow it, never widen it. */
  concurrency: number;
  /** Whether the account's overage cap counts; Free is a hard stop whatever the account row says. */
  overageAllowed: boolean;
}

export const plans: Readonly<Record<PlanId, Readonly<Plan>>> = Object.freeze({
  free: Object.freeze({ id: 'free', monthlyCredits: 500, concurrency: 2, overageAllowed: false }),
  starter: Object.freeze({ id: 'starter', monthlyCredits: 5_000, concurrency: 5, overageAllowed: true }),
  growth: Object.freeze({ id: 'growth', monthlyCredits: 25_000, concurrency: 20, overageAllowed: true }),
});

export const planIds = Object.keys(plans) as PlanId[];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && Object.hasOwn(plans, value);
}

export function planOf(id: PlanId): Readonly<Plan> {
  const plan = isPlanId(id) ? plans[id] : undefined;
  // A row with an unknown plan is corrupt data; failing loudly beats granting some default allowance.
  if (!plan) throw new Error(`unknown plan ${String(id)}`);
  return plan;
}

export interface CreditLimits {
  /** Allowance plus overage cap this month: what `reserve` checks for the account. */
  accountLimit: number;
  /** The key's own monthly credit limit, or null when it has none. */
  keyLimit: number | null;
}

export function creditLimitsOf(account: AccountRecord, key: KeyRecord): CreditLimits {
  const plan = planOf(account.plan);
  const overage = plan.overageAllowed ? Math.max(0, account.overageCapCredits) : 0;
  return { accountLimit: plan.monthlyCredits + overage, keyLimit: key.monthlyCreditLimit };
}

/** Calls an account, and a key of it, may have in flight: a key may narrow its account's concurrency, never widen it. */
export function concurrencyLimitsOf(account: AccountRecord, key: KeyRecord): { account: number; key: number } {
  const plan = planOf(account.plan);
  return { account: plan.concurrency, key: Math.min(key.concurrencyLimit ?? plan.concurrency, plan.concurrency) };
}
