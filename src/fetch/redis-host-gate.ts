// A HostGate shared by every instance through Redis, so politeness toward a site holds however many Kumos run.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../backends/redis-client.js';
import { KumoError } from '../errors.js';
import { systemClock, type Clock } from '../time/clock.js';
import {
  anonymousAccount,
  gateRetryAfterSeconds,
  maxPenalty,
  type GateOutcome,
  type HostGate,
  type Leave,
  type PolitenessRule,
} from './host-gate.js';

export interface RedisHostGateOptions {
  /** `redis://host:6379/0`; ignored when `redis` is given. */
  url?: string;
  /** An existing client; the gate then leaves closing it to its owner. */
  redis?: Redis;
  /** Namespace of every key: `{keyPrefix}:gate:{host}:…`. */
  keyPrefix: string;
  /** How often a waiting caller asks again (jittered). Default 25 ms. */
  pollMs?: number;
  commandTimeoutMs?: number;
  /** A waiting caller that stops asking for this long (a crashed instance) loses its place. Default 3 s. */
  ticketTtlMs?: number;
  onError?: (error: Error) => void;
  /**
   * Deadlines and the sleeps between polls run on it (default the system clock); spacing and leases run on the Redis
   * server's clock, so that instances agree.
   */
  clock?: Clock;
}

// Keys of one host, in the order every script takes them.
const keyNames = ['inflight', 'last', 'queue', 'alive', 'finish', 'virtual', 'penalty', 'seq'] as const;

/** Penalties are remembered this long after an account's last call to the host. */
const penaltyTtlMs = 3_600_000;

/**
 * Start-time fair queuing in one atomic script, on the server's clock (instances with skewed clocks still agree).
 * KEYS: inflight (zset id → lease expiry), last (start/leave time, ms), queue (zset ticket → virtual start tag; the
 * ticket begins with a zero-padded arrival number, so equal tags keep arrival order), alive (zset ticket → expiry of
 * its caller's last poll), finish (hash account → virtual finish), virtual (tag of the last start), penalty (hash
 * account → points), seq (arrival counter).
 * ARGV: ticket ('' on the first call), account, maxInFlight, minIntervalMs, leaseMs, ticketTtlMs, id, maxPenalty.
 * Returns { 'go', ticket } when the request may start now (it is then in flight), else { 'wait', ticket, ahead,
 * spacingLeftMs, full }.
 */
const enterScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local ticket = ARGV[1]
local account = ARGV[2]
local maxInFlight = tonumber(ARGV[3])
local interval = tonumber(ARGV[4])
local leaseMs = tonumber(ARGV[5])
local ticketTtl = tonumber(ARGV[6])
local dead = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for _, d in ipairs(dead) do redis.call('ZREM', KEYS[3], d) end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
if ticket == '' or not redis.call('ZSCORE', KEYS[3], ticket) then
  local virtual = tonumber(redis.call('GET', KEYS[6]) or '0')
  local finish = tonumber(redis.call('HGET', KEYS[5], account) or '0')
  local start = math.max(virtual, finish)
  local penalty = math.min(tonumber(ARGV[8]), tonumber(redis.call('HGET', KEYS[7], account) or '0'))
  redis.call('HSET', KEYS[5], account, start + 1 + penalty)
  local seq = redis.call('INCR', KEYS[8])
  ticket = string.format('%015d', seq) .. ':' .. ARGV[7]
  redis.call('ZADD', KEYS[3], start, ticket)
end
redis.call('ZADD', KEYS[4], now + ticketTtl, ticket)
for i = 3, 6 do redis.call('PEXPIRE', KEYS[i], leaseMs) end
redis.call('PEXPIRE', KEYS[8], leaseMs)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ahead = redis.call('ZRANK', KEYS[3], ticket)
local full = redis.call('ZCARD', KEYS[1]) >= maxInFlight
local spacingLeft = 0
local last = redis.call('GET', KEYS[2])
if last then spacingLeft = math.max(0, tonumber(last) + interval - now) end
if ahead == 0 and (not full) and spacingLeft <= 0 then
  local tag = redis.call('ZSCORE', KEYS[3], ticket)
  redis.call('ZREM', KEYS[3], ticket)
  redis.call('ZREM', KEYS[4], ticket)
  redis.call('ZADD', KEYS[1], now + leaseMs, ticket)
  if redis.call('PTTL', KEYS[1]) < leaseMs then redis.call('PEXPIRE', KEYS[1], leaseMs) end
  redis.call('SET', KEYS[2], string.format('%.3f', now), 'PX', math.max(math.ceil(interval), 1000))
  if redis.call('ZCARD', KEYS[3]) == 0 then
    -- Nobody waits: nothing is owed to anyone, so the virtual clocks start afresh (penalties stay).
    redis.call('DEL', KEYS[5], KEYS[6])
  else
    redis.call('SET', KEYS[6], tag, 'PX', leaseMs)
  end
  return {'go', ticket}
end
return {'wait', ticket, tostring(ahead), string.format('%.3f', spacingLeft), full and '1' or '0'}
`;

/**
 * KEYS as above; ARGV: ticket, minIntervalMs, account, outcome ('success', 'free_failure' or ''), penaltyTtlMs,
 * maxPenalty. Spacing also counts from the end of a response (see host-gate.ts).
 */
const leaveScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZREM', KEYS[1], ARGV[1])
local last = redis.call('GET', KEYS[2])
if (not last) or tonumber(last) < now then
  redis.call('SET', KEYS[2], string.format('%.3f', now), 'PX', math.max(math.ceil(tonumber(ARGV[2])), 1000))
end
if ARGV[4] ~= '' then
  local penalty = tonumber(redis.call('HGET', KEYS[7], ARGV[3]) or '0')
  if ARGV[4] == 'free_failure' then penalty = math.min(tonumber(ARGV[6]), penalty + 1)
  else penalty = math.floor(penalty / 2) end
  if penalty > 0 then redis.call('HSET', KEYS[7], ARGV[3], penalty) else redis.call('HDEL', KEYS[7], ARGV[3]) end
  redis.call('PEXPIRE', KEYS[7], tonumber(ARGV[5]))
end
return 0
`;

/** KEYS as above; ARGV: ticket. A caller who gives up while waiting leaves the queue. */
const cancelScript = `
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 0
`;

type GateRedis = Redis & {
  kumoFairGateEnter(...args: (string | number)[]): Promise<string[]>;
  kumoFairGateLeave(...args: (string | number)[]): Promise<number>;
  kumoFairGateCancel(...args: (string | number)[]): Promise<number>;
};

/**
 * Callers poll their place in a shared fair queue; the queue, spacing and in-flight cap hold across instances. A
 * lease outlives its caller's deadline by a minute and a queued ticket lapses 3 s after its caller stops polling, so
 * a crashed instance frees its slots and places by itself.
 */
export class RedisHostGate implements HostGate {
  readonly #redis: GateRedis;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #pollMs: number;
  readonly #ticketTtlMs: number;
  readonly #clock: Clock;

  /** Connects lazily, on the first call: constructing it opens nothing. */
  constructor(options: RedisHostGateOptions) {
    if (options.redis) {
      this.#redis = options.redis as GateRedis;
      this.#ownsClient = false;
    } else {
      if (!options.url) throw new Error('RedisHostGate needs a url or a client');
      this.#redis = createRedisClient(options.url, {
        commandTimeoutMs: options.commandTimeoutMs,
        onError: options.onError,
      }) as GateRedis;
      this.#ownsClient = true;
    }
    this.#prefix = options.keyPrefix;
    this.#pollMs = options.pollMs ?? 25;
    this.#ticketTtlMs = options.ticketTtlMs ?? 3_000;
    this.#clock = options.clock ?? systemClock;
    const numberOfKeys = keyNames.length;
    this.#redis.defineCommand('kumoFairGateEnter', { numberOfKeys, lua: enterScript });
    this.#redis.defineCommand('kumoFairGateLeave', { numberOfKeys, lua: leaveScript });
    this.#redis.defineCommand('kumoFairGateCancel', { numberOfKeys, lua: cancelScript });
  }

  async enter(
    host: string,
    rule: PolitenessRule,
    deadlineAt: number,
    signal?: AbortSignal,
    accountId: string = anonymousAccount,
  ): Promise<Leave> {
    const keys = keyNames.map((name) => `${this.#prefix}:gate:${host}:${name}`);
    const id = randomUUID();
    // A rule of 0 would stall the host forever; one at a time is the floor.
    const maxInFlight = Math.max(1, Math.floor(rule.maxInFlight));
    let ticket = '';
    const giveUp = () => {
      if (ticket !== '') this.#redis.kumoFairGateCancel(...keys, ticket).catch(() => undefined);
    };
    for (;;) {
      if (signal?.aborted) {
        giveUp();
        throw signal.reason;
      }
      const leaseMs = Math.max(1, Math.ceil(deadlineAt - this.#clock.now())) + 60_000;
      let answer: string[];
      try {
        answer = await this.#redis.kumoFairGateEnter(
          ...keys,
          ticket,
          accountId,
          maxInFlight,
          rule.minIntervalMs,
          leaseMs,
          this.#ticketTtlMs,
          id,
          maxPenalty,
        );
      } catch {
        giveUp();
        // Without the shared gate nobody can tell whether the host may be contacted: refuse rather than guess.
        throw new KumoError('unavailable', 'the politeness store is unreachable; try again shortly', {
          retryAfterSeconds: 5,
        });
      }
      ticket = answer[1]!;
      if (answer[0] === 'go') return this.#leave(keys, ticket, rule.minIntervalMs, accountId);
      const ahead = Number(answer[2]);
      const spacingLeft = Number(answer[3]);
      const full = answer[4] === '1';
      // A lower bound on the wait: what is left of the spacing, then one interval per caller ahead in fair order.
      const estimate = spacingLeft + ahead * rule.minIntervalMs;
      const timeLeft = deadlineAt - this.#clock.now();
      if (estimate > timeLeft || timeLeft <= 0) {
        giveUp();
        throw busy(host, estimate);
      }
      // At the head with only the spacing to wait for: sleep exactly that long; otherwise ask again shortly.
      const wait =
        ahead === 0 && !full && spacingLeft > 0
          ? Math.ceil(spacingLeft)
          : Math.round(this.#pollMs * (0.5 + Math.random()));
      // Each poll keeps the ticket alive for ticketTtlMs only: a longer sleep (a spacing past the TTL, e.g. a large
      // Crawl-delay) would let it lapse, and a peer would drop this caller from its place as if it had crashed. A third
      // of the TTL leaves two thirds of it for this process to be paused (a busy machine, a GC) between polls.
      const maxSleep = Math.max(1, Math.floor(this.#ticketTtlMs / 3));
      try {
        await this.#clock.sleep(Math.min(wait, maxSleep, Math.max(1, timeLeft)), signal);
      } catch (error) {
        giveUp();
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

  #leave(keys: string[], ticket: string, minIntervalMs: number, accountId: string): Leave {
    let left = false;
    return (outcome?: GateOutcome) => {
      if (left) return;
      left = true;
      // If Redis is unreachable the lease stays until its expiry: the host gets less traffic, never more.
      this.#redis
        .kumoFairGateLeave(...keys, ticket, minIntervalMs, accountId, outcome ?? '', penaltyTtlMs, maxPenalty)
        .catch(() => undefined);
    };
  }
}

function busy(host: string, waitMs: number): KumoError {
  return new KumoError('site_busy', `too many requests are waiting for ${host}; try again shortly`, {
    retryAfterSeconds: gateRetryAfterSeconds(waitMs),
  });
}
