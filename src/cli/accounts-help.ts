// `kumo accounts`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';
import { plans } from './account-options.js';

/** The approval forms of `kumo accounts` (the help below adds `accounts set`). */
const reviewApprovalsUsage: readonly string[] = [
  'kumo accounts approve --account ID --site SITE_ID --by NAME [--json]',
  'kumo accounts revoke-approval --account ID --site SITE_ID --by NAME [--json]',
  `kumo accounts approvals [--account ID] [--site SITE_ID]
   (the history, in force and revoked)`,
];

const reviewApprovalsOptions: readonly (readonly [string, string])[] = [
  ['--site SITE_ID', 'approve, revoke-approval, approvals: a site with a page type under review'],
  ['--by NAME', 'approve, revoke-approval: who decided, kept with the approval'],
];

export const accountsHelp: CommandHelp = {
  name: 'accounts',
  summary: 'change an account’s plan; approve accounts for the sites under review',
  usage: [
    'kumo accounts set --account ID [--plan free|starter|growth] [--overage-cap N] [--json]',
    ...reviewApprovalsUsage,
  ],
  options: [
    ['--account ID', 'the account (approvals: only its history)'],
    ['--plan PLAN', `set: the new plan (${plans.join(', ')})`],
    ['--overage-cap N', 'set: the new overage cap in credits'],
    ...reviewApprovalsOptions,
    ['--json', 'set, approve, revoke-approval: print the result as JSON (approvals always does)'],
  ],
  examples: [
    'kumo accounts set --account acc_… --plan growth --overage-cap 5000 --json',
    'kumo accounts approve --account acc_… --site mercari --by "A. Operator" --json',
  ],
};
