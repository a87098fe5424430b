// docs/sites.md lists every site and page type of the catalogue, with the level the site declares.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './corpus.js';
import { SiteRegistry } from './registry.js';

const doc = readFileSync(path.join(repoRoot, 'docs/sites.md'), 'utf8');
// Table rows of the catalogue: | site id | site | hosts | page type | URL pattern | declared | verified by |
const rows = doc
  .split('\n')
  .filter((line) => line.startsWith('|'))
  .map((line) => line.split('|').map((cell) => cell.trim()))
  .filter((cells) => /^`[a-z_]+`$/.test(cells[4] ?? ''))
  .map((cells) => [cells[1]!.replace(/`/g, ''), cells[4]!.replace(/`/g, ''), cells[6]!] as const);

describe('docs/sites.md', () => {
  it('has one row per page type, with its declared coverage', () => {
    let site = '';
    const documented = rows.map(([id, pageType, declared]) => {
      site = id || site;
      return `${site} ${pageType} ${declared}`;
    });
    const catalogue = new SiteRegistry()
      .list()
      .flatMap((s) => s.pageTypes.map((e) => `${s.id} ${e.pageType} ${e.declaredCoverage ?? e.coverage}`));
    expect(catalogue.length).toBeGreaterThan(3);
    expect(documented).toEqual(catalogue);
  });
});
