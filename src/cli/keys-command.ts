// `kumo keys`: create, list, revoke and rotate API keys, the operator's tool on the server's storage.
import { loadConfigFromProcess } from '../config.js';
import { Accounts, type CreateKeyOptions } from '../accounts/accounts-service.js';
import { siteCatalogue } from '../sites/registry.js';
import { int, list, parse, print, snakeCaseKeys, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { keysHelp } from './keys-help.js';
import { operations, outputs, plan } from './account-options.js';

export async function keys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parse(
    rest,
    {
      plan: { type: 'string' },
      'overage-cap': { type: 'string' },
      account: { type: 'string' },
      sites: { type: 'string' },
      operations: { type: 'string' },
      outputs: { type: 'string' },
      credits: { type: 'string' },
      concurrency: { type: 'string' },
      label: { type: 'string' },
      json: { type: 'boolean', default: false },
      // No default: an option given where it does not apply must stay visible to the check below.
      'key-only': { type: 'boolean' },
    },
    true,
  );
  if (values.json && values['key-only']) throw new UsageError('--json and --key-only are exclusive');
  // Everything is checked before storage is opened, so a mistyped command changes nothing.
  let create: CreateKeyOptions | null = null;
  if (action === 'create') {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (values.account !== undefined && (values.plan !== undefined || values['overage-cap'] !== undefined))
      throw new UsageError(
        '--plan and --overage-cap are for a new account; change an existing one with ' +
          '`kumo accounts set --account ID --plan … --overage-cap N`',
      );
    const sites = list(
      values.sites,
      'sites',
      siteCatalogue.map((site) => site.id),
    );
    const ops = list(values.operations, 'operations', operations);
    const outs = list(values.outputs, 'outputs', outputs);
    const credits = int(values.credits, 'credits');
    const concurrency = int(values.concurrency, 'concurrency', 1);
    const overage = int(values['overage-cap'], 'overage-cap');
    create = {
      ...(values.account !== undefined ? { accountId: values.account } : { plan: plan(values.plan) ?? 'free' }),
      ...(overage !== undefined ? { overageCapCredits: overage } : {}),
      ...(sites ? { sites } : {}),
      ...(ops ? { operations: ops } : {}),
      ...(outs ? { outputs: outs } : {}),
      ...(credits !== undefined ? { monthlyCreditLimit: credits } : {}),
      ...(concurrency !== undefined ? { concurrencyLimit: concurrency } : {}),
      ...(values.label !== undefined ? { label: values.label } : {}),
    };
  } else if (action === 'list' || action === 'revoke' || action === 'rotate') {
    const allowed = action === 'list' ? ['account', 'json'] : action === 'rotate' ? ['json', 'key-only'] : ['json'];
    const extra = Object.keys(values).find((name) => !allowed.includes(name));
    if (extra) throw new UsageError(`--${extra} does not apply to keys ${action}`);
    if (action === 'list' && positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (action !== 'list' && positionals.length !== 1) throw new UsageError(`kumo keys ${action} KEY_ID`);
  } else {
    throw new UsageError(commandHelpText(keysHelp));
  }

  // Loaded here so the reviewer's tools (normalize, extract, sites) need no storage backend at all.
  const { openStorage } = await import('../open-storage.js');
  const storage = await openStorage(loadConfigFromProcess());
  try {
    const accounts = new Accounts(storage);
    if (action === 'create') {
      const created = await accounts.createKey(create!);
      const out = { key: created.key, key_id: created.keyId, account_id: created.accountId };
      if (values['key-only']) printKeyOnly(out);
      else if (values.json) print(out);
      else
        process.stdout.write(
          `key ${out.key}\nkey_id ${out.key_id}\naccount_id ${out.account_id}\n(the key is shown once; store it now)\n`,
        );
      return;
    }
    const id = positionals[0]!;
    switch (action) {
      case 'list':
        return print(snakeCaseKeys(await accounts.listKeys(values.account)));
      case 'revoke': {
        const ok = await accounts.revokeKey(id);
        if (!ok) throw new UsageError(`no active key ${id}`);
        return print({ key_id: id, revoked: true });
      }
      case 'rotate': {
        const rotated = await accounts.rotateKey(id);
        const out = { key: rotated.key, key_id: rotated.keyId, account_id: rotated.accountId, replaces: id };
        return values['key-only'] ? printKeyOnly(out) : print(out);
      }
    }
  } finally {
    await storage.close();
  }
}

/** The secret alone on stdout, so `$(…)` captures exactly it; what else the operator should see goes to stderr. */
function printKeyOnly(out: { key: string; key_id: string; account_id: string; replaces?: string }): void {
  process.stdout.write(`${out.key}\n`);
  process.stderr.write(
    `key_id ${out.key_id}\naccount_id ${out.account_id}\n` +
      (out.replaces !== undefined ? `replaces ${out.replaces}\n` : '') +
      '(the key is shown once; store it now)\n',
  );
}
