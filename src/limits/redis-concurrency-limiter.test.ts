// Redis limiter against the real server: the shared contract, two instances sharing limits, and key hygiene.
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConcurrencyLimiterContract } from './concurrency-limiter.contract.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';
import { isKumoError } from '../errors.js';
import { startTcpProxy } from '../../test/support/tcp-proxy.js';
import { endpointOf, redisKeysUnder, testRedisClient, testRedisUrl, throughPort } from '../../test/support/backends.js';

const url = testRedisUrl;
const keyPrefix = `kumo-test-${randomBytes(6).toString('hex')}`;
let admin: Redis;

const keysUnderPrefix = () => redisKeysUnder(admin, keyPrefix);

beforeAll(() => {
  admin = testRedisClient();
});
afterAll(async () => {
  const keys = await keysUnderPrefix();
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

// Commands may wait long on a loaded machine; the short production timeout is the outage tests' subject.
describeConcurrencyLimiterContract(
  'redis',
  async (instance) => new RedisConcurrencyLimiter({ url, keyPrefix, commandTimeoutMs: 10_000, ...instance }),
  { shared: true },
);

describe('RedisConcurrencyLimiter', () => {
  it('two instances share one limit', async () => {
    const a = new RedisConcurrencyLimiter({ url, keyPrefix });
    const b = new RedisConcurrencyLimiter({ url, keyPrefix });
    const scope = { key: 'account:shared', limit: 3 };
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).tryAcquire([scope], 60_000)),
    );
    expect(outcomes.filter((o) => o.granted)).toHaveLength(3);
    expect(await a.inUse('account:shared')).toBe(3);
    for (const o of outcomes) if (o.granted) await o.lease.release();
    expect(await b.inUse('account:shared')).toBe(0);
    await a.close();
    await b.close();
  });

  it('stores leases under {prefix}:conc:{scope} with a TTL, so idle scopes disappear', async () => {
    const limiter = new RedisConcurrencyLimiter({ url, keyPrefix });
    const outcome = await limiter.tryAcquire([{ key: 'key:ttl', limit: 1 }], 5_000);
    expect(outcome.granted).toBe(true);
    const ttl = await admin.pttl(`${keyPrefix}:conc:key:ttl`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    if (outcome.granted) await outcome.lease.release();
    expect(await admin.exists(`${keyPrefix}:conc:key:ttl`)).toBe(0);
    await limiter.close();
  });

  it('uses a client it was given and leaves it open', async () => {
    const client = testRedisClient();
    const limiter = new RedisConcurrencyLimiter({ redis: client, keyPrefix });
    expect((await limiter.tryAcquire([{ key: 'key:own', limit: 1 }], 1_000)).granted).toBe(true);
    await limiter.close();
    expect(await client.ping()).toBe('PONG');
    await client.quit();
  });

  it('fails fast (rejects) when Redis is unreachable, never grants', async () => {
    const limiter = new RedisConcurrencyLimiter({ url: 'redis://127.0.0.1:1', keyPrefix, commandTimeoutMs: 500 });
    const started = Date.now();
    await expect(limiter.tryAcquire([{ key: 'key:down', limit: 1 }], 1_000)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    await limiter.close();
  });

  it('constructing it connects to nothing', async () => {
    // A listener that counts who connects: the limiter points at it and is never asked anything.
    let connections = 0;
    const listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.address() as AddressInfo;
      const limiter = new RedisConcurrencyLimiter({ url: `redis://127.0.0.1:${port}`, keyPrefix });
      await new Promise((r) => setTimeout(r, 50));
      await limiter.close();
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('through an outage: unavailable at once while down, the failed release retried by the sweep when back', async () => {
    const proxy = await startTcpProxy(endpointOf(testRedisUrl));
    const limiter = new RedisConcurrencyLimiter({
      url: throughPort(testRedisUrl, proxy.port),
      keyPrefix,
      commandTimeoutMs: 500,
      onError: () => undefined,
    });
    try {
      const scope = { key: 'key:outage', limit: 1 };
      const held = await limiter.tryAcquire([scope], 60_000);
      if (!held.granted) throw new Error('acquire denied');
      proxy.cut();
      const release = await held.lease.release().catch((e: unknown) => e);
      expect(isKumoError(release) && release.code).toBe('unavailable');
      const started = performance.now();
      const acquire = await limiter.tryAcquire([scope], 60_000).catch((e: unknown) => e);
      expect(isKumoError(acquire) && acquire.code).toBe('unavailable');
      expect(performance.now() - started).toBeLessThan(3_000);
      // Seen from outside, the slot is still taken: the release never reached Redis.
      expect(await admin.zcard(`${keyPrefix}:conc:key:outage`)).toBe(1);

      proxy.restore();
      let freed = 0;
      for (let i = 0; i < 50 && freed === 0; i++) {
        freed = await limiter.releaseOrphaned().catch(() => 0);
        if (freed === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(freed).toBeGreaterThanOrEqual(1);
      expect(await limiter.inUse('key:outage')).toBe(0);
      expect((await limiter.tryAcquire([scope], 60_000)).granted).toBe(true);
    } finally {
      await limiter.close();
      await proxy.close();
    }
  });

  it('a stall (no reset): the slots of calls that failed or ended during it come back within seconds of its end', async () => {
    const proxy = await startTcpProxy(endpointOf(testRedisUrl));
    const limiter = new RedisConcurrencyLimiter({
      url: throughPort(testRedisUrl, proxy.port),
      keyPrefix,
      commandTimeoutMs: 300,
      releaseRetryMs: 200,
      onError: () => undefined,
    });
    const setKey = `${keyPrefix}:conc:key:stall`;
    try {
      const scope = { key: 'key:stall', limit: 5 };
      const held = await limiter.tryAcquire([scope], 60_000);
      if (!held.granted) throw new Error('acquire denied');
      proxy.stall();
      // A call that ends during the stall, and calls that try to start: each times out and is refused (503).
      const release = await held.lease.release().catch((e: unknown) => e);
      expect(isKumoError(release) && release.code).toBe('unavailable');
      for (let i = 0; i < 3; i++) {
        const acquire = await limiter.tryAcquire([scope], 60_000).catch((e: unknown) => e);
        expect(isKumoError(acquire) && acquire.code).toBe('unavailable');
      }
      proxy.restore();
      // The commands that waited in the stalled connection run now: the refused acquires would each hold a slot for
      // their whole lease (60 s here, 90 s in production) with nothing running. No sweep is called: the limiter
      // gives them back by itself.
      const returnedAt = Date.now();
      let inUse = -1;
      while (Date.now() - returnedAt < 10_000) {
        inUse = await admin.zcard(setKey);
        if (inUse === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(inUse).toBe(0);
      expect((await limiter.tryAcquire([scope], 60_000)).granted).toBe(true);
    } finally {
      await limiter.close();
      await proxy.close();
      await admin.del(setKey);
    }
  });
});
