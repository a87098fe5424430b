// The site catalogue as GET /v1/sites serves it and the console's Sites page shows it: one shape for both.
import type { Static } from 'typebox';
import type { SitesResponseSchema } from './schemas.js';
import { costOf } from '../scrape/cost.js';
import { cacheLimitOf, defaultRouteOf, routesOf } from '../sites/site.js';
import type { SiteRegistry } from '../sites/registry.js';

export type SiteCatalogueEntry = Static<typeof SitesResponseSchema>['sites'][number];

/** The catalogue as GET /v1/sites serves it; the console's Sites page shows the same entries. */
export function siteCatalogue(registry: SiteRegistry): SiteCatalogueEntry[] {
  return registry.list().map((site) => ({
    id: site.id,
    name: site.name,
    kind: site.kind,
    hosts: [...site.hosts],
    route: site.route,
    cost: costOf(site.route, { store_artifact: false }),
    page_types: site.pageTypes.map((entry) => ({
      page_type: entry.pageType,
      url_pattern: entry.urlPattern,
      coverage: entry.coverage,
      declared: entry.declaredCoverage ?? entry.coverage,
      earned: entry.verification?.earned ?? entry.coverage,
      extractor: entry.extractor.id,
      version: entry.extractor.version,
      verified_by: entry.verifiedBy,
      review: entry.review ? { reason: entry.review.reason } : null,
      fixtures: { real: entry.verification?.real ?? 0, modelled: entry.verification?.modelled ?? 0 },
      cache_limit_s: cacheLimitOf(site, entry).seconds,
      cache_limit_reason: cacheLimitOf(site, entry).reason,
      routes: routesOf(site, entry).map((route) => {
        const browser = route === 'browser' ? entry.browser : undefined;
        return {
          route,
          default: route === defaultRouteOf(site, entry),
          cost: costOf(route, { store_artifact: false }),
          coverage: browser ? browser.coverage : entry.coverage,
          extractor: (browser ?? entry).extractor.id,
          version: (browser ?? entry).extractor.version,
          verified_by: browser ? browser.verifiedBy : entry.verifiedBy,
        };
      }),
    })),
  }));
}
