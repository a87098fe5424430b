// The registry's routing: a command line goes to the longest registered name its first words spell, so a subcommand
// with a file of its own (`sites new`) can be one more entry in the list without touching its family's code.
import { describe, expect, it } from 'vitest';
import { commandFor, commands, type Command } from './commands.js';
import type { CommandHelp } from './help.js';
import { UsageError } from './args.js';

const help = (name: string): CommandHelp => ({
  name,
  summary: name,
  usage: [`kumo ${name}`],
  options: [],
  examples: [],
});
const family: Command = { help: help('sites'), run: () => undefined };
const sub: Command = { help: help('sites new'), run: () => undefined };
const registry = [family, sub];

describe('commandFor', () => {
  it('finds a one-word command and hands it the words after its name', () => {
    const { command, args } = commandFor(['keys', 'list', '--json']);
    expect(command.help.name).toBe('keys');
    expect(args).toEqual(['list', '--json']);
    expect(commands.map((c) => commandFor([c.help.name]).command)).toEqual(commands);
  });

  it('prefers the longest registered name: `sites new` before `sites`, whatever the order of the list', () => {
    for (const list of [registry, [...registry].reverse()]) {
      expect(commandFor(['sites', 'new', 'x.example'], list)).toEqual({ command: sub, args: ['x.example'] });
      expect(commandFor(['sites', 'verify', '--json'], list)).toEqual({ command: family, args: ['verify', '--json'] });
      expect(commandFor(['sites', '--help', 'new'], list)).toEqual({ command: family, args: ['--help', 'new'] });
    }
  });

  it('refuses an unknown command with the nearest name', () => {
    expect(() => commandFor(['kyes', 'list'])).toThrow(UsageError);
    expect(() => commandFor(['kyes', 'list'])).toThrow('did you mean "keys"?');
    expect(() => commandFor(['frobnicate'])).toThrow(/^kumo: unknown command "frobnicate"\n/);
  });
});
