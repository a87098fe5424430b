// `npm start`'s prestart in a source tree: refuses an old Node in one line, then builds when dist/ has no finished build
// or is older than its sources, and never otherwise, so a built tree starts at once and a deployment without
// TypeScript starts the build it has. Plain JavaScript (.mjs), not TypeScript: it is the first thing `npm start` runs,
// so it must load on the old Node it refuses, which cannot strip types.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

// The same line as src/node-version.ts (which this file cannot import: it is TypeScript); src/prestart.test.ts keeps
// the two equal.
const requiredNodeMajor = 24;
const major = Number(/^v?(\d+)\./.exec(process.version)?.[1] ?? NaN);
if (!(major >= requiredNodeMajor)) {
  process.stderr.write(
    `kumo: needs Node ${requiredNodeMajor} or later, and this is Node ${process.version.replace(/^v/, '')}: ` +
      `run it with Node ${requiredNodeMajor} (\`npm start\` uses the one npm installed with the project)\n`,
  );
  process.exit(1);
}

/** The project folder: this file is `<root>/src/prestart.mjs`, run from source. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The last file a successful `npm run build` writes (dist/sites/ship-record.js), so its time is the build's. */
const finished = path.join(root, 'dist/sites/verification-record.json');
/** What the build reads: a change to any of them makes dist/ stale. */
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * The most recently changed file under `file` (itself when a file), or null when nothing is there.
 * @param {string} file
 * @returns {{ file: string; mtimeMs: number } | null}
 */
function newest(file) {
  if (!existsSync(file)) return null;
  const stat = statSync(file);
  if (!stat.isDirectory()) return { file, mtimeMs: stat.mtimeMs };
  /** @type {{ file: string; mtimeMs: number } | null} */
  let best = null;
  for (const name of readdirSync(file)) {
    const found = newest(path.join(file, name));
    if (found && (!best || found.mtimeMs > best.mtimeMs)) best = found;
  }
  return best;
}

/**
 * Why dist/ needs a build, or null when it is current.
 * @returns {string | null}
 */
function staleReason() {
  if (!existsSync(finished)) return 'dist/ holds no finished build';
  const builtAt = statSync(finished).mtimeMs;
  for (const input of inputs) {
    const changed = newest(path.join(root, input));
    if (changed && changed.mtimeMs > builtAt)
      return `${path.relative(root, changed.file)} changed since the last build`;
  }
  return null;
}

function hasTypeScript() {
  try {
    createRequire(path.join(root, 'package.json')).resolve('typescript');
    return true;
  } catch {
    return false;
  }
}

const reason = staleReason();
if (reason !== null) {
  if (hasTypeScript()) {
    process.stderr.write(`kumo: building (${reason})\n`);
    process.exit(spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' }).status ?? 1);
  }
  if (!existsSync(path.join(root, 'dist/main.js'))) {
    process.stderr.write(`kumo: ${reason} and TypeScript is not installed: run \`npm ci\` then \`npm run build\`\n`);
    process.exit(1);
  }
  process.stderr.write(`kumo: ${reason}, but TypeScript is not installed: starting the build in dist/ as it is\n`);
}
