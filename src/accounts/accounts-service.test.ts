// Accounts and keys over a real (in-memory SQLite) Storage: creation, narrowing, rotation, authentication, bootstrap.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { AccountError, Accounts } from './accounts-service.js';
import { generateKey, hashKey } from './api-keys.js';
import { periodOf } from './period.js';

let storage: KyselyStorage;
let now: Date;
let accounts: Accounts;

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  now = new Date('2026-05-10T00:00:00.000Z');
  accounts = new Accounts(storage, { clock: () => now });
});

afterEach(async () => {
  await storage.close();
});

describe('createAccount', () => {
  it('creates an account with an acc_ id', async () => {
    const account = await accounts.createAccount({ plan: 'starter', overageCapCredits: 1_000 });
    expect(account.id).toMatch(/^acc_/);
    expect(await storage.accounts.get(account.id)).toEqual(account);
  });

  it('refuses an overage cap on Free, and a negative or fractional one', async () => {
    await expect(accounts.createAccount({ plan: 'free', overageCapCredits: 10 })).rejects.toThrow(AccountError);
    await expect(accounts.createAccount({ plan: 'starter', overageCapCredits: -1 })).rejects.toThrow(AccountError);
    await expect(accounts.createAccount({ plan: 'starter', overageCapCredits: 1.5 })).rejects.toThrow(AccountError);
  });
});

describe('createKey', () => {
  it('creates an account when none is given and returns the secret once', async () => {
    const created = await accounts.createKey({ plan: 'starter' });
    expect(created.key).toMatch(/^kumo_live_/);
    expect(created.keyId).toMatch(/^key_/);
    expect(created.accountId).toMatch(/^acc_/);
    expect((await storage.accounts.get(created.accountId))?.plan).toBe('starter');
    const stored = await storage.keys.get(created.keyId);
    expect(stored?.hash).toBe(hashKey(created.key));
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(14));
  });

  it('defaults to a Free account', async () => {
    const created = await accounts.createKey();
    expect((await storage.accounts.get(created.accountId))?.plan).toBe('free');
  });

  it('adds a key to an existing account with its narrowing', async () => {
    const account = await accounts.createAccount({ plan: 'growth' });
    const created = await accounts.createKey({
      accountId: account.id,
      sites: ['ikebe_gakki'],
      operations: ['scrape'],
      outputs: ['json', 'html'],
      monthlyCreditLimit: 100,
      concurrencyLimit: 20,
      expiresAt: '2027-01-01T00:00:00Z',
    });
    expect(created.accountId).toBe(account.id);
    expect(await storage.keys.get(created.keyId)).toMatchObject({
      sites: ['ikebe_gakki'],
      operations: ['scrape'],
      outputs: ['json', 'html'],
      monthlyCreditLimit: 100,
      concurrencyLimit: 20,
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it("refuses a concurrency limit above the plan's, and writes nothing", async () => {
    await expect(accounts.createKey({ plan: 'free', concurrencyLimit: 3 })).rejects.toThrow(
      /concurrency limit 3 is above the free plan's 2/,
    );
    const account = await accounts.createAccount({ plan: 'starter' });
    await expect(accounts.createKey({ accountId: account.id, concurrencyLimit: 6 })).rejects.toThrow(AccountError);
    expect(await storage.keys.list()).toEqual([]);
  });

  it('knows the batch operation: a key may be made with it, and narrowed to it or away from it', async () => {
    const created = await accounts.createKey({ plan: 'starter', operations: ['scrape', 'batch'] });
    expect((await storage.keys.get(created.keyId))?.operations).toEqual(['scrape', 'batch']);
    await accounts.narrowKey(created.keyId, { operations: ['batch'] });
    expect((await storage.keys.get(created.keyId))?.operations).toEqual(['batch']);
    await expect(accounts.narrowKey(created.keyId, { operations: ['batch', 'scrape'] })).rejects.toThrow(AccountError);
  });

  it('refuses bad options', async () => {
    await expect(accounts.createKey({ accountId: 'acc_missing' })).rejects.toThrow(/no account acc_missing/);
    await expect(accounts.createKey({ operations: ['delete' as never] })).rejects.toThrow(/unknown value delete/);
    await expect(accounts.createKey({ outputs: ['pdf' as never] })).rejects.toThrow(AccountError);
    await expect(accounts.createKey({ sites: [] })).rejects.toThrow(/at least one/);
    await expect(accounts.createKey({ concurrencyLimit: 0 })).rejects.toThrow(AccountError);
    await expect(accounts.createKey({ monthlyCreditLimit: -5 })).rejects.toThrow(AccountError);
    await expect(accounts.createKey({ expiresAt: 'soon' })).rejects.toThrow(/expiresAt/);
    const account = await accounts.createAccount({ plan: 'free' });
    await expect(accounts.createKey({ accountId: account.id, plan: 'growth' })).rejects.toThrow(/free plan/);
    expect(await storage.keys.list()).toEqual([]);
  });
});

describe('authenticate', () => {
  it('returns the account and key of a valid secret', async () => {
    const created = await accounts.createKey({ plan: 'starter' });
    const caller = await accounts.authenticate(created.key);
    expect(caller?.account.id).toBe(created.accountId);
    expect(caller?.key.id).toBe(created.keyId);
  });

  it('is null for unknown, malformed, revoked and expired keys alike', async () => {
    const revoked = await accounts.createKey();
    await accounts.revokeKey(revoked.keyId);
    const expiring = await accounts.createKey({ expiresAt: '2026-05-10T00:00:01Z' });
    expect(await accounts.authenticate(expiring.key)).not.toBeNull();
    now = new Date('2026-05-10T00:00:01Z');

    const valid = await accounts.createKey();
    const i = 20;
    const typo = valid.key.slice(0, i) + (valid.key[i] === 'a' ? 'b' : 'a') + valid.key.slice(i + 1);
    for (const secret of [
      generateKey(),
      typo,
      'kumo_live_unknownunknownunknownunknown',
      '',
      'x'.repeat(300),
      revoked.key,
      expiring.key,
    ]) {
      expect(await accounts.authenticate(secret)).toBeNull();
    }
    expect(await accounts.authenticate(valid.key)).not.toBeNull();
  });

  it('never looks up a malformed secret', async () => {
    let lookups = 0;
    const counting = new Accounts(
      {
        accounts: storage.accounts,
        keys: {
          findByHash: async (hash: string) => {
            lookups++;
            return storage.keys.findByHash(hash);
          },
        },
      } as unknown as KyselyStorage,
      { clock: () => now },
    );
    expect(await counting.authenticate('kumo_live_unknownunknownunknownunknown')).toBeNull();
    expect(await counting.authenticate('Bearer-ish junk that is long enough')).toBeNull();
    expect(lookups).toBe(0);
    await counting.authenticate(generateKey());
    expect(lookups).toBe(1);
  });
});

describe('listKeys, revokeKey, rotateKey', () => {
  it('lists keys without secrets or hashes, with their status', async () => {
    const a = await accounts.createKey({ plan: 'starter' });
    const b = await accounts.createKey({ accountId: a.accountId });
    await accounts.revokeKey(b.keyId);
    const other = await accounts.createKey();
    const listed = await accounts.listKeys(a.accountId);
    expect(listed.map((k) => [k.id, k.status])).toEqual([
      [a.keyId, 'active'],
      [b.keyId, 'revoked'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(a.key);
    expect(JSON.stringify(listed)).not.toContain(hashKey(a.key));
    expect(listed[0]).not.toHaveProperty('hash');
    expect(listed[0]!.displayPrefix).toBe(a.key.slice(0, 14));
    expect((await accounts.listKeys()).map((k) => k.id)).toContain(other.keyId);
  });

  it('revokes once', async () => {
    const created = await accounts.createKey();
    expect(await accounts.revokeKey(created.keyId)).toBe(true);
    expect(await accounts.revokeKey(created.keyId)).toBe(false);
    expect(await accounts.revokeKey('key_missing')).toBe(false);
  });

  it('rotates: a new secret with the same narrowing, the old key revoked at once', async () => {
    const old = await accounts.createKey({
      plan: 'starter',
      sites: ['estat'],
      monthlyCreditLimit: 7,
      concurrencyLimit: 3,
    });
    const rotated = await accounts.rotateKey(old.keyId);
    expect(rotated.accountId).toBe(old.accountId);
    expect(rotated.keyId).not.toBe(old.keyId);
    expect(rotated.key).not.toBe(old.key);
    expect(await accounts.authenticate(old.key)).toBeNull();
    const caller = await accounts.authenticate(rotated.key);
    expect(caller?.key).toMatchObject({
      sites: ['estat'],
      monthlyCreditLimit: 7,
      concurrencyLimit: 3,
      revokedAt: null,
    });
    await expect(accounts.rotateKey(old.keyId)).rejects.toThrow(/no active key/);
    await expect(accounts.rotateKey('key_missing')).rejects.toThrow(AccountError);
  });

  it('labels a key (trimmed, kept through a rotation), refuses a bad label, and lists what each key spent this month', async () => {
    const labelled = await accounts.createKey({ plan: 'starter', label: '  本番 (production)  ' });
    const plain = await accounts.createKey({ accountId: labelled.accountId });
    for (const bad of ['', '   ', 'x'.repeat(65), 'two\nlines']) {
      const refused = await accounts.createKey({ accountId: labelled.accountId, label: bad }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AccountError);
      expect((refused as AccountError).refusal).toEqual({ code: 'label_invalid', max: 64 });
    }
    // Two credits charged to the labelled key this month.
    const period = periodOf(now);
    for (let i = 0; i < 2; i++) {
      const requestId = `req_label_${i}`;
      await storage.ledger.reserve({
        requestId,
        accountId: labelled.accountId,
        keyId: labelled.keyId,
        period,
        cost: 1,
        accountLimit: 5_000,
        keyLimit: null,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(await storage.ledger.commit(requestId, 1)).toBe(true);
    }
    const listed = await accounts.listKeys(labelled.accountId);
    expect(listed.map((k) => [k.label, k.usedThisMonth])).toEqual([
      ['本番 (production)', 2],
      [undefined, 0],
    ]);
    expect(listed[1]!.id).toBe(plain.keyId);
    // A rotation keeps the label, and the line's spend goes with it.
    const rotated = await accounts.rotateKey(labelled.keyId);
    const after = (await accounts.listKeys(labelled.accountId)).find((k) => k.id === rotated.keyId)!;
    expect([after.label, after.usedThisMonth]).toEqual(['本番 (production)', 2]);
  });

  it('two concurrent rotations leave exactly one working key', async () => {
    const old = await accounts.createKey();
    const results = await Promise.allSettled([accounts.rotateKey(old.keyId), accounts.rotateKey(old.keyId)]);
    const active = (await accounts.listKeys(old.accountId)).filter((k) => k.status === 'active');
    expect(active).toHaveLength(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('ensureBootstrapKey', () => {
  const secret = 'kumo_test_e2e_bootstrap_key_0123456789abcdefghijklmnop';

  it('creates an account with a key of exactly that secret, once', async () => {
    const first = await accounts.ensureBootstrapKey(secret, 'free');
    expect(first.created).toBe(true);
    const again = await accounts.ensureBootstrapKey(secret, 'free');
    expect(again).toEqual({ ...first, created: false });
    expect(await storage.keys.list()).toHaveLength(1);
    const caller = await accounts.authenticate(secret);
    expect(caller?.key.id).toBe(first.keyId);
    expect(caller?.account.plan).toBe('free');
  });

  it('survives a restart: a new process (new Accounts) finds the same key', async () => {
    const first = await accounts.ensureBootstrapKey(secret, 'growth');
    const restarted = new Accounts(storage, { clock: () => now });
    // Before ensureBootstrapKey a foreign-shaped secret is not even looked up.
    expect(await restarted.authenticate(secret)).toBeNull();
    expect(await restarted.ensureBootstrapKey(secret, 'growth')).toEqual({ ...first, created: false });
    expect((await restarted.authenticate(secret))?.account.plan).toBe('growth');
  });

  it('follows a changed plan', async () => {
    const first = await accounts.ensureBootstrapKey(secret, 'free');
    await accounts.ensureBootstrapKey(secret, 'starter');
    expect((await storage.accounts.get(first.accountId))?.plan).toBe('starter');
  });

  it('accepts a secret in our own format too', async () => {
    const ours = generateKey();
    await accounts.ensureBootstrapKey(ours, 'free');
    expect(await new Accounts(storage).authenticate(ours)).not.toBeNull();
  });

  it('refuses to bring back a revoked bootstrap key, and refuses weak secrets', async () => {
    const first = await accounts.ensureBootstrapKey(secret, 'free');
    await accounts.revokeKey(first.keyId);
    await expect(accounts.ensureBootstrapKey(secret, 'free')).rejects.toThrow(/revoked/);
    expect(await accounts.authenticate(secret)).toBeNull();
    await expect(accounts.ensureBootstrapKey('short', 'free')).rejects.toThrow(AccountError);
    await expect(accounts.ensureBootstrapKey('has a space in it, sadly', 'free')).rejects.toThrow(AccountError);
  });
});

describe('creditLimits', () => {
  it('is allowance + overage cap for the account and the key limit', async () => {
    const created = await accounts.createKey({ plan: 'starter', overageCapCredits: 500, monthlyCreditLimit: 50 });
    const caller = (await accounts.authenticate(created.key))!;
    expect(accounts.creditLimits(caller.account, caller.key)).toEqual({ accountLimit: 5_500, keyLimit: 50 });
  });
});

describe('review approvals', () => {
  const reviewed = {
    id: 'mercari',
    name: 'メルカリ',
    pageTypes: [{ pageType: 'item', review: { reason: 'personal data of private sellers' } }],
  };
  const open = { id: 'ikebe_gakki', name: 'イケベ楽器店', pageTypes: [{ pageType: 'item' }] };

  it('an approval reaches the caller at the next authentication, and a revocation leaves it at once', async () => {
    const created = await accounts.createKey({ plan: 'starter' });
    expect((await accounts.authenticate(created.key))?.account.approvedSites).toEqual([]);

    const outcome = await accounts.approveReview(created.accountId, reviewed, '  Aiko Operator ');
    expect(outcome.created).toBe(true);
    expect(outcome.approval).toMatchObject({
      accountId: created.accountId,
      siteId: 'mercari',
      approvedBy: 'Aiko Operator',
      approvedAt: now.toISOString(),
      revokedAt: null,
    });
    expect(outcome.approval.id).toMatch(/^apr_/);
    expect((await accounts.authenticate(created.key))?.account.approvedSites).toEqual(['mercari']);
    expect((await accounts.approveReview(created.accountId, reviewed, 'Someone Else')).created).toBe(false);

    now = new Date('2026-05-11T00:00:00.000Z');
    const revoked = await accounts.revokeReview(created.accountId, 'mercari', 'Ken Lead');
    expect(revoked).toMatchObject({ revokedBy: 'Ken Lead', revokedAt: now.toISOString() });
    expect((await accounts.authenticate(created.key))?.account.approvedSites).toEqual([]);
    await expect(accounts.revokeReview(created.accountId, 'mercari', 'Ken Lead')).rejects.toThrow(
      /no approval in force/,
    );
    expect(await accounts.listReviews({ accountId: created.accountId })).toEqual([revoked]);
  });

  it('refuses a site with nothing under review, an unknown account, and a missing or odd operator name', async () => {
    const account = await accounts.createAccount({ plan: 'free' });
    await expect(accounts.approveReview(account.id, open, 'Aiko')).rejects.toThrow(/no page type under review/);
    await expect(accounts.approveReview('acc_missing', reviewed, 'Aiko')).rejects.toThrow(/no account acc_missing/);
    await expect(accounts.approveReview(account.id, reviewed, ' ')).rejects.toThrow(/--by/);
    await expect(accounts.approveReview(account.id, reviewed, 'a'.repeat(101))).rejects.toThrow(AccountError);
    await expect(accounts.approveReview(account.id, reviewed, 'Aiko\nroot')).rejects.toThrow(/control character/);
    await expect(accounts.revokeReview(account.id, 'mercari', '')).rejects.toThrow(/--by/);
    expect(await accounts.listReviews()).toEqual([]);
  });
});

describe('narrowKey', () => {
  it('narrows lists and limits of an active key, keeping what is not named, effective at once', async () => {
    const created = await accounts.createKey({ plan: 'starter', sites: ['kakaku', 'ikebe_gakki'] });
    const narrowed = await accounts.narrowKey(created.keyId, {
      sites: ['kakaku'],
      outputs: ['json'],
      monthlyCreditLimit: 10,
      concurrencyLimit: 2,
    });
    expect(narrowed).toMatchObject({
      sites: ['kakaku'],
      operations: null,
      outputs: ['json'],
      monthlyCreditLimit: 10,
      concurrencyLimit: 2,
      status: 'active',
    });
    expect(narrowed).not.toHaveProperty('hash');
    const caller = await accounts.authenticate(created.key);
    expect(caller?.key).toMatchObject({ sites: ['kakaku'], outputs: ['json'], monthlyCreditLimit: 10 });
    const again = await accounts.narrowKey(created.keyId, { monthlyCreditLimit: 5 });
    expect(again).toMatchObject({ sites: ['kakaku'], monthlyCreditLimit: 5, concurrencyLimit: 2 });
  });

  it('refuses to widen: a value not allowed now, a higher limit, concurrency above the plan; a revoked key', async () => {
    const created = await accounts.createKey({ plan: 'free', sites: ['kakaku'], monthlyCreditLimit: 10 });
    await expect(accounts.narrowKey(created.keyId, { sites: ['kakaku', 'mercari'] })).rejects.toThrow(/mercari/);
    await expect(accounts.narrowKey(created.keyId, { monthlyCreditLimit: 11 })).rejects.toThrow(/may only fall/);
    await expect(accounts.narrowKey(created.keyId, { concurrencyLimit: 3 })).rejects.toThrow(/above the free/);
    await expect(accounts.narrowKey(created.keyId, { operations: ['delete' as never] })).rejects.toThrow(AccountError);
    expect((await storage.keys.get(created.keyId))?.sites).toEqual(['kakaku']);
    await accounts.revokeKey(created.keyId);
    await expect(accounts.narrowKey(created.keyId, { monthlyCreditLimit: 1 })).rejects.toThrow(/no active key/);
  });
});

describe('refusal codes', () => {
  /** The refusal a rejected call carried (fails the test when it did not reject with an AccountError). */
  async function refusalOf(call: Promise<unknown>) {
    const error: unknown = await call.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AccountError);
    return (error as AccountError).refusal;
  }

  it('carries the code and the values at stake beside the English message', async () => {
    const created = await accounts.createKey({ plan: 'starter', sites: ['kakaku'], concurrencyLimit: 2 });
    expect(await refusalOf(accounts.narrowKey(created.keyId, { sites: ['kakaku', 'ikebe_gakki'] }))).toEqual({
      code: 'may_only_narrow',
      field: 'sites',
      values: ['ikebe_gakki'],
    });
    expect(await refusalOf(accounts.narrowKey(created.keyId, { concurrencyLimit: 3 }))).toEqual({
      code: 'may_only_fall',
      field: 'concurrencyLimit',
      now: 2,
    });
    expect(await refusalOf(accounts.narrowKey(created.keyId, { concurrencyLimit: 9 }))).toEqual({
      code: 'concurrency_above_plan',
      limit: 9,
      plan: 'starter',
      max: 5,
    });
    // Creating says the same refusal with a longer English sentence: the code is the same either way.
    expect(await refusalOf(accounts.createKey({ plan: 'free', concurrencyLimit: 3 }))).toEqual({
      code: 'concurrency_above_plan',
      limit: 3,
      plan: 'free',
      max: 2,
    });
    expect(await refusalOf(accounts.createKey({ monthlyCreditLimit: -5 }))).toEqual({
      code: 'not_whole_number',
      field: 'monthlyCreditLimit',
    });
    expect(await refusalOf(accounts.createKey({ accountId: 'acc_missing' }))).toEqual({ code: 'no_account' });
    await accounts.revokeKey(created.keyId);
    expect(await refusalOf(accounts.narrowKey(created.keyId, { monthlyCreditLimit: 1 }))).toEqual({
      code: 'key_not_active',
    });
    expect(await refusalOf(accounts.changePlan(created.accountId, { plan: 'nope' as never }))).toEqual({
      code: 'unknown_plan',
    });
  });
});
