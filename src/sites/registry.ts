// The closed catalogue of supported sites (one import per site) and lookups by id, host and URL.
import type { PageTypeEntry, Site } from './site.js';
import { estatApi } from './estat-api/site.js';
import { ikebeGakki } from './ikebe-gakki/site.js';
import { jmaForecast } from './jma-forecast/site.js';

export const siteCatalogue: readonly Site[] = [ikebeGakki, jmaForecast, estatApi];

export class SiteRegistry {
  readonly #sites: readonly Site[];
  readonly #byHost: ReadonlyMap<string, Site>;

  constructor(sites: readonly Site[] = siteCatalogue) {
    const byHost = new Map<string, Site>();
    const ids = new Set<string>();
    for (const site of sites) {
      if (ids.has(site.id)) throw new Error(`duplicate site id ${site.id}`);
      ids.add(site.id);
      for (const host of site.hosts) {
        if (host !== host.toLowerCase() || host.endsWith('.')) throw new Error(`host ${host} is not canonical`);
        if (byHost.has(host)) throw new Error(`host ${host} belongs to two sites`);
        byHost.set(host, site);
      }
    }
    this.#sites = sites;
    this.#byHost = byHost;
  }

  list(): readonly Site[] {
    return this.#sites;
  }

  get(id: string): Site | null {
    return this.#sites.find((s) => s.id === id) ?? null;
  }

  /** Exact match on the canonical host (lower-case, no trailing dot): no suffix or subdomain matching. */
  resolveHost(host: string): Site | null {
    return this.#byHost.get(host.toLowerCase()) ?? null;
  }

  /**
   * `auto`: the first page type whose URL pattern matches. An explicit work_type names a page type the site
   * declares, whatever the URL; null when the site has no such type (the caller answers 422).
   */
  pageTypeFor(site: Site, url: URL, workType: string): PageTypeEntry | null {
    if (workType === 'auto') return site.pageTypes.find((entry) => entry.matches(url)) ?? null;
    return site.pageTypes.find((entry) => entry.pageType === workType) ?? null;
  }
}
