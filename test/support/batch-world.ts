// One batch test world: real Kumo processes (embedded SQLite, or shared PostgreSQL + Redis), a local origin serving item
// pages under real hostnames, and a webhook receiver behind https endpoint hosts, all wired through KUMO_CONNECT_TO.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startKumo, kumoCli, type KumoProcess } from './kumo-process.js';
import { connectToSpec, startOrigin, type Origin } from './origin.js';
import {
  adminDatabaseUrl,
  createScratchDatabase,
  deleteRedisKeysUnder,
  endpointOf,
  testRedisUrl,
  throughPort,
  type ScratchDatabase,
} from './backends.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { answers, startWebhookReceiver, type Answer, type Delivery, type WebhookReceiver } from './webhook-receiver.js';
import { postgresTables, sqliteTables, type Tables } from './batches.js';
import { expireResults } from './batch-expiry.js';

/** Hosts of webhook endpoints in the tests: https URLs whose connections KUMO_CONNECT_TO sends to local listeners. */
export const hookHost = 'hooks.kumo-receiver.example';
/** Mapped to a loopback port where nothing listens: a receiver that never accepts a connection. */
export const deadHookHost = 'down.kumo-receiver.example';

export interface WorldOptions {
  mode: 'sqlite' | 'shared';
  /** Instances to start (shared mode may start several on the same database). */
  instances?: number;
  /** Extra environment for every instance (politeness overrides, liveness timings). */
  env?: Record<string, string>;
  /** Further hosts the origin serves (KUMO_CONNECT_TO entries), besides ikebe-gakki. */
  hosts?: string[];
  /** Shared mode: instances reach PostgreSQL and Redis through TCP proxies the test can cut (outages). */
  proxied?: boolean;
}

export interface BatchWorld {
  mode: 'sqlite' | 'shared';
  instances: KumoProcess[];
  origin: Origin;
  receiver: WebhookReceiver;
  /** The environment every instance got (for a restart or the CLI). */
  env: Record<string, string>;
  tables: Tables;
  /** The proxies in front of PostgreSQL and Redis (`proxied` worlds only). */
  pgProxy: TcpProxy | null;
  redisProxy: TcpProxy | null;
  /** Answers deliveries whose path starts with `prefix` with `policy` (default for other paths: 200). */
  answer(prefix: string, policy: (delivery: Delivery, nth: number) => Answer): void;
  /** The https URL of an endpoint at `path` on the receiver. */
  hookUrl(path: string): string;
  /** A new account with a key of `plan` (all operations). */
  newKey(plan?: 'free' | 'starter' | 'growth', extra?: string[]): Promise<{ key: string; accountId: string }>;
  /** Runs the store's expiry as of `now` (ms since the epoch) against the world's database; returns items expired. */
  expire(now: number): Promise<number>;
  /** Where a plaintext marker could be at rest: every file of every data folder, and a pg_dump in shared mode. */
  atRest(): Promise<{ where: string; bytes: Buffer }[]>;
  /** Starts one more instance on the same backends (embedded: the same data folder). */
  startInstance(extraEnv?: Record<string, string>): Promise<KumoProcess>;
  close(): Promise<void>;
}

const exec = promisify(execFile);

/** A loopback port with nothing listening (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** A marker's plaintext forms: as UTF-8, hex (how pg_dump writes bytea) and base64 at each alignment. */
export function plaintextForms(marker: string): Buffer[] {
  const raw = Buffer.from(marker, 'utf8');
  const forms = [raw, Buffer.from(raw.toString('hex')), Buffer.from(raw.toString('hex').toUpperCase())];
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift, 0x20), raw]).toString('base64');
    // Drop the characters that depend on the padding bytes before and the bytes after.
    const start = Math.ceil((shift * 4) / 3) + 1;
    forms.push(Buffer.from(b64.slice(start, b64.length - 4)));
  }
  return forms;
}

/** Where (of `places`) any plaintext form of `marker` appears. */
export function holding(places: { where: string; bytes: Buffer }[], marker: string): string[] {
  const forms = plaintextForms(marker);
  return places.filter((p) => forms.some((f) => p.bytes.includes(f))).map((p) => p.where);
}

export async function startBatchWorld(options: WorldOptions): Promise<BatchWorld> {
  const origin = await startOrigin();
  const policies: { prefix: string; policy: (delivery: Delivery, nth: number) => Answer; seen: number }[] = [];
  const receiver = await startWebhookReceiver((delivery) => {
    const match = policies.find((p) => delivery.path.startsWith(p.prefix));
    if (!match) return answers.ok;
    return match.policy(delivery, match.seen++);
  });
  const dead = await closedPort();
  const hosts = ['www.ikebe-gakki.com', ...(options.hosts ?? [])];
  let database: ScratchDatabase | null = null;
  const redisPrefix = `kumo-batch-${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = {
    KUMO_CONNECT_TO: connectToSpec({
      ...Object.fromEntries(hosts.map((h) => [h, origin.url])),
      [hookHost]: receiver.url,
      [deadHookHost]: `http://127.0.0.1:${dead}`,
    }),
    // One attempt may take 1 s (the least the setting allows); retries come fast so that a test sees several.
    KUMO_WEBHOOK_TIMEOUT_MS: '1000',
    KUMO_WEBHOOK_RETRY_SCHEDULE_MS: Array.from({ length: 12 }, () => '300').join(','),
    KUMO_SECRETS_KEY: randomBytes(32).toString('base64'),
    ...options.env,
  };
  let pgProxy: TcpProxy | null = null;
  let redisProxy: TcpProxy | null = null;
  if (options.mode === 'shared') {
    database = await createScratchDatabase('kumo_batch');
    let databaseUrl = database.url;
    let redisUrl = testRedisUrl;
    if (options.proxied) {
      pgProxy = await startTcpProxy(endpointOf(adminDatabaseUrl));
      redisProxy = await startTcpProxy(endpointOf(testRedisUrl));
      databaseUrl = throughPort(databaseUrl, pgProxy.port);
      redisUrl = throughPort(redisUrl, redisProxy.port);
    }
    Object.assign(env, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, KUMO_REDIS_KEY_PREFIX: redisPrefix });
  }
  const instances: KumoProcess[] = [];
  const first = await startKumo(env);
  instances.push(first);
  for (let i = 1; i < (options.instances ?? 1); i++) instances.push(await startKumo(env));
  const sqliteFile = path.join(first.dataDir, 'kumo.sqlite');
  const tables = database ? await postgresTables(database.url) : sqliteTables(sqliteFile);
  const target = database
    ? ({ kind: 'postgres', url: database.url } as const)
    : ({ kind: 'sqlite', path: sqliteFile } as const);

  return {
    mode: options.mode,
    instances,
    origin,
    receiver,
    env,
    tables,
    pgProxy,
    redisProxy,
    answer(prefix, policy) {
      policies.unshift({ prefix, policy, seen: 0 });
    },
    hookUrl: (p) => `https://${hookHost}${p}`,
    async newKey(plan = 'starter', extra = []) {
      const created = await kumoCli(first.dataDir, ['keys', 'create', '--plan', plan, ...extra, '--json'], env);
      return { key: created.key as string, accountId: created.account_id as string };
    },
    expire: (now) => expireResults(target, now),
    async atRest() {
      const places: { where: string; bytes: Buffer }[] = [];
      const dirs = [...new Set(instances.map((k) => k.dataDir))];
      for (const dir of dirs)
        for (const file of await filesUnder(dir)) places.push({ where: file, bytes: await readFile(file) });
      if (database) {
        const { stdout } = await exec('pg_dump', ['--no-owner', database.url], {
          maxBuffer: 512 * 1024 * 1024,
          encoding: 'buffer',
        });
        places.push({ where: `pg_dump ${database.name}`, bytes: stdout });
      }
      for (const [i, k] of instances.entries())
        places.push({ where: `log of instance ${i}`, bytes: Buffer.from(k.output()) });
      return places;
    },
    async startInstance(extraEnv = {}) {
      const k = await startKumo({ ...env, ...extraEnv }, database ? {} : { dataDir: first.dataDir });
      instances.push(k);
      return k;
    },
    async close() {
      for (const k of instances) await k.stop().catch(() => undefined);
      await tables.close();
      for (const dir of new Set(instances.map((k) => k.dataDir)))
        await instances.find((k) => k.dataDir === dir)!.cleanup();
      await receiver.close();
      await origin.close();
      await pgProxy?.close();
      await redisProxy?.close();
      if (database) {
        await database.drop();
        await deleteRedisKeysUnder(redisPrefix);
      }
    },
  };
}
