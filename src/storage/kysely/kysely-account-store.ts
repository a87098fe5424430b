// AccountStore over Kysely: the same queries for SQLite and PostgreSQL.
import type { Kysely, Selectable } from 'kysely';
import type { AccountRecord, AccountStore, PlanId } from '../storage.js';
import type { AccountsTable, KumoDatabase } from './schema.js';
import { isoOf, toIso } from './columns.js';
import { PreparedQuery } from './prepared.js';

type AccountWithApproval = Selectable<AccountsTable> & { site_id: string | null };

function toRecord(row: Selectable<AccountsTable>, approvedSites: string[]): AccountRecord {
  return {
    id: row.id,
    plan: row.plan as PlanId,
    overageCapCredits: row.overage_cap_credits,
    createdAt: isoOf(row.created_at),
    approvedSites: approvedSites.sort(),
  };
}

export class KyselyAccountStore implements AccountStore {
  readonly #db: Kysely<KumoDatabase>;
  /** Runs on every authenticated call. */
  readonly #withApprovals: PreparedQuery<AccountWithApproval, [string]>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
    this.#withApprovals = new PreparedQuery(1, (id) =>
      db
        .selectFrom('accounts')
        .leftJoin('review_approvals', (join) =>
          join.onRef('review_approvals.account_id', '=', 'accounts.id').on('review_approvals.revoked_at', 'is', null),
        )
        .select([
          'accounts.id',
          'accounts.plan',
          'accounts.overage_cap_credits',
          'accounts.created_at',
          'review_approvals.site_id',
        ])
        .where('accounts.id', '=', id),
    );
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

  /**
   * The account with the sites it is approved for, in one query (it runs on every authenticated call): one row per
   * approval in force, or one row with a null site when there is none. Never cached, so a revocation holds at once.
   */
  async get(id: string): Promise<AccountRecord | null> {
    const { rows } = await this.#withApprovals.execute(this.#db, id);
    const first = rows[0];
    if (!first) return null;
    const sites = rows.flatMap((row) => (row.site_id === null ? [] : [row.site_id]));
    return toRecord(first, sites);
  }

  async update(id: string, changes: Partial<Pick<AccountRecord, 'plan' | 'overageCapCredits'>>): Promise<void> {
    const set: { plan?: string; overage_cap_credits?: number } = {};
    if (changes.plan !== undefined) set.plan = changes.plan;
    if (changes.overageCapCredits !== undefined) set.overage_cap_credits = changes.overageCapCredits;
    if (Object.keys(set).length === 0) return;
    await this.#db.updateTable('accounts').set(set).where('id', '=', id).execute();
  }
}
