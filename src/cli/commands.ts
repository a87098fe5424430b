// The `kumo` commands (entered through kumo.ts): the one list of commands, and the routing from the command line to
// them (help, version, usage errors and exit statuses). Each command's help is a small file of its own and its
// implementation is imported only when it runs, so that `kumo --help` or a usage error loads a few modules, not the
// server's thousand (the CLI's tests start it about a hundred times).
import { isKumoError } from '../errors.js';
import { UnknownOptionError, UsageError } from './args.js';
import { closest, commandHelpText, globalHelpText, kumoVersion, type CommandHelp } from './help.js';
import { keysHelp } from './keys-help.js';
import { accountsHelp } from './accounts-help.js';
import { batchHelp } from './batch-help.js';
import { monitorsHelp } from './monitors-help.js';
import { mcpHelp } from './mcp-help.js';
import { extractHelp } from './extract-help.js';
import { normalizeHelp } from './normalize-help.js';
import { sitesHelp } from './sites-help.js';
import { originHelp } from './origin-help.js';
import { browserServerHelp } from './browser-server-help.js';

export interface Command {
  /** `help.name` is the command's word, or its words (`sites new`: a subcommand with a file of its own). */
  help: CommandHelp;
  run(args: string[]): Promise<void> | void;
}

/** Every command, in the order `kumo --help` lists them: what is not here does not exist, and has no help. */
export const commands: readonly Command[] = [
  { help: keysHelp, run: async (args) => (await import('./keys-command.js')).keys(args) },
  { help: accountsHelp, run: async (args) => (await import('./accounts-command.js')).accountsCommand(args) },
  { help: batchHelp, run: async (args) => (await import('./client-commands.js')).batch(args) },
  { help: monitorsHelp, run: async (args) => (await import('./client-commands.js')).monitors(args) },
  { help: mcpHelp, run: async (args) => (await import('./mcp-command.js')).mcp(args) },
  { help: extractHelp, run: async (args) => (await import('./extract-command.js')).extract(args) },
  { help: normalizeHelp, run: async (args) => (await import('./normalize-command.js')).normalize(args) },
  { help: sitesHelp, run: async (args) => (await import('./sites-command.js')).sites(args) },
  { help: originHelp, run: async (args) => (await import('./origin-command.js')).origin(args) },
  { help: browserServerHelp, run: async (args) => (await import('./browser-server-command.js')).browserServer(args) },
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
    await report(error);
  }
}

async function report(error: unknown): Promise<void> {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  // The classes of the errors a command's implementation throws come with it: imported here, they are already loaded
  // whenever one of them is what was thrown.
  const [{ ConfigError }, { AccountError }, { ApiError, UnreachableError }] = await Promise.all([
    import('../config/config-error.js'),
    import('../accounts/accounts-service.js'),
    import('./batch-client.js'),
  ]);
  if (error instanceof ConfigError || error instanceof AccountError) {
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
