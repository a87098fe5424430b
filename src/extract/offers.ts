// Which of a page's offers sets the item's `price` (DESIGN §1): the new-condition offer when there is one (the
// cheapest of them), else the cheapest; the reason goes into provenance.
import type { OfferData } from './page-types.js';

export interface PrimaryOffer {
  offer: OfferData;
  index: number;
  /** `only` (one offer), `new` (the cheapest new-condition offer), `lowest` (no new offer: the cheapest). */
  why: 'only' | 'new' | 'lowest';
}

export function primaryOffer(offers: readonly OfferData[]): PrimaryOffer | null {
  if (offers.length === 0) return null;
  if (offers.length === 1) return { offer: offers[0]!, index: 0, why: 'only' };
  const cheapest = (pool: readonly OfferData[]) =>
    pool.reduce((best, o) => (o.price < best.price ? o : best), pool[0]!);
  const fresh = offers.filter((o) => o.condition === 'new');
  const offer = cheapest(fresh.length > 0 ? fresh : offers);
  return { offer, index: offers.indexOf(offer), why: fresh.length > 0 ? 'new' : 'lowest' };
}

/** `offers[2] (new-condition offer)` and the like: how `price` was chosen, for `extractor.provenance`. */
export function primaryOfferSource(primary: PrimaryOffer, offersSource: string): string {
  const why = { only: 'the only offer', new: 'the new-condition offer', lowest: 'no new offer: the lowest' }[
    primary.why
  ];
  return `${offersSource}[${primary.index}] (${why})`;
}
