// The behaviour every WorkQueue must show; sqlite-work-queue.test.ts and pg-boss-work-queue.test.ts run it.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KumoDatabase } from '../storage/kysely/schema.js';
import { ManualClock } from '../time/clock.js';
import type { ClaimedWork, NewWork, WorkQueue } from './work-queue.js';

export interface WorkQueueUnderTest {
  /** Kumo's database (the storage's Kysely) the queue writes in. */
  db: Kysely<KumoDatabase>;
  /** A queue as one instance would make it, over its own connection(s) to the same database; started. */
  open(clock: ManualClock): Promise<WorkQueue>;
  /** Closes what the factory opened (queues opened are closed by the suite). */
  close(): Promise<void>;
}

const second = 1_000;

export function describeWorkQueueContract(name: string, make: () => Promise<WorkQueueUnderTest>): void {
  describe(`${name}: WorkQueue contract`, () => {
    let subject: WorkQueueUnderTest;
    let clock: ManualClock;
    let queue: WorkQueue;
    let other: WorkQueue;
    const opened: WorkQueue[] = [];

    beforeAll(async () => {
      subject = await make();
      clock = new ManualClock(Date.now());
      queue = await subject.open(clock);
      other = await subject.open(clock);
      opened.push(queue, other);
    });

    afterAll(async () => {
      for (const q of opened) await q.close();
      await subject?.close();
    });

    /** Each test on hosts and accounts of its own: the database is shared by the file's tests. */
    const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
    const works = (host: string, accountId: string, groupId: string, count: number, from = 0): NewWork[] =>
      Array.from({ length: count }, (_, i) => ({
        id: `itm_${unique(`${accountId}-${from + i}`)}`,
        groupId,
        accountId,
        host,
        order: from + i,
      }));
    const enqueue = (work: readonly NewWork[], on: WorkQueue = queue) =>
      subject.db.transaction().execute((tx) => on.enqueue(tx, work));
    const finish = (work: ClaimedWork, holder: string, on: WorkQueue = queue) =>
      subject.db.transaction().execute((tx) => on.finish(tx, work.id, holder));
    const giveBack = (work: ClaimedWork, holder: string, on: WorkQueue = queue) =>
      subject.db.transaction().execute((tx) => on.giveBack(tx, work.id, holder));
    const cancel = (groupId: string, on: WorkQueue = queue) =>
      subject.db.transaction().execute((tx) => on.cancel(tx, groupId));
    const heartbeat = async (instanceId: string, at: number) => {
      const iso = new Date(at).toISOString();
      await subject.db
        .insertInto('instances')
        .values({ id: instanceId, heartbeat_at: iso, started_at: iso })
        .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: iso }))
        .execute();
    };
    /** Claims and finishes everything on the host, one at a time, in the order the queue serves it. */
    const drain = async (host: string, holder = 'ins_drain', limit = Number.POSITIVE_INFINITY) => {
      const served: ClaimedWork[] = [];
      while (served.length < limit) {
        const work = await queue.claim(host, holder);
        if (!work) break;
        expect(await finish(work, holder)).toBe(true);
        served.push(work);
      }
      return served;
    };

    it('hands each item to exactly one of 8 concurrent claimers on two instances, until nothing is left', async () => {
      const host = unique('exclusive.example');
      const items = [
        ...works(host, 'acc_a', 'bat_1', 80),
        ...works(host, 'acc_b', 'bat_2', 60),
        ...works(host, 'acc_c', 'bat_3', 60),
      ];
      await enqueue(items);
      expect(await queue.depth(host)).toBe(200);
      const claimedBy = new Map<string, number>();
      let duplicates = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, claimer) => {
          const on = claimer % 2 === 0 ? queue : other;
          const holder = `ins_claimer${claimer}`;
          for (;;) {
            const work = await on.claim(host, holder);
            if (!work) return;
            if (claimedBy.has(work.id)) duplicates++;
            claimedBy.set(work.id, claimer);
            expect(await finish(work, holder, on)).toBe(true);
          }
        }),
      );
      expect(duplicates).toBe(0);
      expect([...claimedBy.keys()].sort()).toEqual(items.map((w) => w.id).sort());
      expect(new Set(claimedBy.values()).size).toBeGreaterThan(1);
      expect(await queue.depth(host)).toBe(0);
      expect(await hostsOf(other)).not.toContain(host);
    });

    it('serves accounts round robin: B’s 10 items, queued after A’s 500, come within the next 20 claims', async () => {
      const host = unique('fair.example');
      await enqueue(works(host, 'acc_big', 'bat_big', 500));
      const first = await drain(host, 'ins_fair', 5);
      expect(first.map((w) => w.accountId)).toEqual(Array(5).fill('acc_big'));
      const small = works(host, 'acc_small', 'bat_small', 10);
      await enqueue(small);
      const next = await drain(host, 'ins_fair', 20);
      const positions = next.flatMap((w, i) => (w.accountId === 'acc_small' ? [i] : []));
      expect(positions).toHaveLength(10);
      // Strict alternation while both have work.
      expect(next.map((w) => w.accountId)).toEqual(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'acc_small' : 'acc_big')),
      );
      expect(next.filter((w) => w.accountId === 'acc_small').map((w) => w.id)).toEqual(small.map((w) => w.id));
      expect(await queue.depth(host)).toBe(500 - 5 - 10);
    });

    it('serves one account’s items in their order, across its groups, lowest first', async () => {
      const host = unique('order.example');
      const items = works(host, 'acc_order', 'bat_o1', 12);
      const shuffled = [items[7]!, items[2]!, items[11]!, items[0]!, items[5]!, items[9]!];
      const rest = items.filter((w) => !shuffled.includes(w)).map((w) => ({ ...w, groupId: 'bat_o2' }));
      await enqueue(shuffled);
      await enqueue(rest);
      const served = await drain(host);
      expect(served.map((w) => w.id)).toEqual(items.map((w) => w.id));
      expect(served.map((w) => w.groupId)).toEqual(items.map((w) => (shuffled.includes(w) ? 'bat_o1' : 'bat_o2')));
      expect(served.every((w) => w.attempts === 1 && w.host === host)).toBe(true);
    });

    it('passes over skipped accounts and keeps their turn', async () => {
      const host = unique('skip.example');
      await enqueue([
        ...works(host, 'acc_1', 'bat_s1', 3),
        ...works(host, 'acc_2', 'bat_s2', 3),
        ...works(host, 'acc_3', 'bat_s3', 3),
      ]);
      const holder = 'ins_skip';
      const sequence: string[] = [];
      const take = async (skipAccounts: string[] = []) => {
        const work = await queue.claim(host, holder, { skipAccounts });
        sequence.push(work ? work.accountId : 'none');
        if (work) await finish(work, holder);
      };
      await take(); // acc_1
      await take(['acc_2']); // acc_3, acc_2 keeps its turn
      await take(); // acc_2
      await take(['acc_1', 'acc_2', 'acc_3']); // nobody may start
      await take(); // acc_1
      expect(sequence).toEqual(['acc_1', 'acc_3', 'acc_2', 'none', 'acc_1']);
      expect(await queue.depth(host)).toBe(5);
    });

    it('runs onClaimed in the claim’s transaction; false undoes the claim and leaves the item first in place', async () => {
      const host = unique('refuse.example');
      const items = works(host, 'acc_refuse', 'bat_r', 3);
      await enqueue(items);
      const marker = unique('ins_marker');
      const seen: ClaimedWork[] = [];
      const refused = await queue.claim(host, 'ins_refuse', {
        onClaimed: async (tx, work) => {
          seen.push(work);
          await tx
            .insertInto('instances')
            .values({ id: marker, heartbeat_at: iso(0), started_at: iso(0) })
            .execute();
          return false;
        },
      });
      expect(refused).toBeNull();
      expect(seen.map((w) => [w.id, w.attempts])).toEqual([[items[0]!.id, 1]]);
      expect(await subject.db.selectFrom('instances').select('id').where('id', '=', marker).execute()).toEqual([]);
      expect(await queue.depth(host)).toBe(3);
      const accepted = await queue.claim(host, 'ins_refuse', {
        onClaimed: async (tx) => {
          await tx
            .insertInto('instances')
            .values({ id: marker, heartbeat_at: iso(0), started_at: iso(0) })
            .execute();
          return true;
        },
      });
      expect(accepted).toMatchObject({ id: items[0]!.id, attempts: 1, accountId: 'acc_refuse', groupId: 'bat_r' });
      expect(await subject.db.selectFrom('instances').select('id').where('id', '=', marker).execute()).toHaveLength(1);
      await subject.db.deleteFrom('instances').where('id', '=', marker).execute();
      expect(await queue.depth(host)).toBe(2);
      expect(await finish(accepted!, 'ins_refuse')).toBe(true);
    });

    it('lets only the holder finish or give back; a given-back item runs again in its place with one more attempt', async () => {
      const host = unique('holder.example');
      const items = works(host, 'acc_holder', 'bat_h', 2);
      await enqueue(items);
      const work = (await queue.claim(host, 'ins_one'))!;
      expect(work.id).toBe(items[0]!.id);
      expect(await finish(work, 'ins_two')).toBe(false);
      expect(await giveBack(work, 'ins_two')).toBe(false);
      expect(await queue.depth(host)).toBe(1);
      expect(await giveBack(work, 'ins_one')).toBe(true);
      expect(await giveBack(work, 'ins_one')).toBe(false);
      expect(await queue.depth(host)).toBe(2);
      const again = (await other.claim(host, 'ins_two'))!;
      expect(again).toMatchObject({ id: items[0]!.id, attempts: 2 });
      expect(await finish(again, 'ins_one', other)).toBe(false);
      expect(await finish(again, 'ins_two', other)).toBe(true);
      expect(await finish(again, 'ins_two', other)).toBe(false);
      expect((await drain(host)).map((w) => w.id)).toEqual([items[1]!.id]);
    });

    it('heldBy names what a holder claimed and has not finished or given back, and nothing of another holder', async () => {
      const host = unique('held.example');
      const [a, b, c] = [unique('ins_held_a'), unique('ins_held_b'), unique('ins_held_c')];
      await enqueue(works(host, 'acc_held', 'bat_held', 4));
      const first = (await queue.claim(host, a))!;
      const second = (await queue.claim(host, a))!;
      const third = (await other.claim(host, b))!;
      expect((await queue.heldBy(a)).sort()).toEqual([first.id, second.id].sort());
      expect(await other.heldBy(b)).toEqual([third.id]);
      expect(await finish(first, a)).toBe(true);
      expect(await giveBack(third, b, other)).toBe(true);
      expect(await other.heldBy(a)).toEqual([second.id]);
      expect(await queue.heldBy(b)).toEqual([]);
      expect(await queue.heldBy(c)).toEqual([]);
      // Nothing left held: the orphan test below counts every claim of a holder without a heartbeat.
      expect(await finish(second, a)).toBe(true);
      await drain(host);
    });

    it('cancels only the group’s queued work, on every host, and returns its ids', async () => {
      const [h1, h2] = [unique('cancel1.example'), unique('cancel2.example')];
      const g1 = [...works(h1, 'acc_cancel', 'bat_c1', 4), ...works(h2, 'acc_cancel', 'bat_c1', 3, 10)];
      const g2 = works(h1, 'acc_cancel', 'bat_c2', 2, 100);
      await enqueue([...g1, ...g2]);
      const running = (await queue.claim(h1, 'ins_cancel'))!;
      expect(running.id).toBe(g1[0]!.id);
      const cancelled = await cancel('bat_c1');
      expect(cancelled.sort()).toEqual(
        g1
          .slice(1)
          .map((w) => w.id)
          .sort(),
      );
      expect(await cancel('bat_c1')).toEqual([]);
      expect(await queue.depth(h1)).toBe(2);
      expect(await queue.depth(h2)).toBe(0);
      expect(await hostsOf(queue)).toContain(h1);
      expect(await hostsOf(queue)).not.toContain(h2);
      expect(await finish(running, 'ins_cancel')).toBe(true);
      expect((await drain(h1)).map((w) => w.id)).toEqual(g2.map((w) => w.id));
    });

    it('never both cancels and claims an item when cancel races claimers', async () => {
      const host = unique('race.example');
      const items = works(host, 'acc_race', 'bat_race', 300);
      await enqueue(items);
      const claimed: string[] = [];
      const claimers = Array.from({ length: 4 }, async (_, n) => {
        const on = n % 2 === 0 ? queue : other;
        const holder = `ins_race${n}`;
        for (;;) {
          const work = await on.claim(host, holder);
          if (!work) return;
          claimed.push(work.id);
          expect(await finish(work, holder, on)).toBe(true);
        }
      });
      // Let the claimers get going, then cancel in the middle of them.
      await new Promise((resolve) => setImmediate(resolve));
      const cancelling = cancel('bat_race', other);
      const [cancelled] = await Promise.all([cancelling, ...claimers]);
      const both = cancelled.filter((id) => claimed.includes(id));
      expect(both).toEqual([]);
      expect([...claimed, ...cancelled].sort()).toEqual(items.map((w) => w.id).sort());
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(await queue.depth(host)).toBe(0);
    });

    it('requeues dead holders’ items (stale, named dead, or gone), never its own, with onRequeued in the same transaction', async () => {
      const host = unique('orphan.example');
      const now = clock.now();
      const [self, stale, named, live, gone] = ['self', 'stale', 'named', 'live', 'gone'].map((n) =>
        unique(`ins_${n}`),
      );
      const items = works(host, 'acc_orphan', 'bat_orphan', 6);
      await enqueue(items);
      const holders = [self!, stale!, named!, live!, gone!, live!];
      const claims: ClaimedWork[] = [];
      for (const holder of holders) claims.push((await queue.claim(host, holder))!);
      expect(claims.map((w) => w.id)).toEqual(items.map((w) => w.id));
      await clock.advance(60 * second);
      const staleBefore = new Date(clock.now() - 30 * second).toISOString();
      await heartbeat(self!, now - 120 * second); // its own: alive whatever its row says
      await heartbeat(stale!, now - 45 * second);
      await heartbeat(named!, clock.now());
      await heartbeat(live!, clock.now());
      expect(await queue.depth(host)).toBe(0);

      // onRequeued failing takes the requeue back with it: one transaction.
      await expect(
        other.releaseOrphaned(self!, staleBefore, [named!], async () => {
          throw new Error('store unavailable');
        }),
      ).rejects.toThrow('store unavailable');
      expect(await queue.depth(host)).toBe(0);

      const marker = unique('ins_requeued');
      let told: readonly string[] = [];
      const requeued = await queue.releaseOrphaned(self!, staleBefore, [named!], async (tx, ids) => {
        told = ids;
        await tx
          .insertInto('instances')
          .values({ id: marker, heartbeat_at: iso(0), started_at: iso(0) })
          .execute();
      });
      const expected = [claims[1]!.id, claims[2]!.id, claims[4]!.id].sort();
      expect([...requeued].sort()).toEqual(expected);
      expect([...told].sort()).toEqual(expected);
      expect(await subject.db.selectFrom('instances').select('id').where('id', '=', marker).execute()).toHaveLength(1);
      expect(await queue.depth(host)).toBe(3);
      expect(await queue.releaseOrphaned(self!, staleBefore, [named!], async () => undefined)).toEqual([]);

      // The old holders lost them; the live ones still hold theirs.
      expect(await finish(claims[1]!, stale!)).toBe(false);
      expect(await finish(claims[0]!, self!)).toBe(true);
      expect(await finish(claims[3]!, live!)).toBe(true);
      const again = await drain(host, 'ins_again');
      expect(again.map((w) => [w.id, w.attempts])).toEqual(expected.map((id) => [id, 2]).sort());
      expect(await finish(claims[5]!, live!)).toBe(true);
      await subject.db.deleteFrom('instances').where('id', 'in', [self!, stale!, named!, live!, marker]).execute();
    });

    it('keeps lanesWithWork and depth true through enqueue, claim, give back, cancel and finish', async () => {
      const host = unique('depth.example');
      expect(await queue.depth(host)).toBe(0);
      expect(await hostsOf(queue)).not.toContain(host);
      await enqueue([...works(host, 'acc_d1', 'bat_d1', 3), ...works(host, 'acc_d2', 'bat_d2', 2)]);
      expect(await other.depth(host)).toBe(5);
      expect(await hostsOf(other)).toContain(host);
      const a = (await queue.claim(host, 'ins_depth'))!;
      const b = (await queue.claim(host, 'ins_depth'))!;
      expect(await queue.depth(host)).toBe(3);
      expect(await giveBack(a, 'ins_depth')).toBe(true);
      expect(await queue.depth(host)).toBe(4);
      expect((await cancel(b.groupId)).length).toBe(b.accountId === 'acc_d1' ? 2 : 1);
      expect(await finish(b, 'ins_depth')).toBe(true);
      await drain(host);
      expect(await queue.depth(host)).toBe(0);
      expect(await hostsOf(queue)).not.toContain(host);
      expect(await queue.claim(host, 'ins_depth')).toBeNull();
    });
  });
}

async function hostsOf(queue: WorkQueue): Promise<string[]> {
  return (await queue.lanesWithWork()).map((lane) => lane.host);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
