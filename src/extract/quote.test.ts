// quoteMetric: market figures with their units applied, marks as null with a reason, the written text kept.
import { describe, expect, it } from 'vitest';
import { quoteMetric } from './quote.js';

describe('quoteMetric', () => {
  it.each([
    ['10.8倍', '倍', 10.8],
    ['3.67％', '%', 3.67],
    ['39兆7,640億円', '円', 39764000000000],
    ['100,362 百万円', '円', 100362000000],
    ['59,848 百万円', '円', 59848000000],
    ['134,400 株', '株', 134400],
    ['2,724.5', '円', 2724.5],
  ])('%s → %s %s', (raw, unit, value) => {
    expect(quoteMetric('k', 'label', raw, unit)).toMatchObject({ value, unit });
  });

  it.each([
    ['－倍', '倍', 'not_applicable'],
    ['---', '円', 'unavailable'],
    ['---円', '円', 'unavailable'],
    ['-- 倍', '倍', 'unavailable'],
    ['N/A', '%', 'unavailable'],
  ])('%s is null with reason %s', (raw, unit, reason) => {
    const m = quoteMetric('k', 'label', raw, unit);
    expect(m).toMatchObject({ value: null, reason });
    expect(m?.raw.length).toBeGreaterThan(0);
  });

  it('gives null for text that is no figure, leaving the decision to the caller', () => {
    expect(quoteMetric('k', 'label', '非公開のため未定', '円')).toBeNull();
  });
});
