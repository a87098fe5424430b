// The pino logger: JSON lines to stdout, with the places a secret could hide redacted.
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
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
  });
}
