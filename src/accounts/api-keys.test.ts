// Key format, checksum, hashing and the display prefix.
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, keyPrefix } from './api-keys.js';

describe('generateKey', () => {
  it('is kumo_live_ + 43 base62 characters + a 6-character checksum', () => {
    const key = generateKey();
    expect(key).toMatch(/^kumo_live_[0-9A-Za-z]{49}$/);
    expect(key.startsWith(keyPrefix)).toBe(true);
    expect(isWellFormedKey(key)).toBe(true);
  });

  it('never repeats and spreads over the whole alphabet', () => {
    const keys = Array.from({ length: 2_000 }, generateKey);
    expect(new Set(keys).size).toBe(keys.length);
    const bodies = keys.map((k) => k.slice(keyPrefix.length, keyPrefix.length + 43)).join('');
    expect(new Set(bodies).size).toBe(62);
  });
});

describe('isWellFormedKey', () => {
  it('rejects one changed character, a wrong prefix, wrong lengths and junk', () => {
    const key = generateKey();
    const i = keyPrefix.length + 10;
    const flipped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(isWellFormedKey(flipped)).toBe(false);
    expect(isWellFormedKey(key.replace('kumo_live_', 'kumo_test_'))).toBe(false);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}x`)).toBe(false);
    expect(isWellFormedKey('')).toBe(false);
    expect(isWellFormedKey('kumo_live_unknownunknownunknownunknown')).toBe(false);
  });

  it('rejects a changed checksum', () => {
    const key = generateKey();
    const last = key.at(-1) === '0' ? '1' : '0';
    expect(isWellFormedKey(key.slice(0, -1) + last)).toBe(false);
  });
});

describe('hashKey', () => {
  it('is the SHA-256 hex of the secret', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashKey(generateKey())).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('displayPrefix', () => {
  it('shows the prefix and 4 characters of one of our keys', () => {
    const key = generateKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 14));
  });

  it('shows only 4 characters of a foreign-shaped (bootstrap) secret', () => {
    expect(displayPrefix('my-own-bootstrap-secret-1234')).toBe('my-o…');
  });
});
