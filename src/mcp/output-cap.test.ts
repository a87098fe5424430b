// The output cap: results within it are untouched; results over it shrink to fit with a note naming every cut.
import { describe, expect, it } from 'vitest';
import { capOutput } from './output-cap.js';

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ title: `商品 ${i} ${'あ'.repeat(40)}`, price: 1000 + i, currency: 'JPY' }));

describe('capOutput', () => {
  it('returns a result within the cap as it is, without a note', () => {
    const value = { request_id: 'req_1', data: { items: items(3) } };
    expect(capOutput(value, 16_000)).toBe(value);
  });

  it('shortens the largest list from the end until the whole answer, note included, fits', () => {
    const value = { request_id: 'req_1', cost_units: 1, data: { items: items(500), next_page: 'https://x/2' } };
    const capped = capOutput(value, 16_000);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(16_000);
    expect(capped.request_id).toBe('req_1');
    expect(capped.data.next_page).toBe('https://x/2');
    expect(capped.data.items.length).toBeGreaterThan(0);
    expect(capped.data.items).toEqual(items(500).slice(0, capped.data.items.length));
    expect(capped.truncated!.cuts).toEqual([
      { path: '$.data.items', kept: capped.data.items.length, total: 500, unit: 'items' },
    ]);
    expect(capped.truncated!.note).toMatch(/16000 characters/);
    // The input is not changed.
    expect(value.data.items).toHaveLength(500);
  });

  it('cuts a long string when no list is left to shorten, and says so', () => {
    const value = { request_id: 'req_1', html: 'x'.repeat(40_000), warnings: [] };
    const capped = capOutput(value, 16_000);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(16_000);
    expect(capped.html.length).toBeGreaterThan(10_000);
    expect(capped.truncated!.cuts).toEqual([
      { path: '$.html', kept: capped.html.length, total: 40_000, unit: 'characters' },
    ]);
  });

  it('names no cut inside a list item a later cut removed', () => {
    const value = {
      sites: Array.from({ length: 60 }, (_, i) => ({ id: `s${i}`, page_types: items(20) })),
    };
    const capped = capOutput(value, 4_000);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(4_000);
    for (const cut of capped.truncated!.cuts) {
      const index = /^\$\.sites\[(\d+)\]/.exec(cut.path)?.[1];
      if (index !== undefined) expect(Number(index)).toBeLessThan(capped.sites.length);
    }
    expect(capped.truncated!.cuts.some((cut) => cut.path === '$.sites' && cut.total === 60)).toBe(true);
  });
});
