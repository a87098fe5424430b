// decidePrice: the displayed price wins, structured data confirms it or stands in, and a disagreement is reported.
import { describe, expect, it } from 'vitest';
import { decidePrice } from './shown-price.js';

const shown = { amount: 2200, source: 'selector:#price', tax: 'included' as const, taxSource: 'selector:#price' };
const ld = { amount: 2200, source: 'json-ld:offers.price', tax: { included: false, source: 'json-ld:tax' } };

describe('decidePrice', () => {
  it('serves the shown price and names the structured source that agrees', () => {
    const warnings: string[] = [];
    expect(decidePrice(shown, ld, warnings)).toEqual({
      amount: 2200,
      source: 'selector:#price (json-ld:offers.price agrees)',
      tax: 'included',
      taxSource: 'selector:#price',
      from: 'shown',
    });
    expect(warnings).toEqual([]);
  });

  it('serves the shown price over a structured one that disagrees, with a warning, and never its tax basis', () => {
    const warnings: string[] = [];
    const d = decidePrice({ ...shown, tax: 'unknown', taxSource: '' }, { ...ld, amount: 1980 }, warnings);
    expect(d).toMatchObject({ amount: 2200, source: 'selector:#price', tax: 'unknown', taxSource: null });
    expect(warnings).toEqual([
      'json-ld:offers.price (1980) disagrees with the displayed price; serving the displayed price',
    ]);
  });

  it('lets structured data stand in, with its own tax statement, only when nothing is shown', () => {
    expect(decidePrice(null, ld, [])).toEqual({
      amount: 2200,
      source: 'json-ld:offers.price',
      tax: 'excluded',
      taxSource: 'json-ld:tax',
      from: 'structured',
    });
    expect(decidePrice(null, { ...ld, tax: null }, [])).toMatchObject({ tax: 'unknown', taxSource: null });
    expect(decidePrice(null, null, [])).toBeNull();
  });
});
