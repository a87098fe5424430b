// In-process limiter: the shared contract, plus expiry on a fake clock.
import { describe, expect, it } from 'vitest';
import { describeConcurrencyLimiterContract } from './concurrency-limiter.contract.js';
import { InProcessConcurrencyLimiter } from './in-process-concurrency-limiter.js';

describeConcurrencyLimiterContract('in-process', async () => new InProcessConcurrencyLimiter());

describe('InProcessConcurrencyLimiter with an injected clock', () => {
  it('expires a lease exactly at its expiry, not before', async () => {
    let now = 1_000_000;
    const limiter = new InProcessConcurrencyLimiter({ clock: () => now });
    const scope = { key: 'key:k', limit: 1 };
    expect((await limiter.tryAcquire([scope], 30_000)).granted).toBe(true);
    now += 29_999;
    expect(await limiter.inUse('key:k')).toBe(1);
    expect((await limiter.tryAcquire([scope], 30_000)).granted).toBe(false);
    now += 1;
    expect(await limiter.inUse('key:k')).toBe(0);
    expect((await limiter.tryAcquire([scope], 30_000)).granted).toBe(true);
  });

  it('refuses a lease without a positive duration', async () => {
    const limiter = new InProcessConcurrencyLimiter();
    await expect(limiter.tryAcquire([{ key: 'key:k', limit: 1 }], 0)).rejects.toThrow(RangeError);
  });
});
