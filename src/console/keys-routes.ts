// The console's Keys page: list, create (the secret shown once), narrow, rotate and revoke, each behind a form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CreateKeyOptions } from '../accounts/accounts-service.js';
import { AccountError } from '../accounts/accounts-service.js';
import type { AccountField, AccountRefusal } from '../accounts/account-refusal.js';
import { planOf } from '../accounts/plans.js';
import type { Operation, Output } from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import type { ConsoleSession } from './console-sessions.js';
import { list, text, type ConsoleScope } from './console-scope.js';
import type { Translate } from './i18n.js';
import { confirmKeyPage, keysPage, messagePage, type KeysData } from './views.js';

/** How long a new secret waits, server-side, for the one Keys page that shows it. */
const shownOnceMs = 60_000;

const operations = allOperations;
const outputs: readonly Output[] = ['json', 'html', 'artifact'];

type NarrowingOptions = Pick<
  CreateKeyOptions,
  'sites' | 'operations' | 'outputs' | 'monthlyCreditLimit' | 'concurrencyLimit'
>;

/** A setting's name as the Keys form labels it. */
function fieldName(field: AccountField, t: Translate): string {
  switch (field) {
    case 'sites':
      return t('sites');
    case 'operations':
      return t('operations');
    case 'outputs':
      return t('outputs');
    case 'monthlyCreditLimit':
      return t('creditLimit');
    case 'concurrencyLimit':
      return t('concurrencyField');
    case 'overageCapCredits':
    case 'expiresAt':
      // Not on the Keys form (an account's overage cap, a key's expiry): said generally.
      return t('refuseField');
  }
}

/**
 * The accounts service's refusal in the page's language, from its reason code and values (the English message is
 * for operators: CLI and logs). Codes the Keys forms cannot cause are one general sentence.
 */
export function refusalText(refusal: AccountRefusal, t: Translate): string {
  switch (refusal.code) {
    case 'may_only_narrow':
      return t('refuseWiden', { field: fieldName(refusal.field, t), values: refusal.values.join(', ') });
    case 'may_only_fall':
      return t('refuseRaise', { field: fieldName(refusal.field, t), now: refusal.now });
    case 'concurrency_above_plan':
      return t('refuseAbovePlan', { limit: refusal.limit, plan: refusal.plan, max: refusal.max });
    case 'key_not_active':
    case 'key_expired':
    case 'key_revoked_meanwhile':
      return t('refuseInactive');
    case 'label_invalid':
      return t('refuseLabel', { max: refusal.max });
    // What the Keys forms cannot cause, or say more precisely than one general sentence.
    case 'unknown_value':
    case 'empty_narrowing':
    case 'empty_value':
    case 'not_whole_number':
    case 'invalid_time':
    case 'no_account':
    case 'plan_mismatch':
    case 'unknown_plan':
    case 'no_overage':
    case 'bootstrap_key_malformed':
    case 'bootstrap_key_revoked':
    case 'operator_name_invalid':
    case 'nothing_under_review':
    case 'no_approval':
      return t('refuseOther');
  }
}

export function registerKeysRoutes(
  scope: FastifyInstance,
  { services, contextOf, page, sessionOr }: ConsoleScope,
): void {
  // What a successful key form has to show once after its redirect (POST/Redirect/GET): a new secret, a notice.
  // Keyed by the session's token (bound to the session, never in a URL), taken by the next Keys page, gone after a
  // minute at most. In process: with several instances the redirect must reach the same one (docs/console.md).
  const shownOnce = new Map<string, { created: KeysData['created']; notice: string | null; until: number }>();

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
    // The label is checked by the accounts service (its refusal is worded below); empty means none.
    const label = text((request.body as Record<string, unknown> | undefined)?.label);
    const options: CreateKeyOptions = {
      accountId: session.caller.account.id,
      ...narrowing,
      ...(label === '' ? {} : { label }),
    };
    let refusal = invalid;
    if (refusal === null) {
      try {
        const created = await services.accounts.createKey(options);
        request.log.info({ key_id: created.keyId }, 'console: key created');
        return redirectToKeys(reply, session, { created: { key: created.key, keyId: created.keyId } });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        refusal = refusalText(error.refusal, ctx.t);
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
      // The service's reason code carries the values at stake (sites, limits); the whole sentence is translated.
      const error_ = ctx.t('keyNotNarrowed', { reason: refusalText(error.refusal, ctx.t) });
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
}
