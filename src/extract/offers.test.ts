// price follows the new-condition offer when there is one, else the lowest (DESIGN §1).
import { describe, expect, it } from 'vitest';
import { primaryOffer, primaryOfferSource } from './offers.js';
import type { OfferData } from './page-types.js';

const offer = (condition: OfferData['condition'], price: number): OfferData => ({
  condition,
  price,
  price_tax: 'included',
  on_sale: false,
});

describe('primaryOffer', () => {
  it('is null without offers and the only one when there is one', () => {
    expect(primaryOffer([])).toBeNull();
    expect(primaryOffer([offer('used', 500)])).toMatchObject({ index: 0, why: 'only' });
  });
  it('prefers the cheapest new offer over a cheaper used one', () => {
    const p = primaryOffer([offer('used', 300), offer('new', 900), offer('new', 800)])!;
    expect(p).toMatchObject({ index: 2, why: 'new' });
    expect(primaryOfferSource(p, 'selector:.offer')).toBe('selector:.offer[2] (the new-condition offer)');
  });
  it('takes the lowest when no offer is new', () => {
    expect(primaryOffer([offer('used', 4680), offer('used', 3060), offer('unknown', 3450)])).toMatchObject({
      index: 1,
      why: 'lowest',
    });
  });
});
