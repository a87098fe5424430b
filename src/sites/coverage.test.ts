// Coverage is earned (DESIGN §6): the committed record matches live verification, and failing fixtures take a
// page type out of service without anyone editing the site definition.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusAvailable } from './corpus.js';
import { SiteRegistry } from './registry.js';
import { servedInProduction, type Site } from './site.js';
import {
  earnedCoverage,
  effectiveCoverage,
  fixturesDirOf,
  loadShippedRecord,
  readVerificationRecord,
  recordProblems,
  shippedRecordPath,
  toRecord,
  verifyAll,
  type VerificationRecord,
} from './verification.js';
import { shipVerificationRecord } from './ship-record.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'kumo-coverage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('earned and effective coverage', () => {
  it.each([
    [[{ source: 'corpus', status: 'pass' }], 'stable'],
    [
      [
        { source: 'recorded', status: 'pass' },
        { source: 'modelled', status: 'pass' },
      ],
      'stable',
    ],
    [[{ source: 'modelled', status: 'pass' }], 'beta'],
    // A real body in a container we built (EDINET's ZIP): the container is modelled, so beta, never stable.
    [[{ source: 'corpus-wrapped', status: 'pass' }], 'beta'],
    [
      [
        { source: 'corpus', status: 'skipped' },
        { source: 'modelled', status: 'pass' },
      ],
      'beta',
    ],
    [
      [
        { source: 'corpus', status: 'pass' },
        { source: 'modelled', status: 'fail' },
      ],
      'verifying',
    ],
    [[{ source: 'corpus', status: 'skipped' }], 'experimental'],
    [[], 'experimental'],
  ] as const)('%j earns %s', (results, earned) => {
    expect(earnedCoverage(results)).toBe(earned);
  });

  it('caps the declared level by the earned one and never lifts it', () => {
    expect(effectiveCoverage('stable', 'beta')).toBe('beta');
    expect(effectiveCoverage('beta', 'stable')).toBe('beta');
    expect(effectiveCoverage('stable', 'verifying')).toBe('verifying');
    expect(effectiveCoverage('experimental', 'stable')).toBe('experimental');
    expect(effectiveCoverage('stopped', 'stable')).toBe('stopped');
  });
});

describe('the committed verification record', () => {
  it.runIf(corpusAvailable())(
    'equals a live run over the corpus (regenerate: kumo sites verify --record)',
    async () => {
      const live = toRecord(await verifyAll(new SiteRegistry()));
      expect(readVerificationRecord()?.fixtures).toEqual(live.fixtures);
    },
  );

  it('lets the registry serve the catalogue at its declared levels', () => {
    const registry = new SiteRegistry();
    for (const site of registry.list())
      for (const entry of site.pageTypes) {
        expect(entry.coverage, `${site.id} ${entry.pageType}`).toBe(entry.declaredCoverage);
        expect(entry.verification?.fail).toBe(0);
      }
  });

  it('without a record, real-page-only evidence is gone and page types fall to beta', () => {
    const registry = new SiteRegistry(undefined, { record: null });
    const ikebe = registry.get('ikebe_gakki')!.pageTypes[0]!;
    expect(ikebe.declaredCoverage).toBe('stable');
    expect(ikebe.coverage).toBe('beta');
  });

  it('is current for the in-project fixtures and names every real page, with or without the corpus', async () => {
    const record = readVerificationRecord()!;
    const live = await verifyAll(new SiteRegistry(undefined, { record }));
    expect(recordProblems(record, live)).toEqual([]);
  });

  it('is stale when an outcome, a page or the list of fixtures changed', async () => {
    const record = readVerificationRecord()!;
    const live = await verifyAll(new SiteRegistry(undefined, { record }));
    const edit = (change: (fixtures: VerificationRecord['fixtures']) => void) => {
      const copy = structuredClone(record);
      change(copy.fixtures);
      return recordProblems(copy, live);
    };
    const modelled = record.fixtures.findIndex((f) => f.source === 'modelled');
    const corpus = record.fixtures.findIndex((f) => f.source === 'corpus');
    expect(edit((f) => (f[modelled]!.status = 'fail'))).toEqual([expect.stringMatching(/status: expected "fail"/)]);
    expect(edit((f) => (f[modelled]!.sha256 = '0'.repeat(64)))).toEqual([expect.stringMatching(/sha256/)]);
    expect(edit((f) => f.splice(corpus, 1))).toEqual([expect.stringMatching(/not in the record/)]);
    expect(edit((f) => f.push({ ...f[corpus]!, fixture: 'gone' }))).toEqual([
      expect.stringMatching(/gone: in the record but no longer a fixture/),
    ]);
    expect(edit((f) => (f[corpus]!.status = 'skipped'))).toHaveLength(1);
  });

  it('is shipped by the build only when current, and a stale one leaves no record to start from', async () => {
    const to = path.join(tmp, 'dist-sites', 'verification-record.json');
    expect(await shipVerificationRecord({ to })).toEqual([]);
    expect(JSON.parse(readFileSync(to, 'utf8'))).toEqual(readVerificationRecord());

    const stale = structuredClone(readVerificationRecord()!);
    stale.fixtures.find((f) => f.source === 'modelled')!.status = 'fail';
    const from = path.join(tmp, 'stale-record.json');
    writeFileSync(from, JSON.stringify(stale));
    expect(await shipVerificationRecord({ from, to })).toHaveLength(1);
    expect(existsSync(to)).toBe(false);
  });

  it('is what a registry built without options serves from, and its absence stops construction', () => {
    expect(() => loadShippedRecord(path.join(tmp, 'nothing-here.json'))).toThrow(/verification record missing at/);
    const bad = path.join(tmp, 'bad-record.json');
    writeFileSync(bad, JSON.stringify({ note: 'x', fixtures: [{ site: 1 }] }));
    expect(() => loadShippedRecord(bad)).toThrow(/no valid fixtures list/);
    expect(loadShippedRecord(shippedRecordPath)).toEqual(readVerificationRecord());
  });

  it('is quick to build (the shipped record is read, no fixture runs at construction)', () => {
    const started = performance.now();
    new SiteRegistry();
    const ms = performance.now() - started;
    console.info(`SiteRegistry construction: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(2000);
  });
});

describe('a site whose fixtures fail', () => {
  const catalogue = new SiteRegistry();
  const ikebe = catalogue.get('ikebe_gakki')!;
  const url = new URL('https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456');

  function withFixtures(name: string, mutate: (expected: Record<string, unknown>) => void): Site {
    const dir = path.join(tmp, name);
    const from = fixturesDirOf(ikebe);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const fixture = 'modelled-no-json-ld';
    for (const suffix of ['.html', '.meta.json'])
      copyFileSync(path.join(from, fixture + suffix), path.join(dir, fixture + suffix));
    const expected = JSON.parse(readFileSync(path.join(from, `${fixture}.expected.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    mutate(expected);
    writeFileSync(path.join(dir, `${fixture}.expected.json`), JSON.stringify(expected));
    return {
      ...ikebe,
      id: `ikebe_${name}`,
      hosts: ikebe.hosts,
      fixturesDir: dir,
      pageTypes: ikebe.pageTypes.map((e) => ({ ...e, coverage: 'stable' })),
    };
  }

  it('drops out of service on its own', () => {
    const site = withFixtures('drift', (expected) => {
      expected.price = 4401; // the reviewer's expectation no longer matches what the extractor produces
    });
    const registry = new SiteRegistry([site], { record: null });
    const entry = registry.pageTypeFor(registry.get(site.id)!, url, 'auto')!;
    expect(entry.declaredCoverage).toBe('stable');
    expect(entry.coverage).toBe('verifying');
    expect(entry.verification).toMatchObject({ earned: 'verifying', fail: 1 });
    expect(servedInProduction(entry.coverage)).toBe(false);
  });

  it('is served again (at beta, modelled evidence only) once the fixture passes', () => {
    const site = withFixtures('fixed', () => {});
    const registry = new SiteRegistry([site], { record: null });
    const entry = registry.pageTypeFor(registry.get(site.id)!, url, 'auto')!;
    expect(entry.coverage).toBe('beta');
    expect(servedInProduction(entry.coverage)).toBe(true);
  });
});
