// `npm start`'s build step decides from the files alone: it builds a tree with no finished build or with sources newer
// than it, leaves a built tree alone (no 7 s recompile), and never builds without TypeScript when dist/ is there; on
// an old Node (the system's Node 20) it refuses in the one line the entries print.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.js';

const repoRoot = path.resolve(import.meta.dirname, '..');
let tree: string;

/** The build here stands in for tsc + ship-record: it counts its runs and writes what a finished build leaves. */
const build = [
  "const fs = require('node:fs');",
  "fs.mkdirSync('dist/sites', { recursive: true });",
  "fs.writeFileSync('dist/main.js', '');",
  "fs.appendFileSync('builds', 'x');",
  "fs.writeFileSync('dist/sites/verification-record.json', '{}');",
].join(' ');

beforeEach(async () => {
  tree = await mkdtemp(path.join(os.tmpdir(), 'kumo-prestart-'));
  await writeFile(
    path.join(tree, 'package.json'),
    JSON.stringify({ type: 'module', scripts: { build: `node -e "${build}"` } }),
  );
  await mkdir(path.join(tree, 'src'));
  await copyFile(path.join(repoRoot, 'src/prestart.mjs'), path.join(tree, 'src/prestart.mjs'));
  await writeFile(path.join(tree, 'src/server.ts'), 'export {};\n');
  await writeFile(path.join(tree, 'tsconfig.json'), '{}\n');
  await writeFile(path.join(tree, 'tsconfig.build.json'), '{}\n');
  // Written ten minutes ago: older than any build below, so only what a test changes is newer.
  const before = new Date(Date.now() - 600_000);
  for (const file of ['src/prestart.mjs', 'src/server.ts', 'tsconfig.json', 'tsconfig.build.json', 'src'])
    await utimes(path.join(tree, file), before, before);
  // The project's own node_modules: TypeScript is installed, as after `npm ci`.
  await symlink(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
});

afterEach(async () => {
  await rm(tree, { recursive: true, force: true });
});

function prestart(node = process.execPath) {
  const run = spawnSync(node, [path.join(tree, 'src/prestart.mjs')], {
    cwd: tree,
    encoding: 'utf8',
  });
  return { code: run.status, stderr: run.stderr };
}

const builds = () =>
  existsSync(path.join(tree, 'builds')) ? readFileSync(path.join(tree, 'builds'), 'utf8').length : 0;

/** Marks a file as changed after the last build: the build two minutes ago, the file one minute ago. */
async function change(file: string) {
  const now = Date.now();
  const built = path.join(tree, 'dist/sites/verification-record.json');
  if (existsSync(built)) await utimes(built, new Date(now - 120_000), new Date(now - 120_000));
  await utimes(path.join(tree, file), new Date(now - 60_000), new Date(now - 60_000));
}

describe('npm start’s build step (src/prestart.mjs)', () => {
  it('builds a fresh clone (no dist/), then leaves the built tree alone', () => {
    const first = prestart();
    expect(first).toEqual({ code: 0, stderr: 'kumo: building (dist/ holds no finished build)\n' });
    expect(builds()).toBe(1);
    expect(prestart()).toEqual({ code: 0, stderr: '' });
    expect(prestart()).toEqual({ code: 0, stderr: '' });
    expect(builds()).toBe(1);
  });

  it('rebuilds when a source changed after the build', async () => {
    prestart();
    await change('src/server.ts');
    expect(prestart()).toEqual({ code: 0, stderr: 'kumo: building (src/server.ts changed since the last build)\n' });
    expect(builds()).toBe(2);
    expect(prestart().stderr).toBe('');
  });

  it('rebuilds when a tsconfig changed after the build', async () => {
    prestart();
    await change('tsconfig.build.json');
    expect(prestart().stderr).toBe('kumo: building (tsconfig.build.json changed since the last build)\n');
    expect(builds()).toBe(2);
  });

  it('rebuilds a build that did not finish (no verification record shipped)', async () => {
    prestart();
    await rm(path.join(tree, 'dist/sites/verification-record.json'));
    expect(prestart().stderr).toBe('kumo: building (dist/ holds no finished build)\n');
    expect(builds()).toBe(2);
  });

  it('without TypeScript (npm ci --omit=dev) starts the build in dist/ as it is, even when sources are newer', async () => {
    prestart();
    await rm(path.join(tree, 'node_modules'));
    await change('src/server.ts');
    expect(prestart()).toEqual({
      code: 0,
      stderr:
        'kumo: src/server.ts changed since the last build, but TypeScript is not installed: starting the build in dist/ as it is\n',
    });
    expect(builds()).toBe(1);
  });

  it('without TypeScript and without a build, refuses in one line', async () => {
    await rm(path.join(tree, 'node_modules'));
    expect(prestart()).toEqual({
      code: 1,
      stderr:
        'kumo: dist/ holds no finished build and TypeScript is not installed: run `npm ci` then `npm run build`\n',
    });
    expect(builds()).toBe(0);
  });

  it('is what npm start runs before the server, only where the source tree is', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.prestart).toBe('test ! -f src/prestart.mjs || node src/prestart.mjs');
    // The script is run from source, not shipped: tsc takes no JavaScript, so a deployment of dist/ has nothing to build.
    expect(readFileSync(path.join(repoRoot, 'tsconfig.json'), 'utf8')).not.toContain('allowJs');
  });

  // The system's Node, older than the project's (npm's scripts run the Node 24 installed in node_modules).
  const systemNode = '/usr/bin/node';
  const systemVersion = existsSync(systemNode)
    ? spawnSync(systemNode, ['--version'], { encoding: 'utf8' }).stdout.trim()
    : null;
  const oldNode = systemVersion !== null && nodeVersionProblem(systemVersion) !== null;

  it.skipIf(!oldNode)(
    `refuses an old Node (${systemVersion}) in the entries' one line, before building anything`,
    () => {
      expect(prestart(systemNode)).toEqual({ code: 1, stderr: `${nodeVersionProblem(systemVersion!)}\n` });
      expect(builds()).toBe(0);
    },
  );
});
