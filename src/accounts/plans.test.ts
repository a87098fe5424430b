// Plans and the credit limits they give.
import { describe, expect, it } from 'vitest';
import { creditLimitsOf, isPlanId, planOf, plans } from './plans.js';
import type { AccountRecord, KeyRecord } from '../storage/storage.js';

const account = (plan: AccountRecord['plan'], overageCapCredits = 0): AccountRecord => ({
  id: 'acc_x',
  plan,
  overageCapCredits,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const key = (monthlyCreditLimit: number | null = null) => ({ monthlyCreditLimit }) as KeyRecord;

describe('plans', () => {
  it('match DESIGN.md §3', () => {
    expect(plans.free).toEqual({ id: 'free', monthlyCredits: 500, concurrency: 2, overageAllowed: false });
    expect(plans.starter).toEqual({ id: 'starter', monthlyCredits: 5_000, concurrency: 5, overageAllowed: true });
    expect(plans.growth).toEqual({ id: 'growth', monthlyCredits: 25_000, concurrency: 20, overageAllowed: true });
  });

  it('planOf refuses an unknown plan instead of guessing one', () => {
    expect(planOf('starter').monthlyCredits).toBe(5_000);
    expect(() => planOf('enterprise' as never)).toThrow(/unknown plan/);
    expect(() => planOf('toString' as never)).toThrow(/unknown plan/);
    expect(isPlanId('growth')).toBe(true);
    expect(isPlanId('constructor')).toBe(false);
  });
});

describe('creditLimitsOf', () => {
  it('adds the overage cap on paid plans only', () => {
    expect(creditLimitsOf(account('starter', 1_000), key())).toEqual({ accountLimit: 6_000, keyLimit: null });
    expect(creditLimitsOf(account('growth'), key())).toEqual({ accountLimit: 25_000, keyLimit: null });
    expect(creditLimitsOf(account('free', 1_000), key())).toEqual({ accountLimit: 500, keyLimit: null });
  });

  it("passes the key's own limit through", () => {
    expect(creditLimitsOf(account('starter'), key(10))).toEqual({ accountLimit: 5_000, keyLimit: 10 });
  });
});
