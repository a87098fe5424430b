// The WebhookEndpointStore contract, run on SQLite and PostgreSQL: ownership, sealed secrets, rotation grace, disable.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import { newId } from '../accounts/ids.js';
import { KyselyWebhookEndpointStore } from './kysely-webhook-endpoint-store.js';
import { signDelivery } from './signer.js';

const hour = 3_600_000;
const t0 = Date.parse('2026-11-28T00:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms).toISOString();

export function describeWebhookEndpointStoreContract(name: string, storage: () => KyselyStorage): void {
  describe(`WebhookEndpointStore contract (${name})`, () => {
    const setup = async () => {
      const db = storage();
      const secrets = new AesGcmSecrets(randomBytes(32));
      const store = new KyselyWebhookEndpointStore(storage().db, secrets);
      const account = newId('acc');
      const other = newId('acc');
      for (const id of [account, other]) {
        await db.accounts.create({ id, plan: 'starter', overageCapCredits: 0, createdAt: at(0) });
      }
      return { db, store, account, other };
    };
    const create = (store: KyselyWebhookEndpointStore, accountId: string, ms = 0) =>
      store.create({
        id: newId('whe'),
        accountId,
        url: 'https://hooks.example.com/kumo',
        events: ['item.succeeded', 'batch.completed'],
        createdAt: at(ms),
      });

    it('creates with a whsec_ secret shown once and stored only sealed; get and list are per account', async () => {
      const { db, store, account, other } = await setup();
      const { endpoint, secret } = await create(store, account);
      expect(secret).toMatch(/^whsec_/);
      expect(endpoint).toMatchObject({
        accountId: account,
        url: 'https://hooks.example.com/kumo',
        events: ['item.succeeded', 'batch.completed'],
        secretLast4: secret.slice(-4),
        createdAt: at(0),
        disabledAt: null,
      });
      expect(await store.get(endpoint.id, account)).toEqual(endpoint);
      expect(await store.get(endpoint.id, other)).toBeNull();
      const second = await create(store, account, 1000);
      expect((await store.list(account)).map((e) => e.id)).toEqual([endpoint.id, second.endpoint.id]);
      expect(await store.list(other)).toEqual([]);
      const { rows } = await sql<{ secret_sealed: Uint8Array }>`
        SELECT secret_sealed FROM webhook_endpoints WHERE id = ${endpoint.id}`.execute(db.db);
      const stored = Buffer.from(rows[0]!.secret_sealed);
      expect(stored.includes(Buffer.from(secret))).toBe(false);
      expect(stored.includes(Buffer.from(secret.slice(6), 'base64'))).toBe(false);
      expect(await store.signingSecrets(endpoint.id, at(0))).toEqual([secret]);
    });

    it('rotation: old and new both sign for 24 h, then only the new one (standardwebhooks verifies)', async () => {
      const { store, account, other } = await setup();
      const { endpoint, secret: old } = await create(store, account);
      expect(await store.rotate(endpoint.id, other, at(hour))).toBeNull();
      const rotated = await store.rotate(endpoint.id, account, at(hour));
      expect(rotated!.secret).not.toBe(old);
      expect(rotated!.endpoint.secretLast4).toBe(rotated!.secret.slice(-4));
      expect(await store.signingSecrets(endpoint.id, at(hour + 1000))).toEqual([rotated!.secret, old]);
      expect(await store.signingSecrets(endpoint.id, at(25 * hour - 1))).toEqual([rotated!.secret, old]);
      const after = await store.signingSecrets(endpoint.id, at(25 * hour));
      expect(after).toEqual([rotated!.secret]);

      const body = '{"type":"batch.completed"}';
      const nowS = Math.floor(Date.now() / 1000);
      const during = signDelivery('evt_1', nowS, body, [rotated!.secret, old]);
      expect(new Webhook(old).verify(body, { ...during })).toEqual(JSON.parse(body));
      const afterGrace = signDelivery('evt_2', nowS, body, after);
      expect(() => new Webhook(old).verify(body, { ...afterGrace })).toThrow();
      expect(new Webhook(rotated!.secret).verify(body, { ...afterGrace })).toEqual(JSON.parse(body));
    });

    it('delete: gone for get, list, signing and rotation; only the owner may delete', async () => {
      const { store, account, other } = await setup();
      const { endpoint } = await create(store, account);
      expect(await store.delete(endpoint.id, other, at(1))).toBe(false);
      expect(await store.delete(endpoint.id, account, at(1))).toBe(true);
      expect(await store.delete(endpoint.id, account, at(2))).toBe(false);
      expect(await store.get(endpoint.id, account)).toBeNull();
      expect(await store.list(account)).toEqual([]);
      expect(await store.signingSecrets(endpoint.id, at(3))).toEqual([]);
      expect(await store.rotate(endpoint.id, account, at(3))).toBeNull();
    });

    it('disable keeps the first reason and time', async () => {
      const { store, account } = await setup();
      const { endpoint } = await create(store, account);
      await store.disable(endpoint.id, 'gone (410)', at(5));
      await store.disable(endpoint.id, 'later', at(9));
      expect(await store.get(endpoint.id, account)).toMatchObject({ disabledAt: at(5), disabledReason: 'gone (410)' });
    });

    it('a secret sealed for one endpoint does not open as another', async () => {
      const { db, store, account } = await setup();
      const a = await create(store, account);
      const b = await create(store, account);
      await sql`UPDATE webhook_endpoints SET secret_sealed = (SELECT secret_sealed FROM webhook_endpoints WHERE id = ${a.endpoint.id}) WHERE id = ${b.endpoint.id}`.execute(
        db.db,
      );
      await expect(store.signingSecrets(b.endpoint.id, at(0))).rejects.toThrow();
    });
  });
}
