// `kumo accounts`: an account's plan and overage cap, and the review approvals (review-approvals.ts).
import { pino } from 'pino';
import { loadConfigFromProcess } from '../config.js';
import { Accounts } from '../accounts/accounts-service.js';
import { siteCatalogue } from '../sites/registry.js';
import { createLogger } from '../logger.js';
import { int, parse, print, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { accountsHelp } from './accounts-help.js';
import { plan } from './account-options.js';
import { isReviewApprovalAction, reviewApprovals } from './review-approvals.js';

/**
 * The operator's plan change (`kumo accounts set --account ID [--plan P] [--overage-cap N]`) and review approvals
 * (`kumo accounts approve | revoke-approval | approvals`, in review-approvals.ts).
 */
export async function accountsCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (isReviewApprovalAction(action))
    return reviewApprovals(action, rest, {
      sites: siteCatalogue,
      connect: async () => {
        const config = loadConfigFromProcess();
        const { openStorage } = await import('../open-storage.js');
        // Stderr, so the JSON answer on stdout stays parseable; written at once, before the process exits.
        const logger = createLogger(config.log.level, pino.destination({ dest: 2, sync: true }));
        return { storage: await openStorage(config, logger), logger };
      },
      write: (text) => process.stdout.write(text),
    });
  if (action !== 'set') throw new UsageError(commandHelpText(accountsHelp));
  const { values, positionals } = parse(
    rest,
    {
      account: { type: 'string' },
      plan: { type: 'string' },
      'overage-cap': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (values.account === undefined)
    throw new UsageError('kumo accounts set --account ID [--plan free|starter|growth] [--overage-cap N]');
  const changes = {
    ...(values.plan !== undefined ? { plan: plan(values.plan) } : {}),
    ...(values['overage-cap'] !== undefined ? { overageCapCredits: int(values['overage-cap'], 'overage-cap') } : {}),
  };
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give --plan and/or --overage-cap');

  const { openStorage } = await import('../open-storage.js');
  const storage = await openStorage(loadConfigFromProcess());
  try {
    const account = await new Accounts(storage).changePlan(values.account, changes);
    const out = { account_id: account.id, plan: account.plan, overage_cap: account.overageCapCredits };
    if (values.json) print(out);
    else process.stdout.write(`account_id ${out.account_id}\nplan ${out.plan}\noverage_cap ${out.overage_cap}\n`);
  } finally {
    await storage.close();
  }
}
