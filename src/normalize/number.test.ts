// Table tests for statistical cells: marks of research §3.2 and a table's own legend.
import { describe, expect, it } from 'vitest';
import { parseTableNumber } from './number.js';

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
