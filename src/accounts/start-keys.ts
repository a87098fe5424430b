// At start: makes sure the bootstrap key exists, and tells the operator what keys there are to call the API with.
import type { Logger } from 'pino';
import type { Accounts } from './accounts-service.js';
import type { PlanId } from '../storage/storage.js';

/** The CLI command that makes a first key (src/cli/keys-command.ts, `kumo keys create`), run from the checkout. */
export const createKeyCommand = 'npm run -s kumo -- keys create --plan free';

export type StartKeys =
  | { kind: 'bootstrap'; created: boolean; accountId: string; keyId: string; plan: PlanId }
  | { kind: 'none' }
  | { kind: 'existing' };

/**
 * One line that says whether the bootstrap key's account was made now or already there, or, with no bootstrap key
 * and no active key at all, how to make one: a fresh install otherwise starts and answers every call 401 without a
 * word about why. Ids only, never a secret.
 */
export async function ensureStartKeys(
  accounts: Accounts,
  bootstrap: { key: string; plan: PlanId } | null,
  logger: Logger,
): Promise<StartKeys> {
  if (bootstrap) {
    const ensured = await accounts.ensureBootstrapKey(bootstrap.key, bootstrap.plan);
    const outcome = { kind: 'bootstrap' as const, ...ensured, plan: bootstrap.plan };
    logger.info(
      {
        bootstrap: {
          created: ensured.created,
          account_id: ensured.accountId,
          key_id: ensured.keyId,
          plan: bootstrap.plan,
        },
      },
      ensured.created
        ? `bootstrap key: account ${ensured.accountId} created on the ${bootstrap.plan} plan (key ${ensured.keyId})`
        : `bootstrap key: account ${ensured.accountId} already exists, on the ${bootstrap.plan} plan (key ${ensured.keyId})`,
    );
    return outcome;
  }
  // Read once per start; the keys' monthly usage (what listKeys adds) is not needed to know whether one works.
  if (await accounts.anyActiveKey()) return { kind: 'existing' };
  logger.warn(
    { api_keys: 0 },
    `no API key exists yet: create one with \`${createKeyCommand}\` (same KUMO_DATA_DIR / DATABASE_URL as this server), or set KUMO_BOOTSTRAP_KEY`,
  );
  return { kind: 'none' };
}
