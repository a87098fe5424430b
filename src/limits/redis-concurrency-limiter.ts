// ConcurrencyLimiter shared by many instances: one sorted set per scope in Redis, taken and checked in one Lua script;
// each lease names its instance, whose liveness key lets the survivors free the slots of one that died.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../backends/redis-client.js';
import type { AcquireOutcome, ConcurrencyLimiter, ConcurrencyScope, Lease } from './concurrency-limiter.js';
import { guardBackend, unavailable } from '../backends/backend-errors.js';
import { newId } from '../accounts/ids.js';
import { isKumoError } from '../errors.js';
import { systemClock, type Clock, type ClockTimer } from '../time/clock.js';

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
  /** This server instance (`ins_…`), written into each lease it takes; a fresh id by default. */
  instanceId?: string;
  /**
   * How long this instance counts as alive after its last heartbeat (or acquire); past it, any instance frees its
   * leases. Default 30,000 ms; heartbeats must come more often than this.
   */
  livenessTtlMs?: number;
  /**
   * How soon a release that failed (or an acquire whose answer was lost) is tried again, and again until it goes
   * through; also retried at once when the client reconnects. Default 1,000 ms.
   */
  releaseRetryMs?: number;
  clock?: Clock;
}

/**
 * KEYS: this instance's liveness key, its set of scope keys, the set of all instances, then one sorted set per scope
 * (member = `{instance id}|{lease id}`, score = expiry in ms).
 * ARGV: lease member, lease ms, liveness ttl ms, instance id, then one limit per scope key.
 * Returns 0 when granted, else the 1-based index of the first full scope.
 * Time comes from the Redis server, so instances with skewed clocks still agree on which leases have expired. The
 * script is atomic: nothing runs between the checks and the adds, so the sets can never pass their limits.
 */
const acquireScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local leaseMs = tonumber(ARGV[2])
local scopes = #KEYS - 3
for i = 1, scopes do
  local key = KEYS[i + 3]
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 4]) then
    return i
  end
end
-- An instance taking a slot is alive; recording where its leases are lets a sweeper find them if it dies.
redis.call('SET', KEYS[1], '1', 'PX', tonumber(ARGV[3]))
redis.call('ZADD', KEYS[3], now, ARGV[4])
for i = 1, scopes do
  local key = KEYS[i + 3]
  redis.call('ZADD', key, now + leaseMs, ARGV[1])
  -- The set outlives its longest lease and no more, so scopes nobody uses leave nothing behind.
  if redis.call('PTTL', key) < leaseMs then
    redis.call('PEXPIRE', key, leaseMs)
  end
  redis.call('SADD', KEYS[2], key)
end
if redis.call('PTTL', KEYS[2]) < leaseMs then
  redis.call('PEXPIRE', KEYS[2], leaseMs)
end
return 0
`;

/** KEYS[1]: a scope's set. Counts leases that have not expired by the server's clock. */
const inUseScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`;

/**
 * KEYS[1]: the set of all instances. ARGV[1]: the key prefix. Every instance whose liveness key has expired loses
 * its leases in the scopes it recorded, then is forgotten; returns how many leases went. (It names keys it builds
 * from the prefix, which a single Redis, the supported deployment, allows.)
 */
const sweepScript = `
local prefix = ARGV[1]
local freed = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', prefix .. ':alive:' .. id) == 0 then
    local scopesKey = prefix .. ':inst:' .. id .. ':scopes'
    local mark = id .. '|'
    for _, scope in ipairs(redis.call('SMEMBERS', scopesKey)) do
      for _, member in ipairs(redis.call('ZRANGE', scope, 0, -1)) do
        if string.sub(member, 1, #mark) == mark then
          redis.call('ZREM', scope, member)
          freed = freed + 1
        end
      end
    end
    redis.call('DEL', scopesKey)
    redis.call('ZREM', KEYS[1], id)
  end
end
return freed
`;

type LimiterRedis = Redis & {
  kumoAcquire(...args: (string | number)[]): Promise<number>;
  kumoInUse(key: string): Promise<number>;
  kumoSweep(instances: string, prefix: string): Promise<number>;
};

// ioredis states in which the connection is known to be down (it reconnects on its own).
const downStates = new Set(['reconnecting', 'close', 'end']);

export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  readonly #redis: LimiterRedis;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #instanceId: string;
  readonly #livenessTtlMs: number;
  readonly #releaseRetryMs: number;
  readonly #clock: Clock;
  /**
   * Leases that may be held in Redis though no call uses them (member → scope keys): releases that failed during an
   * outage, and acquires that failed (a command that timed out during a stall still runs when the path comes back,
   * taking a slot for the whole lease). Retried on a short timer, at reconnect and by `releaseOrphaned`.
   */
  readonly #unreleased = new Map<string, string[]>();
  #retryTimer: ClockTimer | undefined;
  #retrying: Promise<number> | null = null;
  #closed = false;
  readonly #onReady = () => void this.#retryUnreleased().catch(() => undefined);

  /** Connects lazily, on the first call: constructing it opens nothing. */
  constructor(options: RedisConcurrencyLimiterOptions) {
    if (options.redis) {
      this.#redis = options.redis as LimiterRedis;
      this.#ownsClient = false;
    } else {
      if (!options.url) throw new Error('RedisConcurrencyLimiter needs a url or a client');
      this.#redis = createRedisClient(options.url, {
        commandTimeoutMs: options.commandTimeoutMs,
        onError: options.onError,
      }) as LimiterRedis;
      this.#ownsClient = true;
    }
    this.#prefix = options.keyPrefix;
    this.#instanceId = options.instanceId ?? newId('ins');
    this.#livenessTtlMs = options.livenessTtlMs ?? 30_000;
    this.#releaseRetryMs = options.releaseRetryMs ?? 1_000;
    this.#clock = options.clock ?? systemClock;
    this.#redis.on('ready', this.#onReady);
    // defineCommand sends EVALSHA and falls back to EVAL once, so the script text crosses the wire rarely.
    this.#redis.defineCommand('kumoAcquire', { lua: acquireScript });
    this.#redis.defineCommand('kumoInUse', { numberOfKeys: 1, lua: inUseScript });
    this.#redis.defineCommand('kumoSweep', { numberOfKeys: 1, lua: sweepScript });
  }

  async tryAcquire(scopes: readonly ConcurrencyScope[], leaseMs: number): Promise<AcquireOutcome> {
    if (!(leaseMs > 0)) throw new RangeError('leaseMs must be positive');
    const first = await this.#acquireOnce(scopes, leaseMs);
    // Slots a dead instance still holds are not in use: free them and look once more before refusing.
    if (first.granted || (await this.releaseOrphaned()) === 0) return first;
    return this.#acquireOnce(scopes, leaseMs);
  }

  async #acquireOnce(scopes: readonly ConcurrencyScope[], leaseMs: number): Promise<AcquireOutcome> {
    const unique = [...new Map(scopes.map((s) => [s.key, s])).values()];
    const keys = unique.map((s) => this.#key(s.key));
    const member = `${this.#instanceId}|${randomUUID()}`;
    if (keys.length > 0) {
      // Refused before sending (the client knows Redis is down): nothing can run later, so nothing to give back.
      if (downStates.has(this.#redis.status)) throw unavailable('limits');
      const denied = await this.#guard(() =>
        this.#redis.kumoAcquire(
          3 + keys.length,
          this.#aliveKey(this.#instanceId),
          this.#scopesKey(this.#instanceId),
          this.#instancesKey(),
          ...keys,
          member,
          Math.ceil(leaseMs),
          Math.ceil(this.#livenessTtlMs),
          this.#instanceId,
          ...unique.map((s) => Math.floor(s.limit)),
        ),
      ).catch((error: unknown) => {
        // The script may still run (a timeout is not a refusal: the command waits in a stalled connection and runs
        // when it is back), and nobody would release what it took: give it back as soon as Redis answers again.
        if (isKumoError(error) && error.code === 'unavailable') this.#remember(member, keys);
        throw error;
      });
      if (denied !== 0) return { granted: false, deniedScope: unique[denied - 1]!.key };
    }
    let released = false;
    const lease: Lease = {
      release: async () => {
        if (released || keys.length === 0) return;
        try {
          await this.#remove(member, keys);
        } catch (error) {
          // Redis is unreachable: the slot would stay taken until its expiry, so it is retried until it goes through.
          this.#remember(member, keys);
          throw error;
        }
        released = true;
      },
    };
    return { granted: true, lease };
  }

  async inUse(scopeKey: string): Promise<number> {
    return Number(await this.#guard(() => this.#redis.kumoInUse(this.#key(scopeKey))));
  }

  async heartbeat(): Promise<void> {
    await this.#guard(() =>
      this.#redis
        .multi()
        .set(this.#aliveKey(this.#instanceId), '1', 'PX', Math.ceil(this.#livenessTtlMs))
        .zadd(this.#instancesKey(), Date.now(), this.#instanceId)
        .exec(),
    );
  }

  async releaseOrphaned(): Promise<number> {
    const freed = await this.#retryUnreleased();
    return freed + Number(await this.#guard(() => this.#redis.kumoSweep(this.#instancesKey(), this.#prefix)));
  }

  #remember(member: string, keys: string[]): void {
    this.#unreleased.set(member, keys);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retryTimer || this.#unreleased.size === 0) return;
    this.#retryTimer = this.#clock.setTimeout(() => {
      this.#retryTimer = undefined;
      void this.#retryUnreleased()
        .catch(() => undefined)
        .finally(() => this.#scheduleRetry());
    }, this.#releaseRetryMs);
    // A pending retry must not keep a stopping process alive.
    if (typeof this.#retryTimer.id === 'object') this.#retryTimer.id.unref();
  }

  /**
   * Releases what `#unreleased` holds, in order, stopping at the first failure (Redis is still away); one run at a
   * time. Sent on the connection that carried the acquire, so a late-running acquire comes first and is undone.
   */
  #retryUnreleased(): Promise<number> {
    this.#retrying ??= (async () => {
      let freed = 0;
      for (const [member, keys] of [...this.#unreleased]) {
        await this.#remove(member, keys);
        this.#unreleased.delete(member);
        freed += 1;
      }
      return freed;
    })().finally(() => (this.#retrying = null));
    return this.#retrying;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#redis.off('ready', this.#onReady);
    // A clean stop: this instance is no longer alive, so whatever it still holds is free to sweep at once.
    if (this.#redis.status === 'ready') {
      await this.#redis
        .multi()
        .del(this.#aliveKey(this.#instanceId))
        .exec()
        .catch(() => undefined);
    }
    if (!this.#ownsClient) return;
    if (this.#redis.status === 'wait' || this.#redis.status === 'end') {
      this.#redis.disconnect();
      return;
    }
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  /**
   * Every Redis call goes through here: an outage leaves as `unavailable` (503), never as a raw driver error. While
   * the client knows the connection is down the call fails at once instead of queueing behind the next reconnect.
   */
  #guard<T>(operation: () => Promise<T>): Promise<T> {
    if (downStates.has(this.#redis.status)) return Promise.reject(unavailable('limits'));
    return guardBackend('limits', operation);
  }

  #key(scope: string): string {
    return `${this.#prefix}:conc:${scope}`;
  }

  #aliveKey(instanceId: string): string {
    return `${this.#prefix}:alive:${instanceId}`;
  }

  #scopesKey(instanceId: string): string {
    return `${this.#prefix}:inst:${instanceId}:scopes`;
  }

  #instancesKey(): string {
    return `${this.#prefix}:instances`;
  }

  async #remove(member: string, keys: readonly string[]): Promise<void> {
    const pipeline = this.#redis.multi();
    for (const key of keys) pipeline.zrem(key, member);
    await this.#guard(() => pipeline.exec());
  }
}
