// The console's sign-in and sign-out: a key's secret in, a session cookie out (and the cookie cleared on the way out).
import type { FastifyInstance } from 'fastify';
import { cookieNameOf, queryOf, text, type ConsoleScope } from './console-scope.js';
import { signInPage } from './views.js';

export function registerSignInRoutes(scope: FastifyInstance, { services, contextOf, page }: ConsoleScope): void {
  scope.get('/sign-in', async (request, reply) => {
    if (request.consoleState!.session) return reply.redirect('/console', 303);
    const ctx = contextOf(request);
    const query = queryOf(request);
    const notice =
      query.signed_out !== undefined ? ctx.t('signedOut') : query.ended !== undefined ? ctx.t('sessionEnded') : null;
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
}
