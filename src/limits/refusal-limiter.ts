// The RefusalLimiter role: a key whose calls keep being refused (4xx) is slowed down with 429 rate_limited for a while.
// Implementation: in-process (per instance, see in-process-refusal-limiter.ts for why that is enough).

/**
 * Counts the refusals (answers 400–499 the caller caused) of each subject, a key, in a fixed window that starts at
 * its first refusal. Once a subject has `maxRefusals` in its window, every further call of it is answered 429 until
 * the window ends; successes are never counted, so honest traffic (calls that succeed, and a sane rate of refusals)
 * is never slowed. Checked on every authenticated call, so both operations are synchronous and cost a map lookup.
 */
export interface RefusalLimiter {
  /** Seconds until the subject is served again, or 0 when it is not held back. */
  retryAfterSeconds(subject: string): number;
  /** Counts one refusal of the subject. */
  recordRefusal(subject: string): void;
}
