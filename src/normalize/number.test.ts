// Table tests for statistical cells: marks of research §3.2 and a table's own legend.
import { describe, expect, it } from 'vitest';
import { parseNumber, parseTableNumber, type TableNumber } from './number.js';

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
