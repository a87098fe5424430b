// The site list is generated from the folders: the committed catalogue.generated.ts must be what they generate now,
// and every folder with a site.ts is served.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './corpus.js';
import { exportNameOf, renderCatalogueIndex, siteFolders } from './catalogue-index.js';
import { SiteRegistry } from './registry.js';

const sitesDir = path.join(repoRoot, 'src', 'sites');

describe('catalogue.generated.ts', () => {
  it('is what the folders generate (regenerate with `npm run -s kumo -- sites index --write`)', () => {
    const committed = readFileSync(path.join(sitesDir, 'catalogue.generated.ts'), 'utf8');
    expect(committed).toBe(renderCatalogueIndex(siteFolders(sitesDir)));
  });

  it('serves one site per folder, and no site without a folder', () => {
    const folders = siteFolders(sitesDir).map((f) => f.folder);
    expect(folders.length).toBeGreaterThanOrEqual(20);
    const ids = new SiteRegistry().list().map((site) => site.id);
    // A site's id is its folder's name in snake_case.
    expect([...ids].sort()).toEqual(folders.map((f) => f.replaceAll('-', '_')).sort());
  });

  it('names exports after their folders', () => {
    expect(exportNameOf('ikebe-gakki')).toBe('ikebeGakki');
    expect(exportNameOf('rakuten-webservice')).toBe('rakutenWebservice');
    expect(exportNameOf('kabuoji3')).toBe('kabuoji3');
  });
});
