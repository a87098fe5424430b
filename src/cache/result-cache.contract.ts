// The behaviour every ResultCache must show; kysely-result-cache.sqlite.test.ts and .postgres.test.ts run it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import type { CacheEntry, ResultCache } from './result-cache.js';

export interface ResultCacheUnderTest {
  cache: ResultCache;
  /** Releases what `make` opened. */
  close(): Promise<void>;
}

const t0 = Date.UTC(2026, 0, 15, 3, 0, 0);
const at = (ms: number) => new Date(t0 + ms).toISOString();
const minute = 60_000;

export function describeResultCacheContract(name: string, make: () => Promise<ResultCacheUnderTest>): void {
  describe(`${name}: ResultCache contract`, () => {
    let subject: ResultCacheUnderTest;
    let cache: ResultCache;

    beforeEach(async () => {
      subject = await make();
      cache = subject.cache;
    });
    afterEach(async () => {
      await subject.close();
    });

    const entryOf = (changes: Partial<CacheEntry> = {}): CacheEntry => ({
      accountId: 'acc_a',
      key: newId('key'),
      url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      siteId: 'ikebe_gakki',
      pageType: 'item',
      requestId: newId('req'),
      fetchedAt: at(0),
      expiresAt: at(60 * minute),
      answer: {
        // Keys in an order jsonb would change: the answer must read back as it was served.
        data: { title: 'ギター 「特価」 "quoted" \\ back', price: 2200, zeta_longest: null, a: { y: 1, x: [1, 2] } },
        warnings: ['one warning'],
        extractor: { id: 'ikebe_gakki/item', version: 3, coverage: 'stable', provenance: { price: 'json-ld' } },
        fetch_summary: {
          status: 'completed',
          attempts: 1,
          route: 'http',
          http_status: 200,
          final_url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
          charset: 'utf-8',
          bytes: 1234,
          elapsed_ms: 12,
        },
      },
      ...changes,
    });

    it('gives back what was put, byte for byte, to a get within its age', async () => {
      const entry = entryOf();
      await cache.put(entry);
      const back = await cache.get(entry.accountId, entry.key, at(-5 * minute), at(5 * minute));
      expect(back).toEqual(entry);
      expect(JSON.stringify(back!.answer.data)).toBe(JSON.stringify(entry.answer.data));
    });

    it('misses an entry fetched before the oldest age asked, and one past its expiry', async () => {
      const entry = entryOf({ fetchedAt: at(0), expiresAt: at(10 * minute) });
      await cache.put(entry);
      expect(await cache.get(entry.accountId, entry.key, at(1), at(5 * minute))).toBeNull();
      expect(await cache.get(entry.accountId, entry.key, at(0), at(5 * minute))).not.toBeNull();
      expect(await cache.get(entry.accountId, entry.key, at(-minute), at(10 * minute))).toBeNull();
    });

    it("never gives one account another's entry, even under the same key", async () => {
      const entry = entryOf();
      await cache.put(entry);
      expect(await cache.get('acc_b', entry.key, at(-minute), at(minute))).toBeNull();
      await cache.put({ ...entry, accountId: 'acc_b', answer: { ...entry.answer, data: { title: 'B' } } });
      expect((await cache.get('acc_a', entry.key, at(-minute), at(minute)))?.answer.data).toEqual(entry.answer.data);
      expect((await cache.get('acc_b', entry.key, at(-minute), at(minute)))?.answer.data).toEqual({ title: 'B' });
    });

    it('a put under the same key replaces the entry', async () => {
      const entry = entryOf();
      await cache.put(entry);
      const newer = { ...entry, requestId: newId('req'), fetchedAt: at(minute), expiresAt: at(61 * minute) };
      await cache.put(newer);
      expect(await cache.get(entry.accountId, entry.key, at(30_000), at(2 * minute))).toEqual(newer);
    });

    it('the sweep deletes expired entries of every account and keeps the others', async () => {
      const old = entryOf({ expiresAt: at(minute) });
      const otherOld = entryOf({ accountId: 'acc_b', expiresAt: at(2 * minute) });
      const fresh = entryOf({ expiresAt: at(60 * minute) });
      for (const e of [old, otherOld, fresh]) await cache.put(e);
      expect(await cache.sweepExpired(at(2 * minute))).toBe(2);
      expect(await cache.sweepExpired(at(2 * minute))).toBe(0);
      expect(await cache.get(fresh.accountId, fresh.key, at(-minute), at(3 * minute))).toEqual(fresh);
      expect(await cache.delete('acc_b')).toBe(0);
    });

    it("deletes an account's entries of one URL, or all of them, and never another account's", async () => {
      const other = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/100001';
      const a1 = entryOf();
      const a2 = entryOf();
      const a3 = entryOf({ url: other });
      const b1 = entryOf({ accountId: 'acc_b' });
      for (const e of [a1, a2, a3, b1]) await cache.put(e);
      expect(await cache.delete('acc_a', a1.url)).toBe(2);
      expect(await cache.get('acc_a', a1.key, at(-minute), at(minute))).toBeNull();
      expect(await cache.get('acc_a', a3.key, at(-minute), at(minute))).toEqual(a3);
      expect(await cache.delete('acc_a')).toBe(1);
      expect(await cache.delete('acc_a')).toBe(0);
      expect(await cache.get('acc_b', b1.key, at(-minute), at(minute))).toEqual(b1);
    });
  });
}
