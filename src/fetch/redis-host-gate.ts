// A HostGate shared by every instance through Redis, so politeness toward a site holds however many Kumos run.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { KumoError } from '../errors.js';
import type { HostGate, PolitenessRule } from './host-gate.js';

export interface RedisHostGateOptions {
  /** `redis://host:6379/0`; ignored when `redis` is given. */
  url?: string;
  /** An existing client; the gate then leaves closing it to its owner. */
  redis?: Redis;
  /** Namespace of every key: `{keyPrefix}:gate:{host}:…`. */
  keyPrefix: string;
  /** How often a caller facing a full host asks again (jittered). Default 25 ms. */
  pollMs?: number;
  commandTimeoutMs?: number;
  onError?: (error: Error) => void;
}

/**
 * KEYS[1]: the host's in-flight set (member = request id, score = expiry ms); KEYS[2]: the last start time (ms).
 * ARGV: id, maxInFlight, minIntervalMs, leaseMs. Returns '0' when the request may start now, '-1' when the host
 * is full, else the ms to wait for the spacing. One atomic script with the server's clock: instances with skewed
 * clocks still agree, and nothing can start between the checks and the record of the start.
 */
const enterScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local maxInFlight = tonumber(ARGV[2])
local interval = tonumber(ARGV[3])
local leaseMs = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= maxInFlight then
  return '-1'
end
local last = redis.call('GET', KEYS[2])
if last then
  local wait = tonumber(last) + interval - now
  if wait > 0 then
    return string.format('%.3f', wait)
  end
end
redis.call('ZADD', KEYS[1], now + leaseMs, ARGV[1])
if redis.call('PTTL', KEYS[1]) < leaseMs then
  redis.call('PEXPIRE', KEYS[1], leaseMs)
end
redis.call('SET', KEYS[2], string.format('%.3f', now), 'PX', math.max(math.ceil(interval), 1000))
return '0'
`;

/** KEYS as above; ARGV: id, minIntervalMs. Spacing also counts from the end of a response (see host-gate.ts). */
const leaveScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZREM', KEYS[1], ARGV[1])
local last = redis.call('GET', KEYS[2])
if (not last) or tonumber(last) < now then
  redis.call('SET', KEYS[2], string.format('%.3f', now), 'PX', math.max(math.ceil(tonumber(ARGV[2])), 1000))
end
return 0
`;

type GateRedis = Redis & {
  kumoGateEnter(...args: (string | number)[]): Promise<string>;
  kumoGateLeave(...args: (string | number)[]): Promise<number>;
};

/**
 * Callers poll rather than queue, so arrival order is not guaranteed across instances (spacing and the in-flight cap
 * are). A lease outlives its caller's deadline by a minute, so a crashed instance frees its slots by itself.
 */
export class RedisHostGate implements HostGate {
  readonly #redis: GateRedis;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #pollMs: number;

  /** Connects lazily, on the first call: constructing it opens nothing. */
  constructor(options: RedisHostGateOptions) {
    if (options.redis) {
      this.#redis = options.redis as GateRedis;
      this.#ownsClient = false;
    } else {
      if (!options.url) throw new Error('RedisHostGate needs a url or a client');
      this.#redis = new Redis(options.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        commandTimeout: options.commandTimeoutMs ?? 2_000,
        connectTimeout: options.commandTimeoutMs ?? 2_000,
      }) as GateRedis;
      this.#redis.on('error', (error: Error) => options.onError?.(error));
      this.#ownsClient = true;
    }
    this.#prefix = options.keyPrefix;
    this.#pollMs = options.pollMs ?? 25;
    this.#redis.defineCommand('kumoGateEnter', { numberOfKeys: 2, lua: enterScript });
    this.#redis.defineCommand('kumoGateLeave', { numberOfKeys: 2, lua: leaveScript });
  }

  async enter(host: string, rule: PolitenessRule, deadlineAt: number, signal?: AbortSignal): Promise<() => void> {
    const inFlightKey = `${this.#prefix}:gate:${host}:inflight`;
    const lastKey = `${this.#prefix}:gate:${host}:last`;
    const id = randomUUID();
    // A rule of 0 would stall the host forever; one at a time is the floor.
    const maxInFlight = Math.max(1, Math.floor(rule.maxInFlight));
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const leaseMs = Math.max(1, deadlineAt - Date.now()) + 60_000;
      let answer: number;
      try {
        answer = Number(
          await this.#redis.kumoGateEnter(inFlightKey, lastKey, id, maxInFlight, rule.minIntervalMs, leaseMs),
        );
      } catch {
        // Without the shared gate nobody can tell whether the host may be contacted: refuse rather than guess.
        throw new KumoError('unavailable', 'the politeness store is unreachable; try again shortly', {
          retryAfterSeconds: 5,
        });
      }
      if (answer === 0) return this.#leave(inFlightKey, lastKey, id, rule.minIntervalMs);
      const wait = answer > 0 ? Math.ceil(answer) : Math.round(this.#pollMs * (0.5 + Math.random()));
      const timeLeft = deadlineAt - Date.now();
      if (answer > 0 ? wait > timeLeft : timeLeft <= 0) throw busy(host, rule);
      try {
        await sleep(Math.min(wait, Math.max(1, timeLeft)), undefined, signal ? { signal } : {});
      } catch (error) {
        // Same as the in-process gate: the caller's own reason, not the timer's AbortError.
        throw signal?.aborted ? signal.reason : error;
      }
    }
  }

  async close(): Promise<void> {
    if (!this.#ownsClient) return;
    if (this.#redis.status === 'wait' || this.#redis.status === 'end') {
      this.#redis.disconnect();
      return;
    }
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #leave(inFlightKey: string, lastKey: string, id: string, minIntervalMs: number): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      // If Redis is unreachable the lease stays until its expiry: the host gets less traffic, never more.
      this.#redis.kumoGateLeave(inFlightKey, lastKey, id, minIntervalMs).catch(() => undefined);
    };
  }
}

function busy(host: string, rule: PolitenessRule): KumoError {
  const waitMs = Math.max(rule.minIntervalMs, 1000 / Math.max(rule.maxInFlight, 1));
  return new KumoError('site_busy', `too many requests are waiting for ${host}; try again shortly`, {
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}
