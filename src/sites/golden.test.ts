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

  it.each(results.map((r) => [`${r.site} ${r.fixture}`, r] as const))('%s', (_name, result) => {
    if (result.status === 'skipped') return;
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
