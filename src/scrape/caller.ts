// Who is calling (the authenticated account and key) and the concurrency scopes that follow from plan and narrowing.
import { concurrencyLimitsOf } from '../accounts/plans.js';
import type { ConcurrencyScope } from '../limits/concurrency-limiter.js';
import type { AccountRecord, KeyRecord } from '../storage/storage.js';
import type { AuthenticatedCaller } from '../accounts/accounts-service.js';

/** The authenticated account and key a call runs for. */
export type Caller = AuthenticatedCaller;

export function concurrencyScopesOf(account: AccountRecord, key: KeyRecord): ConcurrencyScope[] {
  const limits = concurrencyLimitsOf(account, key);
  return [
    { key: `account:${account.id}`, limit: limits.account },
    { key: `key:${key.id}`, limit: limits.key },
  ];
}
