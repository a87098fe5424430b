// The page's schema.org Product: JSON-LD first, microdata (the same vocabulary) only when there is no JSON-LD Product.
import type { HtmlPage } from '../normalize/page.js';
import { findProduct, parseJsonLd, type JsonLdOffer, type JsonLdProduct, type JsonObject } from './json-ld.js';
import { readMicrodata } from './microdata.js';
import type { StructuredAmount } from './shown-price.js';

export interface StructuredProduct {
  product: JsonLdProduct | null;
  /** The provenance prefix of whatever `product` came from. */
  sd: 'json-ld' | 'microdata';
  /** The first offer with a price, else the first offer. */
  offer: JsonLdOffer | undefined;
  /** Every JSON-LD node of the page (AggregateRating, BreadcrumbList … live beside the Product). */
  nodes: JsonObject[];
}

/** Malformed JSON-LD blocks are skipped with a warning pushed onto `warnings`. */
export function readStructuredProduct(page: HtmlPage, warnings: string[]): StructuredProduct {
  const jsonLd = parseJsonLd(page.jsonLd);
  warnings.push(...jsonLd.warnings);
  const fromJsonLd = findProduct(jsonLd.nodes);
  const product = fromJsonLd ?? findProduct(readMicrodata(page.document));
  const offer = product?.offers.find((o) => o.price !== null) ?? product?.offers[0];
  return { product, sd: fromJsonLd ? 'json-ld' : 'microdata', offer, nodes: jsonLd.nodes };
}

/** The offer's price as a structured source for `decidePrice`, with its declared tax basis when it states one. */
export function structuredPrice(offer: JsonLdOffer | undefined, sd: StructuredProduct['sd']): StructuredAmount | null {
  if (offer?.price == null) return null;
  return {
    amount: offer.price,
    source: `${sd}:offers.price`,
    tax:
      offer.taxIncluded === null
        ? null
        : { included: offer.taxIncluded, source: `${sd}:offers.priceSpecification.valueAddedTaxIncluded` },
  };
}
