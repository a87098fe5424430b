// `kumo --help`, each command's own help, --version, unknown commands and options, and snake_case JSON on stdout,
// checked on the registry and on the built CLI (dist/cli/kumo.js: `npm test` builds first).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snakeCase, snakeCaseKeys } from './args.js';
import { commands } from './commands.js';
import { closest, commandHelpText, globalHelpText } from './help.js';
import { runKumo, type CliRun } from '../../test/support/kumo-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-help-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function kumo(...args: string[]): Promise<CliRun> {
  // Only PATH and the data folder: the child's settings are this test's, never the machine's.
  return runKumo(args, { KUMO_DATA_DIR: dataDir });
}

const names = commands.map((command) => command.help.name);

describe('closest', () => {
  it('suggests a near command or option, never a different word altogether', () => {
    const names = ['keys', 'accounts', 'monitors', 'mcp', 'browser-server'];
    expect(closest('kyes', names)).toBe('keys');
    expect(closest('key', names)).toBe('keys');
    expect(closest('monitor', names)).toBe('monitors');
    expect(closest('acounts', names)).toBe('accounts');
    expect(closest('frobnicate', names)).toBeUndefined();
    expect(closest('mc', names)).toBe('mcp');
    expect(closest('x', names)).toBeUndefined();
    expect(closest('--jsno', ['--json', '--account'])).toBe('--json');
    expect(closest('--site', ['--sites'])).toBe('--sites');
  });
});

describe('every registered command has its own help', () => {
  it('names are unique, and the registry holds the commands the README documents', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['keys', 'accounts', 'extract', 'normalize', 'sites', 'origin', 'batch', 'monitors']),
    );
    expect(names).toEqual(expect.arrayContaining(['mcp', 'browser-server']));
  });

  it.each(commands.map((command) => [command.help.name, command.help] as const))(
    '%s: one-line summary, usage forms of this command, every flag of the usage explained, an example',
    (name, help) => {
      expect(help.summary).toMatch(/^\S[^\n]*$/);
      expect(help.usage.length).toBeGreaterThan(0);
      for (const form of help.usage) expect(form.startsWith(`kumo ${name}`), form).toBe(true);
      // The usage and the options are one definition: a flag in one and not the other is drift.
      const flags = (texts: readonly string[]) => new Set(texts.flatMap((text) => text.match(/--[a-z][a-z-]*/g) ?? []));
      expect([...flags(help.usage)].sort()).toEqual([...flags(help.options.map(([flag]) => flag))].sort());
      for (const [flag, what] of help.options) {
        expect(flag).toMatch(/^--[a-z][a-z-]*/);
        expect(what).not.toBe('');
      }
      expect(help.examples.length).toBeGreaterThan(0);
      for (const example of help.examples) expect(example).toContain(`kumo ${name}`);
    },
  );

  it('the global help lists every command on one line, with its summary', () => {
    const text = globalHelpText(commands.map((command) => command.help));
    for (const { help } of commands) {
      const lines = text.split('\n').filter((line) => line.trimStart().startsWith(`${help.name} `));
      expect(lines, help.name).toHaveLength(1);
      expect(lines[0]).toContain(help.summary);
    }
  });
});

describe('the built CLI', () => {
  it.each(names)('kumo %s --help, -h and `kumo help <command>` print its own help on stdout, exit 0', async (name) => {
    const help = commands.find((command) => command.help.name === name)!.help;
    const expected = `${commandHelpText(help)}\n`;
    expect(expected).toMatch(/^usage:\n {2}kumo /);
    expect(expected).toMatch(/\noptions:\n[\s\S]*\nexamples?:\n/);
    for (const args of [
      [name, '--help'],
      [name, '-h'],
      ['help', name],
      [name, help.usage[0]!.split(/\s+/)[2]!, '-h'],
    ]) {
      const run = await kumo(...args);
      expect([run.code, run.err], args.join(' ')).toEqual([0, '']);
      expect(run.out, args.join(' ')).toBe(expected);
      // Its own, not the others': no other command's usage is in it.
      for (const other of names.filter((n) => n !== name && !n.startsWith(`${name}-`)))
        expect(run.out).not.toMatch(new RegExp(`^ {2}kumo ${other}\\b`, 'm'));
    }
  });

  it('kumo --help, -h and help list the commands, one line each', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const run = await kumo(flag);
      expect([run.code, run.err]).toEqual([0, '']);
      expect(run.out).toBe(`${globalHelpText(commands.map((command) => command.help))}\n`);
    }
  });

  it('kumo --version and -V print the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await kumo(flag)).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });

  it.each([
    ['kyes', 'kumo: unknown command "kyes"; did you mean "keys"?\n'],
    ['monitor', 'kumo: unknown command "monitor"; did you mean "monitors"?\n'],
    ['frobnicate', 'kumo: unknown command "frobnicate"\n'],
  ])('an unknown command (%s) is named, with the closest one if close: exit 2', async (word, first) => {
    for (const args of [[word], [word, '--help'], ['help', word]]) {
      const run = await kumo(...args);
      expect([run.code, run.out]).toEqual([2, '']);
      expect(run.err).toBe(`${first}kumo --help lists the commands\n`);
    }
  });

  it('an unknown option is named, with the closest one, and the command whose --help lists its options', async () => {
    let run = await kumo('keys', 'list', '--jsno');
    expect([run.code, run.out]).toEqual([2, '']);
    expect(run.err).toBe(
      'kumo keys: unknown option "--jsno" (did you mean --json?)\nkumo keys --help lists its options\n',
    );
    run = await kumo('normalize', 'price', '--frobnicate', '1');
    expect([run.code, run.out]).toEqual([2, '']);
    expect(run.err).toBe('kumo normalize: unknown option "--frobnicate"\nkumo normalize --help lists its options\n');
    run = await kumo('--verison');
    expect([run.code, run.out]).toEqual([2, '']);
    expect(run.err).toMatch(/^kumo: unknown option "--verison" \(did you mean --version\?\)\n/);
  });
});

/** Every object key in a printed JSON, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)]);
}

describe('every JSON the CLI prints is snake_case, as the API is', () => {
  it('snakeCase and snakeCaseKeys', () => {
    expect(['accountId', 'monthlyCreditLimit', 'sha256', 'key_id', 'id', 'http2Push'].map(snakeCase)).toEqual([
      'account_id',
      'monthly_credit_limit',
      'sha256',
      'key_id',
      'id',
      'http2_push',
    ]);
    expect(snakeCaseKeys({ pageType: 'item', list: [{ idType: 'isbn', at: null }], diff: ['/aB: x'] })).toEqual({
      page_type: 'item',
      list: [{ id_type: 'isbn', at: null }],
      diff: ['/aB: x'],
    });
  });

  it('keys create, list, rotate, revoke; accounts set and approvals; normalize', async () => {
    const json = async (...args: string[]) => {
      const run = await kumo(...args);
      expect(run.code, `${args.join(' ')}: ${run.err}`).toBe(0);
      const printed = JSON.parse(run.out) as unknown;
      for (const key of keysOf(printed)) expect(key, args.join(' ')).toMatch(/^[a-z][a-z0-9_]*$/);
      return printed as Record<string, unknown>;
    };
    const created = await json('keys', 'create', '--plan', 'starter', '--credits', '10', '--json');
    const listed = (await json('keys', 'list', '--json')) as unknown as Record<string, unknown>[];
    expect(listed.find((key) => key.id === created.key_id)).toMatchObject({
      account_id: created.account_id,
      monthly_credit_limit: 10,
      status: 'active',
    });
    const rotated = await json('keys', 'rotate', created.key_id as string, '--json');
    await json('keys', 'revoke', rotated.key_id as string);
    await json('accounts', 'set', '--account', created.account_id as string, '--plan', 'growth', '--json');
    await json('accounts', 'approvals', '--account', created.account_id as string);
    expect(await json('normalize', 'id', '--type', 'isbn', '4-00-416004-9')).toEqual({
      valid: true,
      normalized: '9784004160045',
      id_type: 'isbn',
    });
    await json('normalize', 'price', '1,100円(税別価格1,000円、税100円)');
    await json('normalize', 'date', '平成32年1月1日');
    await json('normalize', 'number', '1万5千人');
    await json('normalize', 'text', 'ｶﾞ');
  });

  it('keys create --key-only prints the key alone on stdout, for KUMO_KEY=$(…)', async () => {
    const run = await kumo('keys', 'create', '--plan', 'free', '--key-only');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^kumo_live_[0-9A-Za-z]+\n$/);
    expect(run.err).toMatch(/^key_id key_\w+\naccount_id acc_\w+\n/);
    const both = await kumo('keys', 'create', '--plan', 'free', '--key-only', '--json');
    expect([both.code, both.out, both.err]).toEqual([2, '', '--json and --key-only are exclusive\n']);
  });
});
