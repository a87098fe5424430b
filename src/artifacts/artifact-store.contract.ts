// The behaviour every ArtifactStore must show; fs-artifact-store.test.ts and postgres-artifact-store.test.ts run it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../accounts/ids.js';
import { ManualClock } from '../time/clock.js';
import type { ArtifactContent, ArtifactMeta, ArtifactStore } from './artifact-store.js';

export interface ArtifactStoreUnderTest {
  store: ArtifactStore;
  /** Releases what `make` opened (a folder, a pool). */
  close(): Promise<void>;
}

const minute = 60_000;

export function describeArtifactStoreContract(
  name: string,
  make: (options: { clock: ManualClock }) => Promise<ArtifactStoreUnderTest>,
): void {
  describe(`${name}: ArtifactStore contract`, () => {
    let clock: ManualClock;
    let subject: ArtifactStoreUnderTest;
    let store: ArtifactStore;

    beforeEach(async () => {
      clock = new ManualClock();
      subject = await make({ clock });
      store = subject.store;
    });

    afterEach(async () => {
      await subject.close();
    });

    const metaOf = (changes: Partial<ArtifactMeta> = {}): ArtifactMeta => ({
      id: newId('art'),
      accountId: 'acc_owner',
      requestId: newId('req'),
      url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/100001',
      createdAt: new Date(clock.now()).toISOString(),
      expiresAt: new Date(clock.now() + 10 * minute).toISOString(),
      ...changes,
    });

    it('gives back to its owner exactly what was saved: meta, HTML and data', async () => {
      const meta = metaOf();
      const content: ArtifactContent = {
        html: '<html><body><h1>ギター 「特価」</h1><p>"quoted" \\ back</p></body></html>',
        data: { title: 'ギター', price: 2200, in_stock: true, tags: ['a', 'b'], note: null },
      };
      await store.save(meta, content);
      expect(await store.get(meta.id, meta.accountId)).toEqual({ meta, content });
    });

    it('keeps an artifact without HTML (a JSON source) as html: null, and any JSON value as data', async () => {
      const rows = { meta: metaOf(), content: { html: null, data: [{ date: '2026-01-05', close: 1.5 }] } };
      const nothing = { meta: metaOf(), content: { html: null, data: null } };
      await store.save(rows.meta, rows.content);
      await store.save(nothing.meta, nothing.content);
      expect(await store.get(rows.meta.id, rows.meta.accountId)).toEqual(rows);
      expect(await store.get(nothing.meta.id, nothing.meta.accountId)).toEqual(nothing);
    });

    it("keeps the data's key order, as the caller was answered", async () => {
      const meta = metaOf();
      // jsonb would sort these keys (shortest first); the stored answer must read back as it was served.
      const data = { zeta_longest_name: 1, b: 2, aa: 3, a: { y: 1, x: 2 } };
      await store.save(meta, { html: null, data });
      const back = await store.get(meta.id, meta.accountId);
      expect(JSON.stringify(back?.content.data)).toBe(JSON.stringify(data));
    });

    it('round-trips a page of several megabytes', async () => {
      const meta = metaOf();
      const row = '<tr><td>2026-01-05</td><td>1,234.5</td><td>日経平均</td></tr>\n';
      const html = `<table>${row.repeat(Math.ceil((4 * 1024 * 1024) / row.length))}</table>`;
      await store.save(meta, { html, data: { rows: 1 } });
      const back = await store.get(meta.id, meta.accountId);
      expect(back?.content.html?.length).toBe(html.length);
      expect(back?.content.html === html).toBe(true);
    });

    it('answers another account exactly as for a missing artifact, and leaves the artifact to its owner', async () => {
      const meta = metaOf();
      await store.save(meta, { html: '<p>x</p>', data: {} });
      expect(await store.get(meta.id, 'acc_stranger')).toBeNull();
      expect(await store.delete(meta.id, 'acc_stranger')).toBe(false);
      expect(await store.get(newId('art'), meta.accountId)).toBeNull();
      expect(await store.delete(newId('art'), meta.accountId)).toBe(false);
      expect(await store.get(meta.id, meta.accountId)).not.toBeNull();
    });

    it('refuses ids that are not artifact ids without failing (they come from URLs)', async () => {
      for (const id of [
        '../../kumo.sqlite',
        '',
        'art_',
        `art_${'a'.repeat(200)}`,
        "art_x' OR '1'='1",
        'ART_0123456789',
      ]) {
        expect(await store.get(id, 'acc_owner')).toBeNull();
        expect(await store.delete(id, 'acc_owner')).toBe(false);
      }
    });

    it('deletes for its owner once: then it is gone for every reader', async () => {
      const meta = metaOf();
      await store.save(meta, { html: '<p>x</p>', data: { a: 1 } });
      expect(await store.delete(meta.id, meta.accountId)).toBe(true);
      expect(await store.get(meta.id, meta.accountId)).toBeNull();
      expect(await store.delete(meta.id, meta.accountId)).toBe(false);
    });

    it('stops serving an artifact at its expiry, and the sweep removes exactly the expired ones', async () => {
      const short = metaOf({ expiresAt: new Date(clock.now() + minute).toISOString() });
      const long = metaOf({ expiresAt: new Date(clock.now() + 10 * minute).toISOString() });
      await store.save(short, { html: null, data: { n: 1 } });
      await store.save(long, { html: null, data: { n: 2 } });
      expect(await store.sweepExpired(new Date(clock.now()))).toBe(0);

      await clock.advance(minute);
      expect(await store.get(short.id, short.accountId)).toBeNull();
      expect(await store.delete(short.id, short.accountId)).toBe(false);
      expect(await store.get(long.id, long.accountId)).not.toBeNull();

      expect(await store.sweepExpired(new Date(clock.now()))).toBe(1);
      expect(await store.sweepExpired(new Date(clock.now()))).toBe(0);
      expect((await store.get(long.id, long.accountId))?.content.data).toEqual({ n: 2 });
      expect(await store.sweepExpired(new Date(clock.now() + 10 * minute))).toBe(1);
      expect(await store.get(long.id, long.accountId)).toBeNull();
    });

    it('is writable when ready', async () => {
      await expect(store.checkWritable()).resolves.toBeUndefined();
    });
  });
}
