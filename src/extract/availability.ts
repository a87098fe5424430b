// Stock states from schema.org terms and OpenGraph product:availability values, onto the item schema's enum.

export type Availability = 'in_stock' | 'out_of_stock' | 'preorder' | 'backorder' | 'limited' | 'discontinued';

const terms: Readonly<Record<string, Availability>> = {
  instock: 'in_stock',
  instoreonly: 'in_stock',
  onlineonly: 'in_stock',
  limitedavailability: 'limited',
  outofstock: 'out_of_stock',
  soldout: 'out_of_stock',
  oos: 'out_of_stock',
  preorder: 'preorder',
  presale: 'preorder',
  backorder: 'backorder',
  availablefororder: 'backorder',
  discontinued: 'discontinued',
};

/** `http://schema.org/InStock`, `InStock`, `in stock`, `out of stock` …; null for anything else. */
export function availabilityOf(value: string | null | undefined): Availability | null {
  if (!value) return null;
  const term = value
    .replace(/^.*[/:#]/, '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
  return terms[term] ?? null;
}
