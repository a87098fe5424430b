// Table tests for the text profiles, with the strings of research §4.1–4.4.
import { describe, expect, it } from 'vitest';
import { normalizeMultilineText, normalizeText } from './text.js';

describe('normalizeText (ja-extract)', () => {
  it.each([
    ['ＡＢＣ１２３', 'ABC123'],
    ['ｱｲｳ ｶﾞ ﾊﾟ ｳﾞ', 'アイウ ガ パ ヴ'],
    ['㈱イケベ', '(株)イケベ'],
    ['①②③', '123'],
    ['100m²', '100m2'],
    ['￥１，２３４', '¥1,234'],
    ['1995〜2001年', '1995~2001年'],
    ['1995～2001年', '1995~2001年'],
    ['1995∼2001', '1995~2001'],
    ['−5', '-5'],
    ['－5', '-5'],
    ['‐‑‒–', '----'],
    ['03ー1234ー5678', '03-1234-5678'],
    ['1―2', '1-2'],
    ['ラーメン', 'ラーメン'],
    ['A―B', 'A―B'],
    ['晴れ　昼過ぎ　から　夕方　くもり', '晴れ 昼過ぎ から 夕方 くもり'],
    ['  たのしいＲｕｂｙ   第５版 ', 'たのしいRuby 第5版'],
    ['髙橋', '髙橋'],
    ['\u00a0x\t\ny ', 'x y'],
    ['USB cable type C to type C【箱損アウトレット】', 'USB cable type C to type C【箱損アウトレット】'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });

  it('does not delete tildes or collapse long vowels (unlike neologdn)', () => {
    expect(normalizeText('1,280円〜')).toBe('1,280円~');
    expect(normalizeText('ーーー')).toBe('ーーー');
  });
});

describe('normalizeText (nfkc)', () => {
  it('is exactly String.prototype.normalize', () => {
    expect(normalizeText('〜　ｶﾞ', 'nfkc')).toBe('〜 ガ');
  });
});

describe('normalizeMultilineText', () => {
  it('keeps paragraph breaks and normalizes each line', () => {
    expect(normalizeMultilineText('２１日は、雪。\r\n\r\n\r\n＜留意点＞\n　路面の凍結  ')).toBe(
      '21日は、雪。\n\n<留意点>\n路面の凍結',
    );
  });
});
