// The verifier itself: differences are reported precisely, and real-page fixtures skip when the corpus is absent.
import { describe, expect, it } from 'vitest';
import { SiteRegistry } from './registry.js';
import { diffJson, verifyAll } from './verification.js';

describe('diffJson', () => {
  it('checks a long list by its length and sampled entries', () => {
    const list = [{ n: 0 }, { n: 1 }, { n: 2 }];
    expect(diffJson({ rows: { $length: 3, $sample: { '0': { n: 0 }, '2': { n: 2 } } } }, { rows: list })).toEqual([]);
    expect(diffJson({ $length: 4, $sample: { '0': { n: 0 } } }, list)).toEqual(['/: expected 4 items, got 3']);
    expect(diffJson({ $length: 3, $sample: { '1': { n: 9 } } }, list)).toEqual(['/1/n: expected 9, got 1']);
    expect(diffJson({ $length: 3, $sample: { '5': { n: 5 } } }, list)).toEqual(['/5: missing (expected a sample)']);
    expect(diffJson({ $length: 3, $sample: {} }, { n: 1 })).toHaveLength(1);
  });

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
