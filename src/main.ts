// Process entry: config → services → app → listen; closes cleanly on SIGTERM/SIGINT.
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
  logger.info({ config: redactedConfig(config) }, 'starting');
  const services = await createServices(config, logger);
  const app = await buildApp(services, {
    logger,
    bodyLimitBytes: config.server.bodyLimitBytes,
    serverLimits: config.serverLimits,
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
