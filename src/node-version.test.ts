// The entries' one-line refusal of an older Node, and that it agrees with package.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, requiredNodeMajor } from './node-version.js';

describe('the Node version check of the entries', () => {
  it('requires the major package.json requires and installs', () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as {
      engines: { node: string };
      dependencies: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${requiredNodeMajor}`);
    expect(pkg.dependencies.node).toMatch(new RegExp(`^\\^${requiredNodeMajor}\\.`));
  });

  it('accepts that major and later, refuses earlier ones in one line naming both', () => {
    for (const ok of ['24.0.0', '24.21.0', 'v25.1.0', '30.0.0-pre']) expect(nodeVersionProblem(ok), ok).toBeNull();
    for (const old of ['20.20.2', '22.13.0', 'v23.11.1', '8.0.0']) {
      const problem = nodeVersionProblem(old);
      expect(problem).toContain(`Node ${old.replace(/^v/, '')}`);
      expect(problem).toContain('needs Node 24 or later');
      expect(problem).not.toContain('\n');
    }
    expect(nodeVersionProblem('not a version')).not.toBeNull();
  });
});
