// Keeps the import rules of docs/architecture.md true: src/ breaks none, and the table names every folder of src/.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './support/kumo-process.js';

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

describe('docs/architecture.md, Folders', () => {
  it('src/ imports only what each folder may use, with no cycles (the check `npm run lint` runs)', () => {
    const cli = path.join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
    const json = execFileSync(
      process.execPath,
      [cli, 'src', '--config', '.dependency-cruiser.mjs', '--output-type', 'json'],
      { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    const { summary } = JSON.parse(json) as { summary: { violations: Violation[] } };
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('has a row for every folder and top-level module of src/', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
    const rows = new Set([...doc.matchAll(/^\| `(src\/[^`]+)`/gm)].map((m) => m[1]));
    const entries = readdirSync(path.join(repoRoot, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || !e.name.endsWith('.test.ts'))
      .map((e) => (e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`));
    expect(entries.filter((entry) => !rows.has(entry))).toEqual([]);
  });
});
