// The behaviour every ConcurrencyLimiter must show; the in-process and Redis test files both run it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConcurrencyLimiter, ConcurrencyScope } from './concurrency-limiter.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;
/** A scope key no other test touches, so tests need no cleanup between them. */
const scopeKey = (kind: string) => `${kind}:t${Date.now().toString(36)}${(counter++).toString(36)}`;

export function describeConcurrencyLimiterContract(name: string, make: () => Promise<ConcurrencyLimiter>): void {
  describe(`${name}: ConcurrencyLimiter contract`, () => {
    let limiter: ConcurrencyLimiter;

    beforeEach(async () => {
      limiter = await make();
    });

    afterEach(async () => {
      await limiter.close();
    });

    it('grants exactly the limit to 50 parallel acquires', async () => {
      const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 5 };
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => limiter.tryAcquire([scope], 60_000)));
      expect(outcomes.filter((o) => o.granted)).toHaveLength(5);
      for (const o of outcomes) if (!o.granted) expect(o.deniedScope).toBe(scope.key);
      expect(await limiter.inUse(scope.key)).toBe(5);
    });

    it('is all-or-nothing across scopes', async () => {
      const account: ConcurrencyScope = { key: scopeKey('account'), limit: 3 };
      const keyA: ConcurrencyScope = { key: scopeKey('key'), limit: 1 };
      const keyB: ConcurrencyScope = { key: scopeKey('key'), limit: 5 };
      expect((await limiter.tryAcquire([account, keyA], 60_000)).granted).toBe(true);
      // keyA is full: the account slot must not be taken either.
      expect(await limiter.tryAcquire([account, keyA], 60_000)).toEqual({ granted: false, deniedScope: keyA.key });
      expect(await limiter.inUse(account.key)).toBe(1);
      expect((await limiter.tryAcquire([account, keyB], 60_000)).granted).toBe(true);
      expect((await limiter.tryAcquire([account, keyB], 60_000)).granted).toBe(true);
      // Now the account is full: keyB has room but gets nothing.
      expect(await limiter.tryAcquire([account, keyB], 60_000)).toEqual({ granted: false, deniedScope: account.key });
      expect(await limiter.inUse(keyB.key)).toBe(2);
      expect(await limiter.inUse(account.key)).toBe(3);
    });

    it('holds both limits under parallel acquires through two keys of one account', async () => {
      const account: ConcurrencyScope = { key: scopeKey('account'), limit: 4 };
      const keyA: ConcurrencyScope = { key: scopeKey('key'), limit: 3 };
      const keyB: ConcurrencyScope = { key: scopeKey('key'), limit: 3 };
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => limiter.tryAcquire([account, i % 2 ? keyA : keyB], 60_000)),
      );
      expect(outcomes.filter((o) => o.granted)).toHaveLength(4);
      expect(await limiter.inUse(account.key)).toBe(4);
      expect((await limiter.inUse(keyA.key)) + (await limiter.inUse(keyB.key))).toBe(4);
      expect(await limiter.inUse(keyA.key)).toBeLessThanOrEqual(3);
    });

    it('release frees the slot in every scope', async () => {
      const account: ConcurrencyScope = { key: scopeKey('account'), limit: 1 };
      const key: ConcurrencyScope = { key: scopeKey('key'), limit: 1 };
      const first = await limiter.tryAcquire([account, key], 60_000);
      if (!first.granted) throw new Error('first acquire denied');
      expect((await limiter.tryAcquire([account, key], 60_000)).granted).toBe(false);
      await first.lease.release();
      expect(await limiter.inUse(account.key)).toBe(0);
      expect(await limiter.inUse(key.key)).toBe(0);
      expect((await limiter.tryAcquire([account, key], 60_000)).granted).toBe(true);
    });

    it('a second release is harmless and frees nobody else’s slot', async () => {
      const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 2 };
      const a = await limiter.tryAcquire([scope], 60_000);
      const b = await limiter.tryAcquire([scope], 60_000);
      if (!a.granted || !b.granted) throw new Error('acquire denied');
      await a.lease.release();
      await a.lease.release();
      expect(await limiter.inUse(scope.key)).toBe(1);
      await b.lease.release();
      expect(await limiter.inUse(scope.key)).toBe(0);
    });

    it('an expired lease stops counting, and releasing it later is harmless', async () => {
      const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 1 };
      const stale = await limiter.tryAcquire([scope], 50);
      if (!stale.granted) throw new Error('acquire denied');
      expect((await limiter.tryAcquire([scope], 60_000)).granted).toBe(false);
      await sleep(120);
      expect(await limiter.inUse(scope.key)).toBe(0);
      const fresh = await limiter.tryAcquire([scope], 60_000);
      expect(fresh.granted).toBe(true);
      await stale.lease.release();
      expect(await limiter.inUse(scope.key)).toBe(1);
    });

    it('inUse is 0 for a scope never used, and a limit of 0 grants nothing', async () => {
      expect(await limiter.inUse(scopeKey('account'))).toBe(0);
      const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 0 };
      expect(await limiter.tryAcquire([scope], 60_000)).toEqual({ granted: false, deniedScope: scope.key });
    });

    it('many acquire/release cycles leak no slot', async () => {
      const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 2 };
      await Promise.all(
        Array.from({ length: 100 }, async () => {
          const outcome = await limiter.tryAcquire([scope], 60_000);
          if (outcome.granted) await outcome.lease.release();
        }),
      );
      expect(await limiter.inUse(scope.key)).toBe(0);
    });
  });
}
