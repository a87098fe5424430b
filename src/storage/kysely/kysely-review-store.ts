// ReviewApprovalStore over Kysely: operators' approvals of accounts for sites' reviewed page types, with history.
import type { Kysely, Selectable } from 'kysely';
import type { ReviewApprovalRecord, ReviewApprovalStore } from '../storage.js';
import type { KumoDatabase, ReviewApprovalsTable } from './schema.js';
import { isoOf, isoOrNull, toIso } from './columns.js';

function toRecord(row: Selectable<ReviewApprovalsTable>): ReviewApprovalRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    siteId: row.site_id,
    approvedBy: row.approved_by,
    approvedAt: isoOf(row.approved_at),
    revokedBy: row.revoked_by,
    revokedAt: isoOrNull(row.revoked_at),
  };
}

export class KyselyReviewStore implements ReviewApprovalStore {
  readonly #db: Kysely<KumoDatabase>;

  constructor(db: Kysely<KumoDatabase>) {
    this.#db = db;
  }

  async approve(
    approval: Pick<ReviewApprovalRecord, 'id' | 'accountId' | 'siteId' | 'approvedBy' | 'approvedAt'>,
  ): Promise<{ approval: ReviewApprovalRecord; created: boolean }> {
    // The partial unique index (one approval in force per account and site) settles races: the loser inserts nothing
    // and reads the winner's row.
    const inserted = await this.#db
      .insertInto('review_approvals')
      .values({
        id: approval.id,
        account_id: approval.accountId,
        site_id: approval.siteId,
        approved_by: approval.approvedBy,
        approved_at: toIso(approval.approvedAt),
        revoked_by: null,
        revoked_at: null,
      })
      .onConflict((oc) => oc.columns(['account_id', 'site_id']).where('revoked_at', 'is', null).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { approval: toRecord(inserted), created: true };
    const existing = await this.#inForce(approval.accountId, approval.siteId);
    // Revoked between our insert and this read: the caller may simply try again.
    if (!existing) throw new Error('the approval in force changed meanwhile; try again');
    return { approval: existing, created: false };
  }

  async revoke(request: {
    accountId: string;
    siteId: string;
    revokedBy: string;
    revokedAt: string;
  }): Promise<ReviewApprovalRecord | null> {
    const row = await this.#db
      .updateTable('review_approvals')
      .set({ revoked_by: request.revokedBy, revoked_at: toIso(request.revokedAt) })
      .where('account_id', '=', request.accountId)
      .where('site_id', '=', request.siteId)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(filter: { accountId?: string; siteId?: string } = {}): Promise<ReviewApprovalRecord[]> {
    let query = this.#db.selectFrom('review_approvals').selectAll();
    if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
    if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
    // Ids are time-prefixed, so id order is the order the approvals were made.
    const rows = await query.orderBy('id').execute();
    return rows.map(toRecord);
  }

  async #inForce(accountId: string, siteId: string): Promise<ReviewApprovalRecord | null> {
    const row = await this.#db
      .selectFrom('review_approvals')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('site_id', '=', siteId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }
}
