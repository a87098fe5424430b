// Redis limiter against the real server: the shared contract, two instances sharing limits, and key hygiene.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConcurrencyLimiterContract } from './concurrency-limiter.contract.js';
import { RedisConcurrencyLimiter } from './redis-concurrency-limiter.js';
import { testRedisUrl } from '../../test/support/backends.js';

const url = testRedisUrl;
const keyPrefix = `kumo-test-${randomBytes(6).toString('hex')}`;
let admin: Redis;

async function keysUnderPrefix(): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await admin.scan(cursor, 'MATCH', `${keyPrefix}:*`, 'COUNT', 1000);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

beforeAll(() => {
  admin = new Redis(url);
});
afterAll(async () => {
  const keys = await keysUnderPrefix();
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

describeConcurrencyLimiterContract('redis', async () => new RedisConcurrencyLimiter({ url, keyPrefix }));

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
    const client = new Redis(url);
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
    const limiter = new RedisConcurrencyLimiter({ url: 'redis://127.0.0.1:1', keyPrefix });
    await new Promise((r) => setTimeout(r, 50));
    await limiter.close();
  });
});
