// `kumo accounts approve | revoke-approval | approvals`: the operator's review approvals (high-risk page types).
import type { Logger } from 'pino';
import { Accounts, type ReviewedSite } from '../accounts/accounts-service.js';
import type { ReviewApprovalRecord, Storage } from '../storage/storage.js';
import { parse, UsageError } from './args.js';

export const reviewApprovalActions = ['approve', 'revoke-approval', 'approvals'] as const;
export type ReviewApprovalAction = (typeof reviewApprovalActions)[number];

export function isReviewApprovalAction(action: string | undefined): action is ReviewApprovalAction {
  return (reviewApprovalActions as readonly (string | undefined)[]).includes(action);
}

export interface ReviewApprovalDeps {
  /** The site catalogue: approvals are only for its sites with a page type under review. */
  sites: readonly ReviewedSite[];
  /** Opened only once the command line is known to be good, so a mistyped command touches nothing. */
  connect(): Promise<{ storage: Storage; logger: Logger }>;
  write(text: string): void;
}

/** What the operator sees of an approval: no secrets exist in it, only ids, names and times. */
function shown(approval: ReviewApprovalRecord) {
  return {
    approval_id: approval.id,
    account_id: approval.accountId,
    site_id: approval.siteId,
    approved_by: approval.approvedBy,
    approved_at: approval.approvedAt,
    revoked_by: approval.revokedBy,
    revoked_at: approval.revokedAt,
    in_force: approval.revokedAt === null,
  };
}

function reviewedPageTypes(site: ReviewedSite) {
  return site.pageTypes.flatMap((entry) =>
    entry.review ? [{ page_type: entry.pageType, reason: entry.review.reason }] : [],
  );
}

export async function reviewApprovals(
  action: ReviewApprovalAction,
  args: string[],
  deps: ReviewApprovalDeps,
): Promise<void> {
  const { values, positionals } = parse(
    args,
    {
      account: { type: 'string' },
      site: { type: 'string' },
      by: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const json = values.json;
  let site: ReviewedSite | null = null;
  if (action === 'approvals') {
    if (values.by !== undefined) throw new UsageError('--by does not apply to accounts approvals');
  } else {
    if (values.account === undefined || values.site === undefined || values.by === undefined)
      throw new UsageError(`kumo accounts ${action} --account ID --site SITE_ID --by NAME [--json]`);
    if (action === 'approve') {
      site = deps.sites.find((s) => s.id === values.site) ?? null;
      if (!site)
        throw new UsageError(`--site: unknown site ${values.site} (one of ${deps.sites.map((s) => s.id).join(', ')})`);
      if (reviewedPageTypes(site).length === 0) {
        const reviewed = deps.sites.filter((s) => reviewedPageTypes(s).length > 0).map((s) => s.id);
        throw new UsageError(
          `${site.id} has no page type under review; its pages need no approval` +
            (reviewed.length > 0 ? ` (sites under review: ${reviewed.join(', ')})` : ''),
        );
      }
    }
  }

  const { storage, logger } = await deps.connect();
  try {
    const accounts = new Accounts(storage);
    if (action === 'approvals') {
      const history = await accounts.listReviews({
        ...(values.account !== undefined ? { accountId: values.account } : {}),
        ...(values.site !== undefined ? { siteId: values.site } : {}),
      });
      deps.write(`${JSON.stringify(history.map(shown), null, 2)}\n`);
      return;
    }
    if (action === 'approve') {
      const { approval, created } = await accounts.approveReview(values.account!, site!, values.by!);
      const page_types = reviewedPageTypes(site!);
      // Who allowed which account what, and when: the operator's audit trail beside the row kept in the database.
      logger.info(
        {
          event: 'review_approval',
          approval_id: approval.id,
          account_id: approval.accountId,
          site_id: approval.siteId,
          page_types: page_types.map((p) => p.page_type),
          approved_by: approval.approvedBy,
          approved_at: approval.approvedAt,
          created,
        },
        created ? 'review approval granted' : 'review approval already in force',
      );
      const out = { ...shown(approval), created, page_types };
      if (json) deps.write(`${JSON.stringify(out, null, 2)}\n`);
      else
        deps.write(
          `approval_id ${out.approval_id}\naccount_id ${out.account_id}\nsite_id ${out.site_id}\n` +
            `approved_by ${out.approved_by}\napproved_at ${out.approved_at}\n` +
            `page_types ${page_types.map((p) => p.page_type).join(',')}\n` +
            (created ? '' : '(already in force; nothing changed)\n'),
        );
      return;
    }
    const revoked = await accounts.revokeReview(values.account!, values.site!, values.by!);
    logger.info(
      {
        event: 'review_approval_revoked',
        approval_id: revoked.id,
        account_id: revoked.accountId,
        site_id: revoked.siteId,
        approved_by: revoked.approvedBy,
        approved_at: revoked.approvedAt,
        revoked_by: revoked.revokedBy,
        revoked_at: revoked.revokedAt,
      },
      'review approval revoked',
    );
    const out = shown(revoked);
    if (json) deps.write(`${JSON.stringify(out, null, 2)}\n`);
    else
      deps.write(
        `approval_id ${out.approval_id}\naccount_id ${out.account_id}\nsite_id ${out.site_id}\n` +
          `revoked_by ${out.revoked_by}\nrevoked_at ${out.revoked_at}\n`,
      );
  } finally {
    await storage.close();
  }
}
