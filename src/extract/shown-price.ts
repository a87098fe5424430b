// DESIGN §1's price rule for a single-offer item page: what the buyer is shown wins over structured data that
// disagrees; structured data confirms the shown price, or stands in only when nothing is shown.
import type { TaxStatus } from '../normalize/price.js';

/** A price read from what the page displays, with the tax basis its own text (or label) gives. */
export interface ShownAmount {
  amount: number;
  source: string;
  tax: TaxStatus;
  taxSource: string;
}

/** A price from structured data (JSON-LD, microdata, embedded state), with its declared tax basis if any. */
export interface StructuredAmount {
  amount: number;
  source: string;
  tax?: { included: boolean; source: string } | null;
}

export interface PriceDecision {
  amount: number;
  /** Provenance of `price`: the displayed source, noting a structured source that agrees. */
  source: string;
  tax: TaxStatus;
  /** Provenance of `price_tax`; null when the basis is unknown. */
  taxSource: string | null;
  from: 'shown' | 'structured';
}

export function decidePrice(
  shown: ShownAmount | null,
  structured: StructuredAmount | null,
  warnings: string[],
): PriceDecision | null {
  if (shown) {
    const agrees = structured !== null && structured.amount === shown.amount;
    if (structured && !agrees)
      warnings.push(
        `${structured.source} (${structured.amount}) disagrees with the displayed price; serving the displayed price`,
      );
    const known = shown.tax !== 'unknown';
    return {
      amount: shown.amount,
      source: agrees ? `${shown.source} (${structured.source} agrees)` : shown.source,
      tax: shown.tax,
      taxSource: known ? shown.taxSource : null,
      from: 'shown',
    };
  }
  if (!structured) return null;
  return {
    amount: structured.amount,
    source: structured.source,
    tax: structured.tax ? (structured.tax.included ? 'included' : 'excluded') : 'unknown',
    taxSource: structured.tax?.source ?? null,
    from: 'structured',
  };
}
