// The use case behind POST /v1/scrape, free of HTTP: URL → site → scope → credits → slot → fetch → normalize →
// extract → settle. Every path out settles the reservation and the slot exactly once and writes one metadata row.
import { KumoError, isKumoError, type ErrorCode } from '../errors.js';
import type { Fetcher, FetchedPage } from '../fetch/fetcher.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ExtractionRunner } from './extraction-pool.js';
import type { Produced } from './produce.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { ApiRequest, PageTypeEntry } from '../sites/site.js';
import type { Extractor } from '../extract/extractor.js';
import type { ConcurrencyLimiter, Lease } from '../limits/concurrency-limiter.js';
import type { SettleOutcome, SettleRequest, Storage } from '../storage/storage.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { concurrencyScopesOf, type Caller } from './caller.js';
import { creditLimitsOf } from '../accounts/plans.js';
import { periodOf, nextPeriodStart, secondsUntilReset } from '../accounts/period.js';
import { newId } from '../accounts/ids.js';
import { claimIdempotencyKey, type IdempotencyRequest } from './idempotency.js';
import { backendRetryAfterSeconds } from '../backends/backend-errors.js';
import type { CacheTicket, Freshness } from '../cache/freshness.js';
import { planCall, type Planned, type ScrapeParams } from './plan.js';
import { costOf } from './cost.js';
import { callRecordOf, requestStatusOf, type CallRecord, type RequestStatus } from './call-record.js';
import { resultOf, type ScrapeResult } from './scrape-result.js';

// The call's vocabulary, for callers that know only the use case (the console's status filter, the routes, tests).
export type { Planned, ScrapeParams } from './plan.js';
export type { ScrapeResult } from './scrape-result.js';
export { requestStatuses, type RequestStatus } from './call-record.js';

export interface ScrapeServiceOptions {
  registry: SiteRegistry;
  fetcher: Fetcher;
  /** The browser route's fetcher; absent = no browser here (browser page types answer 503 unavailable). */
  browser?: Fetcher | null;
  /** Why the browser route is down, when it is (for the 503's detail); null = up or absent. */
  browserDown?: () => string | null;
  storage: Storage;
  limiter: ConcurrencyLimiter;
  artifacts: ArtifactStore;
  /** Where pages are parsed and extracted: off the event loop, one path for every call. */
  extraction: ExtractionRunner;
  environment: 'production' | 'development';
  fetchDeadlineMs: number;
  /** How far a call's concurrency lease reaches past its fetch deadline (config checks the call's budget fits). */
  leaseBeyondFetchMs: number;
  artifactRetentionMs: number;
  /** The result cache's steps (DESIGN §10); absent = every call is `bypass`. */
  freshness?: Freshness;
  clock?: () => Date;
  metrics?: Metrics;
}

/** How the HTTP layer takes part in a call (all optional: without them a call is charged when it completes). */
export interface ScrapeOptions {
  /** Aborted when the caller goes away: the fetch stops and nothing is charged. */
  signal?: AbortSignal;
  /** The caller's Idempotency-Key and the hash of what it asked. */
  idempotency?: IdempotencyRequest;
  /**
   * Called with the finished result while its credits are still only reserved; throwing (a result that cannot be
   * serialized) releases them. `replayed`: an earlier call with the same Idempotency-Key was charged already.
   */
  deliver?: (result: ScrapeResult, meta: { replayed: boolean }) => void | Promise<void>;
  /** Handed the call's metadata as it is filled (site and page type once planned), for the caller's own log line. */
  observe?: (record: Readonly<CallRecord>) => void;
}

/** One planned call to run without admission or settlement (ScrapeService.runPlanned). */
export interface RunRequest {
  /** Whose turn it is at the politeness gate and in the extraction pool. */
  accountId: string;
  requestId: string;
  /** `performance.now()` when the call began: `latency_ms` counts from it. */
  started: number;
  /** The `cost_units` a produced page's body states (a not-found page states 0). */
  cost: number;
  /** Filled as the call goes (attempts, the target's status), for the metadata row. */
  record: CallRecord;
  signal?: AbortSignal;
  /** After production, before the body is built: where the sync path keeps the artifact it was asked for. */
  keep?: (produced: Produced) => Promise<ScrapeResult['artifact'] | undefined>;
}

/** What a planned call gave: the page produced into the success body, or the site's 404/410 (`data` null, cost 0). */
export interface CallOutcome {
  status: 'completed' | 'not_found';
  result: ScrapeResult;
}

/** One call in flight: what it holds (reservation, slot) and what its metadata row will say. */
interface Call {
  readonly requestId: string;
  readonly caller: Caller;
  readonly started: number;
  readonly now: Date;
  record: CallRecord;
  reserved: boolean;
  lease: Lease | null;
  /** The Idempotency-Key this call claimed (and must complete or free when it settles). */
  idempotencyKey: string | null;
  /** The same key and body were charged before: this run costs nothing. */
  replayed: boolean;
  /** The charged call this one replays (its claim counted this replay; given back if the call never runs). */
  replayOf: { key: string; requestId: string } | null;
  /** The fetch began (or the cache answered): from here a replay has been used, whatever the outcome. */
  fetched: boolean;
  settled: boolean;
  /** The charge's COMMIT was sent and neither its answer nor a read-back came: it may stand. */
  settlementUnknown: boolean;
  outcome: { status: RequestStatus; code: ErrorCode | null; cost: number };
}

export class ScrapeService {
  readonly #o: ScrapeServiceOptions;
  readonly #clock: () => Date;

  constructor(options: ScrapeServiceOptions) {
    this.#o = options;
    this.#clock = options.clock ?? (() => new Date());
  }

  /** Steps that need no credits and no slot: what the URL is and whether this key may ask for it (plan.ts). */
  plan(caller: Caller, rawUrl: string, params: ScrapeParams): Planned {
    return planCall(this.#o, caller, rawUrl, params);
  }

  /**
   * Runs one call. The reservation is still held when the result is handed to `options.deliver` (which serializes
   * it); only when that succeeds and the caller is still there is the charge committed, together with the metadata
   * row, in one transaction. Every other way out releases it and still writes the row.
   */
  async scrape(
    caller: Caller,
    rawUrl: string,
    params: ScrapeParams,
    requestId = newId('req'),
    options: ScrapeOptions = {},
  ): Promise<ScrapeResult> {
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
        httpStatus: null,
        artifactId: null,
      },
      reserved: false,
      lease: null,
      idempotencyKey: null,
      replayed: false,
      replayOf: null,
      fetched: false,
      settled: false,
      settlementUnknown: false,
      outcome: { status: 'failed', code: 'internal', cost: 0 },
    };
    const { signal } = options;
    options.observe?.(call.record);
    try {
      const planned = await this.#admit(call, rawUrl, params, options.idempotency);
      throwIfGone(signal);
      call.fetched = true;
      if (planned.hit) {
        // This account's own answer, fresh enough: no fetch, no credits, the same row and settlement at cost 0.
        call.record.cacheState = 'hit';
        await this.#deliver(call, planned.hit, options);
        await this.#charge(call, 0);
        return planned.hit;
      }
      const charge = call.replayed ? 0 : planned.cost;
      const ran = await this.runPlanned(planned, params, {
        accountId: caller.account.id,
        requestId,
        started: call.started,
        cost: charge,
        record: call.record,
        ...(signal ? { signal } : {}),
        keep: async (produced) => {
          throwIfGone(signal);
          return this.#keepArtifact(call, params, produced);
        },
      });
      const { result } = ran;
      this.#o.freshness?.answered(planned.ticket, result);
      call.record.cacheState = result.cache.state;
      if (ran.status === 'not_found') {
        await this.#deliver(call, result, options);
        call.outcome = { status: 'not_found', code: null, cost: 0 };
        await this.#settle(call, call.reserved ? 'release' : 'none');
        return result;
      }
      await this.#deliver(call, result, options);
      const settlement = await this.#charge(call, charge);
      // Kept only once the charge committed (docs/cache.md): a crash before this leaves no entry, and the next call
      // fetches again; an entry is never the output of a call that was not charged. The answer already says `miss`: a
      // write that fails is not retried, and the next call misses too.
      if (settlement === 'committed') await this.#o.freshness?.keep(planned.ticket, result).catch(() => undefined);
      return result;
    } catch (error) {
      const code = isKumoError(error) ? error.code : 'internal';
      call.outcome = signal?.aborted
        ? { status: 'cancelled', code: null, cost: 0 }
        : { status: requestStatusOf(code), code, cost: 0 };
      call.record.httpStatus = null;
      throw error;
    } finally {
      // A charge of unknown outcome is not released: the storage is settling that commit again (Storage.settle).
      if (!call.settled && !call.settlementUnknown) {
        await this.#settle(call, call.reserved ? 'release' : 'none').catch(() => null);
      }
      // A charge that may stand keeps its artifact: it was paid for (or, if it never lands, delivered free).
      const mayBeCharged = call.outcome.status === 'completed';
      if (!mayBeCharged && call.record.artifactId) {
        // Kept only for a call that is charged: an artifact of a call that failed afterwards goes.
        await this.#o.artifacts.delete(call.record.artifactId, caller.account.id).catch(() => false);
      }
      if (call.replayOf && !call.fetched) {
        // Refused before it ran (no slot, the client gone): the replay was not used, so it is given back.
        const { key, requestId: original } = call.replayOf;
        await this.#o.storage.idempotency.returnReplay(caller.account.id, key, original).catch(() => false);
      }
      if (call.lease) await call.lease.release().catch(() => undefined);
      this.#o.metrics?.scrapeFinished({
        site: call.record.siteId ?? 'none',
        status: call.outcome.status,
        route: call.record.route ?? 'none',
        code: call.outcome.code ?? 'ok',
        creditsCharged: call.outcome.cost,
      });
    }
  }

  /** Commits the call's charge (0 for a hit or a replay) with its metadata row, before the answer is written. */
  async #charge(call: Call, charge: number): Promise<SettleOutcome> {
    // Committed before the answer is written: a crash after this point has charged exactly once, and the row exists.
    call.outcome = { status: 'completed', code: null, cost: charge };
    const settlement = await this.#settle(call, call.reserved ? { commit: charge } : 'none');
    if (settlement === 'refused') {
      // The reservation was freed under the call (a peer's sweep during an outage, or its hold ran out) or a retry
      // took its Idempotency-Key over: nothing was charged, and a retry can succeed.
      throw new KumoError('unavailable', 'the call could not be charged and was not served; retry later', {
        retryAfterSeconds: backendRetryAfterSeconds,
      });
    }
    if (settlement === 'unknown') {
      // The COMMIT was sent and the database could not be reached to learn whether it landed. The answer is served
      // all the same: withholding it could leave a charge without its output (DESIGN §2). The storage settles the
      // same commit again until the database says how it ended; if the hold ends first, the call was free.
      call.settlementUnknown = true;
    }
    return settlement;
  }

  /**
   * The work of one planned call, without admission or settlement (no Idempotency-Key, slot, reservation or metadata
   * row: the caller holds those): fetch through the fetcher of its route (robots, politeness as `accountId`, the
   * breaker), refuse a redirect to another kind of page, answer a 404/410 as `not_found`, else produce the page in the
   * extraction pool in the account's turn and build the success body. `POST /v1/scrape` and a batch item run this same
   * step. Fills `request.record` (attempts, the target's status) as it goes; failures throw the KumoError a call would.
   */
  async runPlanned(planned: Planned, params: ScrapeParams, request: RunRequest): Promise<CallOutcome> {
    const { url, site, entry, route } = planned;
    const { record, signal } = request;
    const source = route === 'api' ? sourceRequestOf(url, entry) : { url };
    const page = await this.#fetch(source, planned, record, request.accountId, signal);
    record.httpStatus = page.httpStatus;
    // A redirect to another kind of page (an item gone to a search or top page) is not extracted: free 422. An API
    // that redirects at all is answering something else than what its web app asks.
    const final = new URL(page.finalUrl);
    const sameKind =
      route === 'api' ? final.href === source.url.href : this.#o.registry.sameKindAfterRedirect(site, url, final);
    if (!sameKind) {
      throw new KumoError('page_not_supported', `the site redirected this URL to a page that is not ${entry.pageType}`);
    }
    if (page.httpStatus === 404 || page.httpStatus === 410) {
      return {
        status: 'not_found',
        result: resultOf({ ...request, fetchedAt: this.#clock() }, planned, page, null, undefined, 0),
      };
    }
    const produced = await this.#produce(page, planned.extractor, params, request.accountId, signal);
    // Counted as soon as the page is read, answer or not: the page disagreed with itself either way.
    for (const d of produced.disagreements) this.#o.metrics?.sourcesDisagreed(planned.site.id, d.field);
    const artifact = await request.keep?.(produced);
    const result = resultOf({ ...request, fetchedAt: this.#clock() }, planned, page, produced, artifact, request.cost);
    if (produced.html !== null && (params.mode === 'html' || params.include_html)) result.html = produced.html;
    return { status: 'completed', result };
  }

  /**
   * Admission: what is asked and whether this key may ask it, the Idempotency-Key, then a concurrency slot, the cache,
   * and only then the credits. In that order a burst refused for concurrency holds no credits, so it cannot make the
   * calls beside it look out of credits; credits held by calls in flight answer concurrency_limited, not exhaustion;
   * and a key's scopes are checked before any cached answer is read, so a key narrowed to one site never reads
   * another's. A hit holds a slot (counted like any call, for the moment it takes) but never credits.
   */
  async #admit(
    call: Call,
    rawUrl: string,
    params: ScrapeParams,
    idempotency: IdempotencyRequest | undefined,
  ): Promise<Planned & { cost: number; ticket: CacheTicket; hit: ScrapeResult | null }> {
    const { caller, requestId, now, record } = call;
    const planned = this.plan(caller, rawUrl, params);
    const { route } = planned;
    Object.assign(record, callRecordOf(planned));
    // Before any slot or credit is taken: a call the browser cannot serve now costs nobody anything.
    if (route === 'browser') this.#browserOrUnavailable();
    // After the checks that need nothing stored, so a call refused by them leaves the key as it was; a refusal after
    // the claim (no slot, no credits) frees a new claim or gives its replay back when it settles.
    if (idempotency) await this.#claim(call, idempotency);

    const cost = costOf(route, params);
    const slot = await this.#o.limiter.tryAcquire(
      concurrencyScopesOf(caller.account, caller.key),
      // The config guarantees fetch + extraction queue + extraction + settlement fit in this.
      this.#o.fetchDeadlineMs + this.#o.leaseBeyondFetchMs,
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
    const ticket = this.#o.freshness?.ticketOf(caller.account.id, planned, params) ?? { use: false, warning: null };
    const hit = (await this.#o.freshness?.lookup(ticket, call)) ?? null;
    if (hit) return { ...planned, cost, ticket, hit };
    // A retry of a call already charged under its Idempotency-Key runs again for free.
    if (call.replayed) return { ...planned, cost, ticket, hit };

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
      expiresAt: this.#holdUntil(now),
    });
    if (!reservation.ok) {
      if ('exhausted' in reservation) throw creditsExhausted(now, reservation.exhausted, cost);
      const whose = reservation.held === 'account' ? 'account' : 'key';
      throw new KumoError(
        'concurrency_limited',
        `the credits left to this ${whose} are held by its calls in flight; retry when they finish`,
        { retryAfterSeconds: 1 },
      );
    }
    call.reserved = true;
    return { ...planned, cost, ticket, hit };
  }

  async #claim(call: Call, idempotency: IdempotencyRequest): Promise<void> {
    const { replayOf } = await claimIdempotencyKey(this.#o.storage.idempotency, {
      accountId: call.caller.account.id,
      idempotency,
      requestId: call.requestId,
      now: call.now,
      heldUntil: this.#holdUntil(call.now),
    });
    if (replayOf === null) {
      call.idempotencyKey = idempotency.key;
    } else {
      call.replayed = true;
      call.replayOf = replayOf;
    }
  }

  #holdUntil(now: Date): string {
    return new Date(now.getTime() + this.#o.fetchDeadlineMs + 120_000).toISOString();
  }

  /** Hands the result over for serialization while the reservation is held; a failure or a departed caller releases. */
  async #deliver(call: Call, result: ScrapeResult, options: ScrapeOptions): Promise<void> {
    await options.deliver?.(result, { replayed: call.replayed });
    throwIfGone(options.signal);
  }

  /** Parse, extract, validate and serialize in a worker thread, under a deadline and the output caps, in the account's turn. */
  #produce(
    page: FetchedPage,
    extractor: Extractor,
    params: ScrapeParams,
    account: string,
    signal: AbortSignal | undefined,
  ): Promise<Produced> {
    return this.#o.extraction.run(
      {
        extractorId: extractor.id,
        body: page.body,
        headers: { ...page.headers },
        finalUrl: page.finalUrl,
        wantData: params.mode === 'html_json',
        wantHtml: params.mode === 'html' || params.include_html || params.store_artifact,
      },
      // The pool shares its workers between accounts: one account's flood waits its turn, not everyone's.
      { signal, account },
    );
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

  /**
   * Settles the ledger, writes the one metadata row and finishes the Idempotency-Key claim, in one transaction.
   * `refused`: a commit found its reservation gone (nothing was written); `unknown`: the COMMIT's answer was lost and
   * the database could not be asked whether it landed (Storage.settle).
   */
  async #settle(call: Call, ledger: SettleRequest['ledger']): Promise<SettleOutcome> {
    const { outcome } = call;
    const completed = outcome.status === 'completed';
    const request: SettleRequest = {
      ledger,
      record: {
        requestId: call.requestId,
        accountId: call.caller.account.id,
        keyId: call.caller.key.id,
        ...call.record,
        status: outcome.status,
        errorCode: outcome.code,
        costUnits: outcome.cost,
        latencyMs: Math.round(performance.now() - call.started),
        createdAt: call.now.toISOString(),
        // Recorded only for an answer delivered: a call that failed after its fetch has none.
        cacheState:
          outcome.status === 'completed' || outcome.status === 'not_found' ? (call.record.cacheState ?? null) : null,
      },
      ...(call.idempotencyKey ? { idempotency: { key: call.idempotencyKey, complete: completed } } : {}),
      heldUntil: this.#holdUntil(call.now),
    };
    try {
      const settled = await this.#o.storage.settle(request);
      if (settled === 'committed') {
        call.settled = true;
        call.reserved = false;
      }
      return settled;
    } catch (error) {
      // The database refused the whole settlement: at least give the credits back (the sweeper would, later).
      if (
        call.reserved &&
        ledger === 'release' &&
        (await this.#o.storage.ledger.release(call.requestId).catch(() => false))
      ) {
        call.reserved = false;
      }
      throw error;
    }
  }

  /** The browser fetcher, or 503 unavailable saying why there is none (the service runs without a browser). */
  #browserOrUnavailable(): Fetcher {
    const down = this.#o.browserDown?.() ?? null;
    if (!this.#o.browser || down !== null) {
      throw new KumoError('unavailable', `the browser route is unavailable: ${down ?? 'no browser is configured'}`, {
        retryAfterSeconds: 30,
      });
    }
    return this.#o.browser;
  }

  async #fetch(
    source: ApiRequest,
    { site, entry, route }: Planned,
    record: CallRecord,
    accountId: string,
    signal: AbortSignal | undefined,
  ): Promise<FetchedPage> {
    const browser = route === 'browser' ? entry.browser : undefined;
    try {
      const fetcher = browser ? this.#browserOrUnavailable() : this.#o.fetcher;
      const page = await fetcher.fetch({
        url: source.url,
        ...(browser
          ? {
              render: {
                subresourceHosts: browser.subresourceHosts,
                ...(browser.readySelector ? { readySelector: browser.readySelector } : {}),
              },
            }
          : {}),
        ...(source.headers ? { headers: source.headers } : {}),
        // The per-host gate is fair between accounts.
        accountId,
        target: {
          // On the api route only the API's hosts may be contacted, not the pages' host.
          allowedHosts: route === 'api' && entry.api ? entry.api.hosts : site.hosts,
          allowedSchemes: site.schemes,
          acceptContentTypes: browser ? ['text/html'] : entry.contentTypes,
        },
        deadlineAt: Date.now() + this.#o.fetchDeadlineMs,
        ...(signal ? { signal } : {}),
      });
      record.attempts = page.attempts;
      return page;
    } catch (error) {
      if (isKumoError(error) && typeof error.extras.body?.attempts === 'number')
        record.attempts = error.extras.body.attempts;
      if (isKumoError(error)) {
        const status = requestStatusOf(error.code);
        error.extras.body = {
          fetch_summary: { status, attempts: record.attempts, route },
        };
      }
      throw error;
    }
  }
}

/**
 * What is fetched for a page URL: the page itself, or on the `api` route the API request its web app makes, which
 * must stay on the API's declared hosts (a mapping that pointed elsewhere would be a defect, refused as internal).
 */
function sourceRequestOf(url: URL, entry: PageTypeEntry): ApiRequest {
  if (!entry.api) throw new KumoError('internal', `${entry.extractor.id} has the api route but no API mapping`);
  const request = entry.api.request(url);
  if (!entry.api.hosts.includes(request.url.hostname) || request.url.protocol !== 'https:') {
    throw new KumoError('internal', `the API request for ${entry.extractor.id} leaves its declared hosts`);
  }
  return request;
}

/** Stops a call whose caller has gone: nothing after this point may charge it. */
function throwIfGone(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new KumoError('internal', 'the client closed the connection before the answer');
}

function creditsExhausted(now: Date, which: 'account' | 'key', cost: number): KumoError {
  const resetsAt = nextPeriodStart(now);
  const whose = which === 'account' ? "the account's monthly credits" : "this key's monthly credit limit";
  return new KumoError('credits_exhausted', `${whose} cannot cover a call costing ${cost}`, {
    retryAfterSeconds: secondsUntilReset(now),
    body: { resets_at: resetsAt.toISOString() },
  });
}
