// The `kumo` commands (entered through kumo.ts): the one list of commands, each in its own file with its help, and the
// routing from the command line to them (help, version, usage errors and exit statuses).
import { ConfigError } from '../config.js';
import { AccountError } from '../accounts/accounts-service.js';
import { isKumoError } from '../errors.js';
import { UnknownOptionError, UsageError } from './args.js';
import { closest, commandHelpText, globalHelpText, kumoVersion, type CommandHelp } from './help.js';
import { ApiError, UnreachableError } from './batch-client.js';
import { batchHelp } from './batch-command.js';
import { monitorsHelp } from './monitors-command.js';
import { keys, keysHelp } from './keys-command.js';
import { accountsCommand, accountsHelp } from './accounts-command.js';
import { batch, monitors } from './client-commands.js';
import { mcp, mcpHelp } from './mcp-command.js';
import { extract, extractHelp } from './extract-command.js';
import { normalize, normalizeHelp } from './normalize-command.js';
import { sites, sitesHelp } from './sites-command.js';
import { origin, originHelp } from './origin-command.js';
import { browserServer, browserServerHelp } from './browser-server-command.js';

export interface Command {
  /** `help.name` is the command's word, or its words (`sites new`: a subcommand with a file of its own). */
  help: CommandHelp;
  run(args: string[]): Promise<void> | void;
}

/** Every command, in the order `kumo --help` lists them: what is not here does not exist, and has no help. */
export const commands: readonly Command[] = [
  { help: keysHelp, run: keys },
  { help: accountsHelp, run: accountsCommand },
  { help: batchHelp, run: batch },
  { help: monitorsHelp, run: monitors },
  { help: mcpHelp, run: mcp },
  { help: extractHelp, run: extract },
  { help: normalizeHelp, run: normalize },
  { help: sitesHelp, run: sites },
  { help: originHelp, run: origin },
  { help: browserServerHelp, run: browserServer },
];

/**
 * The command a command line names and the arguments after its name: the longest registered name its first words
 * spell, so that a subcommand registered on its own (`sites new`) is found before its family (`sites`).
 */
export function commandFor(
  words: readonly string[],
  registry: readonly Command[] = commands,
): { command: Command; args: string[] } {
  let found: { command: Command; length: number } | undefined;
  for (const command of registry) {
    const name = command.help.name.split(' ');
    if (name.every((word, i) => words[i] === word) && name.length > (found?.length ?? 0))
      found = { command, length: name.length };
  }
  if (found) return { command: found.command, args: words.slice(found.length) };
  const first = words[0] ?? '';
  const near = closest(
    first,
    registry.map((c) => c.help.name),
  );
  throw new UsageError(
    `kumo: unknown command "${first}"${near !== undefined ? `; did you mean "${near}"?` : ''}\n` +
      'kumo --help lists the commands',
  );
}

const globalHelp = () => globalHelpText(commands.map((c) => c.help));

/**
 * `kumo --help` and `kumo help` list the commands; `kumo <command> --help` (or `-h` anywhere before a `--`) and
 * `kumo help <command>` print that command's own help. Help goes to stdout with exit 0: asking is not an error.
 */
async function run(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(globalHelp());
  if (first === '--version' || first === '-V') {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]} after ${first}`);
    process.stdout.write(`${kumoVersion()}\n`);
    return;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    const words = rest.filter((arg) => !arg.startsWith('-'));
    process.stdout.write(`${words.length === 0 ? globalHelp() : commandHelpText(commandFor(words).command.help)}\n`);
    return;
  }
  if (first.startsWith('-')) {
    const near = closest(first, ['--help', '-h', '--version', '-V']);
    throw new UsageError(
      `kumo: unknown option "${first}"${near !== undefined ? ` (did you mean ${near}?)` : ''}\n` +
        'kumo --help lists the commands',
    );
  }
  const { command, args } = commandFor(argv);
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`${commandHelpText(command.help)}\n`);
    return;
  }
  try {
    await command.run(args);
  } catch (error) {
    // Named with its command, and where to find the options it does take.
    const name = command.help.name;
    if (error instanceof UnknownOptionError)
      error.message = `kumo ${name}: ${error.message}\nkumo ${name} --help lists its options`;
    throw error;
  }
}

/** The process's command line to its output and exit status (kumo.ts calls it after the Node version check). */
export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error: unknown) {
    report(error);
  }
}

function report(error: unknown): void {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof AccountError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof ApiError) {
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof UnreachableError) {
    process.stderr.write(`kumo: ${error.message}\n`);
    process.exitCode = 1;
  } else if (isKumoError(error)) {
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`kumo: ${error instanceof Error ? error.message : 'failed'}\n`);
    process.exitCode = 1;
  }
}
