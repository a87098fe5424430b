// Stock words of pages and schema.org terms onto the closed availability set.
import { describe, expect, it } from 'vitest';
import { availabilityFromText, availabilityOf } from './availability.js';

describe('availabilityFromText: sold, whichever word the shop uses (issue 19)', () => {
  it.each([
    '売約済み',
    '売約済',
    'こちらの商品は売約済みです',
    '成約済み',
    '販売済み',
    'SOLD',
    ' Sold ',
    'ソールドアウト',
    '売切',
    '品切',
    '在庫：×',
    '在庫 ✕',
    '在庫:無',
    'SOLD OUT',
    '売り切れ',
  ])('%s → out_of_stock', (text) => {
    expect(availabilityFromText(text)?.availability).toBe('out_of_stock');
  });

  it.each<[string, string | null]>([
    ['Ships from and sold by Amazon.co.jp', null],
    ['在庫：○', 'in_stock'],
    ['在庫あり', 'in_stock'],
    ['予約受付中', 'preorder'],
    // A future sell-out is still on sale.
    ['売り切れ次第終了', null],
    ['なくなり次第終了・売切御免', null],
    ['売り切れ間近', 'limited'],
    ['完売寸前！', 'limited'],
    ['完売御礼', 'out_of_stock'],
  ])('%s → %s', (text, availability) => {
    expect(availabilityFromText(text)?.availability ?? null).toBe(availability);
  });
});

describe('availabilityOf', () => {
  it('reads schema.org terms', () => {
    expect(availabilityOf('https://schema.org/SoldOut')).toBe('out_of_stock');
    expect(availabilityOf('InStock')).toBe('in_stock');
  });
});
