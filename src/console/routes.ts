// The /console pages on the API's own Fastify app: sign-in, live overview, requests, batches, monitors, keys, sites.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { ServerResponse } from 'node:http';
import type { Accounts, CreateKeyOptions } from '../accounts/accounts-service.js';
import { AccountError } from '../accounts/accounts-service.js';
import type { UsageReporter } from '../accounts/usage-report.js';
import { nextPeriodStart, periodStart } from '../accounts/period.js';
import { planOf } from '../accounts/plans.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { Operation, Output, RequestLog } from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import { errorCodes } from '../errors.js';
import { siteCatalogue } from '../http/site-catalogue.js';
import { requestStatuses } from '../scrape/scrape-service.js';
import type { ConsoleSession, ConsoleSessions } from './console-sessions.js';
import { languageOf, translator, type Lang, type Translate } from './i18n.js';
import { assets } from './assets.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import { historyView } from '../monitors/monitor-service.js';
import { historyCsv } from '../monitors/history-csv.js';
import { monitorDetailPage, monitorsPage, type MonitorListEntry } from './monitor-views.js';
import {
  batchDetailPage,
  batchesPage,
  confirmKeyPage,
  keysPage,
  messagePage,
  overviewPage,
  requestDetailPage,
  requestsPage,
  signInPage,
  sitesPage,
  type KeysData,
  type PageContext,
  type RequestFilters,
} from './views.js';

export interface ConsoleServices {
  sessions: ConsoleSessions;
  accounts: Accounts;
  usage: UsageReporter;
  requests: RequestLog;
  registry: SiteRegistry;
  /** The batch store's reads (DESIGN §8); absent = the batch pages say batches are not available here. */
  batches?: BatchReader;
  /** The monitor store's reads (DESIGN §9); absent = the monitor pages say monitors are not available here. */
  monitors?: MonitorReader;
  /** How often the overview's event stream sends fresh numbers. */
  eventIntervalMs: number;
  /** Open event streams allowed per session, per account and in all (defaults: 3, 10, 1000). */
  eventStreamCaps?: Partial<EventStreamCaps>;
}

/** What the console reads of batches: only the account's own, counts and failures, never results. */
export type BatchReader = Pick<BatchStore, 'list' | 'get' | 'failureCodes'>;

/** How many batches the list shows (newest first). */
const batchListSize = 50;

/** What the console reads of monitors: only the account's own; never a channel token or a sealed URL. */
export type MonitorReader = Pick<MonitorStore, 'list' | 'get' | 'checks' | 'history' | 'events'>;

/** Monitors the list shows (newest first); checks read per monitor for the targets' last changes; a page's rows. */
const monitorListSize = 50;
const changeScanChecks = 100;
const monitorPageRows = 20;
/** The longest history the chart and the CSV read (the API's cap too). */
const maxHistoryDays = 365;

export interface EventStreamCaps {
  perSession: number;
  perAccount: number;
  total: number;
}

const defaultStreamCaps: EventStreamCaps = { perSession: 3, perAccount: 10, total: 1000 };

/** Counts open event streams by session and by account, so that tabs left open cannot pile up server work. */
class StreamCounts {
  readonly #bySession = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();
  #total = 0;

  constructor(readonly caps: EventStreamCaps) {}

  /** Which cap an extra stream would pass, or null when it may open. */
  refusal(session: string, account: string): 'session' | 'account' | 'total' | null {
    if ((this.#bySession.get(session) ?? 0) >= this.caps.perSession) return 'session';
    if ((this.#byAccount.get(account) ?? 0) >= this.caps.perAccount) return 'account';
    if (this.#total >= this.caps.total) return 'total';
    return null;
  }

  open(session: string, account: string): void {
    this.#bySession.set(session, (this.#bySession.get(session) ?? 0) + 1);
    this.#byAccount.set(account, (this.#byAccount.get(account) ?? 0) + 1);
    this.#total += 1;
  }

  close(session: string, account: string): void {
    const down = (table: Map<string, number>, key: string) => {
      const left = (table.get(key) ?? 1) - 1;
      if (left > 0) table.set(key, left);
      else table.delete(key);
    };
    down(this.#bySession, session);
    down(this.#byAccount, account);
    this.#total -= 1;
  }
}

/** Every console answer: no inline script or style, no framing, no caching, no referrer, no sniffing. */
export const consoleSecurityHeaders: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  // Not no-referrer: under it browsers send `Origin: null` on the console's own form posts, which the Origin check refuses.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
});

/** A year, the usual floor for HSTS. */
const hstsValue = 'max-age=31536000';

/** How long a new secret waits, server-side, for the one Keys page that shows it. */
const shownOnceMs = 60_000;

const pageSize = 50;
const maxPage = 1000;
const operations = allOperations;
const outputs: readonly Output[] = ['json', 'html', 'artifact'];
const langCookie = 'kumo_console_lang';

type NarrowingOptions = Pick<
  CreateKeyOptions,
  'sites' | 'operations' | 'outputs' | 'monthlyCreditLimit' | 'concurrencyLimit'
>;

interface ConsoleState {
  lang: Lang;
  session: ConsoleSession | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleState: ConsoleState | null;
  }
}

/** The session cookie: `__Host-` (Secure, whole host, no Domain) over TLS; a plain name on http (development). */
function cookieNameOf(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-kumo_console' : 'kumo_console';
}

function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function list(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

/** The years a date filter may name: the service's own lifetime, give or take (a typo like 0001 is refused). */
export const filterYears = { min: 2000, max: 2100 } as const;

/**
 * `YYYY-MM-DD` read as an Asia/Tokyo day → the ISO instant it starts at; null for anything else, including days that
 * do not exist (2026-02-31 is not rolled over to March) and years outside filterYears.
 */
function jstDayStart(day: string, plusDays = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < filterYears.min || year > filterYears.max) return null;
  const midnight = new Date(Date.UTC(year, month - 1, date));
  // Round trip: Date.UTC rolls an impossible day over (and maps years 0-99 to 1900-1999); a real day comes back whole.
  if (midnight.getUTCFullYear() !== year || midnight.getUTCMonth() !== month - 1 || midnight.getUTCDate() !== date) {
    return null;
  }
  return new Date(midnight.getTime() + plusDays * 86_400_000 - 9 * 3_600_000).toISOString();
}

/**
 * The accounts service speaks English to operators (CLI, logs); a console page says the same refusal in its own
 * language. The known shapes are read back into their values; anything else is a general sentence.
 */
function refusalOf(message: string, t: Translate): string {
  const field = (name: string) =>
    name === 'sites'
      ? t('sites')
      : name === 'operations'
        ? t('operations')
        : name === 'outputs'
          ? t('outputs')
          : name === 'monthlyCreditLimit'
            ? t('creditLimit')
            : t('concurrencyField');
  let match = /^(\w+) may only narrow: (.+) is not allowed now$/.exec(message);
  if (match) return t('refuseWiden', { field: field(match[1]!), values: match[2]! });
  match = /^(\w+) may only fall \(now (\d+)\)$/.exec(message);
  if (match) return t('refuseRaise', { field: field(match[1]!), now: match[2]! });
  match = /^concurrency limit (\d+) is above the (\w+) plan's (\d+)$/.exec(message);
  if (match) return t('refuseAbovePlan', { limit: match[1]!, plan: match[2]!, max: match[3]! });
  if (/^no active key /.test(message)) return t('refuseInactive');
  return t('refuseOther');
}

export function registerConsole(app: FastifyInstance, services: ConsoleServices): void {
  const streams = new Set<ServerResponse>();
  const streamCounts = new StreamCounts({ ...defaultStreamCaps, ...services.eventStreamCaps });
  // What a successful key form has to show once after its redirect (POST/Redirect/GET): a new secret, a notice.
  // Keyed by the session's token (bound to the session, never in a URL), taken by the next Keys page, gone after a
  // minute at most. In process: with several instances the redirect must reach the same one (docs/console.md).
  const shownOnce = new Map<string, { created: KeysData['created']; notice: string | null; until: number }>();
  // Open event streams would hold the server open at shutdown: end them as closing starts.
  app.addHook('preClose', (done) => {
    for (const stream of streams) stream.end();
    done();
  });

  void app.register(
    async (scope) => {
      await scope.register(cookie);
      // Forms only, and small: a sign-in or a key form is a few hundred bytes.
      await scope.register(formbody, { bodyLimit: 8 * 1024 });
      scope.decorateRequest('consoleState', null);
      // Pages, not API: kept out of /openapi.json.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true };
      });

      scope.addHook('onRequest', async (request, reply) => {
        const query = queryOf(request);
        const choice = text(query.lang);
        const lang = languageOf(choice || undefined, request.cookies[langCookie], request.headers['accept-language']);
        if (choice === 'ja' || choice === 'en') {
          reply.setCookie(langCookie, choice, {
            path: '/console',
            httpOnly: true,
            sameSite: 'strict',
            secure: request.protocol === 'https',
            maxAge: 365 * 86_400,
          });
        }
        const session = await services.sessions.resolve(request.cookies[cookieNameOf(request)]);
        request.consoleState = { lang, session };
      });

      scope.addHook('onSend', async (request, reply, payload) => {
        for (const [name, value] of Object.entries(consoleSecurityHeaders)) {
          if (!reply.hasHeader(name)) reply.header(name, value);
        }
        // Only over TLS (a browser ignores it over http, and plain-http development must stay reachable). No
        // includeSubDomains: other services under the same domain are not ours to pin.
        if (request.protocol === 'https') reply.header('Strict-Transport-Security', hstsValue);
        reply.header('Vary', 'Cookie, Accept-Language');
        return payload;
      });

      // A state-changing form must come from this origin and, once signed in, carry the session's synchronizer token;
      // SameSite=Strict already keeps the cookie off cross-site posts. Checked before any handler runs.
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        const expected = `${request.protocol}://${request.host}`;
        const sameOrigin = request.headers.origin === expected;
        const body = (request.body ?? {}) as Record<string, unknown>;
        const session = request.consoleState!.session;
        const path = request.url.split('?')[0];
        // Signing in has no session yet, and signing out of a session that has already ended changes nothing.
        const tokenOk =
          path === '/console/sign-in' ||
          (path === '/console/sign-out' && session === null) ||
          (session !== null && services.sessions.verifyCsrf(session.id, body._csrf));
        if (sameOrigin && tokenOk) return;
        request.log.warn({ same_origin: sameOrigin, token_ok: tokenOk }, 'console: cross-site form refused');
        const ctx = contextOf(request);
        await reply
          .code(403)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('crossSite')));
        return reply;
      });

      scope.setNotFoundHandler(async (request, reply) => {
        const ctx = contextOf(request);
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('notFound')));
      });

      scope.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
        const status =
          error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) {
          request.log.error({ error_name: error.name, error_code: error.code }, 'console: internal error');
        }
        const ctx = contextOf(request);
        return reply
          .code(status)
          .type('text/html; charset=utf-8')
          .send(messagePage(ctx, ctx.t('errorTitle'), ctx.t('errorLead'), String(request.id)));
      });

      function contextOf(request: FastifyRequest): PageContext {
        const state = request.consoleState ?? { lang: 'en' as Lang, session: null };
        const [path = '/console', search = ''] = request.url.split('?');
        const params = new URLSearchParams(search);
        params.delete('lang');
        return {
          lang: state.lang,
          t: translator(state.lang),
          path,
          query: params.toString(),
          session: state.session,
        };
      }

      const page = (reply: FastifyReply, body: string, status = 200) =>
        reply.code(status).type('text/html; charset=utf-8').send(body);

      /** The signed-in session, or a redirect to the sign-in page (null: the answer is already sent). */
      function sessionOr(request: FastifyRequest, reply: FastifyReply): ConsoleSession | null {
        const session = request.consoleState!.session;
        if (session) return session;
        void reply.redirect('/console/sign-in', 303);
        return null;
      }

      scope.get('/assets/:name', async (request, reply) => {
        const name = (request.params as { name: string }).name;
        // Own names only: `constructor` or `__proto__` must not reach Object.prototype.
        const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
        if (!asset) {
          const ctx = contextOf(request);
          return page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('notFound')), 404);
        }
        // Assets hold nothing private and change only with a build: a browser may keep them, and revalidate.
        reply.header('Cache-Control', 'no-cache').header('ETag', asset.etag);
        if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(asset.contentType).send(asset.body);
      });

      scope.get('/sign-in', async (request, reply) => {
        if (request.consoleState!.session) return reply.redirect('/console', 303);
        const ctx = contextOf(request);
        const query = queryOf(request);
        const notice =
          query.signed_out !== undefined
            ? ctx.t('signedOut')
            : query.ended !== undefined
              ? ctx.t('sessionEnded')
              : null;
        return page(reply, signInPage(ctx, notice ? { kind: 'notice', text: notice } : null));
      });

      scope.post('/sign-in', async (request, reply) => {
        const ctx = contextOf(request);
        const secret = text(((request.body ?? {}) as Record<string, unknown>).key);
        const outcome = await services.sessions.signIn(secret.slice(0, 256), request.ip);
        if (!outcome.ok) {
          if (outcome.reason === 'limited') reply.header('Retry-After', String(outcome.retryAfterSeconds));
          const message =
            outcome.reason === 'limited'
              ? ctx.t('signInLimited', { seconds: outcome.retryAfterSeconds })
              : outcome.reason === 'no_usage'
                ? ctx.t('signInNoUsage')
                : ctx.t('signInRefused');
          return page(
            reply,
            signInPage(ctx, { kind: 'error', text: message }),
            outcome.reason === 'limited' ? 429 : outcome.reason === 'no_usage' ? 403 : 401,
          );
        }
        // The old session (if any) ends: a sign-in never reuses an id the browser held before (session fixation).
        await services.sessions.signOut(request.cookies[cookieNameOf(request)]);
        reply.setCookie(cookieNameOf(request), outcome.sessionId, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          expires: new Date(outcome.expiresAt),
        });
        return reply.redirect('/console', 303);
      });

      scope.post('/sign-out', async (request, reply) => {
        await services.sessions.signOut(request.cookies[cookieNameOf(request)]);
        reply.clearCookie(cookieNameOf(request), {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
        });
        return reply.redirect('/console/sign-in?signed_out', 303);
      });

      scope.get('/', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const now = new Date();
        const start = periodStart(now);
        const end = nextPeriodStart(now);
        const [report, spend] = await Promise.all([
          services.usage.report(session.caller),
          services.requests.spend(session.caller.account.id, start.toISOString(), end.toISOString()),
        ]);
        const days = spend.byDay.map((row) => ({ day: Number(row.day.slice(8, 10)), credits: row.credits }));
        const daysInMonth = Math.round((end.getTime() - start.getTime()) / 86_400_000);
        return page(reply, overviewPage(contextOf(request), { report, spend, days, daysInMonth }));
      });

      scope.get('/events', async (request, reply) => {
        const session = request.consoleState!.session;
        if (!session) {
          const t = translator(request.consoleState!.lang);
          return reply.code(401).type('text/plain; charset=utf-8').send(t('signInFirst'));
        }
        // Counted by the session's token (derived from its id, never the id itself) and by account.
        const sessionKey = session.csrfToken;
        const accountKey = session.caller.account.id;
        const refusal = streamCounts.refusal(sessionKey, accountKey);
        if (refusal) {
          const t = translator(request.consoleState!.lang);
          const message =
            refusal === 'session'
              ? t('streamsPerSession', { limit: streamCounts.caps.perSession })
              : refusal === 'account'
                ? t('streamsPerAccount', { limit: streamCounts.caps.perAccount })
                : t('streamsTotal');
          return reply.code(429).header('Retry-After', '30').type('text/plain; charset=utf-8').send(message);
        }
        streamCounts.open(sessionKey, accountKey);
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          ...consoleSecurityHeaders,
          ...(request.protocol === 'https' ? { 'Strict-Transport-Security': hstsValue } : {}),
          'Content-Type': 'text/event-stream; charset=utf-8',
          'X-Accel-Buffering': 'no',
        });
        streams.add(raw);
        let timer: NodeJS.Timeout | undefined;
        let open = true;
        raw.once('close', () => {
          open = false;
          clearTimeout(timer);
          streams.delete(raw);
          streamCounts.close(sessionKey, accountKey);
        });
        raw.write('retry: 5000\n\n');
        const tick = async () => {
          if (!open) return;
          try {
            // Checked at each tick: a signed-out or revoked session stops receiving numbers at once.
            const current = await services.sessions.resolve(session.id);
            if (!current) {
              raw.end('event: end\ndata: {}\n\n');
              return;
            }
            const report = await services.usage.report(current.caller);
            const data = { credits: report.credits, concurrency: report.concurrency, period: report.period };
            raw.write(`event: usage\ndata: ${JSON.stringify(data)}\n\n`);
          } catch {
            // A backend hiccup: the next tick tries again; the page keeps the last numbers.
          }
          if (open) timer = setTimeout(() => void tick(), services.eventIntervalMs);
        };
        void tick();
      });

      scope.get('/requests', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const query = queryOf(request);
        const ctx = contextOf(request);
        // A refused date is said on the page (and dropped from the filter), never silently read as another day.
        const dateProblems: string[] = [];
        const day = (name: 'from' | 'to') => {
          const value = text(query[name]).slice(0, 32);
          if (value === '' || jstDayStart(value)) return value;
          dateProblems.push(ctx.t('dateRefused', { value, min: filterYears.min, max: filterYears.max }));
          return '';
        };
        let [fromDay, toDay] = [day('from'), day('to')];
        if (fromDay && toDay && fromDay > toDay) {
          dateProblems.push(ctx.t('dateOrder', { from: fromDay, to: toDay }));
          [fromDay, toDay] = ['', ''];
        }
        const filters: RequestFilters = {
          site: text(query.site),
          status: text(query.status),
          error_code: text(query.error_code),
          from: fromDay,
          to: toDay,
        };
        const pageNumber = Math.min(maxPage, Math.max(1, Number.parseInt(text(query.page), 10) || 1));
        const from = jstDayStart(filters.from);
        const to = jstDayStart(filters.to, 1);
        const rows = await services.requests.list({
          accountId: session.caller.account.id,
          ...(filters.site ? { siteId: filters.site } : {}),
          ...(filters.status ? { status: filters.status } : {}),
          ...(filters.error_code ? { errorCode: filters.error_code } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          limit: pageSize + 1,
          offset: (pageNumber - 1) * pageSize,
        });
        const filterQuery = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== '')).toString();
        return page(
          reply,
          requestsPage(ctx, {
            rows: rows.slice(0, pageSize),
            dateProblems,
            filters,
            page: pageNumber,
            hasMore: rows.length > pageSize,
            sites: services.registry.list().map((site) => site.id),
            statuses: requestStatuses,
            errorCodes: errorCodes.filter((code) => !['method_not_allowed', 'not_found'].includes(code)),
            filterQuery,
            notFound: query.not_found !== undefined,
          }),
        );
      });

      scope.get('/requests/lookup', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const id = text(queryOf(request).id);
        if (!/^req_[0-9A-Za-z]{1,60}$/.test(id)) return reply.redirect('/console/requests?not_found', 303);
        return reply.redirect(`/console/requests/${id}`, 303);
      });

      scope.get('/requests/:id', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const id = (request.params as { id: string }).id;
        // Only the session's own account's rows: another account's id is the same 404 as an unknown one.
        const row = id.length <= 64 ? await services.requests.get(id, session.caller.account.id) : null;
        const ctx = contextOf(request);
        if (!row) return page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('requestNotFound')), 404);
        return page(reply, requestDetailPage(ctx, row));
      });

      /** The key form's fields as narrowing options, or why they cannot be (an unknown value, a non-number). */
      function narrowingOf(raw: unknown, t: Translate): { options: NarrowingOptions; refusal: string | null } {
        const body = (raw ?? {}) as Record<string, unknown>;
        const known = new Set(services.registry.list().map((site) => site.id));
        const sites = list(body.sites);
        const ops = list(body.operations);
        const outs = list(body.outputs);
        const credit = text(body.monthly_credit_limit);
        const concurrency = text(body.concurrency_limit);
        const options: NarrowingOptions = {};
        let refusal: string | null = null;
        if (sites.some((site) => !known.has(site))) refusal = t('refuseSite');
        else if (ops.some((op) => !operations.includes(op as Operation))) refusal = t('refuseOperation');
        else if (outs.some((out) => !outputs.includes(out as Output))) refusal = t('refuseOutput');
        else if (credit !== '' && !/^\d{1,9}$/.test(credit)) refusal = t('refuseCredit');
        else if (concurrency !== '' && !/^\d{1,4}$/.test(concurrency)) refusal = t('refuseConcurrency');
        if (sites.length > 0) options.sites = sites;
        if (ops.length > 0) options.operations = ops as Operation[];
        if (outs.length > 0) options.outputs = outs as Output[];
        if (credit !== '') options.monthlyCreditLimit = Number(credit);
        if (concurrency !== '') options.concurrencyLimit = Number(concurrency);
        return { options, refusal };
      }

      /** Holds what the Keys page shows once, then redirects there: a reload never re-runs the form. */
      function redirectToKeys(
        reply: FastifyReply,
        session: ConsoleSession,
        once: { created?: KeysData['created']; notice?: string | null },
      ) {
        const now = Date.now();
        for (const [token, held] of shownOnce) if (held.until <= now) shownOnce.delete(token);
        while (shownOnce.size >= 10_000) shownOnce.delete(shownOnce.keys().next().value!);
        shownOnce.set(session.csrfToken, {
          created: once.created ?? null,
          notice: once.notice ?? null,
          until: now + shownOnceMs,
        });
        return reply.redirect('/console/keys', 303);
      }

      async function keysData(session: ConsoleSession, extra: Partial<KeysData> = {}): Promise<KeysData> {
        return {
          keys: await services.accounts.listKeys(session.caller.account.id),
          created: null,
          notice: null,
          error: null,
          sites: services.registry.list().map((site) => site.id),
          planConcurrency: planOf(session.caller.account.plan).concurrency,
          ...extra,
        };
      }

      scope.get('/keys', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const held = shownOnce.get(session.csrfToken);
        shownOnce.delete(session.csrfToken);
        const once = held && held.until > Date.now() ? { created: held.created, notice: held.notice } : {};
        return page(reply, keysPage(contextOf(request), await keysData(session, once)));
      });

      /** The session may manage keys and the key is its account's; otherwise the answer is sent and null returned. */
      async function managedKey(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession) {
        const ctx = contextOf(request);
        if (!session.canManageKeys) {
          await page(reply, messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('keysReadOnly')), 403);
          return null;
        }
        const id = (request.params as { id: string }).id;
        const key = (await services.accounts.listKeys(session.caller.account.id)).find((k) => k.id === id);
        if (!key) {
          await page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('keyNotFound')), 404);
          return null;
        }
        return key;
      }

      scope.post('/keys', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const ctx = contextOf(request);
        if (!session.canManageKeys) {
          return page(reply, messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('keysReadOnly')), 403);
        }
        const { options: narrowing, refusal: invalid } = narrowingOf(request.body, ctx.t);
        const options: CreateKeyOptions = { accountId: session.caller.account.id, ...narrowing };
        let refusal = invalid;
        if (refusal === null) {
          try {
            const created = await services.accounts.createKey(options);
            request.log.info({ key_id: created.keyId }, 'console: key created');
            return redirectToKeys(reply, session, { created: { key: created.key, keyId: created.keyId } });
          } catch (error) {
            if (!(error instanceof AccountError)) throw error;
            refusal = refusalOf(error.message, ctx.t);
          }
        }
        return page(
          reply,
          keysPage(ctx, await keysData(session, { error: ctx.t('keyRefused', { reason: refusal }) })),
          400,
        );
      });

      // A rotate or revoke is never one click: its link opens this page, whose form does it (no script needed).
      for (const action of ['rotate', 'revoke'] as const) {
        scope.get(`/keys/:id/${action}`, async (request, reply) => {
          const session = sessionOr(request, reply);
          if (!session) return reply;
          const key = await managedKey(request, reply, session);
          if (!key) return reply;
          if (key.status !== 'active') return reply.redirect('/console/keys', 303);
          const own = key.id === session.caller.key.id;
          return page(reply, confirmKeyPage(contextOf(request), action, key.id, own));
        });
      }

      scope.post('/keys/:id/revoke', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const key = await managedKey(request, reply, session);
        if (!key) return reply;
        const ctx = contextOf(request);
        await services.accounts.revokeKey(key.id);
        request.log.info({ key_id: key.id }, 'console: key revoked');
        const notice = `${ctx.t('keyRevoked', { id: key.id })}${key.id === session.caller.key.id ? ` ${ctx.t('ownKeyGone')}` : ''}`;
        // The session's own key: the session ends with it, so there is no Keys page to redirect to.
        if (key.id === session.caller.key.id) return page(reply, keysPage(ctx, await keysData(session, { notice })));
        return redirectToKeys(reply, session, { notice });
      });

      scope.post('/keys/:id/narrow', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const key = await managedKey(request, reply, session);
        if (!key) return reply;
        const ctx = contextOf(request);
        const { options, refusal } = narrowingOf(request.body, ctx.t);
        try {
          if (refusal !== null) {
            return page(
              reply,
              keysPage(ctx, await keysData(session, { error: ctx.t('keyNotNarrowed', { reason: refusal }) })),
              400,
            );
          }
          await services.accounts.narrowKey(key.id, options);
          request.log.info({ key_id: key.id }, 'console: key narrowed');
          const own = key.id === session.caller.key.id ? ` ${ctx.t('keysReadOnly')}` : '';
          return redirectToKeys(reply, session, { notice: `${ctx.t('keyNarrowed', { id: key.id })}${own}` });
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          // The service's reason names the values at stake (sites, limits); the sentence around it is translated.
          const error_ = ctx.t('keyNotNarrowed', { reason: refusalOf(error.message, ctx.t) });
          return page(reply, keysPage(ctx, await keysData(session, { error: error_ })), 400);
        }
      });

      scope.post('/keys/:id/rotate', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const key = await managedKey(request, reply, session);
        if (!key) return reply;
        const ctx = contextOf(request);
        try {
          const created = await services.accounts.rotateKey(key.id);
          request.log.info({ key_id: created.keyId, replaced: key.id }, 'console: key rotated');
          const shown = { key: created.key, keyId: created.keyId };
          // Rotating the session's own key ends the session: the new secret is shown in this answer, as there is no
          // Keys page to redirect to (a reload re-posts with an ended session and is refused, 403).
          if (key.id === session.caller.key.id) {
            const notice = ctx.t('ownKeyGone');
            return page(reply, keysPage(ctx, await keysData(session, { created: shown, notice })));
          }
          return redirectToKeys(reply, session, { created: shown });
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          return page(reply, keysPage(ctx, await keysData(session, { error: ctx.t('keyNotRotated') })), 409);
        }
      });

      /** The batch reader when this session may use it; otherwise the refusal page is sent and null returned. */
      async function batchReader(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession) {
        const ctx = contextOf(request);
        if (!services.batches) {
          await page(reply, messagePage(ctx, ctx.t('batches'), ctx.t('batchesUnavailable')), 503);
          return null;
        }
        // The console shows what the key could read over the API: a key narrowed to other operations sees no batches.
        const operations = session.caller.key.operations;
        if (operations !== null && !operations.includes('batch')) {
          await page(reply, messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('batchesForbidden')), 403);
          return null;
        }
        return services.batches;
      }

      scope.get('/batches', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const batches = await batchReader(request, reply, session);
        if (!batches) return reply;
        const list = await batches.list(session.caller.account.id, batchListSize);
        return page(reply, batchesPage(contextOf(request), { batches: list }));
      });

      scope.get('/batches/:id', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const batches = await batchReader(request, reply, session);
        if (!batches) return reply;
        const id = (request.params as { id: string }).id;
        const accountId = session.caller.account.id;
        // Only the session's own account's batches: another account's id is the same 404 as an unknown one.
        const batch = /^bat_[0-9A-Za-z]{1,60}$/.test(id) ? await batches.get(id, accountId) : null;
        const ctx = contextOf(request);
        if (!batch) return page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('batchNotFound')), 404);
        const failures = await batches.failureCodes(id, accountId);
        return page(reply, batchDetailPage(ctx, { batch, failures }));
      });

      /** The monitor reader when this session may use it; otherwise the refusal page is sent and null returned. */
      async function monitorReader(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession) {
        const ctx = contextOf(request);
        if (!services.monitors) {
          await page(reply, messagePage(ctx, ctx.t('monitors'), ctx.t('monitorsUnavailable')), 503);
          return null;
        }
        // As over the API: a key narrowed to other operations sees no monitors.
        const operations = session.caller.key.operations;
        if (operations !== null && !operations.includes('monitor')) {
          await page(reply, messagePage(ctx, ctx.t('forbiddenTitle'), ctx.t('monitorsForbidden')), 403);
          return null;
        }
        return services.monitors;
      }

      /**
       * The account's own monitor named by the URL and the target asked for (`?target=`, else its first), or null
       * with the 404 sent: another account's monitor is the same 404 as an unknown one.
       */
      async function ownMonitor(request: FastifyRequest, reply: FastifyReply, session: ConsoleSession) {
        const monitors = await monitorReader(request, reply, session);
        if (!monitors) return null;
        const id = (request.params as { id: string }).id;
        const monitor = /^mon_[0-9A-Za-z]{1,60}$/.test(id) ? await monitors.get(id, session.caller.account.id) : null;
        const ctx = contextOf(request);
        if (!monitor) {
          await page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('monitorNotFound')), 404);
          return null;
        }
        const asked = text(queryOf(request).target);
        const target = asked ? monitor.targets.find((each) => each.id === asked) : monitor.targets[0];
        if (asked && !target) {
          await page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('targetNotFound')), 404);
          return null;
        }
        // The window the API's history reads by default: the retention, at most a year.
        const days = Math.min(monitor.retainDays ?? 30, maxHistoryDays);
        return { monitors, monitor, target: target ?? null, days };
      }

      scope.get('/monitors', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const monitors = await monitorReader(request, reply, session);
        if (!monitors) return reply;
        const accountId = session.caller.account.id;
        const list = await monitors.list(accountId, monitorListSize);
        // Each target's last change comes from the monitor's recent checks (kept 30 days): one read per monitor.
        const entries: MonitorListEntry[] = await Promise.all(
          list.map(async (monitor) => {
            const checks = await monitors.checks(monitor.id, accountId, { limit: changeScanChecks });
            const lastChanges: MonitorListEntry['lastChanges'] = {};
            for (const check of checks) {
              // Newest first: the first check of a target that changed something is its last change.
              if (check.changes.length > 0 && !Object.hasOwn(lastChanges, check.targetId)) {
                lastChanges[check.targetId] = check;
              }
            }
            return { monitor, lastChanges };
          }),
        );
        return page(reply, monitorsPage(contextOf(request), { monitors: entries }));
      });

      scope.get('/monitors/:id', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const own = await ownMonitor(request, reply, session);
        if (!own) return reply;
        const { monitors, monitor, target, days } = own;
        const accountId = session.caller.account.id;
        const since = new Date(Date.now() - days * 86_400_000).toISOString();
        const [history, checks, events] = await Promise.all([
          monitor.retainDays === null || !target
            ? Promise.resolve(null)
            : monitors.history(monitor.id, accountId, target.id, since),
          monitors.checks(monitor.id, accountId, { limit: monitorPageRows }),
          monitors.events(monitor.id, accountId, monitorPageRows),
        ]);
        return page(
          reply,
          monitorDetailPage(contextOf(request), { monitor, target, history, historyDays: days, checks, events }),
        );
      });

      // The same CSV as GET /v1/monitors/{id}/history?format=csv (the watched fields over the default window).
      scope.get('/monitors/:id/history.csv', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        const own = await ownMonitor(request, reply, session);
        if (!own) return reply;
        const { monitors, monitor, target, days } = own;
        if (!target) {
          const ctx = contextOf(request);
          return page(reply, messagePage(ctx, ctx.t('notFoundTitle'), ctx.t('targetNotFound')), 404);
        }
        const now = new Date();
        const since = new Date(now.getTime() - days * 86_400_000);
        const points =
          monitor.retainDays === null
            ? []
            : await monitors.history(monitor.id, session.caller.account.id, target.id, since.toISOString());
        const csv = historyCsv(historyView(monitor, target.id, monitor.watch, points, since, now));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${monitor.id}-${target.id}.csv"`)
          .send(csv);
      });

      scope.get('/sites', async (request, reply) => {
        const session = sessionOr(request, reply);
        if (!session) return reply;
        return page(reply, sitesPage(contextOf(request), siteCatalogue(services.registry)));
      });
    },
    { prefix: '/console' },
  );
}
