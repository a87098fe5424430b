// `kumo keys`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';
import { operations, outputs, plans } from './account-options.js';

export const keysHelp: CommandHelp = {
  name: 'keys',
  summary: 'create, list, revoke and rotate API keys (the operator’s, on the server’s storage)',
  usage: [
    `kumo keys create [--plan free|starter|growth] [--overage-cap N] [--sites a,b] [--operations ${operations.join(',')}]
     [--outputs ${outputs.join(',')}] [--credits N] [--concurrency N] [--label NAME] [--json | --key-only]`,
    `kumo keys create --account ID [--sites a,b] [--operations …] [--outputs …] [--credits N] [--concurrency N]
     [--label NAME] [--json | --key-only]`,
    'kumo keys list [--account ID] [--json]   (each key with its label and used_this_month)',
    'kumo keys revoke KEY_ID',
    'kumo keys rotate KEY_ID [--json | --key-only]',
  ],
  options: [
    ['--plan PLAN', `create: a new account on this plan (${plans.join(', ')}; default free)`],
    ['--overage-cap N', 'create: the new account’s overage cap in credits (starter and growth)'],
    ['--account ID', 'create: a further key of this account; list: only its keys'],
    ['--sites a,b', 'create: narrow the key to these sites'],
    ['--operations a,b', `create: narrow the key to these operations (${operations.join(', ')})`],
    ['--outputs a,b', `create: narrow the key to these outputs (${outputs.join(', ')})`],
    ['--credits N', 'create: the key’s own monthly credit limit'],
    ['--concurrency N', 'create: the key’s own concurrency limit (never above the plan’s)'],
    ['--label NAME', 'create: your name for the key (1–64 characters), shown by list and the console'],
    ['--json', 'create: print {"key","key_id","account_id"} as JSON (list, revoke and rotate always print JSON)'],
    ['--key-only', 'create, rotate: print only the key on stdout (its ids go to stderr), for KUMO_KEY=$(…)'],
  ],
  examples: [
    'kumo keys create --plan starter --overage-cap 1000 --sites ikebe_gakki --json',
    'export KUMO_KEY=$(kumo keys create --plan free --key-only)',
  ],
};
