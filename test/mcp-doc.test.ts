// docs/mcp.md stays true to the code: its tool table names exactly the tools, and every JSON snippet parses.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../src/mcp/tools.js';
import { defaultOutputCapChars } from '../src/mcp/output-cap.js';
import { repoRoot } from './support/kumo-process.js';

const doc = readFileSync(path.join(repoRoot, 'docs/mcp.md'), 'utf8');

describe('docs/mcp.md', () => {
  it('lists exactly the tools the server registers', () => {
    const section = doc.slice(doc.indexOf('## Tools'), doc.indexOf('## Errors'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)`/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(toolSpecs.map((spec) => spec.name).sort());
  });

  it('has configuration snippets that are valid JSON', () => {
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) expect(() => JSON.parse(block) as unknown).not.toThrow();
  });

  it('states the output cap the code applies', () => {
    expect(doc).toContain(`**${defaultOutputCapChars.toLocaleString('en-US')} characters**`);
  });
});
