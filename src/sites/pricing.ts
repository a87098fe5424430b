// What a call costs by the route its page type is fetched on: the one price list the API, the catalogue and docs read.
import type { Site } from './site.js';

/** Credits for one plain call on a site's route (DESIGN §2): the browser costs 2, HTTP and API 1. */
export function routeCost(site: Pick<Site, 'route'>): number {
  return site.route === 'browser' ? 2 : 1;
}
