// Shipping statements as Japanese shops and Amazon's English interface write them.
import { describe, expect, it } from 'vitest';
import { parseShippingTerms } from './shipping.js';

describe('parseShippingTerms', () => {
  it.each([
    ['送料無料', { shipping: 'free', fee: null, freeThreshold: null }],
    ['送料込', { shipping: 'included', fee: null, freeThreshold: null }],
    ['送料込み(出品者負担)', { shipping: 'included', fee: null, freeThreshold: null }],
    ['送料別', { shipping: 'extra', fee: null, freeThreshold: null }],
    ['送料 440円', { shipping: 'extra', fee: 440, freeThreshold: null }],
    ['送料別 ¥550', { shipping: 'extra', fee: 550, freeThreshold: null }],
    ['送料全国一律 880円', { shipping: 'extra', fee: 880, freeThreshold: null }],
    ['3,980円以上送料無料', { shipping: 'extra', fee: null, freeThreshold: 3980 }],
    ['999円未満 440円 999円以上 送料無料', { shipping: 'extra', fee: 440, freeThreshold: 999 }],
    ['¥5,000以上のご注文で送料無料', { shipping: 'extra', fee: null, freeThreshold: 5000 }],
    ['+ ￥1,598 shipping', { shipping: 'extra', fee: 1598, freeThreshold: null }],
    ['+ ￥350 配送料', { shipping: 'extra', fee: 350, freeThreshold: null }],
    ['FREE delivery', { shipping: 'free', fee: null, freeThreshold: null }],
    ['送料別 3,980円以上送料無料', { shipping: 'extra', fee: null, freeThreshold: 3980 }],
    ['送料 550円(3,980円以上で送料無料)', { shipping: 'extra', fee: 550, freeThreshold: 3980 }],
    ['送料0円', { shipping: 'free', fee: null, freeThreshold: null }],
    ['お届け日時をご確認ください', { shipping: 'unknown', fee: null, freeThreshold: null }],
  ])('%s', (text, expected) => {
    expect(parseShippingTerms(text)).toEqual(expected);
  });
});
