// yen / yenOfNumeral: the shared whole-yen rules, as a table of what structured data and running text carry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { yen, yenOfNumeral } from './yen.js';

describe('yen (structured values)', () => {
  it.each([
    [23000, 23000],
    ['23000', 23000],
    [' 1,980 ', 1980],
    ['1,234,567', 1234567],
    [0, 0],
    ['0', 0],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('reads %j as %d', (value, expected) => expect(yen(value)).toBe(expected));

  it.each([
    [1980.5],
    ['1980.5'],
    [-1],
    ['-1'],
    ['1e3'],
    [1e300],
    ['9007199254740993'],
    ['1,98'],
    ['12,34,567'],
    ['¥1,980'],
    ['1,980円'],
    ['１９８０'],
    [''],
    ['  '],
    [null],
    [undefined],
    [true],
    [{ amount: 1 }],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
  ])('refuses %j', (value) => expect(yen(value)).toBeNull());

  it('reads 0 as no amount only where the source writes 0 for none', () => {
    expect(yen(0, { zero: 'absent' })).toBeNull();
    expect(yen('0', { zero: 'absent' })).toBeNull();
    expect(yen(1, { zero: 'absent' })).toBe(1);
  });

  it('reads every safe whole number back from its digits, grouped or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(yen(n)).toBe(n);
        expect(yen(String(n))).toBe(n);
        expect(yen(n.toLocaleString('en-US'))).toBe(n);
      }),
    );
  });
});

describe('yenOfNumeral (running text)', () => {
  it.each([
    ['3,980', 3980],
    ['440', 440],
    ['1.5万', 15000],
    ['2万', 20000],
    ['0', 0],
  ])('reads %s as %d', (text, expected) => expect(yenOfNumeral(text)).toBe(expected));

  it.each([['1.5'], ['abc'], [''], [undefined]])('refuses %j', (text) => expect(yenOfNumeral(text)).toBeNull());
});
