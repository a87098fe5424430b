// Console sign-in: an API key exchanged for a server-side session, its CSRF token, its expiry and its sign-out.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Accounts, AuthenticatedCaller as Caller } from '../accounts/accounts-service.js';
import type { ConsoleSessionStore, KeyRecord, KeyStore, AccountStore } from '../storage/storage.js';
import { SignInLimiter } from './sign-in-limiter.js';
import { systemClock, type Clock } from '../time/clock.js';

export interface ConsoleSession {
  /** The cookie's value; held here only for the length of one request. */
  id: string;
  caller: Caller;
  expiresAt: string;
  /** The synchronizer token every state-changing form of this session carries. */
  csrfToken: string;
  /** Only a key without any narrowing may manage the account's keys (it could otherwise mint a wider one). */
  canManageKeys: boolean;
}

export type SignInOutcome =
  | { ok: true; sessionId: string; expiresAt: string }
  | { ok: false; reason: 'refused' | 'no_usage' }
  | { ok: false; reason: 'limited'; retryAfterSeconds: number };

export interface ConsoleSessionsOptions {
  sessions: ConsoleSessionStore;
  keys: KeyStore;
  accounts: AccountStore;
  authenticate: Accounts['authenticate'];
  ttlMs: number;
  signIn: { maxFailures: number; windowMs: number };
  /** Session lifetimes and the sign-in windows run on it (default the system clock). */
  clock?: Clock;
}

/**
 * The sign-in limiter's subject for a client address: an IPv4 address as is, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting single addresses would give a guesser 2^64 budgets).
 */
export function addressSubjectOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `address:${mapped[1]}`;
  if (isIP(address) !== 6) return `address:${address}`;
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `address:${prefix.join(':')}::/64`;
}

const hashOf = (sessionId: string) => createHash('sha256').update(sessionId, 'utf8').digest('hex');

/**
 * Whether a key narrows anything at all: such a key sees its account but may not manage keys. An expiry narrows
 * too (a key that ends could otherwise mint one that does not).
 */
export function isNarrowed(key: KeyRecord): boolean {
  return (
    key.expiresAt !== null ||
    key.sites !== null ||
    key.operations !== null ||
    key.outputs !== null ||
    key.monthlyCreditLimit !== null ||
    key.concurrencyLimit !== null
  );
}

/** The console's one rule for who may be in it, at sign-in and on every request after: a key that may read usage. */
export function mayUseConsole(key: KeyRecord): boolean {
  return key.operations === null || key.operations.includes('usage');
}

export class ConsoleSessions {
  readonly #options: ConsoleSessionsOptions;
  readonly #clock: Clock;
  readonly #limiter: SignInLimiter;

  constructor(options: ConsoleSessionsOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#limiter = new SignInLimiter({ ...options.signIn, clock: this.#clock });
  }

  /**
   * Checks the key (within the brute-force bound) and opens a session. Only keys that may read usage open the
   * console; every other failure is the same `refused`, as for the API's 401.
   */
  async signIn(secret: string, clientAddress: string): Promise<SignInOutcome> {
    // The public start of a key (`kumo_live_` + 4): what a guesser holding part of a key would keep constant. Anyone
    // may read it off a key's listing, so its count only ever refuses keys that fail: a key that authenticates is
    // never locked out by strangers' failures on its prefix. The address bound is checked before the key is looked at.
    const address = addressSubjectOf(clientAddress);
    const prefix = `prefix:${secret.slice(0, 14)}`;
    const addressWait = this.#limiter.retryAfterSeconds([address]);
    if (addressWait > 0) return { ok: false, reason: 'limited', retryAfterSeconds: addressWait };
    const caller = await this.#options.authenticate(secret);
    if (!caller) {
      const prefixWait = this.#limiter.retryAfterSeconds([prefix]);
      this.#limiter.recordFailure([address, prefix]);
      if (prefixWait > 0) return { ok: false, reason: 'limited', retryAfterSeconds: prefixWait };
      return { ok: false, reason: 'refused' };
    }
    if (!mayUseConsole(caller.key)) return { ok: false, reason: 'no_usage' };
    const sessionId = randomBytes(32).toString('base64url');
    const now = new Date(this.#clock.now());
    const expiresAt = new Date(now.getTime() + this.#options.ttlMs).toISOString();
    await this.#options.sessions.create({
      idHash: hashOf(sessionId),
      accountId: caller.account.id,
      keyId: caller.key.id,
      createdAt: now.toISOString(),
      expiresAt,
    });
    return { ok: true, sessionId, expiresAt };
  }

  /** The live session behind a cookie value, or null (unknown, expired, or its key no longer works). */
  async resolve(sessionId: string | undefined): Promise<ConsoleSession | null> {
    if (!sessionId || !/^[A-Za-z0-9_-]{43}$/.test(sessionId)) return null;
    const now = new Date(this.#clock.now());
    const idHash = hashOf(sessionId);
    const session = await this.#options.sessions.get(idHash, now.toISOString());
    if (!session) return null;
    const key = await this.#options.keys.get(session.keyId);
    const keyWorks =
      key !== null &&
      key.accountId === session.accountId &&
      key.revokedAt === null &&
      mayUseConsole(key) &&
      (key.expiresAt === null || Date.parse(key.expiresAt) > now.getTime());
    const account = keyWorks ? await this.#options.accounts.get(session.accountId) : null;
    if (!key || !account) {
      // A revoked or expired key, or one narrowed so that it may no longer sign in, ends every session it opened.
      await this.#options.sessions.delete(idHash);
      return null;
    }
    return {
      id: sessionId,
      caller: { account, key },
      expiresAt: session.expiresAt,
      csrfToken: this.csrfTokenOf(sessionId),
      canManageKeys: !isNarrowed(key),
    };
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.#options.sessions.delete(hashOf(sessionId));
  }

  /**
   * The session's synchronizer token: an HMAC keyed by the session id, so it is tied to this session, needs no
   * storage, and cannot be made without the HttpOnly cookie.
   */
  csrfTokenOf(sessionId: string): string {
    return createHmac('sha256', sessionId).update('kumo-console-csrf').digest('base64url');
  }

  verifyCsrf(sessionId: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.csrfTokenOf(sessionId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Forgets expired sessions (the sweeper calls it). */
  async sweep(): Promise<number> {
    return this.#options.sessions.deleteExpired(new Date(this.#clock.now()).toISOString());
  }
}
