// knownColumns and datedRow: a daily price table is read to its known headings, or refused with positions only.
import { describe, expect, it } from 'vitest';
import { isKumoError } from '../errors.js';
import { DAILY_PRICE_COLUMNS, datedRow, knownColumns } from './dated-rows.js';

const detail = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    if (isKumoError(error)) return `${error.code}: ${error.message}`;
  }
  return 'no error';
};

describe('daily price tables', () => {
  const columns = knownColumns(['日付', '始値', '終値'], DAILY_PRICE_COLUMNS, 't');

  it('reads ISO dates and numbers by column key', () => {
    expect(datedRow(['2026-06-30', '2,724.5', '2,725.0'], columns, 't')).toEqual({
      date: '2026-06-30',
      open: 2724.5,
      close: 2725,
    });
  });

  it('refuses unknown headings by position, a table not led by its date, and cells that do not fit', () => {
    expect(detail(() => knownColumns(['日付', '謎の列'], DAILY_PRICE_COLUMNS, 't'))).toBe(
      'extraction_failed: t: unexpected column headings (at 2)',
    );
    expect(detail(() => knownColumns(['始値', '日付'], DAILY_PRICE_COLUMNS, 't'))).toMatch(/\(at first\)$/);
    expect(detail(() => datedRow(['2026-06-30', '1'], columns, 't'))).toMatch(/a row has 2 cells$/);
    expect(detail(() => datedRow(['昨日', '1', '2'], columns, 't'))).toMatch(/a row without a date$/);
    expect(detail(() => datedRow(['2026-06-30', 'abc', '2'], columns, 't'))).toMatch(/open is not a number$/);
  });
});
