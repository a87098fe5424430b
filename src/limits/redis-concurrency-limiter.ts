// ConcurrencyLimiter shared by many instances: one sorted set per scope in Redis, taken and checked in one Lua script.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AcquireOutcome, ConcurrencyLimiter, ConcurrencyScope, Lease } from './concurrency-limiter.js';

export interface RedisConcurrencyLimiterOptions {
  /** `redis://host:6379/0`; ignored when `redis` is given. */
  url?: string;
  /** An existing client; the limiter then leaves closing it to its owner. */
  redis?: Redis;
  /** Namespace of every key: `{keyPrefix}:conc:{scope}`. */
  keyPrefix: string;
  /** Bound on one Redis command, so a hung server fails the call (503) instead of hanging it. Default 2,000 ms. */
  commandTimeoutMs?: number;
  /** Connection errors of an owned client (it keeps reconnecting); without a listener ioredis prints them. */
  onError?: (error: Error) => void;
}

/**
 * KEYS: one sorted set per scope (member = lease id, score = expiry in ms).
 * ARGV: lease id, lease ms, then one limit per key.
 * Returns 0 when granted, else the 1-based index of the first full scope.
 * Time comes from the Redis server, so instances with skewed clocks still agree on which leases have expired. The
 * script is atomic: nothing runs between the checks and the adds, so the sets can never pass their limits.
 */
const acquireScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local leaseMs = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + leaseMs, ARGV[1])
  -- The set outlives its longest lease and no more, so scopes nobody uses leave nothing behind.
  if redis.call('PTTL', key) < leaseMs then
    redis.call('PEXPIRE', key, leaseMs)
  end
end
return 0
`;

/** KEYS[1]: a scope's set. Counts leases that have not expired by the server's clock. */
const inUseScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`;

type LimiterRedis = Redis & {
  kumoAcquire(...args: (string | number)[]): Promise<number>;
  kumoInUse(key: string): Promise<number>;
};

export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  readonly #redis: LimiterRedis;
  readonly #ownsClient: boolean;
  readonly #prefix: string;

  /** Connects lazily, on the first call: constructing it opens nothing. */
  constructor(options: RedisConcurrencyLimiterOptions) {
    if (options.redis) {
      this.#redis = options.redis as LimiterRedis;
      this.#ownsClient = false;
    } else {
      if (!options.url) throw new Error('RedisConcurrencyLimiter needs a url or a client');
      this.#redis = new Redis(options.url, {
        lazyConnect: true,
        // Fail fast while Redis is down: the caller answers 503 rather than queueing calls unmetered or forever.
        maxRetriesPerRequest: 1,
        commandTimeout: options.commandTimeoutMs ?? 2_000,
        connectTimeout: options.commandTimeoutMs ?? 2_000,
      }) as LimiterRedis;
      this.#redis.on('error', (error: Error) => options.onError?.(error));
      this.#ownsClient = true;
    }
    this.#prefix = options.keyPrefix;
    // defineCommand sends EVALSHA and falls back to EVAL once, so the script text crosses the wire rarely.
    this.#redis.defineCommand('kumoAcquire', { lua: acquireScript });
    this.#redis.defineCommand('kumoInUse', { numberOfKeys: 1, lua: inUseScript });
  }

  async tryAcquire(scopes: readonly ConcurrencyScope[], leaseMs: number): Promise<AcquireOutcome> {
    if (!(leaseMs > 0)) throw new RangeError('leaseMs must be positive');
    const unique = [...new Map(scopes.map((s) => [s.key, s])).values()];
    const keys = unique.map((s) => this.#key(s.key));
    const id = randomUUID();
    if (keys.length > 0) {
      const denied = await this.#redis.kumoAcquire(
        keys.length,
        ...keys,
        id,
        Math.ceil(leaseMs),
        ...unique.map((s) => Math.floor(s.limit)),
      );
      if (denied !== 0) return { granted: false, deniedScope: unique[denied - 1]!.key };
    }
    let released = false;
    const lease: Lease = {
      release: async () => {
        if (released || keys.length === 0) return;
        const pipeline = this.#redis.multi();
        for (const key of keys) pipeline.zrem(key, id);
        // If Redis is unreachable this throws and the lease stays until its expiry; a retry may release it again.
        await pipeline.exec();
        released = true;
      },
    };
    return { granted: true, lease };
  }

  async inUse(scopeKey: string): Promise<number> {
    return Number(await this.#redis.kumoInUse(this.#key(scopeKey)));
  }

  async close(): Promise<void> {
    if (!this.#ownsClient) return;
    if (this.#redis.status === 'wait' || this.#redis.status === 'end') {
      this.#redis.disconnect();
      return;
    }
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #key(scope: string): string {
    return `${this.#prefix}:conc:${scope}`;
  }
}
