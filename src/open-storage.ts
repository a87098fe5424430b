// The configured storage, opened and migrated: part of the composition root that the CLI's account commands use
// alone, without loading the rest of the server (services.ts builds everything else on it).
import { chmod, mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { KyselyStorage } from './storage/kysely/kysely-storage.js';

/**
 * The configured storage, migrated (the CLI's and the server's). Only the configured technology's module is imported
 * here, so the CLI never loads the other driver (the server's other parts import both). `instanceId` owns the
 * reservations it makes.
 */
export async function openStorage(
  config: Readonly<Config>,
  logger?: Logger,
  instanceId?: string,
): Promise<KyselyStorage> {
  // Our own data folder (database, artifacts) is owner-only; an operator's existing folder keeps its mode.
  const created = await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  if (created !== undefined) await chmod(config.dataDir, 0o700);
  const liveness = {
    staleAfterMs: config.liveness.staleAfterMs,
    ...(instanceId === undefined ? {} : { instanceId }),
  };
  const storage =
    config.storage.kind === 'postgres'
      ? await (
          await import('./storage/postgres/postgres-storage.js')
        ).createPostgresStorage({
          url: config.storage.url,
          poolSize: 10,
          connectionTimeoutMs: config.postgres.connectTimeoutMs,
          queryTimeoutMs: config.postgres.queryTimeoutMs,
          idleInTransactionTimeoutMs: config.postgres.idleInTransactionTimeoutMs,
          keepAliveDelayMs: config.postgres.keepAliveDelayMs,
          onIdleError: () => logger?.warn('postgres: a connection failed; the pool replaces it'),
          ...liveness,
        })
      : await (
          await import('./storage/sqlite/sqlite-storage.js')
        ).createSqliteStorage({
          path: config.storage.path,
          busyTimeoutMs: config.storage.busyTimeoutMs,
          staleAfterMs: liveness.staleAfterMs,
          // The log is copied into the file off the event loop (decision 0024).
          checkpointEveryMs: 250,
          onCheckpointFailure: (code) =>
            logger?.warn({ error_code: code }, 'sqlite: a checkpoint on its thread failed; SQLite checkpoints itself'),
          ...(instanceId === undefined ? {} : { holder: instanceId }),
          // The disk refused a flush: charges from now on commit FULL (decision 0017); the operator must look.
          onFlushFailure: (error) =>
            logger?.error(
              { code: 'storage_flush_failed', error_code: (error as NodeJS.ErrnoException).code },
              'sqlite: a flush of the write-ahead log failed; charges now commit with SQLite fsync each',
            ),
        });
  await storage.migrate();
  return storage;
}
