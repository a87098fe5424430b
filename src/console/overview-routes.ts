// The console's overview (usage this month, spend by day) and its event stream of fresh numbers.
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { nextPeriodStart, periodStart } from '../accounts/period.js';
import { consoleSecurityHeaders, hstsValue, type ConsoleScope, type EventStreamCaps } from './console-scope.js';
import { translator } from './i18n.js';
import { overviewPage } from './views.js';

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

/** `streams`: the open event streams, which the console ends as the server starts closing. */
export function registerOverviewRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
  streams: Set<ServerResponse>,
): void {
  const streamCounts = new StreamCounts({ ...defaultStreamCaps, ...services.eventStreamCaps });

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
}
