// The behaviour every Storage backend must show; sqlite-storage.test.ts and postgres-storage.test.ts both run it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import type {
  AccountRecord,
  IdempotencyClaimRequest,
  KeyRecord,
  PlanId,
  RequestRecord,
  ReserveRequest,
  Storage,
} from './storage.js';
import { completedRequest } from '../../test/support/request-records.js';

export interface StorageProbe<S extends Storage> {
  /** Credits of every committed ledger row of an account, oldest first. */
  ledgerCredits(storage: S, accountId: string): Promise<number[]>;
}

const period = '2026-05';
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

export function describeStorageContract<S extends Storage>(
  name: string,
  make: () => Promise<S>,
  probe?: StorageProbe<S>,
): void {
  describe(`${name}: Storage contract`, () => {
    let storage: S;

    beforeEach(async () => {
      storage = await make();
      await storage.migrate();
    });

    afterEach(async () => {
      await storage.close();
    });

    async function seedAccount(plan: PlanId = 'starter', overageCapCredits = 0): Promise<AccountRecord> {
      const account: AccountRecord = {
        id: newId('acc'),
        plan,
        overageCapCredits,
        createdAt: new Date().toISOString(),
        approvedSites: [],
      };
      await storage.accounts.create(account);
      return account;
    }

    async function seedKey(accountId: string, changes: Partial<KeyRecord> = {}): Promise<KeyRecord> {
      const id = changes.id ?? newId('key');
      const key: KeyRecord = {
        id,
        lineageId: id,
        accountId,
        displayPrefix: 'kumo_live_abcd',
        hash: newId('hash').toLowerCase(),
        sites: null,
        operations: null,
        outputs: null,
        monthlyCreditLimit: null,
        concurrencyLimit: null,
        createdAt: new Date().toISOString(),
        revokedAt: null,
        expiresAt: null,
        ...changes,
      };
      await storage.keys.create(key);
      return key;
    }

    async function seed(): Promise<{ account: AccountRecord; key: KeyRecord }> {
      const account = await seedAccount();
      return { account, key: await seedKey(account.id) };
    }

    function reservation(
      seeded: { account: AccountRecord; key: KeyRecord },
      changes: Partial<ReserveRequest> = {},
    ): ReserveRequest {
      return {
        requestId: newId('req'),
        accountId: seeded.account.id,
        keyId: seeded.key.id,
        period,
        cost: 1,
        accountLimit: 10,
        keyLimit: null,
        expiresAt: inAnHour(),
        ...changes,
      };
    }

    describe('accounts', () => {
      it('creates, reads and updates an account; an unknown id is null', async () => {
        const account = await seedAccount('free');
        expect(await storage.accounts.get(account.id)).toEqual(account);
        await storage.accounts.update(account.id, { plan: 'growth', overageCapCredits: 1_000 });
        expect(await storage.accounts.get(account.id)).toEqual({
          ...account,
          plan: 'growth',
          overageCapCredits: 1_000,
        });
        await storage.accounts.update(account.id, {});
        expect((await storage.accounts.get(account.id))?.plan).toBe('growth');
        expect(await storage.accounts.get('acc_missing')).toBeNull();
      });
    });

    describe('review approvals', () => {
      const at = (minute: number) => new Date(Date.UTC(2026, 4, 10, 9, minute)).toISOString();
      const approval = (accountId: string, siteId: string, minute = 0) => ({
        id: newId('apr'),
        accountId,
        siteId,
        approvedBy: 'Aiko Operator',
        approvedAt: at(minute),
      });

      it('approves, shows the site on the account, revokes with who and when, and keeps the history', async () => {
        const account = await seedAccount();
        const other = await seedAccount();
        const first = approval(account.id, 'mercari');
        expect(await storage.reviews.approve(first)).toEqual({
          approval: { ...first, revokedBy: null, revokedAt: null },
          created: true,
        });
        await storage.reviews.approve(approval(account.id, 'amazon_jp', 1));
        expect((await storage.accounts.get(account.id))?.approvedSites).toEqual(['amazon_jp', 'mercari']);
        expect((await storage.accounts.get(other.id))?.approvedSites).toEqual([]);

        const revoked = await storage.reviews.revoke({
          accountId: account.id,
          siteId: 'mercari',
          revokedBy: 'Ken Lead',
          revokedAt: at(5),
        });
        expect(revoked).toEqual({ ...first, revokedBy: 'Ken Lead', revokedAt: at(5) });
        // Effective at once: the very next read of the account (as authentication does) no longer has it.
        expect((await storage.accounts.get(account.id))?.approvedSites).toEqual(['amazon_jp']);
        expect(
          await storage.reviews.revoke({ accountId: account.id, siteId: 'mercari', revokedBy: 'x', revokedAt: at(6) }),
        ).toBeNull();

        // Approved again later: a new row; the revoked one stays in the history.
        const again = approval(account.id, 'mercari', 10);
        expect((await storage.reviews.approve(again)).created).toBe(true);
        expect((await storage.accounts.get(account.id))?.approvedSites).toEqual(['amazon_jp', 'mercari']);
        const history = await storage.reviews.list({ accountId: account.id, siteId: 'mercari' });
        expect(history.map((r) => [r.id, r.revokedBy])).toEqual([
          [first.id, 'Ken Lead'],
          [again.id, null],
        ]);
        expect((await storage.reviews.list({ accountId: account.id })).map((r) => r.siteId)).toEqual([
          'mercari',
          'amazon_jp',
          'mercari',
        ]);
        expect(await storage.reviews.list({ accountId: other.id })).toEqual([]);
        expect((await storage.reviews.list()).length).toBeGreaterThanOrEqual(3);
      });

      it('approving again while one is in force writes nothing and returns the one in force', async () => {
        const account = await seedAccount();
        const first = approval(account.id, 'mercari');
        await storage.reviews.approve(first);
        const second = await storage.reviews.approve({ ...approval(account.id, 'mercari', 3), approvedBy: 'Other' });
        expect(second).toEqual({ approval: { ...first, revokedBy: null, revokedAt: null }, created: false });
        expect(await storage.reviews.list({ accountId: account.id })).toHaveLength(1);
      });

      it('10 parallel approvals of one account and site: exactly one is created', async () => {
        const account = await seedAccount();
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, () => storage.reviews.approve(approval(account.id, 'mercari'))),
        );
        expect(outcomes.filter((o) => o.created)).toHaveLength(1);
        expect(new Set(outcomes.map((o) => o.approval.id)).size).toBe(1);
        expect(await storage.reviews.list({ accountId: account.id })).toHaveLength(1);
      });

      it('refuses an approval without an operator name or for an unknown account', async () => {
        const account = await seedAccount();
        await expect(storage.reviews.approve({ ...approval(account.id, 'mercari'), approvedBy: '' })).rejects.toThrow();
        await expect(
          storage.reviews.approve({ ...approval(account.id, 'mercari'), approvedBy: '  ' }),
        ).rejects.toThrow();
        await expect(storage.reviews.approve(approval('acc_missing', 'mercari'))).rejects.toThrow();
        expect(await storage.reviews.list({ accountId: account.id })).toEqual([]);
        expect(await storage.reviews.list({ accountId: 'acc_missing' })).toEqual([]);
      });
    });

    describe('keys', () => {
      it('round-trips every field, narrowing included', async () => {
        const account = await seedAccount();
        const key = await seedKey(account.id, {
          sites: ['ikebe_gakki', 'estat'],
          operations: ['scrape', 'usage'],
          outputs: ['json'],
          monthlyCreditLimit: 100,
          concurrencyLimit: 2,
          expiresAt: '2027-01-01T00:00:00.000Z',
        });
        expect(await storage.keys.get(key.id)).toEqual(key);
        expect(await storage.keys.get('key_missing')).toBeNull();
      });

      it('a key starts its own lineage unless it is given one, which every read returns', async () => {
        const account = await seedAccount();
        const id = newId('key');
        const { lineageId: _none, ...unlined } = await seedKey(account.id, { id });
        expect(_none).toBe(id);
        const first = (await storage.keys.get(id))!;
        expect(first.lineageId).toBe(id);
        const rotated = await seedKey(account.id, { lineageId: first.id });
        expect(await storage.keys.get(rotated.id)).toEqual(rotated);
        expect((await storage.keys.findByHash(rotated.hash))?.lineageId).toBe(first.id);
        expect((await storage.keys.list(account.id)).map((k) => k.lineageId)).toEqual([id, id]);
        // A record created without lineageId (the field is optional on create) is its own line.
        const bare = { ...unlined, id: newId('key'), hash: newId('hash').toLowerCase() };
        delete (bare as Partial<KeyRecord>).lineageId;
        await storage.keys.create(bare);
        expect((await storage.keys.get(bare.id))?.lineageId).toBe(bare.id);
      });

      it('finds a key by its hash only', async () => {
        const { key } = await seed();
        expect(await storage.keys.findByHash(key.hash)).toEqual(key);
        expect(await storage.keys.findByHash('0'.repeat(64))).toBeNull();
      });

      it('lists the keys of one account, or of all accounts', async () => {
        const a = await seedAccount();
        const b = await seedAccount();
        const a1 = await seedKey(a.id);
        const a2 = await seedKey(a.id);
        const b1 = await seedKey(b.id);
        expect((await storage.keys.list(a.id)).map((k) => k.id)).toEqual([a1.id, a2.id]);
        expect((await storage.keys.list(b.id)).map((k) => k.id)).toEqual([b1.id]);
        const all = (await storage.keys.list()).map((k) => k.id);
        expect(all).toEqual(expect.arrayContaining([a1.id, a2.id, b1.id]));
      });

      it('revokes once: the second revoke changes nothing and returns false', async () => {
        const { key } = await seed();
        expect(await storage.keys.revoke(key.id, '2026-05-01T00:00:00.000Z')).toBe(true);
        expect(await storage.keys.revoke(key.id, '2026-06-01T00:00:00.000Z')).toBe(false);
        expect((await storage.keys.get(key.id))?.revokedAt).toBe('2026-05-01T00:00:00.000Z');
        expect(await storage.keys.revoke('key_missing', '2026-05-01T00:00:00.000Z')).toBe(false);
      });

      it('replaces the narrowing of an active key only, keeping its secret, account and times', async () => {
        const { account, key } = await seed();
        const narrowing = {
          sites: ['kakaku'],
          operations: ['scrape' as const],
          outputs: ['json' as const],
          monthlyCreditLimit: 5,
          concurrencyLimit: 1,
        };
        expect(await storage.keys.narrow(key.id, narrowing)).toBe(true);
        expect(await storage.keys.get(key.id)).toEqual({ ...key, ...narrowing, accountId: account.id });
        await storage.keys.revoke(key.id, '2026-05-01T00:00:00.000Z');
        expect(await storage.keys.narrow(key.id, { ...narrowing, sites: null })).toBe(false);
        expect((await storage.keys.get(key.id))?.sites).toEqual(['kakaku']);
        expect(await storage.keys.narrow('key_missing', narrowing)).toBe(false);
      });

      it('refuses a second key with the same hash', async () => {
        const { account, key } = await seed();
        await expect(seedKey(account.id, { hash: key.hash })).rejects.toThrow();
      });
    });

    describe('credit reservations', () => {
      // Issue 7: refusals caused only by reservations in flight say `held`, not `exhausted` (they may come back).
      it('reserves up to the account limit, then refuses with held: account while nothing is committed', async () => {
        const seeded = await seed();
        for (let i = 0; i < 3; i++) {
          expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3 }))).toEqual({ ok: true });
        }
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3 }))).toEqual({
          ok: false,
          held: 'account',
        });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 3 });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 0, reserved: 3 });
      });

      it('refuses up front a cost larger than what is left, then accepts one that fits', async () => {
        const seeded = await seed();
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3 }))).toEqual({ ok: true });
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3, cost: 3 }))).toEqual({
          ok: false,
          held: 'account',
        });
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3, cost: 2 }))).toEqual({ ok: true });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 3 });
      });

      it("refuses with held: key at the key's own limit, leaving the account untouched", async () => {
        const seeded = await seed();
        const other = await seedKey(seeded.account.id);
        for (let i = 0; i < 2; i++) {
          expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 100, keyLimit: 2 }))).toEqual({
            ok: true,
          });
        }
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 100, keyLimit: 2 }))).toEqual({
          ok: false,
          held: 'key',
        });
        // The refused call's account reservation was rolled back with it.
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 2 });
        // Another key of the same account has its own limit.
        const viaOther = reservation({ account: seeded.account, key: other }, { accountLimit: 100, keyLimit: 2 });
        expect(await storage.ledger.reserve(viaOther)).toEqual({ ok: true });
        expect(await storage.ledger.keyUsage(other.id, period)).toEqual({ used: 0, reserved: 1 });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 3 });
      });

      it('a limit below what is already used (a downgrade) refuses everything, never goes negative', async () => {
        const seeded = await seed();
        const first = reservation(seeded, { accountLimit: 10, cost: 3 });
        expect(await storage.ledger.reserve(first)).toEqual({ ok: true });
        expect(await storage.ledger.commit(first.requestId, 3)).toBe(true);
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 2 }))).toEqual({
          ok: false,
          exhausted: 'account',
        });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 3, reserved: 0 });
      });

      it('50 parallel reserves of cost 1 against a limit of 10: exactly 10 succeed', async () => {
        const seeded = await seed();
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () => storage.ledger.reserve(reservation(seeded, { accountLimit: 10 }))),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
        expect(outcomes.filter((o) => !o.ok && 'held' in o && o.held === 'account')).toHaveLength(40);
        const usage = await storage.ledger.accountUsage(seeded.account.id, period);
        expect(usage.used + usage.reserved).toBe(10);
      });

      it('50 parallel reserves against a key limit of 7: exactly 7 succeed', async () => {
        const seeded = await seed();
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, () =>
            storage.ledger.reserve(reservation(seeded, { accountLimit: 1_000, keyLimit: 7 })),
          ),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(7);
        expect(outcomes.filter((o) => !o.ok && 'held' in o && o.held === 'key')).toHaveLength(43);
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 0, reserved: 7 });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 7 });
      });

      it('parallel reserves and commits never let used + reserved pass the limit, and the ledger agrees', async () => {
        const seeded = await seed();
        const limit = 12;
        let committed = 0;
        await Promise.all(
          Array.from({ length: 40 }, async (_, i) => {
            const r = reservation(seeded, { accountLimit: limit, cost: 2 });
            const outcome = await storage.ledger.reserve(r);
            const usage = await storage.ledger.accountUsage(seeded.account.id, period);
            expect(usage.used + usage.reserved).toBeLessThanOrEqual(limit);
            if (!outcome.ok) return;
            if (i % 3 === 0) {
              expect(await storage.ledger.release(r.requestId)).toBe(true);
            } else {
              expect(await storage.ledger.commit(r.requestId, 1 + (i % 2))).toBe(true);
              committed += 1 + (i % 2);
            }
          }),
        );
        const usage = await storage.ledger.accountUsage(seeded.account.id, period);
        expect(usage).toEqual({ used: committed, reserved: 0 });
        expect(usage.used).toBeLessThanOrEqual(limit);
        if (probe) {
          const credits = await probe.ledgerCredits(storage, seeded.account.id);
          expect(credits.reduce((a, b) => a + b, 0)).toBe(committed);
        }
      });

      it('exhausted only when committed credits leave no room; held when reservations in flight fill it', async () => {
        const seeded = await seed();
        const limits = { accountLimit: 3, keyLimit: 10 };
        for (let i = 0; i < 2; i++) {
          const r = reservation(seeded, limits);
          expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
          expect(await storage.ledger.commit(r.requestId, 1)).toBe(true);
        }
        const open = reservation(seeded, limits);
        expect(await storage.ledger.reserve(open)).toEqual({ ok: true });
        // used 2 + reserved 1 + 1 > 3, but used 2 + 1 ≤ 3: the open reservation may still be released.
        expect(await storage.ledger.reserve(reservation(seeded, limits))).toEqual({ ok: false, held: 'account' });
        // A cost that could not fit even with nothing in flight is a real exhaustion at once.
        expect(await storage.ledger.reserve(reservation(seeded, { ...limits, cost: 2 }))).toEqual({
          ok: false,
          exhausted: 'account',
        });
        expect(await storage.ledger.release(open.requestId)).toBe(true);
        const last = reservation(seeded, limits);
        expect(await storage.ledger.reserve(last)).toEqual({ ok: true });
        expect(await storage.ledger.commit(last.requestId, 1)).toBe(true);
        expect(await storage.ledger.reserve(reservation(seeded, limits))).toEqual({ ok: false, exhausted: 'account' });
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 3, reserved: 0 });
      });

      it("the key's own limit tells held from exhausted the same way", async () => {
        const seeded = await seed();
        const limits = { accountLimit: 100, keyLimit: 2 };
        const done = reservation(seeded, limits);
        expect(await storage.ledger.reserve(done)).toEqual({ ok: true });
        expect(await storage.ledger.commit(done.requestId, 1)).toBe(true);
        const open = reservation(seeded, limits);
        expect(await storage.ledger.reserve(open)).toEqual({ ok: true });
        expect(await storage.ledger.reserve(reservation(seeded, limits))).toEqual({ ok: false, held: 'key' });
        expect(await storage.ledger.commit(open.requestId, 1)).toBe(true);
        expect(await storage.ledger.reserve(reservation(seeded, limits))).toEqual({ ok: false, exhausted: 'key' });
        // The refused reservations left the account counters as they were.
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
      });

      it('refuses to reserve one request id twice and leaves the counters as they were', async () => {
        const seeded = await seed();
        const r = reservation(seeded);
        expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
        await expect(storage.ledger.reserve(r)).rejects.toThrow(/already has a credit reservation/);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
      });

      it('refuses a cost that is not a positive whole number', async () => {
        const seeded = await seed();
        await expect(storage.ledger.reserve(reservation(seeded, { cost: 0 }))).rejects.toThrow(RangeError);
        await expect(storage.ledger.reserve(reservation(seeded, { cost: 1.5 }))).rejects.toThrow(RangeError);
      });

      it('usage is zero for an account or key with nothing this period', async () => {
        expect(await storage.ledger.accountUsage('acc_nobody', period)).toEqual({ used: 0, reserved: 0 });
        expect(await storage.ledger.keyUsage('key_nobody', '0000-00')).toEqual({ used: 0, reserved: 0 });
      });

      it('counts each period separately', async () => {
        const seeded = await seed();
        for (let i = 0; i < 2; i++) {
          const r = reservation(seeded, { period: '2026-01', accountLimit: 2 });
          expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
          expect(await storage.ledger.commit(r.requestId, 1)).toBe(true);
        }
        expect(await storage.ledger.reserve(reservation(seeded, { period: '2026-01', accountLimit: 2 }))).toEqual({
          ok: false,
          exhausted: 'account',
        });
        expect(await storage.ledger.reserve(reservation(seeded, { period: '2026-02', accountLimit: 2 }))).toEqual({
          ok: true,
        });
        expect(await storage.ledger.accountUsage(seeded.account.id, '2026-01')).toEqual({ used: 2, reserved: 0 });
        expect(await storage.ledger.accountUsage(seeded.account.id, '2026-02')).toEqual({ used: 0, reserved: 1 });
        expect(await storage.ledger.keyUsage(seeded.key.id, '2026-01')).toEqual({ used: 2, reserved: 0 });
      });
    });

    describe('key lineage', () => {
      it("a rotated key's monthly limit counts what its line spent: reserve, commit, release and usage", async () => {
        const seeded = await seed();
        const limited = { keyLimit: 5, accountLimit: 100 };
        const spent = reservation(seeded, { ...limited, cost: 3 });
        expect(await storage.ledger.reserve(spent)).toEqual({ ok: true });
        expect(await storage.ledger.commit(spent.requestId, 3)).toBe(true);
        // Rotation: a new key id on the same line (the old one would be revoked; the ledger does not care).
        const next = { account: seeded.account, key: await seedKey(seeded.account.id, { lineageId: seeded.key.id }) };
        expect(await storage.ledger.keyUsage(next.key.id, period)).toEqual({ used: 3, reserved: 0 });
        expect(await storage.ledger.reserve(reservation(next, { ...limited, cost: 3 }))).toEqual({
          ok: false,
          exhausted: 'key',
        });
        const held = reservation(next, { ...limited, cost: 2 });
        expect(await storage.ledger.reserve(held)).toEqual({ ok: true });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 3, reserved: 2 });
        expect(await storage.ledger.reserve(reservation(seeded, { ...limited, cost: 1 }))).toEqual({
          ok: false,
          held: 'key',
        });
        expect(await storage.ledger.release(held.requestId)).toBe(true);
        expect(await storage.ledger.keyUsage(next.key.id, period)).toEqual({ used: 3, reserved: 0 });
        const last = reservation(next, { ...limited, cost: 2 });
        expect(await storage.ledger.reserve(last)).toEqual({ ok: true });
        expect(await storage.ledger.commit(last.requestId, 2)).toBe(true);
        expect(await storage.ledger.keyUsage(next.key.id, period)).toEqual({ used: 5, reserved: 0 });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 5, reserved: 0 });
        // A third key of the account on its own line is not held to the first line's spend.
        const own = { account: seeded.account, key: await seedKey(seeded.account.id) };
        expect(await storage.ledger.reserve(reservation(own, { ...limited, cost: 5 }))).toEqual({ ok: true });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([3, 2]);
      });
    });

    describe('commit and release', () => {
      it('commits the exact cost, which may be less than reserved', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 3 });
        expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
        expect(await storage.ledger.commit(r.requestId, 2)).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 2, reserved: 0 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([2]);
      });

      it('a second commit returns false and writes no second ledger row', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 2 });
        await storage.ledger.reserve(r);
        expect(await storage.ledger.commit(r.requestId, 2)).toBe(true);
        expect(await storage.ledger.commit(r.requestId, 2)).toBe(false);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([2]);
      });

      it('parallel commits of one reservation charge once', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        const results = await Promise.all(Array.from({ length: 10 }, () => storage.ledger.commit(r.requestId, 1)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 1, reserved: 0 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([1]);
      });

      it('a commit racing a release: exactly one wins', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        const [committed, released] = await Promise.all([
          storage.ledger.commit(r.requestId, 1),
          storage.ledger.release(r.requestId),
        ]);
        expect(committed !== released).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({
          used: committed ? 1 : 0,
          reserved: 0,
        });
      });

      it('a release after a commit returns false and refunds nothing', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 2 });
        await storage.ledger.reserve(r);
        expect(await storage.ledger.commit(r.requestId, 2)).toBe(true);
        expect(await storage.ledger.release(r.requestId)).toBe(false);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
      });

      it('a release frees the credits; it and a later commit are then no-ops', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 3, accountLimit: 3 });
        await storage.ledger.reserve(r);
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3 }))).toMatchObject({ ok: false });
        expect(await storage.ledger.release(r.requestId)).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 0 });
        expect(await storage.ledger.release(r.requestId)).toBe(false);
        expect(await storage.ledger.commit(r.requestId, 3)).toBe(false);
        expect(await storage.ledger.reserve(reservation(seeded, { accountLimit: 3, cost: 3 }))).toEqual({ ok: true });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([]);
      });

      it('settling an unknown request id returns false', async () => {
        expect(await storage.ledger.commit('req_unknown', 1)).toBe(false);
        expect(await storage.ledger.release('req_unknown')).toBe(false);
      });

      it('refuses to commit more than was reserved and keeps the reservation open', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        await expect(storage.ledger.commit(r.requestId, 2)).rejects.toThrow(RangeError);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
        expect(await storage.ledger.commit(r.requestId, 1)).toBe(true);
      });

      it('releaseExpired frees only reservations past their expiry, once', async () => {
        const seeded = await seed();
        const stale = reservation(seeded, { cost: 2, expiresAt: '2026-05-10T00:00:00.000Z' });
        const live = reservation(seeded, { cost: 1, expiresAt: '2026-05-10T00:10:00.000Z' });
        const done = reservation(seeded, { cost: 1, expiresAt: '2026-05-10T00:00:00.000Z' });
        for (const r of [stale, live, done]) expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
        expect(await storage.ledger.commit(done.requestId, 1)).toBe(true);

        expect(await storage.ledger.releaseExpired('2026-05-10T00:05:00.000Z')).toBeGreaterThanOrEqual(1);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 1, reserved: 1 });
        expect(await storage.ledger.release(stale.requestId)).toBe(false);
        expect(await storage.ledger.releaseExpired('2026-05-10T00:05:00.000Z')).toBe(0);
        // The live call can still settle normally.
        expect(await storage.ledger.commit(live.requestId, 1)).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
      });
    });

    describe('liveness (instances and orphaned reservations)', () => {
      const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
      const instance = (label: string) => newId(`ins_${label}`);

      it('a heartbeat is an upsert; remove forgets the instance', async () => {
        const id = instance('a');
        expect(await storage.instances.lastHeartbeat(id)).toBeNull();
        await storage.instances.heartbeat(id, '2026-05-10T00:00:00.000Z');
        await storage.instances.heartbeat(id, '2026-05-10T00:00:10.000Z');
        expect(await storage.instances.lastHeartbeat(id)).toBe('2026-05-10T00:00:10.000Z');
        await storage.instances.remove(id);
        expect(await storage.instances.lastHeartbeat(id)).toBeNull();
      });

      it("frees a stale owner's reservations, keeps a live owner's, and forgets the dead instance", async () => {
        const seeded = await seed();
        const dead = instance('dead');
        const live = instance('live');
        await storage.instances.heartbeat(dead, ago(3_600_000));
        await storage.instances.heartbeat(live, ago(1_000));
        const orphan = reservation(seeded, { cost: 2, owner: dead });
        const held = reservation(seeded, { cost: 1, owner: live });
        for (const r of [orphan, held]) expect(await storage.ledger.reserve(r)).toEqual({ ok: true });

        expect(await storage.ledger.releaseOrphaned(ago(30_000))).toBeGreaterThanOrEqual(1);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 0, reserved: 1 });
        // Released once: the dead owner's late commit charges nothing, and the live call settles normally.
        expect(await storage.ledger.commit(orphan.requestId, 2)).toBe(false);
        expect(await storage.ledger.commit(held.requestId, 1)).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 1, reserved: 0 });
        expect(await storage.instances.lastHeartbeat(dead)).toBeNull();
        expect(await storage.instances.lastHeartbeat(live)).not.toBeNull();
      });

      it('frees at once the reservations of holders known dead, whatever their heartbeat; lists open holders', async () => {
        const seeded = await seed();
        const ended = instance('ended');
        const live = instance('live');
        await storage.instances.heartbeat(ended, ago(1_000));
        await storage.instances.heartbeat(live, ago(1_000));
        const orphan = reservation(seeded, { cost: 2, owner: ended });
        const held = reservation(seeded, { cost: 1, owner: live });
        for (const r of [orphan, held]) expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
        expect(await storage.ledger.foreignHolders()).toEqual(expect.arrayContaining([ended, live]));

        expect(await storage.ledger.releaseOrphaned(ago(30_000), [ended])).toBeGreaterThanOrEqual(1);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
        expect(await storage.ledger.foreignHolders()).not.toContain(ended);
        expect(await storage.instances.lastHeartbeat(ended)).toBeNull();
        expect(await storage.instances.lastHeartbeat(live)).not.toBeNull();
        expect(await storage.ledger.release(held.requestId)).toBe(true);
      });

      it('an owner that never beat is dead only once its reservation is older than the staleness bound', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1, owner: instance('silent') });
        expect(await storage.ledger.reserve(r)).toEqual({ ok: true });
        await storage.ledger.releaseOrphaned(ago(30_000));
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
        await storage.ledger.releaseOrphaned(new Date(Date.now() + 1_000).toISOString());
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 0 });
      });

      it('never refuses for credits a dead instance holds, but does for a live one', async () => {
        const seeded = await seed();
        const dead = instance('dead');
        const live = instance('live');
        await storage.instances.heartbeat(dead, ago(3_600_000));
        await storage.instances.heartbeat(live, ago(1_000));
        // A key limit of 1, held by a call on an instance that was killed.
        const orphan = reservation(seeded, { keyLimit: 1, owner: dead });
        expect(await storage.ledger.reserve(orphan)).toEqual({ ok: true });
        const next = reservation(seeded, { keyLimit: 1, owner: live });
        expect(await storage.ledger.reserve(next)).toEqual({ ok: true });
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 0, reserved: 1 });
        // Now the credit is held by a call in flight on a live instance: it may still come back, so it is `held`
        // (answered concurrency_limited), not exhaustion.
        expect(await storage.ledger.reserve(reservation(seeded, { keyLimit: 1, owner: live }))).toEqual({
          ok: false,
          held: 'key',
        });
        expect(await storage.ledger.commit(next.requestId, 1)).toBe(true);
        expect(await storage.ledger.keyUsage(seeded.key.id, period)).toEqual({ used: 1, reserved: 0 });
        // Once charged, it is a real exhaustion.
        expect(await storage.ledger.reserve(reservation(seeded, { keyLimit: 1, owner: live }))).toEqual({
          ok: false,
          exhausted: 'key',
        });
      });
    });

    /** A completed call's metadata row. */
    const record = (accountId: string, keyId: string): RequestRecord => completedRequest({ accountId, keyId });

    describe('request log', () => {
      it('gives a row back to its own account only', async () => {
        const { account, key } = await seed();
        const stranger = await seedAccount();
        const row = record(account.id, key.id);
        await storage.requests.insert(row);
        expect(await storage.requests.get(row.requestId, account.id)).toEqual(row);
        expect(await storage.requests.get(row.requestId, stranger.id)).toBeNull();
        expect(await storage.requests.get('req_unknown', account.id)).toBeNull();
      });

      it('keeps nullable metadata null', async () => {
        const { account, key } = await seed();
        const row = {
          ...record(account.id, key.id),
          siteId: null,
          pageType: null,
          url: null,
          route: null,
          status: 'rejected',
          errorCode: 'site_not_supported',
          httpStatus: 422,
          attempts: 0,
          costUnits: 0,
        };
        await storage.requests.insert(row);
        expect(await storage.requests.get(row.requestId, account.id)).toEqual(row);
      });
    });

    describe("request log: the console's list and spend", () => {
      async function rows(accountId: string, keyId: string): Promise<RequestRecord[]> {
        // Asia/Tokyo days: 2026-05-01 00:30 JST is 2026-04-30 15:30 UTC, and counts on May 1st.
        const made: RequestRecord[] = [
          { ...record(accountId, keyId), createdAt: '2026-04-30T15:30:00.000Z', costUnits: 1 },
          { ...record(accountId, keyId), createdAt: '2026-05-01T02:00:00.000Z', costUnits: 2, siteId: 'kakaku' },
          {
            ...record(accountId, keyId),
            createdAt: '2026-05-02T14:59:59.000Z',
            costUnits: 0,
            status: 'failed',
            errorCode: 'fetch_failed',
            httpStatus: null,
          },
          { ...record(accountId, keyId), createdAt: '2026-05-02T15:00:00.000Z', costUnits: 3 },
        ];
        for (const row of made) await storage.requests.insert(row);
        return made;
      }

      it("lists only the account's rows, newest first, narrowed by site, status, error code and time, paged", async () => {
        const { account, key } = await seed();
        const stranger = await seed();
        const made = await rows(account.id, key.id);
        await rows(stranger.account.id, stranger.key.id);
        const all = await storage.requests.list({ accountId: account.id, limit: 10, offset: 0 });
        expect(all.map((r) => r.requestId)).toEqual([...made].reverse().map((r) => r.requestId));
        expect(all[0]).toEqual(made[3]);
        const page2 = await storage.requests.list({ accountId: account.id, limit: 3, offset: 3 });
        expect(page2.map((r) => r.requestId)).toEqual([made[0]!.requestId]);
        const bySite = await storage.requests.list({ accountId: account.id, siteId: 'kakaku', limit: 10, offset: 0 });
        expect(bySite.map((r) => r.requestId)).toEqual([made[1]!.requestId]);
        const failed = await storage.requests.list({ accountId: account.id, status: 'failed', limit: 10, offset: 0 });
        expect(failed.map((r) => r.requestId)).toEqual([made[2]!.requestId]);
        const byCode = await storage.requests.list({
          accountId: account.id,
          errorCode: 'fetch_failed',
          limit: 10,
          offset: 0,
        });
        expect(byCode).toEqual(failed);
        const window = await storage.requests.list({
          accountId: account.id,
          from: '2026-05-01T02:00:00.000Z',
          to: '2026-05-02T15:00:00.000Z',
          limit: 10,
          offset: 0,
        });
        expect(window.map((r) => r.requestId)).toEqual([made[2]!.requestId, made[1]!.requestId]);
      });

      it('sums calls and credits by Asia/Tokyo day and by site, for the account and range only', async () => {
        const { account, key } = await seed();
        const stranger = await seed();
        await rows(account.id, key.id);
        await rows(stranger.account.id, stranger.key.id);
        const spend = await storage.requests.spend(account.id, '2026-04-30T15:00:00.000Z', '2026-05-31T15:00:00.000Z');
        expect(spend.byDay).toEqual([
          { day: '2026-05-01', calls: 2, credits: 3 },
          { day: '2026-05-02', calls: 1, credits: 0 },
          { day: '2026-05-03', calls: 1, credits: 3 },
        ]);
        expect(spend.bySite).toEqual([
          { siteId: 'ikebe_gakki', calls: 3, credits: 4 },
          { siteId: 'kakaku', calls: 1, credits: 2 },
        ]);
        const none = await storage.requests.spend(account.id, '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z');
        expect(none).toEqual({ byDay: [], bySite: [] });
      });
    });

    describe('console sessions', () => {
      const hash = (n: number) => String(n).repeat(64).slice(0, 64);

      it('finds a live session by the hash of its id, forgets it at sign-out, and never returns an expired one', async () => {
        const { account, key } = await seed();
        const session = {
          idHash: hash(1),
          accountId: account.id,
          keyId: key.id,
          createdAt: '2026-05-01T00:00:00.000Z',
          expiresAt: '2026-05-01T08:00:00.000Z',
        };
        await storage.sessions.create(session);
        expect(await storage.sessions.get(hash(1), '2026-05-01T07:59:59.000Z')).toEqual(session);
        expect(await storage.sessions.get(hash(1), '2026-05-01T08:00:00.000Z')).toBeNull();
        expect(await storage.sessions.get(hash(2), '2026-05-01T01:00:00.000Z')).toBeNull();
        expect(await storage.sessions.delete(hash(1))).toBe(true);
        expect(await storage.sessions.delete(hash(1))).toBe(false);
        expect(await storage.sessions.get(hash(1), '2026-05-01T01:00:00.000Z')).toBeNull();
      });

      it('sweeps expired sessions and keeps live ones; an id hash is unique', async () => {
        const { account, key } = await seed();
        const base = { accountId: account.id, keyId: key.id, createdAt: '2026-05-01T00:00:00.000Z' };
        await storage.sessions.create({ ...base, idHash: hash(3), expiresAt: '2026-05-01T01:00:00.000Z' });
        await storage.sessions.create({ ...base, idHash: hash(4), expiresAt: '2026-05-01T09:00:00.000Z' });
        await expect(
          storage.sessions.create({ ...base, idHash: hash(4), expiresAt: '2026-05-01T09:00:00.000Z' }),
        ).rejects.toThrow();
        expect(await storage.sessions.deleteExpired('2026-05-01T02:00:00.000Z')).toBe(1);
        expect(await storage.sessions.get(hash(4), '2026-05-01T02:00:00.000Z')).not.toBeNull();
        expect(await storage.sessions.deleteExpired('2026-05-01T02:00:00.000Z')).toBe(0);
      });
    });

    describe('settle: ledger, request row and idempotency claim in one transaction', () => {
      function row(seeded: { account: AccountRecord; key: KeyRecord }, requestId: string): RequestRecord {
        return { ...record(seeded.account.id, seeded.key.id), requestId, costUnits: 2, latencyMs: 12 };
      }

      it('a commit writes the charge and its row together', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 3 });
        await storage.ledger.reserve(r);
        expect(await storage.settle({ ledger: { commit: 2 }, record: row(seeded, r.requestId) })).toBe('committed');
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 2, reserved: 0 });
        expect(await storage.requests.get(r.requestId, seeded.account.id)).toMatchObject({ costUnits: 2 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([2]);
      });

      it('when the row cannot be written, the commit rolls back and the reservation stays open', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        // A row with the same request id already exists: the insert fails inside the settlement.
        await storage.requests.insert({ ...row(seeded, r.requestId), status: 'failed', costUnits: 0 });
        await expect(storage.settle({ ledger: { commit: 1 }, record: row(seeded, r.requestId) })).rejects.toThrow();
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([]);
        // Nothing was lost: the reservation can still be released.
        expect(await storage.ledger.release(r.requestId)).toBe(true);
      });

      it('when the row cannot be written, a release rolls back too (the sweeper frees it later)', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        await storage.requests.insert({ ...row(seeded, r.requestId), status: 'failed', costUnits: 0 });
        await expect(storage.settle({ ledger: 'release', record: row(seeded, r.requestId) })).rejects.toThrow();
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 1 });
      });

      it('a commit of a reservation that is gone returns false and writes nothing', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        expect(await storage.ledger.release(r.requestId)).toBe(true);
        expect(await storage.settle({ ledger: { commit: 1 }, record: row(seeded, r.requestId) })).toBe('refused');
        expect(await storage.requests.get(r.requestId, seeded.account.id)).toBeNull();
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 0 });
        expect(await storage.settle({ ledger: { commit: 1 }, record: row(seeded, 'req_never') })).toBe('refused');
      });

      it('a release frees the credits and writes the error row with http_status null', async () => {
        const seeded = await seed();
        const r = reservation(seeded, { cost: 1 });
        await storage.ledger.reserve(r);
        const failed = {
          ...row(seeded, r.requestId),
          status: 'failed',
          errorCode: 'fetch_failed',
          httpStatus: null,
          costUnits: 0,
        };
        expect(await storage.settle({ ledger: 'release', record: failed })).toBe('committed');
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 0 });
        expect(await storage.requests.get(r.requestId, seeded.account.id)).toEqual(failed);
      });

      it('a call that never reserved writes its row only', async () => {
        const seeded = await seed();
        const rejected = { ...row(seeded, newId('req')), status: 'rejected', httpStatus: null, costUnits: 0 };
        expect(await storage.settle({ ledger: 'none', record: rejected })).toBe('committed');
        expect(await storage.requests.get(rejected.requestId, seeded.account.id)).toEqual(rejected);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 0 });
      });

      it('completes the idempotency claim with the commit, and frees it with a release', async () => {
        const seeded = await seed();
        const done = reservation(seeded);
        await storage.ledger.reserve(done);
        expect(await storage.idempotency.claim(claim(seeded, 'key-done', done.requestId))).toEqual({
          outcome: 'claimed',
        });
        await storage.settle({
          ledger: { commit: 1 },
          record: { ...row(seeded, done.requestId), costUnits: 1 },
          idempotency: { key: 'key-done', complete: true },
        });
        expect(await storage.idempotency.get(seeded.account.id, 'key-done')).toMatchObject({
          state: 'completed',
          requestId: done.requestId,
        });

        const failed = reservation(seeded);
        await storage.ledger.reserve(failed);
        await storage.idempotency.claim(claim(seeded, 'key-failed', failed.requestId));
        await storage.settle({
          ledger: 'release',
          record: { ...row(seeded, failed.requestId), status: 'failed', httpStatus: null, costUnits: 0 },
          idempotency: { key: 'key-failed', complete: false },
        });
        expect(await storage.idempotency.get(seeded.account.id, 'key-failed')).toBeNull();
      });

      it('a call taken over after its hold cannot charge the key: its commit is refused; the taker commits once', async () => {
        const seeded = await seed();
        const t0 = Date.now();
        const at = (ms: number) => new Date(t0 + ms).toISOString();
        const a = reservation(seeded);
        await storage.ledger.reserve(a);
        const base = { now: at(0), heldUntil: at(60_000), expiresAt: at(86_400_000) };
        expect(await storage.idempotency.claim(claim(seeded, 'slow', a.requestId, base))).toEqual({
          outcome: 'claimed',
        });
        // A ran past its hold: a retry B takes the key over and reserves for itself.
        const b = reservation(seeded);
        expect(
          await storage.idempotency.claim(
            claim(seeded, 'slow', b.requestId, { now: at(61_000), heldUntil: at(121_000), expiresAt: at(86_461_000) }),
          ),
        ).toEqual({ outcome: 'claimed' });
        await storage.ledger.reserve(b);

        const settleAs = (requestId: string) =>
          storage.settle({
            ledger: { commit: 1 },
            record: { ...row(seeded, requestId), costUnits: 1 },
            idempotency: { key: 'slow', complete: true },
          });
        expect(await settleAs(a.requestId)).toBe('refused');
        // Nothing of A's settlement was written: no charge, no row, and its reservation is still there to release.
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 0, reserved: 2 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([]);
        expect(await storage.requests.get(a.requestId, seeded.account.id)).toBeNull();
        expect(await storage.idempotency.get(seeded.account.id, 'slow')).toMatchObject({
          requestId: b.requestId,
          state: 'in_progress',
        });

        expect(await settleAs(b.requestId)).toBe('committed');
        expect(await settleAs(a.requestId)).toBe('refused');
        expect(await storage.ledger.release(a.requestId)).toBe(true);
        expect(await storage.ledger.accountUsage(seeded.account.id, period)).toEqual({ used: 1, reserved: 0 });
        if (probe) expect(await probe.ledgerCredits(storage, seeded.account.id)).toEqual([1]);
        expect(await storage.idempotency.get(seeded.account.id, 'slow')).toMatchObject({
          requestId: b.requestId,
          state: 'completed',
        });
      });

      it('a settlement that rolls back leaves the idempotency claim in progress, not completed', async () => {
        const seeded = await seed();
        const r = reservation(seeded);
        await storage.ledger.reserve(r);
        await storage.idempotency.claim(claim(seeded, 'key-rollback', r.requestId));
        await storage.requests.insert({ ...row(seeded, r.requestId), status: 'failed', costUnits: 0 });
        await expect(
          storage.settle({
            ledger: { commit: 1 },
            record: row(seeded, r.requestId),
            idempotency: { key: 'key-rollback', complete: true },
          }),
        ).rejects.toThrow();
        expect(await storage.idempotency.get(seeded.account.id, 'key-rollback')).toMatchObject({
          state: 'in_progress',
        });
      });
    });

    function claim(
      seeded: { account: AccountRecord },
      key: string,
      requestId: string,
      changes: Partial<IdempotencyClaimRequest> = {},
    ): IdempotencyClaimRequest {
      const now = Date.now();
      return {
        accountId: seeded.account.id,
        key,
        bodyHash: 'a'.repeat(64),
        requestId,
        now: new Date(now).toISOString(),
        expiresAt: new Date(now + 86_400_000).toISOString(),
        heldUntil: new Date(now + 60_000).toISOString(),
        maxReplays: 2,
        ...changes,
      };
    }

    /** A key claimed and charged by one call, as a completed call leaves it. */
    async function completedKey(
      seeded: { account: AccountRecord; key: KeyRecord },
      key: string,
    ): Promise<IdempotencyClaimRequest> {
      const r = reservation(seeded);
      await storage.ledger.reserve(r);
      const first = claim(seeded, key, r.requestId);
      expect(await storage.idempotency.claim(first)).toEqual({ outcome: 'claimed' });
      const record = {
        requestId: r.requestId,
        accountId: seeded.account.id,
        keyId: seeded.key.id,
        siteId: null,
        pageType: null,
        url: null,
        status: 'completed',
        errorCode: null,
        httpStatus: 200,
        attempts: 1,
        route: null,
        costUnits: 1,
        latencyMs: 1,
        artifactId: null,
        createdAt: new Date().toISOString(),
      };
      expect(await storage.settle({ ledger: { commit: 1 }, record, idempotency: { key, complete: true } })).toBe(
        'committed',
      );
      return first;
    }

    describe('idempotency keys', () => {
      it('claimed once; the same body in flight is in_progress, another body a conflict', async () => {
        const seeded = await seed();
        const first = claim(seeded, 'k1', 'req_first');
        expect(await storage.idempotency.claim(first)).toEqual({ outcome: 'claimed' });
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_second' })).toEqual({
          outcome: 'in_progress',
          requestId: 'req_first',
        });
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_third', bodyHash: 'b'.repeat(64) })).toEqual(
          { outcome: 'conflict', requestId: 'req_first' },
        );
      });

      it('a completed key replays the same body and conflicts with another one', async () => {
        const seeded = await seed();
        const r = reservation(seeded);
        await storage.ledger.reserve(r);
        const first = claim(seeded, 'k2', r.requestId);
        await storage.idempotency.claim(first);
        await storage.settle({
          ledger: { commit: 1 },
          record: {
            requestId: r.requestId,
            accountId: seeded.account.id,
            keyId: seeded.key.id,
            siteId: null,
            pageType: null,
            url: null,
            status: 'completed',
            errorCode: null,
            httpStatus: 200,
            attempts: 1,
            route: null,
            costUnits: 1,
            latencyMs: 1,
            artifactId: null,
            createdAt: new Date().toISOString(),
          },
          idempotency: { key: 'k2', complete: true },
        });
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_retry' })).toEqual({
          outcome: 'replay',
          requestId: r.requestId,
        });
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_x', bodyHash: 'c'.repeat(64) })).toEqual({
          outcome: 'conflict',
          requestId: r.requestId,
        });
        // A replay does not take the key over: it still names the charged call.
        expect((await storage.idempotency.get(seeded.account.id, 'k2'))?.requestId).toBe(r.requestId);
      });

      it('a completed key replays at most maxReplays times; the next claim is spent, another body still a conflict', async () => {
        const seeded = await seed();
        const first = await completedKey(seeded, 'capped');
        for (const id of ['req_replay_1', 'req_replay_2']) {
          expect(await storage.idempotency.claim({ ...first, requestId: id })).toEqual({
            outcome: 'replay',
            requestId: first.requestId,
          });
        }
        for (const id of ['req_replay_3', 'req_replay_4']) {
          expect(await storage.idempotency.claim({ ...first, requestId: id })).toEqual({
            outcome: 'spent',
            requestId: first.requestId,
          });
        }
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_x', bodyHash: 'c'.repeat(64) })).toEqual({
          outcome: 'conflict',
          requestId: first.requestId,
        });
        // Refused claims do not count: the record says what was replayed, and still names the charged call.
        expect(await storage.idempotency.get(seeded.account.id, 'capped')).toMatchObject({
          requestId: first.requestId,
          state: 'completed',
          replays: 2,
        });
        // Each claim carries the cap: a cap of 0 allows no replay at all.
        const none = await completedKey(seeded, 'no-replays');
        expect(await storage.idempotency.claim({ ...none, requestId: 'req_y', maxReplays: 0 })).toMatchObject({
          outcome: 'spent',
        });
      });

      it('30 parallel replays of a completed key: exactly maxReplays are replays, the rest spent', async () => {
        const seeded = await seed();
        const first = await completedKey(seeded, 'replay-race');
        // One replay made earlier: 2 of a cap of 3 are left.
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_early', maxReplays: 3 })).toMatchObject({
          outcome: 'replay',
        });
        const outcomes = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            storage.idempotency.claim({ ...first, requestId: `req_par_${i}`, maxReplays: 3 }),
          ),
        );
        expect(outcomes.filter((o) => o.outcome === 'replay')).toHaveLength(2);
        expect(outcomes.filter((o) => o.outcome === 'spent')).toHaveLength(28);
        expect((await storage.idempotency.get(seeded.account.id, 'replay-race'))?.replays).toBe(3);
      });

      it('an expired spent key starts afresh: claimed, with no replays counted', async () => {
        const seeded = await seed();
        const first = await completedKey(seeded, 'renewed');
        for (let i = 0; i < 3; i++) await storage.idempotency.claim({ ...first, requestId: `req_r${i}` });
        const later = Date.parse(first.expiresAt) + 1;
        expect(
          await storage.idempotency.claim({
            ...first,
            requestId: 'req_new',
            now: new Date(later).toISOString(),
            heldUntil: new Date(later + 60_000).toISOString(),
            expiresAt: new Date(later + 86_400_000).toISOString(),
          }),
        ).toEqual({ outcome: 'claimed' });
        expect(await storage.idempotency.get(seeded.account.id, 'renewed')).toMatchObject({
          requestId: 'req_new',
          state: 'in_progress',
          replays: 0,
        });
      });

      it('keys are per account', async () => {
        const a = await seed();
        const b = await seed();
        expect(await storage.idempotency.claim(claim(a, 'shared', 'req_a'))).toEqual({ outcome: 'claimed' });
        expect(await storage.idempotency.claim(claim(b, 'shared', 'req_b', { bodyHash: 'd'.repeat(64) }))).toEqual({
          outcome: 'claimed',
        });
      });

      it('an expired key, or an in-progress claim past its hold (a crashed call), can be claimed again', async () => {
        const seeded = await seed();
        const t0 = Date.parse('2026-05-10T00:00:00.000Z');
        const at = (ms: number) => new Date(t0 + ms).toISOString();
        const base = { now: at(0), heldUntil: at(60_000), expiresAt: at(86_400_000) };
        expect(await storage.idempotency.claim(claim(seeded, 'stale', 'req_1', base))).toEqual({ outcome: 'claimed' });
        expect(await storage.idempotency.claim(claim(seeded, 'stale', 'req_2', { ...base, now: at(30_000) }))).toEqual({
          outcome: 'in_progress',
          requestId: 'req_1',
        });
        expect(await storage.idempotency.claim(claim(seeded, 'stale', 'req_3', { ...base, now: at(61_000) }))).toEqual({
          outcome: 'claimed',
        });
        expect((await storage.idempotency.get(seeded.account.id, 'stale'))?.requestId).toBe('req_3');

        expect(await storage.idempotency.sweepExpired(at(86_400_000 - 1))).toBe(0);
        expect(await storage.idempotency.claim(claim(seeded, 'old', 'req_4', base))).toEqual({ outcome: 'claimed' });
        const later = { now: at(86_400_001), heldUntil: at(86_500_000), expiresAt: at(2 * 86_400_000) };
        expect(
          await storage.idempotency.claim(claim(seeded, 'old', 'req_5', { ...later, bodyHash: 'e'.repeat(64) })),
        ).toEqual({ outcome: 'claimed' });
        expect(await storage.idempotency.sweepExpired(at(86_400_001))).toBe(1); // 'stale' expired; 'old' renewed
        expect(await storage.idempotency.get(seeded.account.id, 'stale')).toBeNull();
      });

      it("an in-progress claim whose holder's heartbeat is stale is taken over before its hold; a live one is not", async () => {
        const seeded = await seed();
        const now = Date.now();
        const at = (ms: number) => new Date(now + ms).toISOString();
        const dead = newId('ins_dead');
        const live = newId('ins_live');
        await storage.instances.heartbeat(dead, at(-31_000));
        await storage.instances.heartbeat(live, at(-1_000));
        const held = { now: at(0), heldUntil: at(150_000), expiresAt: at(86_400_000) };
        expect(await storage.idempotency.claim(claim(seeded, 'on-dead', 'req_d1', { ...held, holder: dead }))).toEqual({
          outcome: 'claimed',
        });
        expect(await storage.idempotency.claim(claim(seeded, 'on-live', 'req_l1', { ...held, holder: live }))).toEqual({
          outcome: 'claimed',
        });

        // A retry on another instance, well before the hold ends (the storage's default 30 s staleness bound).
        const retry = { now: at(1_000), heldUntil: at(151_000), expiresAt: at(86_401_000), holder: live };
        expect(await storage.idempotency.claim(claim(seeded, 'on-dead', 'req_d2', retry))).toEqual({
          outcome: 'claimed',
        });
        expect(await storage.idempotency.get(seeded.account.id, 'on-dead')).toMatchObject({
          requestId: 'req_d2',
          state: 'in_progress',
        });
        expect(
          await storage.idempotency.claim(claim(seeded, 'on-live', 'req_l2', { ...retry, holder: newId('ins_x') })),
        ).toEqual({ outcome: 'in_progress', requestId: 'req_l1' });
        // The taker is alive: a third call must wait for it, not take the key again.
        expect(
          await storage.idempotency.claim(claim(seeded, 'on-dead', 'req_d3', { ...retry, holder: newId('ins_y') })),
        ).toEqual({ outcome: 'in_progress', requestId: 'req_d2' });
      });

      it('a holder with no heartbeat row is dead only once its claim is older than the staleness bound', async () => {
        const seeded = await seed();
        const t0 = Date.now();
        const at = (ms: number) => new Date(t0 + ms).toISOString();
        const silent = newId('ins_silent');
        const base = { heldUntil: at(150_000), expiresAt: at(86_400_000) };
        expect(
          await storage.idempotency.claim(claim(seeded, 'silent', 'req_s1', { ...base, now: at(0), holder: silent })),
        ).toEqual({ outcome: 'claimed' });
        const other = newId('ins_other');
        expect(
          await storage.idempotency.claim(
            claim(seeded, 'silent', 'req_s2', { ...base, now: at(29_000), holder: other }),
          ),
        ).toEqual({ outcome: 'in_progress', requestId: 'req_s1' });
        expect(
          await storage.idempotency.claim(
            claim(seeded, 'silent', 'req_s3', { ...base, now: at(31_000), holder: other }),
          ),
        ).toEqual({ outcome: 'claimed' });
      });

      it("10 parallel retries of a dead holder's claim: exactly one takes it over", async () => {
        const seeded = await seed();
        const dead = newId('ins_dead');
        await storage.instances.heartbeat(dead, new Date(Date.now() - 60_000).toISOString());
        await storage.idempotency.claim(claim(seeded, 'dead-race', 'req_first', { holder: dead }));
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            storage.idempotency.claim(claim(seeded, 'dead-race', `req_retry_${i}`, { holder: newId('ins_r') })),
          ),
        );
        expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
        expect(outcomes.filter((o) => o.outcome === 'in_progress')).toHaveLength(9);
      });

      it('a replay refused before it ran is given back: the key still allows maxReplays replays that ran', async () => {
        const seeded = await seed();
        const first = await completedKey(seeded, 'given-back');
        const replay = await storage.idempotency.claim({ ...first, requestId: 'req_refused' });
        expect(replay).toEqual({ outcome: 'replay', requestId: first.requestId });
        expect(await storage.idempotency.returnReplay(seeded.account.id, 'given-back', first.requestId)).toBe(true);
        expect((await storage.idempotency.get(seeded.account.id, 'given-back'))?.replays).toBe(0);
        // Nothing left to give back; and another call's id or another key gives back nothing.
        expect(await storage.idempotency.returnReplay(seeded.account.id, 'given-back', first.requestId)).toBe(false);
        await storage.idempotency.claim({ ...first, requestId: 'req_r1' });
        expect(await storage.idempotency.returnReplay(seeded.account.id, 'given-back', 'req_r1')).toBe(false);
        expect(await storage.idempotency.returnReplay(seeded.account.id, 'other-key', first.requestId)).toBe(false);
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_r2' })).toMatchObject({ outcome: 'replay' });
        expect(await storage.idempotency.claim({ ...first, requestId: 'req_r3' })).toMatchObject({ outcome: 'spent' });
      });

      it('20 parallel claims of one key: exactly one is claimed', async () => {
        const seeded = await seed();
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) => storage.idempotency.claim(claim(seeded, 'race', `req_${i}`))),
        );
        expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
        expect(outcomes.filter((o) => o.outcome === 'in_progress')).toHaveLength(19);
      });

      it('stores metadata only: a body hash and a request id, never output', async () => {
        const seeded = await seed();
        await storage.idempotency.claim(claim(seeded, 'meta', 'req_meta'));
        const stored = await storage.idempotency.get(seeded.account.id, 'meta');
        expect(Object.keys(stored ?? {}).sort()).toEqual(
          ['accountId', 'bodyHash', 'createdAt', 'expiresAt', 'key', 'replays', 'requestId', 'state'].sort(),
        );
      });
    });

    describe('migrate', () => {
      it('is idempotent and keeps the data', async () => {
        const { account, key } = await seed();
        await storage.migrate();
        await storage.migrate();
        expect(await storage.accounts.get(account.id)).toEqual(account);
        expect(await storage.keys.get(key.id)).toEqual(key);
      });
    });
  });
}
