// Who is calling (the authenticated account and key) and the concurrency scopes that follow from plan and narrowing.
import { planOf } from '../accounts/plans.js';
import type { ConcurrencyScope } from '../limits/concurrency-limiter.js';
import type { AccountRecord, KeyRecord } from '../storage/storage.js';
import type { AuthenticatedCaller } from '../accounts/accounts-service.js';

/** The authenticated account and key a call runs for. */
export type Caller = AuthenticatedCaller;

export function concurrencyLimitsOf(account: AccountRecord, key: KeyRecord): { account: number; key: number } {
  const plan = planOf(account.plan);
  // A key may narrow its account's concurrency, never widen it.
  return { account: plan.concurrency, key: Math.min(key.concurrencyLimit ?? plan.concurrency, plan.concurrency) };
}

export function concurrencyScopesOf(account: AccountRecord, key: KeyRecord): ConcurrencyScope[] {
  const limits = concurrencyLimitsOf(account, key);
  return [
    { key: `account:${account.id}`, limit: limits.account },
    { key: `key:${key.id}`, limit: limits.key },
  ];
}
