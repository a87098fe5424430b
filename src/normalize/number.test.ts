// Table tests for statistical cells: marks of research §3.2 and a table's own legend.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseNumber, parseNumeral, parseTableNumber, parseUnitLabel, type TableNumber } from './number.js';

interface NumeralCase {
  input: string;
  expected: number | null;
  source: string;
}
const numerals = JSON.parse(readFileSync(new URL('./fixtures/numerals.json', import.meta.url), 'utf8')) as {
  cases: NumeralCase[];
};

describe('parseTableNumber', () => {
  it.each([
    ['43684', { value: 43684 }],
    ['1,070,764', { value: 1070764 }],
    ['１２．５', { value: 12.5 }],
    ['△1,041', { value: -1041 }],
    ['▲10.7', { value: -10.7 }],
    ['−485', { value: -485 }],
    ['-0', { value: 0 }],
    ['0.0', { value: 0 }],
    ['123p', { value: 123 }],
    ['98r', { value: 98 }],
    ['45#', { value: 45, flags: ['#'] }],
    ['7*', { value: 7, flags: ['*'] }],
    ['-', { value: null, reason: 'not_applicable' }],
    ['－', { value: null, reason: 'not_applicable' }],
    ['―', { value: null, reason: 'not_applicable' }],
    ['…', { value: null, reason: 'unavailable' }],
    ['...', { value: null, reason: 'unavailable' }],
    ['・・・', { value: null, reason: 'unavailable' }],
    ['・・', { value: null, reason: 'unavailable' }],
    ['***', { value: null, reason: 'unavailable' }],
    ['x', { value: null, reason: 'confidential' }],
    ['X', { value: null, reason: 'confidential' }],
    ['', { value: null, reason: 'unavailable' }],
  ])('%j → %j', (raw, expected) => {
    expect(parseTableNumber(raw)).toEqual(expected);
  });

  it('reads the table legend before the standard marks', () => {
    const notes = [
      { mark: '-', meaning: '数字が得られないもの' },
      { mark: '@', meaning: '数値が秘匿されているもの' },
    ];
    expect(parseTableNumber('-', notes)).toEqual({ value: null, reason: 'unavailable' });
    expect(parseTableNumber('@', notes)).toEqual({ value: null, reason: 'confidential' });
    expect(parseTableNumber('X', [{ mark: 'X', meaning: '数値が秘匿されているもの' }])).toEqual({
      value: null,
      reason: 'confidential',
    });
  });

  it('returns null for text that is neither', () => {
    expect(parseTableNumber('約100')).toBeNull();
    expect(parseTableNumber('1,2,3')).toBeNull();
  });
});

describe('parseNumber', () => {
  it.each<[string, TableNumber | null]>([
    // Multipliers and units (§3.1, §0 rule 6)
    ['1千', { value: 1000 }],
    ['3千円', { value: 3000 }],
    ['1,234千円', { value: 1234000 }],
    ['5万', { value: 50000 }],
    ['12.8万', { value: 128000 }],
    ['0.1万', { value: 1000 }],
    ['485百万円', { value: 485000000 }],
    ['1.5百万円', { value: 1500000 }],
    ['3億', { value: 300000000 }],
    ['12.5億円', { value: 1250000000 }],
    ['2兆円', { value: 2000000000000 }],
    ['1兆2,345億円', { value: 1234500000000 }],
    ['1億2000万', { value: 120000000 }],
    ['1万2800円', { value: 12800 }],
    ['100円', { value: 100 }],
    ['１２３４万円', { value: 12340000 }],
    // Negatives (△/▲/minus variants)
    ['△1,041', { value: -1041 }],
    ['▲10.7', { value: -10.7 }],
    ['△485百万円', { value: -485000000 }],
    ['▲1.2億円', { value: -120000000 }],
    ['−3万', { value: -30000 }],
    ['－5', { value: -5 }],
    ['-12.5%', { value: -12.5 }],
    ['+3.2%', { value: 3.2 }],
    ['-0', { value: 0 }],
    // Percent and permille keep their displayed magnitude
    ['12.5%', { value: 12.5 }],
    ['１２．５％', { value: 12.5 }],
    ['100%', { value: 100 }],
    ['3‰', { value: 3 }],
    ['0.8‰', { value: 0.8 }],
    ['△10.7%', { value: -10.7 }],
    // Flags
    ['1,234p', { value: 1234 }],
    ['56r', { value: 56 }],
    ['12万p', { value: 120000 }],
    ['45#', { value: 45, flags: ['#'] }],
    // Missing and confidential marks (§3.2)
    ['-', { value: null, reason: 'not_applicable' }],
    ['−', { value: null, reason: 'not_applicable' }],
    ['…', { value: null, reason: 'unavailable' }],
    ['***', { value: null, reason: 'unavailable' }],
    ['x', { value: null, reason: 'confidential' }],
    ['X', { value: null, reason: 'confidential' }],
    // Not numbers
    ['12 34', null],
    ['万', null],
    ['3万1兆', null],
    ['5万%', null],
    ['約100', null],
    ['abc', null],
  ])('%j', (raw, expected) => {
    expect(parseNumber(raw)).toEqual(expected);
  });
});

describe('parseNumber: the plain-number shortcut answers as the full reading does', () => {
  // A legend whose mark no cell has changes nothing, and it sends every cell down the full reading: the oracle.
  const fullReading = (cell: string) => parseNumber(cell, [{ mark: 'never-a-cell', meaning: '秘匿' }]);
  const alphabet = [...'0123456789', ',', ',', '.', '-', '+', ' ', '△', '万', '千', '円', 'p', '#', '%', '１', '，'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const cells = ['0', '-0', '+0', '007', '1,234', '12,345,678.90', '1,23', '1,2345', ',123', '123,', '1.', '.5', '-'];
  cells.push('9'.repeat(400), `-${'9'.repeat(309)}`, `${'9'.repeat(308)}.5`);
  for (let i = 0; i < 5_000; i++) {
    const length = 1 + (next() % 10);
    let cell = '';
    for (let j = 0; j < length; j++) cell += alphabet[next() % alphabet.length];
    cells.push(cell);
  }
  // And 1,000 numbers as tables print them: signed or not, grouped by commas or not, with decimals or not.
  // (The high bits: an LCG's low bits repeat with a short period.)
  const pick = (n: number) => (next() >>> 12) % n;
  for (let i = 0; i < 1_000; i++) {
    const digits = String(next() % 10 ** (1 + pick(9)));
    const grouped = pick(2) === 0 ? digits.replace(/\B(?=(\d{3})+$)/g, ',') : digits;
    const sign = ['', '', '-', '+'][pick(4)];
    const decimals = pick(3) === 0 ? `.${pick(1000)}` : '';
    cells.push(`${sign}${grouped}${decimals}`);
  }

  it('on 6,000 generated cells and the edge cases', () => {
    // Object.is on the value: -0 and 0 are one in JSON, but a cell of `-0` must read 0, never -0.
    const same = (a: TableNumber | null, b: TableNumber | null) =>
      a === null || b === null ? a === b : Object.is(a.value, b.value) && JSON.stringify(a) === JSON.stringify(b);
    const differing = cells.filter((cell) => !same(parseNumber(cell), fullReading(cell)));
    expect(differing).toEqual([]);
    // The shortcut is reached often, signs, commas and decimals included (its pattern, restated).
    const plain = cells.filter((cell) => /^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(cell));
    expect(plain.length).toBeGreaterThan(1_000);
    for (const mark of [/^-/, /^\+/, /,/, /\./])
      expect(plain.filter((cell) => mark.test(cell)).length).toBeGreaterThan(100);
  });
});

describe('千/百/十 and 万/億/兆 as multipliers, Arabic, kanji and mixed (issue 7 §6)', () => {
  it.each<[string, number]>([
    ['2千', 2000],
    ['2千円', 2000],
    ['3千万', 30_000_000],
    ['1億2千万円', 120_000_000],
    ['1万5千円', 15_000],
    ['１万２,３００円', 12_300],
    ['１万２，３００円', 12_300],
    ['二千五百円', 2500],
    ['千円', 1000],
    ['百万円', 1_000_000],
    ['千', 1000],
    ['百', 100],
    ['十', 10],
    ['2千500', 2500],
    ['2千050', 2050],
    ['1万0500', 10_500],
    ['4千8百21', 4821],
    ['3億4千8百万', 348_000_000],
    ['1万500', 10_500],
    ['1兆2千億', 1_200_000_000_000],
    ['△3千万', -30_000_000],
    ['1.5千', 1500],
    ['二〇二四', 2024],
  ])('%s → %d', (raw, value) => {
    expect(parseNumber(raw)?.value).toBe(value);
  });

  it.each([
    '1千1000',
    '1千1000円',
    '2万万',
    '千千',
    '5千1万',
    '5万1億',
    '1万12345',
    '1億15000万',
    '1億2万3億',
    '2千5',
    '12千500',
    '1.5億5000万',
    '1万2.5',
    '〇万',
    '千〇',
    '十百',
    '万円',
    '1,2千',
    '二三千',
  ])('%s is malformed: null, never a guess', (raw) => {
    expect(parseNumber(raw)).toBeNull();
  });

  it('reads numerals exactly, without floating error', () => {
    expect(parseNumeral('12.8万')).toEqual({ units: 128000n, exp: 0 });
    expect(parseNumber('0.7千')?.value).toBe(700);
    expect(parseNumber('1.15億')?.value).toBe(115_000_000);
  });

  it.each(numerals.cases)('outside suite: $input → $expected ($source)', ({ input, expected }) => {
    expect(parseNumber(input)?.value ?? null).toBe(expected);
  });
});

describe('counters after numbers (issue 7 §6)', () => {
  it.each<[string, TableNumber]>([
    ['5人', { value: 5, counter: '人' }],
    ['1,234件', { value: 1234, counter: '件' }],
    ['３個', { value: 3, counter: '個' }],
    ['12本', { value: 12, counter: '本' }],
    ['100枚', { value: 100, counter: '枚' }],
    ['2台', { value: 2, counter: '台' }],
    ['15冊', { value: 15, counter: '冊' }],
    ['3点', { value: 3, counter: '点' }],
    ['10回', { value: 10, counter: '回' }],
    ['42名', { value: 42, counter: '名' }],
    ['8社', { value: 8, counter: '社' }],
    ['100株', { value: 100, counter: '株' }],
    ['1万2千人', { value: 12_000, counter: '人' }],
    ['1,234千人', { value: 1_234_000, counter: '人' }],
    ['三百世帯', { value: 300, counter: '世帯' }],
    ['5か所', { value: 5, counter: 'か所' }],
    ['△12件', { value: -12, counter: '件' }],
    ['5 人', { value: 5, counter: '人' }],
  ])('%s', (raw, expected) => {
    expect(parseNumber(raw)).toEqual(expected);
  });

  it('a counter is not money and not a percentage', () => {
    expect(parseNumber('100円')).toEqual({ value: 100 });
    expect(parseNumber('5人%')).toBeNull();
    expect(parseNumber('5人円')).toBeNull();
    expect(parseNumber('第5回')).toBeNull();
  });
});

describe('parseUnitLabel: 千円 as a heading, not an amount', () => {
  it.each([
    ['(単位：千円)', { multiplier: 1000, unit: '円' }],
    ['（単位:百万円）', { multiplier: 1_000_000, unit: '円' }],
    ['単位 億円', { multiplier: 100_000_000, unit: '円' }],
    ['千円', { multiplier: 1000, unit: '円' }],
    ['円', { multiplier: 1, unit: '円' }],
    ['千人', { multiplier: 1000, unit: '人' }],
    ['万円', { multiplier: 10_000, unit: '円' }],
    ['%', { multiplier: 1, unit: '%' }],
  ])('%s', (raw, expected) => {
    expect(parseUnitLabel(raw)).toEqual(expected);
  });

  it('the same 千円 is an amount in a cell and a multiplier in a heading', () => {
    const unit = parseUnitLabel('（単位：千円）')!;
    expect(parseNumber('千円')).toEqual({ value: 1000 });
    expect(parseNumber('1,234')!.value! * unit.multiplier).toBe(1_234_000);
    expect(parseNumber('1,234千円')).toEqual({ value: 1_234_000 });
  });

  it('an amount or a malformed unit is no heading', () => {
    expect(parseUnitLabel('1,234千円')).toBeNull();
    expect(parseUnitLabel('千千円')).toBeNull();
    expect(parseUnitLabel('千%')).toBeNull();
    expect(parseUnitLabel('単位：ドル')).toBeNull();
  });
});

describe('〇 after a unit, fractions after 万/億, マイナス (issue 19)', () => {
  it.each<[string, number]>([
    // Zero-padded to the places below the unit, or 〇 marking skipped places.
    ['五万〇〇〇七', 50_007],
    ['三千〇〇九', 3009],
    ['一万〇八', 10_008],
    ['百〇五', 105],
    ['二億〇〇〇〇〇〇〇一', 200_000_001],
    ['四万〇六百', 40_600],
    ['二千〇十九', 2019],
    // The last group after 万/億 written to its full width may carry the fraction.
    ['2,345万6,789.5', 23_456_789.5],
    ['7億1,200万3,456.25', 712_003_456.25],
    ['12万0,500.5', 120_500.5],
    // マイナス spelled out is the minus sign.
    ['マイナス8', -8],
    ['マイナス2,500', -2500],
    ['マイナス四百', -400],
    ['マイナス 0.5%', -0.5],
  ])('%s → %d', (raw, value) => {
    expect(parseNumber(raw)?.value).toBe(value);
  });

  it.each(['九万〇〇〇〇', '〇三', '一万〇二三', '5万12.5', '1億5,678.9', 'マイナス', 'マイナス万'])(
    '%s is malformed: null',
    (raw) => {
      expect(parseNumber(raw)).toBeNull();
    },
  );
});

describe('numbers a JS number cannot hold exactly are null, not another number (issue 19)', () => {
  it.each([
    '9007199254740993',
    '１２３４５６７８９０１２３４５６７８',
    '1,234,567,890,123,456',
    '0.1234567890123456789',
    '1兆2,345億6,789万1,234.567',
  ])('%s → null', (raw) => {
    expect(parseNumber(raw)).toBeNull();
  });

  it.each<[string, number]>([
    ['999,999,999,999,999', 999_999_999_999_999],
    ['0.000000000000001', 0.000000000000001],
    ['1兆2,345億6,789万1,234', 1_234_567_891_234],
  ])('%s keeps its value', (raw, value) => {
    expect(parseNumber(raw)?.value).toBe(value);
  });
});
