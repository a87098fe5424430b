// docs/sites.md is generated from the registry: it must equal what `kumo sites doc` renders now.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './corpus.js';
import { SiteRegistry } from './registry.js';
import { renderSitesDoc } from './sites-doc.js';

describe('docs/sites.md', () => {
  it('is the registry as rendered (regenerate with `npm run -s kumo -- sites doc --write`)', () => {
    const registry = new SiteRegistry();
    const doc = readFileSync(path.join(repoRoot, 'docs/sites.md'), 'utf8');
    expect(doc).toBe(renderSitesDoc(registry));
    for (const site of registry.list())
      for (const entry of site.pageTypes) expect(doc).toContain(`\`${entry.pageType}\` (\`${entry.urlPattern}\`)`);
  });
});
