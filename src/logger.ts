// The pino logger: JSON lines to stdout, with the places a secret could hide redacted.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Stdout by default (the server); the CLI passes stderr, so its JSON answers on stdout stay parseable. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions<never> = {
    level,
    base: { service: 'kumo' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'authorization',
        'key',
        'secret',
        '*.key',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
