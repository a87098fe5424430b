// What every `kumo` command shares: strict option parsing, the usage error (exit 2), and JSON output on stdout.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from './help.js';

/** A command line that cannot be honoured as written: the message goes to stderr, exit status 2. */
export class UsageError extends Error {}

/** An option the command does not take; the entry adds which command's `--help` lists the ones it does. */
export class UnknownOptionError extends UsageError {
  constructor(readonly option: string) {
    super(`unknown option "${option}"`);
  }
}

/** The option parseArgs refused, named in our words and with the nearest option the command takes. */
function unknownOption(error: unknown, options: ParseArgsConfig['options']): UnknownOptionError | null {
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return null;
  const option = /'([^']+)'/.exec((error as Error).message)?.[1];
  if (option === undefined) return null;
  const known = Object.entries(options ?? {}).flatMap(([name, o]) => [
    `--${name}`,
    ...(o.short !== undefined ? [`-${o.short}`] : []),
  ]);
  const unknown = new UnknownOptionError(option);
  const near = closest(option.replace(/=.*$/, ''), known);
  if (near !== undefined) unknown.message += ` (did you mean ${near}?)`;
  return unknown;
}

/** parseArgs, with its own errors (unknown option, missing or dash-led value) as usage errors, and no empty values. */
export function parse<T extends ParseArgsConfig['options']>(args: string[], options: T, allowPositionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw unknownOption(error, options) ?? new UsageError(error instanceof Error ? error.message : 'invalid arguments');
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

/** `accountId` → `account_id`: the API's spelling, which every JSON the CLI prints keeps too. */
export function snakeCase(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, (_, letter: string) => `_${letter.toLowerCase()}`);
}

/**
 * A copy of `value` with every object key in snake_case, for printing the service layer's own records (camelCase in
 * TypeScript). Never for what the API returns as data (an extraction's fields are named by the page), only records.
 */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), snakeCaseKeys(item)]));
}

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A comma-separated list; every item non-empty and, when `allowed` is given, one of those. */
export function list<T extends string>(
  value: string | undefined,
  name: string,
  allowed?: readonly T[],
): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim());
  if (items.some((item) => item === ''))
    throw new UsageError(`--${name} needs a comma-separated list without empty items`);
  for (const item of items)
    if (allowed && !allowed.includes(item as T))
      throw new UsageError(`--${name}: unknown value ${item} (one of ${allowed.join(', ')})`);
  return items as T[];
}

export function int(value: string | undefined, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}`);
  return n;
}
