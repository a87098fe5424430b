// `kumo sites new` in a temporary copy of the repository (issue 23 §1): the scaffold writes one folder plus the
// generated index, record and docs/sites.md; right after it the build, the typecheck, lint and the site tests pass.
// The templates are checked here on every CI run, so a change to the toolkit that breaks them fails this test.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/kumo-process.js';

let work: string;
let copy: string;

/** The child's environment without this test run's own (a vitest inside vitest must not think it is a worker). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(VITEST|TINYPOOL|NODE_OPTIONS$|NODE_ENV$)/.test(key)) env[key] = value;
  return env;
}

function run(args: string[], timeout = 300_000): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, args, {
    cwd: copy,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
}
const tool = (script: string) => path.join(repoRoot, 'node_modules', script);
const kumo = (...args: string[]) => run([path.join(copy, 'dist/cli/kumo.js'), ...args]);
/** What a failed step said: the failing tests' names first (a long run's tail is only its summary), then the tail. */
function failure(r: SpawnSyncReturns<string>): string {
  const lines = stripVTControlCharacters(`${r.stdout}\n${r.stderr}`).split('\n');
  const failed = lines.filter((line) => /^\s*(FAIL|×)\s/.test(line)).slice(0, 40);
  return [...failed, '…', ...lines.slice(-40)].join('\n');
}

/** Every file of the copy outside dist/ and node_modules, with its content's hash. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const rel = path.relative(copy, full);
      if (rel === 'dist' || rel === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else files.set(rel, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(copy);
  return files;
}

function changedSince(before: Map<string, string>): string[] {
  const after = snapshot();
  const changed = [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file);
  const removed = [...before.keys()].filter((file) => !after.has(file));
  return [...changed, ...removed].sort();
}

beforeAll(() => {
  // A parent of the copy with no ../shared: the copy runs as a fresh machine without the corpus would.
  work = mkdtempSync(path.join(os.tmpdir(), 'kumo-sites-new-'));
  copy = path.join(work, 'repo');
  mkdirSync(copy);
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' });
  expect(listed.status).toBe(0);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(repoRoot, file))) continue;
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(copy, file));
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  // The build of these very sources, which `npm test` makes before any test (as every e2e file runs it): the copy's
  // own builds come after the scaffold, which compiles the copy itself.
  cpSync(path.join(repoRoot, 'dist'), path.join(copy, 'dist'), { recursive: true });
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('kumo sites new', () => {
  it('refuses what it cannot scaffold, naming why, and writes nothing', () => {
    const before = snapshot();
    const cases: [string[], RegExp][] = [
      [['Zozo-Town', '--host', 'zozo.jp', '--kind', 'commerce', '--page-type', 'item'], /site id "Zozo-Town"/],
      [['ikebe_gakki', '--host', 'x.example.jp', '--kind', 'commerce', '--page-type', 'item'], /already a site/],
      [['zozo', '--host', 'www.ikebe-gakki.com', '--kind', 'commerce', '--page-type', 'item'], /host of ikebe_gakki/],
      [
        ['zozo', '--host', 'https://zozo.jp', '--kind', 'commerce', '--page-type', 'item'],
        /--host "https:\/\/zozo.jp"/,
      ],
      [
        ['zozo', '--host', 'zozo.jp', '--kind', 'shop', '--page-type', 'item'],
        /--kind "shop": one of commerce, public/,
      ],
      [['zozo', '--host', 'zozo.jp', '--kind', 'public', '--page-type', 'table'], /templates exist for item, search/],
      [['zozo', '--host', 'zozo.jp', '--kind', 'commerce', '--page-type', 'item', '--name', "O'Zozo"], /--name/],
      [['zozo', '--host', 'zozo.jp'], /needs ID, --host, --kind and --page-type/],
    ];
    for (const [args, message] of cases) {
      const r = kumo('sites', 'new', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(changedSince(before)).toEqual([]);
  });

  it('scaffolds an item site and a search site: one folder each plus the generated files, then build and site tests pass', () => {
    const before = snapshot();
    const item = kumo(
      'sites',
      'new',
      'zozotown',
      '--host',
      'zozo.jp',
      '--kind',
      'commerce',
      '--page-type',
      'item',
      '--name',
      'ZOZOTOWN',
    );
    expect(item.status, failure(item)).toBe(0);
    expect(JSON.parse(item.stdout)).toMatchObject({ site: 'zozotown', folder: 'src/sites/zozotown' });
    const search = kumo(
      'sites',
      'new',
      'example_mall',
      '--host',
      'www.example-mall.co.jp',
      '--kind',
      'commerce',
      '--page-type',
      'search',
    );
    expect(search.status, failure(search)).toBe(0);

    const changed = changedSince(before);
    const generated = ['docs/sites.md', 'src/sites/catalogue.generated.ts', 'src/sites/verification-record.json'];
    expect(changed.filter((f) => !/^src\/sites\/(zozotown|example-mall)\//.test(f))).toEqual(generated);
    expect(changed).toEqual(
      expect.arrayContaining([
        'src/sites/zozotown/site.ts',
        'src/sites/zozotown/item-extractor.ts',
        'src/sites/zozotown/item-extractor.test.ts',
        'src/sites/zozotown/fixtures/modelled-item.html',
        'src/sites/zozotown/fixtures/modelled-item.meta.json',
        'src/sites/zozotown/fixtures/modelled-item.expected.json',
        'src/sites/example-mall/site.ts',
        'src/sites/example-mall/search-extractor.ts',
      ]),
    );
    const meta = JSON.parse(
      readFileSync(path.join(copy, 'src/sites/zozotown/fixtures/modelled-item.meta.json'), 'utf8'),
    );
    expect(meta).toMatchObject({ source: 'modelled', url: 'https://zozo.jp/item/sample-001' });
    expect(meta.note).toMatch(/^Modelled by `kumo sites new`/);
    const docs = readFileSync(path.join(copy, 'docs/sites.md'), 'utf8');
    expect(docs).toMatch(
      /\| `zozotown` \| ZOZOTOWN \| commerce \| `zozo.jp` \|.*\| experimental \| experimental \| 0 \/ 2 \|/,
    );

    const build = spawnSync('npm', ['run', '-s', 'build'], {
      cwd: copy,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(build.status, failure(build)).toBe(0);
    const typecheck = run([tool('typescript/bin/tsc'), '--noEmit']);
    expect(typecheck.status, failure(typecheck)).toBe(0);
    const lint = run([tool('eslint/bin/eslint.js'), 'src/sites/zozotown', 'src/sites/example-mall']);
    expect(lint.status, failure(lint)).toBe(0);
    const format = run([tool('prettier/bin/prettier.cjs'), '--check', 'src/sites', 'docs/sites.md']);
    expect(format.status, failure(format)).toBe(0);
    const tests = run([tool('vitest/vitest.mjs'), 'run', 'src/sites'], 600_000);
    expect(tests.status, failure(tests)).toBe(0);
    // The new sites' own tests and fixtures were among them.
    const summary = stripVTControlCharacters(tests.stdout);
    expect(summary).toMatch(/src\/sites\/zozotown\/item-extractor\.test\.ts/);
    expect(summary).toMatch(/src\/sites\/example-mall\/search-extractor\.test\.ts/);
  }, 900_000);
});
