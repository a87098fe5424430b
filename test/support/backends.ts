// Where the tests find PostgreSQL and Redis (KUMO_TEST_DATABASE_URL, KUMO_TEST_REDIS_URL), and scratch databases.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../../src/backends/redis-client.js';

/**
 * An admin connection: the tests CREATE and DROP their own uniquely named databases through it, and assume no other
 * database exists. Default: the development machines' trust-auth server.
 */
export const adminDatabaseUrl = process.env.KUMO_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Tests share this server and keep apart by unique key prefixes. */
export const testRedisUrl = process.env.KUMO_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A client of the test Redis made as production makes its own (src/backends/redis-client.ts). */
export function testRedisClient(url = testRedisUrl): Redis {
  return createRedisClient(url);
}

/** Every key under `{prefix}:`, by SCAN (never KEYS, which blocks the server the other tests share). */
export async function redisKeysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes what a test wrote under its prefix, through a client of its own. */
export async function deleteRedisKeysUnder(prefix: string, url = testRedisUrl): Promise<void> {
  const redis = testRedisClient(url);
  try {
    const keys = await redisKeysUnder(redis, prefix);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/** The admin URL with another database name (user, password, host, port and query kept). */
export function databaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops it, closing any connection still open on it. */
  drop(): Promise<void>;
}

/** Runs one statement on the admin connection. */
export async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new empty database named `<prefix>_<random>`, so tests running at the same time never meet. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  if (!/^[a-z][a-z0-9_]*$/.test(prefix)) throw new Error(`database prefix ${prefix} is not a plain identifier`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return { name, url: databaseUrl(name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Where a URL's server listens, for a test proxy placed in front of it. */
export function endpointOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const defaultPort = parsed.protocol.startsWith('redis') ? 6379 : 5432;
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : defaultPort };
}

/** The same URL, connecting through a loopback proxy port instead. */
export function throughPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.href;
}
