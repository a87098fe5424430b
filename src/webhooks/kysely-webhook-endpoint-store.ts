// Webhook endpoints in the webhook_endpoints table (SQLite and PostgreSQL through Kysely); secrets sealed, AAD the id.
import type { Kysely, Selectable } from 'kysely';
import type { KumoDatabase, WebhookEndpointsTable } from '../storage/kysely/schema.js';
import { isoOf, isoOrNull, listOf, listToColumn, toIso } from '../storage/kysely/columns.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { EventType } from '../batches/batch-store.js';
import {
  rotationGraceMs,
  type NewWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointAdmin,
} from './endpoint-store.js';
import { newSigningSecret } from './signer.js';

type Row = Selectable<WebhookEndpointsTable>;

export class KyselyWebhookEndpointStore implements WebhookEndpointAdmin {
  readonly #db: Kysely<KumoDatabase>;
  readonly #box: SecretBox;

  constructor(db: Kysely<KumoDatabase>, serverBox: SecretBox) {
    this.#db = db;
    this.#box = serverBox;
  }

  async create(endpoint: NewWebhookEndpoint): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const secret = newSigningSecret();
    await this.#db
      .insertInto('webhook_endpoints')
      .values({
        id: endpoint.id,
        account_id: endpoint.accountId,
        url: endpoint.url,
        events: listToColumn(endpoint.events)!,
        secret_sealed: this.#box.seal(secret, endpoint.id),
        secret_last4: secret.slice(-4),
        previous_secret_sealed: null,
        previous_secret_until: null,
        created_at: toIso(endpoint.createdAt),
        disabled_at: null,
        disabled_reason: null,
        deleted_at: null,
      })
      .execute();
    return {
      endpoint: {
        ...endpoint,
        createdAt: toIso(endpoint.createdAt),
        secretLast4: secret.slice(-4),
        disabledAt: null,
        disabledReason: null,
      },
      secret,
    };
  }

  async get(id: string, accountId: string): Promise<WebhookEndpoint | null> {
    const row = await this.#db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? endpointOf(row) : null;
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.#db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(endpointOf);
  }

  async delete(id: string, accountId: string, at: string): Promise<boolean> {
    // The row stays (batches may name it, and their deliveries must find it gone rather than missing); the sealed
    // secrets are overwritten so nothing can sign for it again.
    const result = await this.#db
      .updateTable('webhook_endpoints')
      .set({
        deleted_at: toIso(at),
        secret_sealed: new Uint8Array(0),
        previous_secret_sealed: null,
        previous_secret_until: null,
      })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async rotate(
    id: string,
    accountId: string,
    at: string,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
    const secret = newSigningSecret();
    const until = new Date(Date.parse(toIso(at)) + rotationGraceMs).toISOString();
    // One statement: SET reads the row's old values, so the current sealed secret moves to `previous` (same row, same
    // AAD) atomically with the new one replacing it, whatever else rotates at once.
    const updated = await this.#db
      .updateTable('webhook_endpoints')
      .set((eb) => ({
        previous_secret_sealed: eb.ref('secret_sealed'),
        previous_secret_until: until,
        secret_sealed: this.#box.seal(secret, id),
        secret_last4: secret.slice(-4),
      }))
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return updated ? { endpoint: endpointOf(updated), secret } : null;
  }

  async signingSecrets(id: string, now: string): Promise<string[]> {
    const row = await this.#db
      .selectFrom('webhook_endpoints')
      .select(['secret_sealed', 'previous_secret_sealed', 'previous_secret_until'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return [];
    const secrets = [this.#box.open(row.secret_sealed, id).toString('utf8')];
    const until = isoOrNull(row.previous_secret_until);
    if (row.previous_secret_sealed && until !== null && Date.parse(until) > Date.parse(toIso(now))) {
      secrets.push(this.#box.open(row.previous_secret_sealed, id).toString('utf8'));
    }
    return secrets;
  }

  async disable(id: string, reason: string, at: string): Promise<void> {
    await this.#db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: toIso(at), disabled_reason: reason })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .execute();
  }
}

function endpointOf(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: listOf<EventType>(row.events) ?? [],
    secretLast4: row.secret_last4,
    createdAt: isoOf(row.created_at),
    disabledAt: isoOrNull(row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}
