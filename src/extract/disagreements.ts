// Wrong-value telemetry (issue 19 §4): a page whose structured sources disagree about a served field, as plain data
// the worker hands back beside the result, so a site's template change is counted before a caller reports it.
import type { Disagreement, Extraction } from './extractor.js';
import { availabilityOf, type Availability } from './availability.js';
import { findProduct, parseJsonLd, type JsonLdOffer } from './json-ld.js';
import { readMeta } from './meta.js';
import { readMicrodata } from './microdata.js';
import type { NormalizedPage } from '../normalize/page.js';

export type { Disagreement };

/** The fields cross-checked: the ones a wrong value of costs a user's trust, and that structured data states. */
type Checked = 'price' | 'availability';

interface Stated {
  kind: string;
  /** Agrees with a served value (several offers, a price range: any of them). */
  agrees(value: unknown): boolean;
  /** Agrees with another source's statement (shared values, overlapping ranges). */
  overlaps(other: Stated): boolean;
  values: unknown[];
}

/**
 * What an item page's structured sources (JSON-LD, microdata, the `product:` meta tags) say about the served price
 * and availability, checked against each other and against what the extractor served (whose source kind its
 * provenance names). Extractor-reported disagreements (`extraction.disagreements`) are kept; duplicates go.
 * Only pages that serve a `price` are checked: the cross-check costs a walk of the page, and those are the pages
 * whose numbers users act on.
 */
export function disagreementsOf(page: NormalizedPage, extraction: Extraction): Disagreement[] {
  const found = [...(extraction.disagreements ?? [])];
  if (page.kind === 'html' && typeof extraction.data.price === 'number') {
    const sources = structuredSources(page);
    for (const field of ['price', 'availability'] as const) {
      found.push(...compare(field, sources[field], extraction));
    }
  }
  const seen = new Set<string>();
  return found
    .map((d) => ({ field: d.field, sources: [...new Set(d.sources)].sort() }))
    .filter((d) => {
      const key = `${d.field} ${d.sources.join(' ')}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function compare(field: Checked, stated: Stated[], extraction: Extraction): Disagreement[] {
  const out: Disagreement[] = [];
  for (let i = 0; i < stated.length; i++) {
    for (let j = i + 1; j < stated.length; j++) {
      if (!stated[i]!.overlaps(stated[j]!)) out.push({ field, sources: [stated[i]!.kind, stated[j]!.kind] });
    }
  }
  const served = extraction.data[field];
  if (served === undefined || served === null) return out;
  const servedKind = kindOf(extraction.provenance[field] ?? '');
  for (const s of stated) {
    if (s.kind !== servedKind && !s.agrees(served)) out.push({ field, sources: [s.kind, servedKind] });
  }
  return out;
}

/** The kind of source a provenance entry names: anything read from the displayed page is `shown`. */
function kindOf(provenance: string): string {
  if (provenance.includes('selector:')) return 'shown';
  const prefix = /^([a-z-]+)[:[(]/.exec(provenance)?.[1];
  return prefix ?? 'unknown';
}

function structuredSources(page: NormalizedPage & { kind: 'html' }): Record<Checked, Stated[]> {
  const out: Record<Checked, Stated[]> = { price: [], availability: [] };
  const products = [
    { kind: 'json-ld', product: findProduct(parseJsonLd(page.jsonLd).nodes) },
    { kind: 'microdata', product: findProduct(readMicrodata(page.document)) },
  ];
  for (const { kind, product } of products) {
    const offers = product?.offers.filter((o) => o.price !== null) ?? [];
    if (offers.length > 0) out.price.push(priceStatement(kind, offers));
    const stock = (product?.offers ?? []).map((o) => availabilityOf(o.availability)).filter((a) => a !== null);
    if (stock.length > 0) out.availability.push(stockStatement(kind, stock));
  }
  const meta = readMeta(page);
  const amount = meta.priceAmount && /^\d+(\.0+)?$/.test(meta.priceAmount.trim()) ? Number(meta.priceAmount) : null;
  const yen = meta.priceCurrency === null || meta.priceCurrency.toUpperCase() === 'JPY';
  if (amount !== null && yen) out.price.push(priceStatement('meta', [{ price: amount, highPrice: null }]));
  const metaStock = availabilityOf(meta.availability);
  if (metaStock) out.availability.push(stockStatement('meta', [metaStock]));
  return out;
}

function priceStatement(kind: string, offers: Pick<JsonLdOffer, 'price' | 'highPrice'>[]): Stated {
  const ranges = offers.map((o) => [o.price!, o.highPrice ?? o.price!] as const);
  const agrees = (v: unknown) => typeof v === 'number' && ranges.some(([lo, hi]) => v >= lo && v <= hi);
  return {
    kind,
    values: ranges,
    agrees,
    overlaps: (other) =>
      (other.values as (readonly [number, number])[]).some(([lo, hi]) =>
        ranges.some(([a, b]) => Math.max(a, lo) <= Math.min(b, hi)),
      ),
  };
}

/**
 * Stock states compared coarsely (buyable now, later, or not): `limited` and `in_stock` are one answer, and a
 * preorder is no out-of-stock.
 */
const stockClass: Record<Availability, string> = {
  in_stock: 'now',
  limited: 'now',
  preorder: 'later',
  backorder: 'later',
  out_of_stock: 'no',
  discontinued: 'no',
};

function stockStatement(kind: string, states: Availability[]): Stated {
  const classes = new Set(states.map((s) => stockClass[s]));
  return {
    kind,
    values: [...classes],
    agrees: (v) => typeof v === 'string' && v in stockClass && classes.has(stockClass[v as Availability]),
    overlaps: (other) => other.values.some((c) => classes.has(c as string)),
  };
}
