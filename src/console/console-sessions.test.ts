// Console sessions over real SQLite: only the id's hash is stored, sessions expire, the token is tied to the session.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import { ManualClock } from '../time/clock.js';
import { ConsoleSessions } from './console-sessions.js';

let storage: KyselyStorage;
let accounts: Accounts;
let clock: ManualClock;
const now = () => new Date(clock.now());
/** Moves the clock on to an instant given as an ISO string. */
const moveTo = (iso: string) => clock.advance(Date.parse(iso) - clock.now());
let sessions: ConsoleSessions;

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  clock = new ManualClock(Date.parse('2026-05-10T00:00:00.000Z'));
  accounts = new Accounts(storage, { clock: now });
  sessions = new ConsoleSessions({
    sessions: storage.sessions,
    keys: storage.keys,
    accounts: storage.accounts,
    authenticate: (secret) => accounts.authenticate(secret),
    ttlMs: 60 * 60_000,
    signIn: { maxFailures: 2, windowMs: 60_000 },
    clock,
  });
});
afterEach(async () => {
  await storage.close();
});

async function opened(secret: string): Promise<string> {
  const outcome = await sessions.signIn(secret, '192.0.2.1');
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.sessionId;
}

describe('ConsoleSessions', () => {
  it('stores the SHA-256 of the session id, never the id or the key, and resolves the caller from the cookie value', async () => {
    const created = await accounts.createKey({ plan: 'starter' });
    const id = await opened(created.key);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hash = createHash('sha256').update(id).digest('hex');
    const row = await storage.sessions.get(hash, now().toISOString());
    expect(row).toMatchObject({
      accountId: created.accountId,
      keyId: created.keyId,
      expiresAt: '2026-05-10T01:00:00.000Z',
    });
    expect(JSON.stringify(row)).not.toContain(id);
    expect(JSON.stringify(row)).not.toContain(created.key);
    const session = await sessions.resolve(id);
    expect(session?.caller.account.id).toBe(created.accountId);
    expect(session?.canManageKeys).toBe(true);
    expect(await sessions.resolve(`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await sessions.resolve('not a session')).toBeNull();
    expect(await sessions.resolve(undefined)).toBeNull();
  });

  it('expires after its time, and the sweep forgets it', async () => {
    const created = await accounts.createKey({ plan: 'free' });
    const id = await opened(created.key);
    await moveTo('2026-05-10T00:59:59.000Z');
    expect(await sessions.resolve(id)).not.toBeNull();
    await moveTo('2026-05-10T01:00:00.000Z');
    expect(await sessions.resolve(id)).toBeNull();
    expect(await sessions.sweep()).toBe(1);
  });

  it('gives each session its own CSRF token, accepted only for that session', async () => {
    const created = await accounts.createKey({ plan: 'free' });
    const a = await opened(created.key);
    const b = await opened(created.key);
    const tokenA = sessions.csrfTokenOf(a);
    expect(tokenA).not.toBe(sessions.csrfTokenOf(b));
    expect(sessions.verifyCsrf(a, tokenA)).toBe(true);
    expect(sessions.verifyCsrf(b, tokenA)).toBe(false);
    expect(sessions.verifyCsrf(a, undefined)).toBe(false);
    expect(sessions.verifyCsrf(a, `${tokenA}x`)).toBe(false);
  });

  it('refuses an unknown key, then every key from that address once the bound is reached', async () => {
    const created = await accounts.createKey({ plan: 'free' });
    expect(await sessions.signIn('kumo_live_wrong', '192.0.2.9')).toEqual({ ok: false, reason: 'refused' });
    expect(await sessions.signIn('kumo_live_wrong2', '192.0.2.9')).toEqual({ ok: false, reason: 'refused' });
    expect(await sessions.signIn(created.key, '192.0.2.9')).toEqual({
      ok: false,
      reason: 'limited',
      retryAfterSeconds: 60,
    });
    expect((await sessions.signIn(created.key, '192.0.2.10')).ok).toBe(true);
  });

  it("never locks the owner out by strangers' failures on the key's public prefix", async () => {
    const created = await accounts.createKey({ plan: 'free' });
    const prefix = created.key.slice(0, 14);
    for (let i = 0; i < 5; i++) {
      const outcome = await sessions.signIn(`${prefix}${'x'.repeat(40)}${i}`, `198.51.100.${i}`);
      expect(outcome.ok).toBe(false);
    }
    // A wrong key on that prefix is still held to the bound...
    expect(await sessions.signIn(`${prefix}${'y'.repeat(41)}`, '203.0.113.1')).toMatchObject({ reason: 'limited' });
    // ...the owner's right key, from a fresh address, signs in.
    expect((await sessions.signIn(created.key, '203.0.113.2')).ok).toBe(true);
  });

  it('ends a session at its next request once its key may no longer read usage', async () => {
    const created = await accounts.createKey({ plan: 'starter', operations: ['scrape', 'usage'] });
    const id = await opened(created.key);
    expect(await sessions.resolve(id)).not.toBeNull();
    await accounts.narrowKey(created.keyId, { operations: ['scrape'] });
    expect(await sessions.resolve(id)).toBeNull();
    // Ended, not only hidden: widening is impossible anyway, and the row is gone.
    expect(await storage.sessions.get(createHash('sha256').update(id).digest('hex'), now().toISOString())).toBeNull();
  });

  it('treats a key with an expiry as narrowed: it may not manage keys', async () => {
    const created = await accounts.createKey({
      plan: 'starter',
      expiresAt: new Date(clock.now() + 86_400_000),
    });
    expect((await sessions.resolve(await opened(created.key)))?.canManageKeys).toBe(false);
    const plain = await accounts.createKey({ plan: 'starter' });
    expect((await sessions.resolve(await opened(plain.key)))?.canManageKeys).toBe(true);
  });

  it('signs out, and a narrowed key may not manage keys', async () => {
    const created = await accounts.createKey({ plan: 'starter', monthlyCreditLimit: 10 });
    const id = await opened(created.key);
    expect((await sessions.resolve(id))?.canManageKeys).toBe(false);
    await sessions.signOut(id);
    expect(await sessions.resolve(id)).toBeNull();
  });
});
