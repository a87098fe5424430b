// The output gate: complete results pass, anything partial fails with the field names and never a value.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { validateExtraction } from './page-types.js';

const run = (pageType: string, data: Record<string, unknown>) => () =>
  validateExtraction(pageType, { data, provenance: {}, warnings: [] });

const failure = (fn: () => void): KumoError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof KumoError) return e;
    throw e;
  }
  throw new Error('expected extraction_failed');
};

describe('validateExtraction', () => {
  const item = { title: 'USB cable', price: 2200, currency: 'JPY', price_tax: 'included' };

  it('accepts a minimal and a full item', () => {
    expect(run('item', item)).not.toThrow();
    expect(
      run('item', {
        ...item,
        price_excluding_tax: 2000,
        list_price: 3000,
        points: 20,
        shipping: 'included',
        availability: 'in_stock',
        brand: 'Teenage Engineering',
        shop: '池部楽器店',
        jan: '2500140008600',
        sku: '750592',
        images: ['https://ikebeweb.itembox.design/x.jpg'],
        canonical_url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      }),
    ).not.toThrow();
  });

  it('names missing fields', () => {
    const e = failure(run('item', { title: 'x', currency: 'JPY', price_tax: 'unknown' }));
    expect(e.code).toBe('extraction_failed');
    expect(e.message).toContain('/price missing');
    expect(e.extras.body?.fields).toEqual(['/price']);
  });

  it('names invalid fields without echoing their values', () => {
    const e = failure(run('item', { ...item, title: '', price: 12.5, jan: 'secret-jan' }));
    expect(e.message).toMatch(/\/title invalid/);
    expect(e.message).toMatch(/\/price invalid/);
    expect(e.message).toMatch(/\/jan invalid/);
    expect(e.message).not.toContain('secret-jan');
  });

  it('rejects negative prices, other currencies and unknown fields', () => {
    expect(failure(run('item', { ...item, price: -1 })).message).toContain('/price');
    expect(failure(run('item', { ...item, currency: 'USD' })).message).toContain('/currency');
    expect(failure(run('item', { ...item, colour: 'red' })).message).toContain('/colour not allowed');
  });

  it('has no schema for an unknown page type', () => {
    expect(failure(run('horoscope', {})).message).toContain('no output schema');
  });

  it('checks forecast and table results too', () => {
    expect(
      failure(run('forecast', { publishing_office: '気象庁', report_datetime: '2022-02-22 05:00' })).message,
    ).toMatch(/report_datetime invalid|short_term missing/);
    expect(failure(run('table', { title: 'x' })).message).toContain('/rows missing');
  });
});

describe('rules beside the schema', () => {
  const item = { title: 't', price: 1100, currency: 'JPY', price_tax: 'included' };
  const list = (items: Record<string, unknown>[], total: number | null = null) => ({
    items,
    next_page: null,
    total,
    page: null,
  });

  it('a listed price carries its currency and tax basis', () => {
    expect(run('search', list([{ title: 'a', price: 100, currency: 'JPY', price_tax: 'unknown' }]))).not.toThrow();
    expect(run('search', list([{ title: 'a' }]))).not.toThrow();
    expect(failure(run('search', list([{ title: 'a', price: 100 }]))).message).toContain('/items/0/price');
  });

  it('refuses mixed-up sources: a range downwards, 税抜 above 税込, a fee on free shipping, a rate above 100%', () => {
    expect(failure(run('item', { ...item, price_range: { min: 2, max: 1 } })).message).toContain('/price_range');
    expect(failure(run('item', { ...item, price_excluding_tax: 1200 })).message).toContain('/price_excluding_tax');
    expect(run('item', { ...item, price_tax: 'excluded', price_excluding_tax: 1200 })).not.toThrow();
    expect(failure(run('item', { ...item, shipping: 'free', shipping_fee: 500 })).message).toContain('/shipping_fee');
    expect(run('item', { ...item, shipping: 'extra', shipping_fee: 500 })).not.toThrow();
    expect(failure(run('item', { ...item, points_rate: 150 })).message).toContain('/points_rate');
  });

  it('a list cannot count fewer hits than it lists', () => {
    expect(failure(run('search', list([{ title: 'a' }, { title: 'b' }], 1))).message).toContain('/total');
    expect(run('search', list([], 0))).not.toThrow();
  });
});
