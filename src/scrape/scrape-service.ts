// The use case behind POST /v1/scrape, free of HTTP: URL → site → scope → credits → slot → fetch → normalize →
// extract → settle. Every path out settles the reservation and the slot exactly once and writes one metadata row.
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import type { Fetcher, FetchedPage } from '../fetch/fetcher.js';
import type { Metrics } from '../metrics/metrics.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import type { Extraction } from '../extract/extractor.js';
import { validateExtraction } from '../extract/page-types.js';
import { normalizePage, serializeHtml } from '../normalize/normalize-page.js';
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

/** What normalize + extract made of a page. */
interface Produced {
  charset: string | null;
  extraction: Extraction | null;
  html: string | null;
}

/** One call in flight: what it holds (reservation, slot) and what its metadata row will say. */
interface Call {
  readonly requestId: string;
  readonly caller: Caller;
  readonly started: number;
  readonly now: Date;
  record: {
    siteId: string | null;
    pageType: string | null;
    url: string | null;
    route: string | null;
    attempts: number;
    artifactId: string | null;
  };
  reserved: boolean;
  lease: Lease | null;
  outcome: { status: string; code: ErrorCode | null; httpStatus: number; cost: number };
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
    const call: Call = {
      requestId,
      caller,
      started: performance.now(),
      now: this.#clock(),
      record: {
        siteId: null,
        pageType: null,
        url: null,
        route: null,
        attempts: 0,
        artifactId: null,
      },
      reserved: false,
      lease: null,
      outcome: { status: 'failed', code: 'internal', httpStatus: 500, cost: 0 },
    };
    try {
      const { url, site, entry, cost } = await this.#admit(call, rawUrl, params);
      const page = await this.#fetch(url, site, entry, call.record);
      if (page.httpStatus === 404 || page.httpStatus === 410) {
        call.outcome = { status: 'not_found', code: null, httpStatus: 200, cost: 0 };
        return this.#resultOf(call, site, entry, page, null, undefined, 0);
      }
      const produced = await this.#produce(page, entry, params);
      const artifact = await this.#keepArtifact(call, params, produced);
      // The charge is committed before the answer leaves: a crash after this point has charged exactly once.
      const committed = await this.#o.storage.ledger.commit(requestId, cost);
      if (!committed) throw new KumoError('internal', 'the credit reservation was lost');
      call.reserved = false;
      call.outcome = { status: 'completed', code: null, httpStatus: 200, cost };
      const result = this.#resultOf(call, site, entry, page, produced, artifact, cost);
      if (produced.html !== null && (params.mode === 'html' || params.include_html)) result.html = produced.html;
      return result;
    } catch (error) {
      const kumo = isKumoError(error) ? error : null;
      const code = kumo?.code ?? 'internal';
      call.outcome = { status: statusOfError[code] ?? 'failed', code, httpStatus: 0, cost: 0 };
      throw error;
    } finally {
      await this.#settle(call);
    }
  }

  /** Admission: what is asked and may it be, then the credits and a concurrency slot it needs. */
  async #admit(
    call: Call,
    rawUrl: string,
    params: ScrapeParams,
  ): Promise<{ url: URL; site: Site; entry: PageTypeEntry; cost: number }> {
    const { caller, requestId, now, record } = call;
    const { url, site, entry } = this.plan(caller, rawUrl, params);
    record.siteId = site.id;
    record.pageType = entry.pageType;
    record.url = redactUrl(url, site.secretQueryParams);
    record.route = site.route;

    const cost = costOf(site, params);
    const limits = creditLimitsOf(caller.account, caller.key);
    const reservation = await this.#o.storage.ledger.reserve({
      requestId,
      accountId: caller.account.id,
      keyId: caller.key.id,
      period: periodOf(now),
      cost,
      accountLimit: limits.accountLimit,
      keyLimit: limits.keyLimit,
      // Past this a sweeper frees the credits of a process killed mid-call.
      expiresAt: new Date(now.getTime() + this.#o.fetchDeadlineMs + 120_000).toISOString(),
    });
    if (!reservation.ok) throw creditsExhausted(now, reservation.exhausted, cost);
    call.reserved = true;

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
    call.lease = slot.lease;
    return { url, site, entry, cost };
  }

  /** Bytes to output: normalize, extract and validate, serialize the HTML when it is asked for or kept. */
  async #produce(page: FetchedPage, entry: PageTypeEntry, params: ScrapeParams): Promise<Produced> {
    const normalized = normalizePage({
      body: page.body,
      headers: page.headers,
      finalUrl: page.finalUrl,
      input: entry.extractor.input,
    });
    let extraction: Extraction | null = null;
    if (params.mode === 'html_json') {
      extraction = entry.extractor.extract(normalized);
      validateExtraction(entry.pageType, extraction);
    }
    const html =
      normalized.kind === 'html' && (params.mode === 'html' || params.include_html || params.store_artifact)
        ? serializeHtml(normalized)
        : null;
    return { charset: normalized.charset, extraction, html };
  }

  async #keepArtifact(
    call: Call,
    params: ScrapeParams,
    produced: Produced,
  ): Promise<ScrapeResult['artifact'] | undefined> {
    if (!params.store_artifact) return undefined;
    const id = newId('art');
    const expiresAt = new Date(call.now.getTime() + this.#o.artifactRetentionMs).toISOString();
    await this.#o.artifacts.save(
      {
        id,
        accountId: call.caller.account.id,
        requestId: call.requestId,
        url: call.record.url ?? '',
        createdAt: call.now.toISOString(),
        expiresAt,
      },
      { html: produced.html, data: produced.extraction?.data ?? null },
    );
    call.record.artifactId = id;
    return { id, expires_at: expiresAt };
  }

  #resultOf(
    call: Call,
    site: Site,
    entry: PageTypeEntry,
    page: FetchedPage,
    produced: Produced | null,
    artifact: ScrapeResult['artifact'] | undefined,
    cost: number,
  ): ScrapeResult {
    const extraction = produced?.extraction ?? null;
    const result: ScrapeResult = {
      request_id: call.requestId,
      resolved_site: site.id,
      page_type: entry.pageType,
      fetch_summary: summaryOf(page, produced ? 'completed' : 'not_found', produced?.charset ?? null, site),
      cost_units: cost,
      latency_ms: Math.round(performance.now() - call.started),
      extractor: {
        id: entry.extractor.id,
        version: entry.extractor.version,
        coverage: entry.coverage,
        provenance: extraction?.provenance ?? {},
      },
      data: extraction?.data ?? null,
      warnings: extraction?.warnings ?? [],
    };
    if (artifact) result.artifact = artifact;
    return result;
  }

  /** Every path out: release what is still held, count it, and write the one metadata row. */
  async #settle(call: Call): Promise<void> {
    const { record, outcome } = call;
    if (call.reserved) await this.#o.storage.ledger.release(call.requestId).catch(() => false);
    if (call.lease) await call.lease.release().catch(() => undefined);
    this.#o.metrics?.scrapeFinished({
      site: record.siteId ?? 'none',
      status: outcome.status,
      route: record.route ?? 'none',
      code: outcome.code ?? 'ok',
      creditsCharged: outcome.cost,
    });
    await this.#o.storage.requests
      .insert({
        requestId: call.requestId,
        accountId: call.caller.account.id,
        keyId: call.caller.key.id,
        ...record,
        status: outcome.status,
        errorCode: outcome.code,
        httpStatus: outcome.httpStatus,
        costUnits: outcome.cost,
        latencyMs: Math.round(performance.now() - call.started),
        createdAt: call.now.toISOString(),
      })
      .catch(() => undefined);
  }

  async #fetch(url: URL, site: Site, entry: PageTypeEntry, record: { attempts: number }): Promise<FetchedPage> {
    try {
      const page = await this.#o.fetcher.fetch({
        url,
        target: { allowedHosts: site.hosts, allowedSchemes: site.schemes, acceptContentTypes: entry.contentTypes },
        deadlineAt: Date.now() + this.#o.fetchDeadlineMs,
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
