// The use case behind POST /v1/scrape, free of HTTP: URL → site → scope → credits → slot → fetch → normalize →
// extract → settle. Every path out settles the reservation and the slot exactly once and writes one metadata row.
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import type { Fetcher, FetchedPage } from '../fetch/fetcher.js';
import type { Metrics } from '../metrics/metrics.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import type { ExtractionRunner } from './extraction-pool.js';
import type { SiteRegistry } from '../sites/registry.js';
import { servedInProduction, type PageTypeEntry, type Site } from '../sites/site.js';
import type { ConcurrencyLimiter, Lease } from '../limits/concurrency-limiter.js';
import type { AccountRecord, KeyRecord, Output, Storage } from '../storage/storage.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { concurrencyScopesOf, type Caller } from './caller.js';
import { creditLimitsOf } from '../accounts/plans.js';
import { periodOf, nextPeriodStart } from '../accounts/period.js';
import { newId } from '../accounts/ids.js';
import { redactUrl } from './redact-url.js';

export interface ScrapeParams {
  mode: 'html_json' | 'html';
  work_type: string;
  include_html: boolean;
  store_artifact: boolean;
}

export interface FetchSummary {
  status: 'completed' | 'not_found' | 'blocked' | 'failed' | 'timed_out';
  attempts: number;
  route: 'http' | 'browser';
  http_status: number | null;
  final_url: string | null;
  charset: string | null;
  bytes: number | null;
  elapsed_ms: number | null;
}

export interface ScrapeResult {
  request_id: string;
  resolved_site: string;
  page_type: string;
  fetch_summary: FetchSummary;
  cost_units: number;
  latency_ms: number;
  extractor: { id: string; version: number; coverage: string; provenance: Record<string, string> };
  data: Record<string, unknown> | null;
  html?: string;
  artifact?: { id: string; expires_at: string };
  warnings: string[];
}

export interface ScrapeServiceOptions {
  registry: SiteRegistry;
  fetcher: Fetcher;
  storage: Storage;
  limiter: ConcurrencyLimiter;
  artifacts: ArtifactStore;
  /** Where pages are parsed and extracted: off the event loop, one path for every call. */
  extraction: ExtractionRunner;
  environment: 'production' | 'development';
  fetchDeadlineMs: number;
  artifactRetentionMs: number;
  clock?: () => Date;
  metrics?: Metrics;
}

const statusOfError: Partial<Record<ErrorCode, FetchSummary['status']>> = {
  fetch_timeout: 'timed_out',
  target_blocked: 'blocked',
};

/** Cost in credits (DESIGN.md §2): 1 over HTTP, 2 through the browser, +1 to keep an artifact; never above 3. */
export function costOf(site: Site, params: Pick<ScrapeParams, 'store_artifact'>): number {
  return Math.min(3, (site.route === 'browser' ? 2 : 1) + (params.store_artifact ? 1 : 0));
}

function outputsOf(params: ScrapeParams): Output[] {
  const outputs: Output[] = [];
  if (params.mode === 'html_json') outputs.push('json');
  if (params.mode === 'html' || params.include_html) outputs.push('html');
  if (params.store_artifact) outputs.push('artifact');
  return outputs;
}

export class ScrapeService {
  readonly #o: ScrapeServiceOptions;
  readonly #clock: () => Date;

  constructor(options: ScrapeServiceOptions) {
    this.#o = options;
    this.#clock = options.clock ?? (() => new Date());
  }

  /** Steps that need no credits and no slot: what the URL is and whether this key may ask for it. */
  plan(caller: Caller, rawUrl: string, params: ScrapeParams): { url: URL; site: Site; entry: PageTypeEntry } {
    const url = parseTargetUrl(rawUrl);
    const site = this.#o.registry.resolveHost(url.hostname);
    if (!site) throw new KumoError('site_not_supported', `${url.hostname} is not a supported site`);
    if (!(site.schemes as readonly string[]).includes(url.protocol)) {
      throw new KumoError('invalid_url', `${site.id} is served over ${site.schemes.join(', ')} only`, {
        body: { field: 'url' },
      });
    }
    const entry = this.#o.registry.pageTypeFor(site, url, params.work_type);
    if (!entry) {
      const detail =
        params.work_type === 'auto'
          ? `no reviewed page type of ${site.id} matches this URL`
          : `${site.id} does not serve work_type ${params.work_type}`;
      throw new KumoError('page_not_supported', detail);
    }
    if (entry.coverage === 'stopped')
      throw new KumoError('site_stopped', `${site.id} ${entry.pageType} is switched off`);
    const servable =
      servedInProduction(entry.coverage) ||
      (this.#o.environment === 'development' && (caller.key.sites?.includes(site.id) ?? false));
    if (!servable) throw new KumoError('page_not_supported', `${site.id} ${entry.pageType} is still being verified`);
    if (entry.extractor.input === 'json' && (params.mode === 'html' || params.include_html)) {
      throw new KumoError('page_not_supported', `${site.id} ${entry.pageType} is a JSON source and has no HTML output`);
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
    return { url, site, entry };
  }

  async scrape(caller: Caller, rawUrl: string, params: ScrapeParams, requestId = newId('req')): Promise<ScrapeResult> {
    const started = performance.now();
    const now = this.#clock();
    const record = {
      requestId,
      accountId: caller.account.id,
      keyId: caller.key.id,
      siteId: null as string | null,
      pageType: null as string | null,
      url: null as string | null,
      route: null as string | null,
      attempts: 0,
      artifactId: null as string | null,
    };
    let reserved = false;
    let lease: Lease | null = null;
    let outcome: { status: string; code: ErrorCode | null; httpStatus: number; cost: number } = {
      status: 'failed',
      code: 'internal',
      httpStatus: 500,
      cost: 0,
    };
    try {
      const { url, site, entry } = this.plan(caller, rawUrl, params);
      record.siteId = site.id;
      record.pageType = entry.pageType;
      record.url = redactUrl(url, site.secretQueryParams);
      record.route = site.route;

      const cost = costOf(site, params);
      const limits = creditLimitsOf(caller.account, caller.key);
      const period = periodOf(now);
      const reservation = await this.#o.storage.ledger.reserve({
        requestId,
        accountId: caller.account.id,
        keyId: caller.key.id,
        period,
        cost,
        accountLimit: limits.accountLimit,
        keyLimit: limits.keyLimit,
        // Past this a sweeper frees the credits of a process killed mid-call.
        expiresAt: new Date(now.getTime() + this.#o.fetchDeadlineMs + 120_000).toISOString(),
      });
      if (!reservation.ok) throw creditsExhausted(now, reservation.exhausted, cost);
      reserved = true;

      const slot = await this.#o.limiter.tryAcquire(
        concurrencyScopesOf(caller.account, caller.key),
        this.#o.fetchDeadlineMs + 60_000,
      );
      if (!slot.granted) {
        throw new KumoError(
          'concurrency_limited',
          `too many calls in flight for this ${slot.deniedScope.split(':')[0]}`,
          {
            retryAfterSeconds: 1,
          },
        );
      }
      lease = slot.lease;

      const page = await this.#fetch(url, site, entry, record);
      // A redirect to another kind of page (an item gone to a search or top page) is not extracted: free 422.
      if (!this.#o.registry.sameKindAfterRedirect(site, url, new URL(page.finalUrl))) {
        throw new KumoError(
          'page_not_supported',
          `the site redirected this URL to a page that is not ${entry.pageType}`,
        );
      }
      if (page.httpStatus === 404 || page.httpStatus === 410) {
        outcome = { status: 'not_found', code: null, httpStatus: 200, cost: 0 };
        return {
          request_id: requestId,
          resolved_site: site.id,
          page_type: entry.pageType,
          fetch_summary: summaryOf(page, 'not_found', null, site),
          cost_units: 0,
          latency_ms: Math.round(performance.now() - started),
          extractor: {
            id: entry.extractor.id,
            version: entry.extractor.version,
            coverage: entry.coverage,
            provenance: {},
          },
          data: null,
          warnings: [],
        };
      }

      // Parse, extract, validate and serialize in a worker thread, under a deadline and the output caps.
      const produced = await this.#o.extraction.run({
        extractorId: entry.extractor.id,
        body: page.body,
        headers: { ...page.headers },
        finalUrl: page.finalUrl,
        wantData: params.mode === 'html_json',
        wantHtml: params.mode === 'html' || params.include_html || params.store_artifact,
      });
      const { extraction, html } = produced;

      let artifact: ScrapeResult['artifact'];
      if (params.store_artifact) {
        const id = newId('art');
        const expiresAt = new Date(now.getTime() + this.#o.artifactRetentionMs).toISOString();
        await this.#o.artifacts.save(
          {
            id,
            accountId: caller.account.id,
            requestId,
            url: record.url ?? '',
            createdAt: now.toISOString(),
            expiresAt,
          },
          { html, data: extraction?.data ?? null },
        );
        record.artifactId = id;
        artifact = { id, expires_at: expiresAt };
      }

      // The charge is committed before the answer leaves: a crash after this point has charged exactly once.
      const committed = await this.#o.storage.ledger.commit(requestId, cost);
      if (!committed) throw new KumoError('internal', 'the credit reservation was lost');
      reserved = false;
      outcome = { status: 'completed', code: null, httpStatus: 200, cost };

      const result: ScrapeResult = {
        request_id: requestId,
        resolved_site: site.id,
        page_type: entry.pageType,
        fetch_summary: summaryOf(page, 'completed', produced.charset, site),
        cost_units: cost,
        latency_ms: Math.round(performance.now() - started),
        extractor: {
          id: entry.extractor.id,
          version: entry.extractor.version,
          coverage: entry.coverage,
          provenance: extraction?.provenance ?? {},
        },
        data: extraction?.data ?? null,
        warnings: extraction?.warnings ?? [],
      };
      if (html !== null && (params.mode === 'html' || params.include_html)) result.html = html;
      if (artifact) result.artifact = artifact;
      return result;
    } catch (error) {
      const kumo = isKumoError(error) ? error : null;
      const code = kumo?.code ?? 'internal';
      outcome = { status: statusOfError[code] ?? 'failed', code, httpStatus: 0, cost: 0 };
      throw error;
    } finally {
      if (reserved) await this.#o.storage.ledger.release(requestId).catch(() => false);
      if (lease) await lease.release().catch(() => undefined);
      this.#o.metrics?.scrapeFinished({
        site: record.siteId ?? 'none',
        status: outcome.status,
        route: record.route ?? 'none',
        code: outcome.code ?? 'ok',
        creditsCharged: outcome.cost,
      });
      await this.#o.storage.requests
        .insert({
          requestId,
          accountId: record.accountId,
          keyId: record.keyId,
          siteId: record.siteId,
          pageType: record.pageType,
          url: record.url,
          status: outcome.status,
          errorCode: outcome.code,
          httpStatus: outcome.httpStatus,
          attempts: record.attempts,
          route: record.route,
          costUnits: outcome.cost,
          latencyMs: Math.round(performance.now() - started),
          artifactId: record.artifactId,
          createdAt: now.toISOString(),
        })
        .catch(() => undefined);
    }
  }

  async #fetch(
    url: URL,
    site: Site,
    entry: PageTypeEntry,
    record: { attempts: number; accountId: string },
  ): Promise<FetchedPage> {
    try {
      const page = await this.#o.fetcher.fetch({
        url,
        target: { allowedHosts: site.hosts, allowedSchemes: site.schemes, acceptContentTypes: entry.contentTypes },
        deadlineAt: Date.now() + this.#o.fetchDeadlineMs,
        // Fairness at the per-host gate and the breaker's share of blame are per account (issue 7 §3).
        accountId: record.accountId,
      });
      record.attempts = page.attempts;
      return page;
    } catch (error) {
      if (isKumoError(error) && typeof error.extras.body?.attempts === 'number')
        record.attempts = error.extras.body.attempts;
      if (isKumoError(error)) {
        const status = statusOfError[error.code] ?? 'failed';
        error.extras.body = {
          fetch_summary: { status, attempts: record.attempts, route: site.route },
        };
      }
      throw error;
    }
  }
}

function creditsExhausted(now: Date, which: 'account' | 'key', cost: number): KumoError {
  const resetsAt = nextPeriodStart(now);
  const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  const whose = which === 'account' ? "the account's monthly credits" : "this key's monthly credit limit";
  return new KumoError('credits_exhausted', `${whose} cannot cover a call costing ${cost}`, {
    retryAfterSeconds: seconds,
    body: { resets_at: resetsAt.toISOString() },
  });
}

function summaryOf(
  page: FetchedPage,
  status: FetchSummary['status'],
  charset: string | null,
  site: Site,
): FetchSummary {
  return {
    status,
    attempts: page.attempts,
    route: page.route,
    http_status: page.httpStatus,
    final_url: redactUrl(new URL(page.finalUrl), site.secretQueryParams),
    charset,
    bytes: page.body.byteLength,
    elapsed_ms: page.elapsedMs,
  };
}

export type { Caller, AccountRecord, KeyRecord };
