// What a monitor keeps of one good check: the watched values read from a scrape result's `data` (item page type).
import { enumFieldValues, numericFields, type FieldValue, type Observation, type WatchedField } from './model.js';

// A value of the wrong type is what a page did not state, not something to compare: it reads as null.
function fieldOf(data: Record<string, unknown>, field: WatchedField): FieldValue {
  const value = data[field];
  if (numericFields.includes(field)) return typeof value === 'number' && Number.isFinite(value) ? value : null;
  if (field === 'on_sale') return typeof value === 'boolean' ? value : null;
  const allowed = enumFieldValues[field];
  return typeof value === 'string' && allowed?.includes(value) ? value : null;
}

/**
 * What shipping adds to the price, when the page says: 送料無料 and 送料込 add nothing, 送料別 adds the stated fee.
 * A conditional free shipping (`3,980円以上送料無料`) is `extra` on the item, so its fee counts: the monitor watches one
 * item, not an order.
 */
function shippingFeeOf(data: Record<string, unknown>): number | null {
  const shipping = fieldOf(data, 'shipping');
  if (shipping === 'free' || shipping === 'included') return 0;
  if (shipping === 'extra') return fieldOf(data, 'shipping_fee') as number | null;
  return null;
}

/** price − points + shipping fee, or null unless all three are known (never guessed: no fee, no effective price). */
export function effectivePriceOf(data: Record<string, unknown>): number | null {
  const price = fieldOf(data, 'price') as number | null;
  const points = fieldOf(data, 'points') as number | null;
  const fee = shippingFeeOf(data);
  return price === null || points === null || fee === null ? null : price - points + fee;
}

/**
 * The watched values of one good check, read from a scrape result's `data` (item page type). effective_price = price −
 * points + shipping_fee only when price, points and the shipping fee are all known (shipping 'free' or 'included'
 * counts as fee 0; 'extra' needs shipping_fee; unknown → null). Only the `watch` fields are returned, each one present
 * (null when the page did not say); effective_price is computed only when watched.
 */
export function observationOf(data: Record<string, unknown>, watch: readonly WatchedField[]): Observation {
  const observation: Observation = {};
  for (const field of watch) {
    observation[field] = field === 'effective_price' ? effectivePriceOf(data) : fieldOf(data, field);
  }
  return observation;
}
