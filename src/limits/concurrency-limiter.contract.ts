// The behaviour every ConcurrencyLimiter must show; the in-process and Redis test files both run it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConcurrencyLimiter, ConcurrencyScope } from './concurrency-limiter.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;
/** A scope key no other test touches, so tests need no cleanup between them. */
const scopeKey = (kind: string) => `${kind}:t${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Who the limiter speaks for; limiters shared between instances key their leases and liveness by it. */
export interface LimiterInstance {
  instanceId: string;
  livenessTtlMs: number;
}

export function describeConcurrencyLimiterContract(
  name: string,
  make: (instance?: LimiterInstance) => Promise<ConcurrencyLimiter>,
  /** `shared`: two limiters made here see the same slots (Redis); in-process ones each have their own. */
  options: { shared: boolean } = { shared: false },
): void {
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
      // 400 ms: the refusal just after must come while the lease still counts, a round trip later on a loaded machine.
      const stale = await limiter.tryAcquire([scope], 400);
      if (!stale.granted) throw new Error('acquire denied');
      expect((await limiter.tryAcquire([scope], 60_000)).granted).toBe(false);
      await sleep(600);
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

    it('a live instance keeps its slots through heartbeats and every sweep, its own and another’s', async () => {
      // A 500 ms liveness beaten every ~170 ms: a loaded machine's pause between two beats cannot make it look dead.
      const self = await make({ instanceId: `ins_a${scopeKey('x')}`, livenessTtlMs: 500 });
      // In-process limiters share nothing, so "another instance" is only meaningful where slots are shared.
      const other = options.shared ? await make({ instanceId: `ins_b${scopeKey('x')}`, livenessTtlMs: 60_000 }) : self;
      try {
        const scope: ConcurrencyScope = { key: scopeKey('key'), limit: 1 };
        const held = await self.tryAcquire([scope], 60_000);
        if (!held.granted) throw new Error('acquire denied');
        // Past the liveness TTL twice over, but beating all along.
        for (let i = 0; i < 6; i++) {
          await self.heartbeat();
          await sleep(170);
        }
        expect(await self.releaseOrphaned()).toBe(0);
        expect(await other.releaseOrphaned()).toBe(0);
        expect(await self.inUse(scope.key)).toBe(1);
        expect((await other.tryAcquire([scope], 60_000)).granted).toBe(false);
        await held.lease.release();
        expect((await other.tryAcquire([scope], 60_000)).granted).toBe(true);
      } finally {
        await self.close();
        await other.close();
      }
    });

    it.runIf(options.shared)(
      'the slots of an instance that stopped beating are freed, and the next call is admitted at once',
      async () => {
        const dead = await make({ instanceId: `ins_dead${scopeKey('x')}`, livenessTtlMs: 150 });
        const live = await make({ instanceId: `ins_live${scopeKey('x')}`, livenessTtlMs: 60_000 });
        try {
          const account: ConcurrencyScope = { key: scopeKey('account'), limit: 2 };
          const key: ConcurrencyScope = { key: scopeKey('key'), limit: 1 };
          const orphan = await dead.tryAcquire([account, key], 60_000);
          if (!orphan.granted) throw new Error('acquire denied');
          expect(await live.tryAcquire([account, key], 60_000)).toEqual({ granted: false, deniedScope: key.key });
          // The instance is killed: no heartbeat, no release. Its leases would count for 60 s; its liveness, 150 ms.
          await sleep(300);
          const next = await live.tryAcquire([account, key], 60_000);
          expect(next.granted).toBe(true);
          expect(await live.inUse(key.key)).toBe(1);
          expect(await live.inUse(account.key)).toBe(1);
          // Swept once: a late release by the dead instance frees nobody else's slot.
          await orphan.lease.release();
          expect(await live.inUse(key.key)).toBe(1);
          expect(await live.releaseOrphaned()).toBe(0);
        } finally {
          await dead.close();
          await live.close();
        }
      },
    );

    it.runIf(options.shared)('releaseOrphaned frees a dead instance’s slots in every scope it held', async () => {
      const dead = await make({ instanceId: `ins_dead${scopeKey('x')}`, livenessTtlMs: 100 });
      const live = await make({ instanceId: `ins_live${scopeKey('x')}`, livenessTtlMs: 60_000 });
      try {
        const scopes = [1, 2, 3].map(() => ({ key: scopeKey('key'), limit: 5 }));
        for (const scope of scopes) expect((await dead.tryAcquire([scope], 60_000)).granted).toBe(true);
        expect((await dead.tryAcquire(scopes, 60_000)).granted).toBe(true);
        await sleep(250);
        // At least these six (instances closed by earlier tests in this prefix may be swept too).
        expect(await live.releaseOrphaned()).toBeGreaterThanOrEqual(6);
        for (const scope of scopes) expect(await live.inUse(scope.key)).toBe(0);
      } finally {
        await dead.close();
        await live.close();
      }
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
