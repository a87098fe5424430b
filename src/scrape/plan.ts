// What a call asks for and what it will run: the caller's params, and the plan (site, page type, route, extractor) with
// the key's scopes checked; needs no credits, slot or storage, so batches and monitors plan their items with it too.
import { KumoError } from '../errors.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import type { SiteRegistry } from '../sites/registry.js';
import {
  defaultRouteOf,
  routesOf,
  servedInProduction,
  type PageTypeEntry,
  type Site,
  type SiteRoute,
} from '../sites/site.js';
import type { Extractor } from '../extract/extractor.js';
import type { Output } from '../storage/storage.js';
import type { Caller } from './caller.js';

/** What a caller asks for besides the URL: the body's `params`, defaults filled in by the route. */
export interface ScrapeParams {
  mode: 'html_json' | 'html';
  work_type: string;
  include_html: boolean;
  store_artifact: boolean;
  /** Render in the headless browser where the page type offers it (DESIGN §1); absent = false. */
  render_js?: boolean;
  /** Accept this account's cached result up to this age, and keep this one (DESIGN §10); absent or 0 = bypass. */
  max_age_s?: number;
}

/** What one call runs: the page type, the route it is fetched on, and the extractor that reads what comes back. */
export interface Planned {
  url: URL;
  site: Site;
  entry: PageTypeEntry;
  route: SiteRoute;
  extractor: Extractor;
}

/**
 * The route of a call: the browser when the caller asks for `render_js` (a page type without a browser route answers
 * 422), else the page type's default route.
 */
function routeOf(site: Site, entry: PageTypeEntry, renderJs: boolean): SiteRoute {
  if (!renderJs) return defaultRouteOf(site, entry);
  if (!routesOf(site, entry).includes('browser'))
    throw new KumoError('page_not_supported', `${site.id} ${entry.pageType} has no browser route (render_js)`);
  return 'browser';
}

/** The outputs a call produces, each of which the key must be allowed. */
function outputsOf(params: ScrapeParams): Output[] {
  const outputs: Output[] = [];
  if (params.mode === 'html_json') outputs.push('json');
  if (params.mode === 'html' || params.include_html) outputs.push('html');
  if (params.store_artifact) outputs.push('artifact');
  return outputs;
}

/** What planning reads of the service's options. */
export interface PlanContext {
  registry: SiteRegistry;
  environment: 'production' | 'development';
}

/** Steps that need no credits and no slot: what the URL is and whether this key may ask for it. */
export function planCall(context: PlanContext, caller: Caller, rawUrl: string, params: ScrapeParams): Planned {
  const url = parseTargetUrl(rawUrl);
  const site = context.registry.resolveHost(url.hostname);
  if (!site) {
    // A near miss (no `www.`, a sibling host) is still refused, but the answer names the host that is supported.
    const near = context.registry.suggestHosts(url.hostname);
    const hint =
      near.length === 0 ? '' : `; did you mean ${near.length === 1 ? near[0] : `one of ${near.join(', ')}`}?`;
    throw new KumoError('site_not_supported', `${url.hostname} is not a supported site${hint}`, {
      ...(near.length > 0 ? { body: { supported_hosts: near } } : {}),
    });
  }
  if (!(site.schemes as readonly string[]).includes(url.protocol)) {
    throw new KumoError('invalid_url', `${site.id} is served over ${site.schemes.join(', ')} only`, {
      body: { field: 'url' },
    });
  }
  const entry = context.registry.pageTypeFor(site, url, params.work_type);
  if (!entry) {
    const detail =
      params.work_type === 'auto'
        ? `no reviewed page type of ${site.id} matches this URL`
        : `${site.id} does not serve work_type ${params.work_type}`;
    throw new KumoError('page_not_supported', detail);
  }
  if (entry.coverage === 'stopped') throw new KumoError('site_stopped', `${site.id} ${entry.pageType} is switched off`);
  const route = routeOf(site, entry, params.render_js ?? false);
  const browserRoute = route === 'browser' ? entry.browser : undefined;
  const coverage = browserRoute ? browserRoute.coverage : entry.coverage;
  const extractor = browserRoute ? browserRoute.extractor : entry.extractor;
  if (coverage === 'stopped') throw new KumoError('site_stopped', `${site.id} ${entry.pageType} is switched off`);
  const servable =
    servedInProduction(coverage) ||
    (context.environment === 'development' && (caller.key.sites?.includes(site.id) ?? false));
  if (!servable) {
    const what = browserRoute ? `${site.id} ${entry.pageType} in the browser` : `${site.id} ${entry.pageType}`;
    throw new KumoError('page_not_supported', `${what} is still being verified`);
  }
  if (extractor.input !== 'html' && (params.mode === 'html' || params.include_html)) {
    const format = { csv: 'a CSV', json: 'a JSON', xml: 'an XML', zip: 'a ZIP' }[extractor.input] ?? 'a data';
    throw new KumoError(
      'page_not_supported',
      `${site.id} ${entry.pageType} is ${format} source and has no HTML output`,
    );
  }

  const key = caller.key;
  if (key.operations && !key.operations.includes('scrape')) {
    throw new KumoError('key_scope_denied', 'this key may not use the scrape operation');
  }
  if (key.sites && !key.sites.includes(site.id)) {
    throw new KumoError('key_scope_denied', `this key may not use site ${site.id}`);
  }
  const denied = outputsOf(params).find((o) => key.outputs && !key.outputs.includes(o));
  if (denied) throw new KumoError('key_scope_denied', `this key may not produce the ${denied} output`);
  // High-risk data (a page type under review) only for accounts an operator approved for the site. Checked after
  // the key's own narrowing: an approval cannot widen a key, so a key barred from the site is told that first.
  if (entry.review && !(caller.account.approvedSites ?? []).includes(site.id)) {
    throw new KumoError(
      'key_scope_denied',
      `${site.id} ${entry.pageType} needs an operator's review approval for this account (${entry.review.reason}); ask support`,
    );
  }
  return { url, site, entry, route, extractor };
}
