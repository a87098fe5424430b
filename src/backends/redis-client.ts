// The one way Kumo makes an ioredis client: the composition root, the Redis limiter and gate, and the tests.
import { Redis } from 'ioredis';

export interface RedisClientOptions {
  /** Bound on each command and on each connect attempt (default 2 s). */
  commandTimeoutMs?: number;
  /** Each connection error (ioredis reports one per failed reconnect); the commands fail on their own as well. */
  onError?: (error: Error) => void;
}

/**
 * A client that connects on its first command (constructing it opens nothing) and fails fast while Redis is down, so
 * a caller answers 503 rather than queueing calls unmetered: one retry per command, and reconnects at most 0.5 s
 * apart (ioredis's default backoff grows to 2 s, which made each refusal during an outage slower than the last).
 */
export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis {
  const timeoutMs = options.commandTimeoutMs ?? 2_000;
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times: number) => Math.min(times * 50, 500),
  });
  // Always listened to: an 'error' event without a listener would end the process.
  client.on('error', (error: Error) => options.onError?.(error));
  return client;
}
