// What `kumo --help`, `kumo <command> --help` and the "unknown command" error print, from each command's own help.
import { readFileSync } from 'node:fs';

/** A command's help, in `<command>-help.ts` beside the command's own file (loaded without it: decision 0031). */
export interface CommandHelp {
  /** The word after `kumo`. */
  name: string;
  /** One line for `kumo --help`. */
  summary: string;
  /** Each form of the command line, starting `kumo <name>`; a form's further lines are notes on it. */
  usage: readonly string[];
  /** Every option the command takes, as written on the command line, and what it does. */
  options: readonly (readonly [string, string])[];
  /** Command lines that work as written (given the settings the command needs). */
  examples: readonly string[];
}

const indent = '  ';
// The usage forms' notes line up under the arguments, as they always have in `kumo help`.
const noteIndent = ' '.repeat(19);

function usageLines(usage: readonly string[]): string[] {
  return usage.flatMap((form) => form.split('\n').map((line, i) => (i === 0 ? indent : noteIndent) + line.trim()));
}

/** `kumo <command> --help`: usage, options and examples, starting `usage:` like every usage error. */
export function commandHelpText(help: CommandHelp): string {
  const width = Math.max(...help.options.map(([flag]) => flag.length), '-h, --help'.length) + 2;
  const options = [...help.options, ['-h, --help', 'this help'] as const].map(
    ([flag, what]) => `${indent}${flag.padEnd(width)}${what}`,
  );
  return [
    'usage:',
    ...usageLines(help.usage),
    '',
    'options:',
    ...options,
    '',
    help.examples.length === 1 ? 'example:' : 'examples:',
    ...help.examples.map((line) => indent + line),
  ].join('\n');
}

/** `kumo --help`: every command in one line each, in the order they are registered. */
export function globalHelpText(helps: readonly CommandHelp[]): string {
  const width = Math.max(...helps.map((help) => help.name.length)) + 2;
  return [
    'usage:',
    `${indent}kumo <command> [options]`,
    '',
    'commands:',
    ...helps.map((help) => `${indent}${help.name.padEnd(width)}${help.summary}`),
    '',
    'options:',
    `${indent}${'-h, --help'.padEnd(16)}this list; \`kumo <command> --help\` or \`kumo help <command>\`: that command's`,
    `${indent}${''.padEnd(16)}usage, options and an example`,
    `${indent}${'-V, --version'.padEnd(16)}the version of Kumo`,
    '',
    'Output is JSON on stdout (pipe it: `npm run -s kumo -- … | jq`); a mistake goes to stderr with exit status 2.',
  ].join('\n');
}

/** The version in package.json, which ships beside dist/ (this file is src/cli/help.ts or dist/cli/help.js). */
export function kumoVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/** Optimal string alignment distance: edits, with a swap of two neighbours (`kyes`) as one. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/**
 * The candidate nearest to a mistyped word, when it is near enough to be what was meant (a third of its letters,
 * at least one): a suggestion that is a different word altogether only misleads.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || d < best.distance) best = { candidate, distance: d };
  }
  const limit = Math.max(1, Math.floor(word.replace(/^-+/, '').length / 3));
  return best !== undefined && best.distance <= limit ? best.candidate : undefined;
}
