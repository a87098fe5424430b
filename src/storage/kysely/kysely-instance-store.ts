// InstanceStore over Kysely: the heartbeat rows that tell live server instances from dead ones.
import type { Kysely } from 'kysely';
import type { InstanceStore } from '../storage.js';
import type { KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';

export class KyselyInstanceStore implements InstanceStore {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async heartbeat(instanceId: string, at: string): Promise<void> {
    const iso = toIso(at);
    await this.#db
      .insertInto('instances')
      .values({ id: instanceId, heartbeat_at: iso, started_at: iso })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: iso }))
      .execute();
  }

  async lastHeartbeat(instanceId: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom('instances')
      .select('heartbeat_at')
      .where('id', '=', instanceId)
      .executeTakeFirst();
    return row ? isoOf(row.heartbeat_at) : null;
  }

  async remove(instanceId: string): Promise<void> {
    await this.#db.deleteFrom('instances').where('id', '=', instanceId).execute();
  }
}
