// What every `kumo` command shares: strict option parsing, the usage error (exit 2), and JSON output on stdout.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line that cannot be honoured as written: the message goes to stderr, exit status 2. */
export class UsageError extends Error {}

/** parseArgs, with its own errors (unknown option, missing or dash-led value) as usage errors, and no empty values. */
export function parse<T extends ParseArgsConfig['options']>(args: string[], options: T, allowPositionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : 'invalid arguments');
  }
  // `--sites ""` (an unset shell variable) is a mistake, never "no value": refuse it rather than default silently.
  for (const [name, value] of Object.entries(parsed.values))
    if (value === '') throw new UsageError(`--${name} needs a value`);
  return parsed;
}

/**
 * The API's rule for a caller's `ref` (a batch item's, a monitor target's): printable text, no control characters
 * (C0, DEL, C1, line and paragraph separators), at most 128 characters. Checked before sending, so that the mistake is
 * named with its line or flag rather than as a schema pattern.
 */
export function isValidRef(ref: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]+$/u.test(ref) && [...ref].length <= 128;
}

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
