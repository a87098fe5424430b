// An account and an unnarrowed key of it, written straight into a storage: the setup of store-level tests.
import { newId } from '../../src/accounts/ids.js';
import type { AccountRecord, KeyRecord, Operation, PlanId, Storage } from '../../src/storage/storage.js';

export async function createAccountWithKey(
  storage: Pick<Storage, 'accounts' | 'keys'>,
  options: { plan?: PlanId; operations?: Operation[] | null; createdAt?: string } = {},
): Promise<{ account: AccountRecord; key: KeyRecord }> {
  const createdAt = options.createdAt ?? new Date().toISOString();
  const account: AccountRecord = { id: newId('acc'), plan: options.plan ?? 'growth', overageCapCredits: 0, createdAt };
  await storage.accounts.create(account);
  const keyId = newId('key');
  const key: KeyRecord = {
    id: keyId,
    lineageId: keyId,
    accountId: account.id,
    displayPrefix: 'kumo_live_abcd',
    hash: newId('hash').toLowerCase(),
    sites: null,
    operations: options.operations ?? null,
    outputs: null,
    monthlyCreditLimit: null,
    concurrencyLimit: null,
    createdAt,
    revokedAt: null,
    expiresAt: null,
  };
  await storage.keys.create(key);
  return { account, key };
}
