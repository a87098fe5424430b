// Points statements: an amount only with a points word, a rate from % or 倍.
import { describe, expect, it } from 'vitest';
import { parsePoints } from './points.js';

describe('parsePoints', () => {
  it.each([
    ['330pt (1%)', { amount: 330, rate: 1 }],
    ['30ポイント(1倍)', { amount: 30, rate: 1 }],
    ['ポイント10倍', { amount: null, rate: 10 }],
    ['10%還元（330ポイント）', { amount: 330, rate: 10 }],
    ['20 PT', { amount: 20, rate: null }],
    ['1,250ポイント', { amount: 1250, rate: null }],
    ['2,200円', { amount: null, rate: null }],
  ])('%s', (text, expected) => {
    expect(parsePoints(text)).toEqual(expected);
  });
});
