// textOrNull and jsonText: normalized text or null, never an empty string passed off as a value.
import { describe, expect, it } from 'vitest';
import { jsonText, textOrNull } from './text-or-null.js';

describe('textOrNull', () => {
  it('normalizes (full-width ASCII, spaces) and turns absent or blank into null', () => {
    expect(textOrNull('  ＹＡＭＡＨＡ　ＰＳＳ－Ａ５０  ')).toBe('YAMAHA PSS-A50');
    for (const blank of [null, undefined, '', '   ', '\u3000\n']) expect(textOrNull(blank)).toBeNull();
  });
});

describe('jsonText', () => {
  it('reads strings and finite numbers as written; anything else is null', () => {
    expect(jsonText(' 東京都 ')).toBe('東京都');
    expect(jsonText(130000)).toBe('130000');
    for (const other of [null, undefined, Number.NaN, Infinity, true, {}, [], ' ']) expect(jsonText(other)).toBeNull();
  });
});
