// Ids: prefix, shape, time order, uniqueness.
import { describe, expect, it } from 'vitest';
import { idTime, newId } from './ids.js';

describe('newId', () => {
  it('is the prefix and 26 Crockford base32 characters', () => {
    expect(newId('req')).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId('acc')).toMatch(/^acc_/);
  });

  it('encodes its creation time', () => {
    const id = newId('key', 1_790_000_000_123);
    expect(idTime(id)).toBe(1_790_000_000_123);
    expect(idTime('not-an-id')).toBeNull();
  });

  it('sorts by creation time, and strictly within one millisecond', () => {
    const earlier = newId('req', 1_000);
    const later = newId('req', 2_000);
    expect(earlier < later).toBe(true);
    const burst = Array.from({ length: 1_000 }, () => newId('req', 5_000));
    expect([...burst].sort()).toEqual(burst);
    expect(new Set(burst).size).toBe(burst.length);
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('req')));
    expect(ids.size).toBe(10_000);
  });
});
