// What every console page's routes share: the services they read, the request's language and session, and the answers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '../accounts/accounts-service.js';
import type { UsageReporter } from '../accounts/usage-report.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { RequestLog } from '../storage/storage.js';
import type { BatchStore } from '../batches/batch-store.js';
import type { MonitorStore } from '../monitors/monitor-store.js';
import type { ConsoleSession, ConsoleSessions } from './console-sessions.js';
import type { Lang } from './i18n.js';
import type { PageContext } from './views.js';

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

/** What the console reads of monitors: only the account's own; never a channel token or a sealed URL. */
export type MonitorReader = Pick<MonitorStore, 'list' | 'get' | 'checks' | 'history' | 'events'>;

export interface EventStreamCaps {
  perSession: number;
  perAccount: number;
  total: number;
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
export const hstsValue = 'max-age=31536000';

export interface ConsoleState {
  lang: Lang;
  session: ConsoleSession | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleState: ConsoleState | null;
  }
}

/** What registerConsole hands each page's routes: built once per console, over its own encapsulated scope. */
export interface ConsoleScope {
  services: ConsoleServices;
  /** The page context (language, translator, path, session) of a request. */
  contextOf: (request: FastifyRequest) => PageContext;
  /** Sends an HTML page. */
  page: (reply: FastifyReply, body: string, status?: number) => FastifyReply;
  /** The signed-in session, or a redirect to the sign-in page (null: the answer is already sent). */
  sessionOr: (request: FastifyRequest, reply: FastifyReply) => ConsoleSession | null;
}

/** The session cookie: `__Host-` (Secure, whole host, no Domain) over TLS; a plain name on http (development). */
export function cookieNameOf(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-kumo_console' : 'kumo_console';
}

export function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

export function list(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}
