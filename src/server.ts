// The server process: config → services → app → listen; closes cleanly on SIGTERM/SIGINT (entered through main.ts).
import { ConfigError, loadConfigFromProcess, redactedConfig } from './config.js';
import { createLogger } from './logger.js';
import { createServices } from './services.js';
import { buildApp } from './http/app.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfigFromProcess();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`kumo: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.log.level);
  // Last resort, not the plan: backend errors are handled where they happen (storage and limits classify them, pg
  // clients and the Redis client have 'error' listeners), and the outage tests check these lines never appear.
  // A lost rejection leaves no state half-changed, so the process logs it and serves on; a thrown exception may
  // have, so the process stops (its reservations and slots come back through the liveness sweep).
  process.on('unhandledRejection', (reason) => {
    const e = reason instanceof Error ? (reason as Error & { code?: unknown }) : null;
    logger.error({ error_name: e?.name, error_code: e?.code }, 'unhandled rejection');
  });
  process.on('uncaughtException', (error: Error & { code?: unknown }) => {
    logger.fatal({ error_name: error.name, error_code: error.code }, 'uncaught exception; exiting');
    process.exit(1);
  });
  logger.info({ config: redactedConfig(config) }, 'starting');
  const services = await createServices(config, logger);
  const app = await buildApp(services, {
    logger,
    bodyLimitBytes: config.server.bodyLimitBytes,
    serverLimits: config.serverLimits,
    trustProxy: config.trustProxy,
    mcpAllowedOrigins: config.mcp.allowedOrigins,
  });
  const address = await app.listen({ host: config.server.host, port: config.server.port });
  logger.info({ address }, 'listening');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // In-flight calls finish (their credits settle) before connections close.
    void app
      .close()
      .then(() => services.close())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`kumo: failed to start: ${error instanceof Error ? error.message : 'unknown error'}\n`);
  process.exit(1);
});
