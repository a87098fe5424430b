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

describe('normalizeText: the plain-ASCII shortcut answers as the whole pipeline does', () => {
  // The profile restated step by step (§4.4), as the oracle for strings the shortcut may answer on its own.
  const pipeline = (input: string, profile: 'nfkc' | 'ja-extract') => {
    const nfkc = input.normalize('NFKC');
    if (profile === 'nfkc') return nfkc;
    return nfkc
      .replace(/[\u301C\u3030\u223C\u223E\uFF5E]/g, '~')
      .replace(/[\u2010\u2011\u2012\u2013\u2043\u2212\u02D7\u058A\uFE63\uFF0D\u207B\u208B]/g, '-')
      .replace(/(?<=[0-9])[\u30FC\u2015\u2014\u2500\u2501](?=[0-9])/g, '-')
      .replace(/\s+/g, ' ')
      .trim();
  };
  // Mostly ASCII (where the shortcut applies or nearly does), with the characters that would break it.
  const alphabet = [
    ...'0123456789,.-+~ab XYZ()%#*/:',
    ' ',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u3000',
    '１',
    'ー',
    '〜',
    '−',
    'ｶ',
    'ﾞ',
    '①',
    '\x7f',
    '\x1f',
  ];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const inputs = ['', ' ', 'a', ' a', 'a ', 'a  b', 'a b', '1,234', '2024-01-02', '~', '\x7f', 'a\tb'];
  for (let i = 0; i < 5_000; i++) {
    const length = next() % 12;
    let text = '';
    for (let j = 0; j < length; j++) text += alphabet[next() % alphabet.length];
    inputs.push(text);
  }

  it.each(['ja-extract', 'nfkc'] as const)('%s: 5,000 generated strings and the edge cases', (profile) => {
    const differing = inputs.filter((input) => normalizeText(input, profile) !== pipeline(input, profile));
    expect(differing).toEqual([]);
    // Enough of them are already normal (the shortcut's case), with inner spaces too.
    const normal = inputs.filter((input) => /^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(input));
    expect(normal.length).toBeGreaterThan(200);
    expect(normal.filter((input) => input.includes(' ')).length).toBeGreaterThan(50);
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
