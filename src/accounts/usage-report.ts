// What an account and key have used this month and have in flight: GET /v1/usage and the X-Credits-* headers.
import { nextPeriodStart, periodOf, periodStart, secondsUntilReset } from './period.js';
import { concurrencyLimitsOf, creditLimitsOf, planOf } from './plans.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { CreditLedger } from '../storage/storage.js';
import type { AuthenticatedCaller as Caller } from './accounts-service.js';

export interface UsageReport {
  account_id: string;
  plan: string;
  period: string;
  resets_at: string;
  credits: {
    allowance: number;
    overage_cap: number;
    limit: number;
    used: number;
    reserved: number;
    remaining: number;
    overage_used: number;
  };
  key: {
    key_id: string;
    credit_limit: number | null;
    used: number;
    reserved: number;
    remaining: number | null;
    concurrency_limit: number;
    concurrency_in_use: number;
  };
  concurrency: { limit: number; in_use: number };
}

/**
 * The headers every authenticated response carries: the tighter of account and key, as X-* and as the IETF
 * RateLimit-Policy / RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11, structured-field Lists).
 */
export interface LimitHeaders {
  'X-Credits-Limit': string;
  'X-Credits-Remaining': string;
  'X-Concurrency-Limit': string;
  'X-Concurrency-Remaining': string;
  'RateLimit-Policy': string;
  RateLimit: string;
}

/**
 * The two quota policies in the draft's syntax. `credits` has no registered quota unit (a call costs 1 to 3), so
 * the default unit is not claimed: a vendor parameter names it. Its window is this Asia/Tokyo month in seconds.
 * `retryAfterSeconds`: the draft says Retry-After should not end before the effective window does, so when an
 * answer carries a shorter Retry-After (a 429 for concurrency, a 503) the credits item leaves its `t` out.
 */
export function rateLimitFields(
  values: {
    creditLimit: number;
    creditRemaining: number;
    concurrencyLimit: number;
    concurrencyRemaining: number;
    now: Date;
  },
  retryAfterSeconds?: number,
): Pick<LimitHeaders, 'RateLimit-Policy' | 'RateLimit'> {
  const window = Math.round((nextPeriodStart(values.now).getTime() - periodStart(values.now).getTime()) / 1000);
  const reset = secondsUntilReset(values.now);
  const t = retryAfterSeconds !== undefined && retryAfterSeconds < reset ? '' : `;t=${reset}`;
  return {
    'RateLimit-Policy':
      `"credits";q=${values.creditLimit};w=${window};kumo-unit="credits", ` +
      `"concurrency";q=${values.concurrencyLimit};qu="concurrent-requests"`,
    RateLimit: `"credits";r=${values.creditRemaining}${t}, "concurrency";r=${values.concurrencyRemaining}`,
  };
}

export class UsageReporter {
  readonly #ledger: CreditLedger;
  readonly #limiter: ConcurrencyLimiter;
  readonly #clock: () => Date;

  constructor(options: { ledger: CreditLedger; limiter: ConcurrencyLimiter; clock?: () => Date }) {
    this.#ledger = options.ledger;
    this.#limiter = options.limiter;
    this.#clock = options.clock ?? (() => new Date());
  }

  async report(caller: Caller): Promise<UsageReport> {
    const { account, key } = caller;
    const now = this.#clock();
    const period = periodOf(now);
    const plan = planOf(account.plan);
    const limits = creditLimitsOf(account, key);
    const concurrency = concurrencyLimitsOf(account, key);
    const [accountUsage, keyUsage, accountInUse, keyInUse] = await Promise.all([
      this.#ledger.accountUsage(account.id, period),
      this.#ledger.keyUsage(key.id, period),
      this.#limiter.inUse(`account:${account.id}`),
      this.#limiter.inUse(`key:${key.id}`),
    ]);
    // Never negative: a plan downgraded below what was already used reports 0 left, not a debt.
    const remaining = Math.max(0, limits.accountLimit - accountUsage.used - accountUsage.reserved);
    const keyRemaining =
      limits.keyLimit === null ? null : Math.max(0, limits.keyLimit - keyUsage.used - keyUsage.reserved);
    return {
      account_id: account.id,
      plan: account.plan,
      period,
      resets_at: nextPeriodStart(now).toISOString(),
      credits: {
        allowance: plan.monthlyCredits,
        overage_cap: limits.accountLimit - plan.monthlyCredits,
        limit: limits.accountLimit,
        used: accountUsage.used,
        reserved: accountUsage.reserved,
        remaining,
        overage_used: Math.max(0, accountUsage.used - plan.monthlyCredits),
      },
      key: {
        key_id: key.id,
        credit_limit: limits.keyLimit,
        used: keyUsage.used,
        reserved: keyUsage.reserved,
        remaining: keyRemaining,
        concurrency_limit: concurrency.key,
        concurrency_in_use: keyInUse,
      },
      concurrency: { limit: concurrency.account, in_use: accountInUse },
    };
  }

  /**
   * `ownSlots`: concurrency slots the asking call holds now and gives back before its answer is written (a scrape
   * computes its headers before its charge is committed, so that nothing is awaited between the commit and the
   * write); they are counted as free, as a GET /v1/usage right after the answer would count them.
   */
  async headers(
    caller: Caller,
    retryAfterSeconds?: number,
    options: { ownSlots?: number } = {},
  ): Promise<LimitHeaders> {
    const now = this.#clock();
    const r = await this.report(caller);
    const own = options.ownSlots ?? 0;
    r.concurrency.in_use = Math.max(0, r.concurrency.in_use - own);
    r.key.concurrency_in_use = Math.max(0, r.key.concurrency_in_use - own);
    const creditLimit = r.key.credit_limit === null ? r.credits.limit : Math.min(r.key.credit_limit, r.credits.limit);
    const creditRemaining =
      r.key.remaining === null ? r.credits.remaining : Math.min(r.key.remaining, r.credits.remaining);
    const concurrencyRemaining = Math.max(
      0,
      Math.min(r.concurrency.limit - r.concurrency.in_use, r.key.concurrency_limit - r.key.concurrency_in_use),
    );
    return {
      'X-Credits-Limit': String(creditLimit),
      'X-Credits-Remaining': String(creditRemaining),
      'X-Concurrency-Limit': String(r.key.concurrency_limit),
      'X-Concurrency-Remaining': String(concurrencyRemaining),
      ...rateLimitFields(
        {
          creditLimit,
          creditRemaining,
          concurrencyLimit: r.key.concurrency_limit,
          concurrencyRemaining,
          now,
        },
        retryAfterSeconds,
      ),
    };
  }
}
