// The scaffold's pure parts: what it refuses, how templates render, and how one site's entries join the record.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './corpus.js';
import { readTemplates, renderScaffold, scaffoldPageTypes, scaffoldProblems, writeScaffold } from './scaffold.js';
import { toRecord, withSiteRecorded, type FixtureResult } from './verification.js';

const sitesDir = path.join(repoRoot, 'src', 'sites');
// A catalogue of its own, not the live one: the scaffold e2e test runs these tests in a copy that holds new sites.
const existing = {
  sites: [
    { id: 'mercari', hosts: ['jp.mercari.com'] },
    { id: 'ikebe_gakki', hosts: ['www.ikebe-gakki.com'] },
  ],
  sitesDir: mkdtempSync(path.join(os.tmpdir(), 'kumo-scaffold-sites-')),
};
mkdirSync(path.join(existing.sitesDir, 'old-site'));
afterAll(() => rmSync(existing.sitesDir, { recursive: true, force: true }));
const ok = {
  id: 'zozo_town',
  host: 'zozo.jp',
  kind: 'commerce',
  pageType: 'item',
  name: 'ZOZOTOWN',
  today: '2026-11-28',
};

describe('scaffoldProblems', () => {
  it('accepts a new id, host, kind and a page type with templates', () => {
    expect(scaffoldProblems(ok, existing)).toEqual([]);
    expect(scaffoldProblems({ ...ok, kind: 'public', pageType: 'search' }, existing)).toEqual([]);
  });

  it.each([
    [{ id: 'ZozoTown' }, /site id "ZozoTown"/],
    [{ id: 'zozo__town' }, /site id/],
    [{ id: '1zozo' }, /site id/],
    [{ id: 'a'.repeat(41) }, /at most 40/],
    [{ id: 'mercari' }, /"mercari" is already a site/],
    [{ id: 'old_site' }, /src\/sites\/old-site already exists/],
    [{ host: 'ZOZO.jp' }, /--host "ZOZO.jp"/],
    [{ host: 'zozo.jp/' }, /--host/],
    [{ host: '127.0.0.1' }, /--host/],
    [{ host: 'localhost' }, /--host/],
    [{ host: '-zozo.jp' }, /--host/],
    [{ host: 'jp.mercari.com' }, /already a host of mercari/],
    [{ kind: 'shop' }, /one of commerce, public/],
    [{ pageType: 'table' }, /templates exist for item, search/],
    [{ name: '' }, /--name/],
    [{ name: 'Zozo "Town"' }, /--name/],
    [{ name: 'a\\b' }, /--name/],
    [{ name: '<b>' }, /--name/],
    [{ name: '{{id}}' }, /--name/],
  ])('refuses %j', (change, message) => {
    const problems = scaffoldProblems({ ...ok, ...change }, existing);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('names every problem at once', () => {
    expect(scaffoldProblems({ ...ok, id: 'X', host: 'x', kind: 'y', pageType: 'z', name: '' }, existing)).toHaveLength(
      5,
    );
  });
});

describe('renderScaffold', () => {
  it.each(scaffoldPageTypes)('fills every placeholder of the %s templates', (pageType) => {
    const files = renderScaffold(
      { ...ok, kind: 'commerce', pageType },
      readTemplates(path.join(sitesDir, 'templates'), pageType),
    );
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['site.ts', `${pageType}-extractor.ts`]));
    expect(files.some((f) => f.path.startsWith('fixtures/') && f.path.endsWith('.meta.json'))).toBe(true);
    for (const file of files) {
      expect(file.path).not.toMatch(/\.tmpl$/);
      expect(file.content, file.path).not.toMatch(/\{\{\w+\}\}/);
    }
    const site = files.find((f) => f.path === 'site.ts')!.content;
    expect(site).toMatch(/^export const zozoTown: Site = \{$/m);
    expect(site).toContain("id: 'zozo_town'");
    expect(site).toContain("coverage: 'experimental'");
  });

  it('refuses a template with a placeholder it does not know', () => {
    expect(() =>
      renderScaffold({ ...ok, kind: 'commerce', pageType: 'item' }, [{ path: 'x.ts.tmpl', content: '{{price}}' }]),
    ).toThrow(/unknown placeholder \{\{price\}\}/);
  });

  it('never writes over an existing folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kumo-scaffold-'));
    try {
      expect(() => writeScaffold(dir, [{ path: 'site.ts', content: 'x' }])).toThrow(/already exists/);
      expect(readdirSync(dir)).toEqual([]);
      writeScaffold(path.join(dir, 'new-site'), [{ path: 'fixtures/a.json', content: '{}' }]);
      expect(readdirSync(path.join(dir, 'new-site', 'fixtures'))).toEqual(['a.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('withSiteRecorded', () => {
  const result = (site: string, fixture: string, status: FixtureResult['status'] = 'pass'): FixtureResult => ({
    site,
    fixture,
    pageType: 'item',
    source: 'modelled',
    status,
    sha256: `${site}-${fixture}`,
  });
  const record = toRecord([result('a', 'one'), result('b', 'one'), result('b', 'two'), result('c', 'one')]);

  it('replaces one site’s entries, keeps the others as recorded, in catalogue order', () => {
    const next = withSiteRecorded(record, 'b', [result('a', 'one', 'fail'), result('b', 'three')], ['a', 'b', 'c']);
    expect(next.fixtures.map((f) => `${f.site}/${f.fixture}/${f.status}`)).toEqual([
      'a/one/pass',
      'b/three/pass',
      'c/one/pass',
    ]);
  });

  it('places a new site where the catalogue lists it', () => {
    const next = withSiteRecorded(record, 'ab', [result('ab', 'one')], ['a', 'ab', 'b', 'c']);
    expect(next.fixtures.map((f) => f.site)).toEqual(['a', 'ab', 'b', 'b', 'c']);
    expect(next.note).toBe(record.note);
  });
});
