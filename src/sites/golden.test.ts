// Every golden fixture of every site must verify; real-page fixtures skip (with a note) when the corpus is absent.
import { describe, expect, it } from 'vitest';
import { corpusAvailable, corpusPath } from './corpus.js';
import { SiteRegistry } from './registry.js';
import { verifyAll } from './verification.js';

if (!corpusAvailable()) console.warn(`golden: real-page fixtures skipped, ${corpusPath('')} is absent`);

const results = await verifyAll(new SiteRegistry());

describe('golden fixtures', () => {
  it('every site has fixtures', () => {
    const sites = new SiteRegistry().list().map((s) => s.id);
    for (const id of sites)
      expect(results.filter((r) => r.site === id && !r.fixture.startsWith('(')).length).toBeGreaterThan(1);
  });

  // A real page is skipped when the shared corpus is absent (its outcome then ships in the record); the rest run.
  it('skips only real pages whose corpus is absent', () => {
    const skipped = results.filter((r) => r.status === 'skipped');
    expect(skipped.filter((r) => !/absent/.test(r.detail ?? '')).map((r) => `${r.site} ${r.fixture}`)).toEqual([]);
  });

  const ran = results.filter((r) => r.status !== 'skipped');
  it.each(ran.map((r) => [`${r.site} ${r.fixture}`, r] as const))('%s', (_name, result) => {
    expect(result.diff ?? [], result.detail).toEqual([]);
    expect(result.status, result.detail).toBe('pass');
  });

  it('records a source for every field of every result', () => {
    const unsourced = results
      .filter((r) => r.unsourced)
      .map((r) => `${r.site} ${r.fixture}: ${r.unsourced!.join(',')}`);
    expect(unsourced).toEqual([]);
    expect(results.filter((r) => r.status === 'pass' && !r.fixture.startsWith('(')).length).toBeGreaterThan(10);
  });
});
