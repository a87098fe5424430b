// AccountStore over Kysely: the same queries for SQLite and PostgreSQL.
import type { Kysely, Selectable } from 'kysely';
import type { AccountRecord, AccountStore, PlanId } from '../storage.js';
import type { AccountsTable, KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';

function toRecord(row: Selectable<AccountsTable>): AccountRecord {
  return {
    id: row.id,
    plan: row.plan as PlanId,
    overageCapCredits: row.overage_cap_credits,
    createdAt: isoOf(row.created_at),
  };
}

export class KyselyAccountStore implements AccountStore {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async create(account: AccountRecord): Promise<void> {
    await this.#db
      .insertInto('accounts')
      .values({
        id: account.id,
        plan: account.plan,
        overage_cap_credits: account.overageCapCredits,
        created_at: toIso(account.createdAt),
      })
      .execute();
  }

  async get(id: string): Promise<AccountRecord | null> {
    const row = await this.#db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async update(id: string, changes: Partial<Pick<AccountRecord, 'plan' | 'overageCapCredits'>>): Promise<void> {
    const set: { plan?: string; overage_cap_credits?: number } = {};
    if (changes.plan !== undefined) set.plan = changes.plan;
    if (changes.overageCapCredits !== undefined) set.overage_cap_credits = changes.overageCapCredits;
    if (Object.keys(set).length === 0) return;
    await this.#db.updateTable('accounts').set(set).where('id', '=', id).execute();
  }
}
