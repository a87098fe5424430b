// The error of a configuration that cannot start Kumo, and its message listing every problem at once.
import type { TSchema } from 'typebox';
import Value from 'typebox/value';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One line per problem, so that a start with several mistakes names them all (exit status 2, main.ts). */
export function invalidConfigurationMessage(problems: readonly string[]): string {
  if (problems.length === 1) return `invalid configuration: ${problems[0]}`;
  return `invalid configuration (${problems.length} problems):\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}

/**
 * What a variable must be, from its schema: the allowed values of an enumeration, the range of a number. The value
 * given is never repeated (some variables hold credentials).
 */
export function expectation(schema: unknown, value: unknown): string {
  const s = schema as {
    anyOf?: { const?: unknown }[];
    type?: string;
    minimum?: number;
    maximum?: number;
  };
  if (s.anyOf && s.anyOf.every((branch) => 'const' in branch)) {
    return `must be one of: ${s.anyOf.map((branch) => String(branch.const)).join(', ')}`;
  }
  if (s.type === 'integer') {
    const range = s.maximum === undefined ? `of at least ${s.minimum ?? 0}` : `from ${s.minimum ?? 0} to ${s.maximum}`;
    return `must be a whole number ${range}`;
  }
  if (s.type === 'boolean') return 'must be true or false';
  const last = [...Value.Errors(schema as TSchema, value)].at(-1);
  return last?.message ?? 'is invalid';
}
