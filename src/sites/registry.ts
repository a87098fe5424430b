// The closed catalogue of supported sites (one folder each, listed by a generated file) and lookups by id, host and URL.
import { defaultRouteOf, type PageTypeEntry, type Site } from './site.js';
import {
  earnedCoverage,
  effectiveCoverage,
  isRealPage,
  readsCorpus,
  loadShippedRecord,
  verifySiteSync,
  type FixtureResult,
  type VerificationRecord,
} from './verification.js';
import { generatedSites } from './catalogue.generated.js';

/** Every site: one per folder of src/sites/, listed by catalogue.generated.ts (`kumo sites index --write`). */
export const siteCatalogue: readonly Site[] = generatedSites;

export interface RegistryOptions {
  /**
   * Absent (the server, the CLI): coverage comes only from the verification record shipped beside this module
   * (dist/sites/verification-record.json, written by `npm run build` after checking it is current), so a build
   * deploys without src/ or the fixtures; the constructor throws when that record cannot be read.
   * Given (null for none): the in-project fixtures run now and only the real-page (corpus) outcomes come from it,
   * for the build's own check and for tests of how coverage is earned.
   */
  record?: VerificationRecord | null;
}

type Outcome = Pick<FixtureResult, 'site' | 'pageType' | 'source' | 'status' | 'route'>;

/** Fixture outcomes of one site: all from the shipped record, or in-project ones live plus the record's corpus ones. */
function outcomesOf(site: Site, shipped: VerificationRecord | null, record: VerificationRecord | null): Outcome[] {
  if (shipped) return shipped.fixtures.filter((r) => r.site === site.id);
  const live = verifySiteSync(site, { only: (meta) => meta.source !== 'corpus' });
  const fromRecord = (record?.fixtures ?? []).filter((r) => r.site === site.id && readsCorpus(r.source));
  return [...live, ...fromRecord];
}

/**
 * Coverage is earned, not declared (DESIGN §6): each page type is served at its declared level capped by what its
 * fixtures earned.
 */
function withEarnedCoverage(site: Site, results: readonly Outcome[]): Site {
  return {
    ...site,
    pageTypes: site.pageTypes.map((entry) => {
      const mine = results.filter((r) => r.pageType === entry.pageType);
      const earned = earnedCoverage(mine);
      const count = (status: FixtureResult['status']) => mine.filter((r) => r.status === status).length;
      const coverage = effectiveCoverage(entry.coverage, earned);
      return {
        ...entry,
        // The browser route is never served above its page type, never above what it declares itself, and never above
        // what its own fixtures (meta route "browser", rendered pages) earned: the default route's fixtures say
        // nothing about how a rendering is read.
        ...(entry.browser
          ? {
              browser: {
                ...entry.browser,
                coverage:
                  coverage === 'stopped'
                    ? coverage
                    : effectiveCoverage(
                        effectiveCoverage(entry.browser.coverage, coverage),
                        earnedCoverage(mine.filter((r) => r.route === 'browser')),
                      ),
              },
            }
          : {}),
        coverage,
        declaredCoverage: entry.coverage,
        verification: {
          earned,
          pass: count('pass'),
          fail: count('fail'),
          skipped: count('skipped'),
          // Fixture pages by origin: real ones (corpus, recorded) and ones we wrote on the site's structure.
          real: mine.filter((r) => isRealPage(r.source)).length,
          // A real body in a container we built counts here: the container is modelled.
          modelled: mine.filter((r) => r.source === 'modelled' || r.source === 'corpus-wrapped').length,
        },
      };
    }),
  };
}

export class SiteRegistry {
  readonly #sites: readonly Site[];
  readonly #byHost: ReadonlyMap<string, Site>;
  readonly #byApiHost: ReadonlyMap<string, Site>;

  constructor(declared: readonly Site[] = siteCatalogue, options: RegistryOptions = {}) {
    const shipped = options.record === undefined ? loadShippedRecord() : null;
    const record = options.record ?? null;
    const sites = declared.map((site) => withEarnedCoverage(site, outcomesOf(site, shipped, record)));
    const byHost = new Map<string, Site>();
    const byApiHost = new Map<string, Site>();
    const ids = new Set<string>();
    for (const site of sites) {
      for (const entry of site.pageTypes) {
        const route = defaultRouteOf(site, entry);
        if ((route === 'api') !== (entry.api !== undefined))
          throw new Error(`${site.id} ${entry.pageType}: the api route and an API mapping go together`);
        if (route === 'browser' && !entry.browser)
          throw new Error(`${site.id} ${entry.pageType}: a browser route needs its rendering declared (browser)`);
        if (entry.browser && entry.browser.extractor.input !== 'html')
          throw new Error(`${site.id} ${entry.pageType}: the browser route reads rendered HTML`);
        for (const host of entry.browser?.subresourceHosts ?? [])
          if (host !== host.toLowerCase() || host.endsWith('.')) throw new Error(`host ${host} is not canonical`);
        for (const host of entry.api?.hosts ?? []) {
          if (host !== host.toLowerCase() || host.endsWith('.')) throw new Error(`host ${host} is not canonical`);
          // One site per fetched host: politeness and blame are that site's.
          const owner = byApiHost.get(host);
          if (owner && owner !== site) throw new Error(`API host ${host} belongs to two sites`);
          byApiHost.set(host, site);
        }
      }
      if (ids.has(site.id)) throw new Error(`duplicate site id ${site.id}`);
      ids.add(site.id);
      for (const host of site.hosts) {
        if (host !== host.toLowerCase() || host.endsWith('.')) throw new Error(`host ${host} is not canonical`);
        if (byHost.has(host)) throw new Error(`host ${host} belongs to two sites`);
        byHost.set(host, site);
      }
    }
    for (const host of byApiHost.keys())
      if (byHost.has(host) && byHost.get(host) !== byApiHost.get(host))
        throw new Error(`API host ${host} is another site's page host`);
    this.#sites = sites;
    this.#byHost = byHost;
    this.#byApiHost = byApiHost;
  }

  /** The site whose pages or API live on this host: where politeness rules for a fetched host come from. */
  siteOfFetchedHost(host: string): Site | null {
    return this.resolveHost(host) ?? this.#byApiHost.get(host.toLowerCase()) ?? null;
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
   * Hosts of supported sites a caller probably meant by an unsupported one: the same host with `www.` added or
   * removed first, then every other site host under the same registrable domain (`shop.rakuten.co.jp` →
   * `item.rakuten.co.jp`). Only ever a hint in an error; the caller's URL is never rewritten.
   */
  suggestHosts(host: string): string[] {
    const asked = host.toLowerCase();
    const bare = (h: string) => h.replace(/^www\./, '');
    const domain = registrableDomain(asked);
    const known = [...this.#byHost.keys()];
    const sameName = known.filter((candidate) => bare(candidate) === bare(asked) && candidate !== asked);
    const sameDomain = known.filter(
      (candidate) => registrableDomain(candidate) === domain && candidate !== asked && !sameName.includes(candidate),
    );
    return [...sameName, ...sameDomain].slice(0, 5);
  }

  /**
   * `auto`: the first page type whose URL pattern matches. An explicit work_type names a page type the site
   * declares, whatever the URL; null when the site has no such type (the caller answers 422).
   */
  pageTypeFor(site: Site, url: URL, workType: string): PageTypeEntry | null {
    if (workType === 'auto') return site.pageTypes.find((entry) => entry.matches(url)) ?? null;
    return site.pageTypes.find((entry) => entry.pageType === workType) ?? null;
  }

  /**
   * After redirects: the URL that was fetched must still be a page of the same kind as the one asked for (an item
   * that redirects to a search or top page must not be extracted as an item). True when the final URL is on the
   * same site and the URL patterns pick the same page type for it as for the requested URL (both none when the
   * caller named a work_type for a URL no pattern matches).
   */
  sameKindAfterRedirect(site: Site, requested: URL, final: URL): boolean {
    if (final.href === requested.href) return true;
    if (this.resolveHost(final.hostname) !== site) return false;
    const kind = (url: URL) => this.pageTypeFor(site, url, 'auto')?.pageType ?? null;
    return kind(final) === kind(requested);
  }
}

/**
 * Second-level labels under .jp that JPRS registers names beneath (attribute-type domains: `example.co.jp`). Other
 * names are taken as registrable at their last two labels. Good enough for a hint (a miss only loses a suggestion);
 * nothing that grants or refuses access depends on it.
 */
const jpAttributeLabels = new Set(['ac', 'ad', 'co', 'ed', 'go', 'gr', 'lg', 'ne', 'or']);

/** `item.rakuten.co.jp` → `rakuten.co.jp`; `www.ikebe-gakki.com` → `ikebe-gakki.com`. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const keep = labels.length >= 3 && labels.at(-1) === 'jp' && jpAttributeLabels.has(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
