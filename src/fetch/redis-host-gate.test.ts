// RedisHostGate against the real Redis (KUMO_TEST_REDIS_URL, default 127.0.0.1:6379): the shared contract across two instances, and cleanup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { KumoError } from '../errors.js';
import { describeHostGateContract } from './host-gate.contract.js';
import { RedisHostGate } from './redis-host-gate.js';
import { testRedisUrl } from '../../test/support/backends.js';

const url = testRedisUrl;
const keyPrefix = `kumo-test-${randomBytes(6).toString('hex')}`;
let admin: Redis;
let counter = 0;

async function keysUnderPrefix(): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await admin.scan(cursor, 'MATCH', `${keyPrefix}:*`, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
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

describeHostGateContract('RedisHostGate (two instances)', async () => {
  const a = new RedisHostGate({ url, keyPrefix });
  const b = new RedisHostGate({ url, keyPrefix });
  counter += 1;
  return {
    gates: [a, b],
    host: `h${counter}.kumo-test.jp`,
    cleanup: async () => {
      await a.close();
      await b.close();
    },
  };
});

describe('RedisHostGate', () => {
  it('keeps nothing behind once requests leave and their spacing passed', async () => {
    const gate = new RedisHostGate({ url, keyPrefix });
    try {
      (await gate.enter('ttl.kumo-test.jp', { maxInFlight: 1, minIntervalMs: 10 }, Date.now() + 1_000))();
      await new Promise((r) => setTimeout(r, 20));
      expect(await admin.zcard(`${keyPrefix}:gate:ttl.kumo-test.jp:inflight`)).toBe(0);
      expect(await admin.pttl(`${keyPrefix}:gate:ttl.kumo-test.jp:last`)).toBeLessThanOrEqual(1000);
    } finally {
      await gate.close();
    }
  });

  it('a queued place whose caller vanished (a crashed instance) lapses, and the queue moves on', async () => {
    const gate = new RedisHostGate({ url, keyPrefix, ticketTtlMs: 150 });
    const host = 'lapse.kumo-test.jp';
    try {
      // A ticket at the head of the fair order, kept alive by nobody.
      await admin.zadd(`${keyPrefix}:gate:${host}:queue`, 0, '000000000000000:ghost');
      await admin.zadd(`${keyPrefix}:gate:${host}:alive`, Date.now() + 150, '000000000000000:ghost');
      const t0 = performance.now();
      (await gate.enter(host, { maxInFlight: 1, minIntervalMs: 0 }, Date.now() + 2_000, undefined, 'a'))();
      expect(performance.now() - t0).toBeLessThan(1_500);
      expect(await admin.zcard(`${keyPrefix}:gate:${host}:queue`)).toBe(0);
    } finally {
      await gate.close();
    }
  });

  it('answers unavailable (503) when Redis cannot be reached, rather than letting requests through', async () => {
    const gate = new RedisHostGate({ url: 'redis://127.0.0.1:1', keyPrefix, commandTimeoutMs: 200 });
    try {
      const error = await gate
        .enter('down.kumo-test.jp', { maxInFlight: 1, minIntervalMs: 0 }, Date.now() + 1_000)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KumoError);
      expect((error as KumoError).code).toBe('unavailable');
    } finally {
      await gate.close();
    }
  });
});
