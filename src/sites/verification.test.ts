// The verifier itself: differences are reported precisely, and real-page fixtures skip when the corpus is absent.
import { describe, expect, it } from 'vitest';
import { SiteRegistry } from './registry.js';
import { diffJson, verifyAll } from './verification.js';

describe('diffJson', () => {
  it('is empty for equal values whatever the key order', () => {
    expect(diffJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toEqual([]);
  });

  it('names paths of changed, missing and unexpected fields', () => {
    expect(diffJson({ price: 2200, title: 'x', images: ['a'] }, { price: 2000, images: ['a', 'b'], jan: '1' })).toEqual(
      [
        '/price: expected 2200, got 2000',
        '/title: missing (expected "x")',
        '/images: expected 1 items, got 2',
        '/jan: unexpected "1"',
      ],
    );
  });
});

describe('verifyAll without the shared corpus', () => {
  it('skips real-page fixtures (and the stable checks that need them) and still runs modelled ones', async () => {
    const results = await verifyAll(new SiteRegistry(), { corpusDir: '/nonexistent/kumo-corpus' });
    const real = results.filter((r) => r.source === 'corpus');
    expect(real.length).toBeGreaterThan(0);
    expect(real.every((r) => r.status === 'skipped')).toBe(true);
    const modelled = results.filter((r) => r.source === 'modelled');
    expect(modelled.length).toBeGreaterThan(0);
    expect(modelled.every((r) => r.status === 'pass')).toBe(true);
    const stableChecks = results.filter((r) => r.fixture.startsWith('(coverage') && r.fixture.endsWith(': stable)'));
    expect(stableChecks.length).toBeGreaterThan(0);
    expect(stableChecks.every((r) => r.status === 'skipped')).toBe(true);
  });
});
