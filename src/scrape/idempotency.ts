// The Idempotency-Key header: what a valid key is, and the hash that tells "the same request" from "another body".
import { createHash } from 'node:crypto';
import { KumoError } from '../errors.js';
import type { IdempotencyStore } from '../storage/storage.js';

/** How long a key is remembered (Stripe's 24 hours). */
export const idempotencyTtlMs = 24 * 60 * 60 * 1000;

/**
 * How many times a completed key may be replayed for free. Nothing of the first answer is stored (DESIGN.md §5), so a
 * replay fetches and extracts again; without a cap one charged call would buy unlimited free scrapes for 24 h. Two
 * covers a lost answer and a retry of the retry; the next replay is refused with 422 `idempotency_key_spent`.
 */
export const idempotencyMaxReplays = 2;

/** What the scrape service needs to know of a caller's Idempotency-Key. */
export interface IdempotencyRequest {
  key: string;
  /** SHA-256 hex of the canonical JSON of the request as the service runs it. */
  bodyHash: string;
}

const validKey = /^[\x20-\x7e]{1,255}$/;

/** The header value, checked: 1–255 printable ASCII characters; anything else is a 400, never silently ignored. */
export function parseIdempotencyKey(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !validKey.test(value)) {
    throw new KumoError('invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      body: { field: 'idempotency-key' },
    });
  }
  return value;
}

/** JSON with object keys sorted at every level, so key order in the body does not make it "another body". */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The hash of what the call will do: the url and the params with their defaults filled in, so `{}` and the explicit
 * defaults are the same request, and any difference that changes the result or its cost is another one.
 */
export function bodyHashOf(body: { url: string; params: object }): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** What a claim gave a call: the key is now its own, or it replays the charged call `replayOf` (for free). */
export type ClaimedKey = { replayOf: null } | { replayOf: { key: string; requestId: string } };

/**
 * Claims the caller's key for this call: a new key is the call's own; the same key and body after a charged call is a
 * replay (counted, up to idempotencyMaxReplays); another body, a spent key or a call still in flight are refused.
 */
export async function claimIdempotencyKey(
  store: IdempotencyStore,
  claim: { accountId: string; idempotency: IdempotencyRequest; requestId: string; now: Date; heldUntil: string },
): Promise<ClaimedKey> {
  const { idempotency, now } = claim;
  const outcome = await store.claim({
    accountId: claim.accountId,
    key: idempotency.key,
    bodyHash: idempotency.bodyHash,
    requestId: claim.requestId,
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + idempotencyTtlMs).toISOString(),
    heldUntil: claim.heldUntil,
    maxReplays: idempotencyMaxReplays,
  });
  switch (outcome.outcome) {
    case 'claimed':
      return { replayOf: null };
    case 'replay':
      return { replayOf: { key: idempotency.key, requestId: outcome.requestId } };
    case 'conflict':
      throw new KumoError('idempotency_conflict', 'this Idempotency-Key was used with another request body', {
        body: { original_request_id: outcome.requestId },
      });
    case 'spent':
      throw new KumoError(
        'idempotency_key_spent',
        `this Idempotency-Key was already replayed ${idempotencyMaxReplays} times; use a new key`,
        { body: { original_request_id: outcome.requestId } },
      );
    case 'in_progress':
      throw new KumoError('idempotency_key_in_use', 'a call with this Idempotency-Key is still in flight', {
        retryAfterSeconds: 1,
        body: { original_request_id: outcome.requestId },
      });
  }
}
