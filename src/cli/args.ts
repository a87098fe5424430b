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

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
