// The console's batch pages: the account's batches (newest first) and one batch's counts and failure codes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSession } from './console-sessions.js';
import type { ConsoleScope } from './console-scope.js';
import { batchDetailPage, batchesPage, messagePage } from './views.js';

/** How many batches the list shows (newest first). */
const batchListSize = 50;

export function registerBatchesRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
): void {
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
}
