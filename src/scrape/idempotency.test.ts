// The Idempotency-Key rules on their own: which header values are keys, and which bodies count as the same request.
import { describe, expect, it } from 'vitest';
import { bodyHashOf, canonicalJson, parseIdempotencyKey } from './idempotency.js';
import { isKumoError } from '../errors.js';

describe('parseIdempotencyKey', () => {
  it('no header is no key', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
  });

  it.each(['a', 'order-2026-11-22/7', ' !~', 'k'.repeat(255)])('accepts %j', (value) => {
    expect(parseIdempotencyKey(value)).toBe(value);
  });

  it.each([
    ['', 'empty'],
    ['k'.repeat(256), 'too long'],
    ['a\tb', 'a tab'],
    ['a\u007fb', 'DEL'],
    ['café', 'latin-1'],
    ['キー', 'non-ASCII'],
  ])('refuses %j (%s) as invalid_request', (value) => {
    let thrown: unknown;
    try {
      parseIdempotencyKey(value);
    } catch (error) {
      thrown = error;
    }
    expect(isKumoError(thrown) && thrown.code).toBe('invalid_request');
  });

  it('refuses a repeated header', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow();
  });
});

describe('the same request', () => {
  const params = { mode: 'html_json', work_type: 'auto', include_html: false, store_artifact: false };
  const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';

  it('ignores key order at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const reordered = { store_artifact: false, include_html: false, work_type: 'auto', mode: 'html_json' };
    expect(bodyHashOf({ params: reordered, url })).toBe(bodyHashOf({ url, params }));
  });

  it('any change to the url or a param is another request', () => {
    const base = bodyHashOf({ url, params });
    expect(bodyHashOf({ url: `${url}?a=1`, params })).not.toBe(base);
    for (const change of [{ mode: 'html' }, { include_html: true }, { store_artifact: true }, { work_type: 'item' }]) {
      expect(bodyHashOf({ url, params: { ...params, ...change } })).not.toBe(base);
    }
    expect(bodyHashOf({ url, params })).toMatch(/^[0-9a-f]{64}$/);
  });
});
