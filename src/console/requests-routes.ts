// The console's request log: the filtered list (by site, status, error code, Asia/Tokyo days), lookup and one row.
import type { FastifyInstance } from 'fastify';
import { errorCodes } from '../errors.js';
import { requestStatuses } from '../scrape/scrape-service.js';
import { queryOf, text, type ConsoleScope } from './console-scope.js';
import { messagePage, requestDetailPage, requestsPage, type RequestFilters } from './views.js';

const pageSize = 50;
const maxPage = 1000;

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

export function registerRequestsRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
): void {
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
}
