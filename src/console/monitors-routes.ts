// The console's monitor pages: the account's monitors with their targets' last changes, one monitor, its history CSV.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { historyView } from '../monitors/monitor-service.js';
import { historyCsv } from '../monitors/history-csv.js';
import type { ConsoleSession } from './console-sessions.js';
import { queryOf, text, type ConsoleScope } from './console-scope.js';
import { monitorDetailPage, monitorsPage, type MonitorListEntry } from './monitor-views.js';
import { messagePage } from './views.js';

/** Monitors the list shows (newest first); checks read per monitor for the targets' last changes; a page's rows. */
const monitorListSize = 50;
const changeScanChecks = 100;
const monitorPageRows = 20;
/** The longest history the chart and the CSV read (the API's cap too). */
const maxHistoryDays = 365;

export function registerMonitorsRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
): void {
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
}
