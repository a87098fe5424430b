// What one call costs in credits: the route's price (sites/pricing.ts) and the artifact kept, capped.
import { routeCost } from '../sites/pricing.js';
import type { SiteRoute } from '../sites/site.js';
import type { ScrapeParams } from './plan.js';

/** Cost in credits (DESIGN.md §2): 1 over HTTP, 2 through the browser, +1 to keep an artifact; never above 3. */
export function costOf(route: SiteRoute, params: Pick<ScrapeParams, 'store_artifact'>): number {
  return Math.min(3, routeCost({ route }) + (params.store_artifact ? 1 : 0));
}
