// Accounts and their API keys: create, list, revoke, rotate, authenticate, the operator's bootstrap key, and the
// operator's review approvals (which accounts may have a site's reviewed page types).
import type {
  AccountRecord,
  KeyNarrowing,
  KeyRecord,
  Operation,
  Output,
  PlanId,
  ReviewApprovalRecord,
  Storage,
} from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import type { Site } from '../sites/site.js';
import { displayPrefix, generateKey, hashKey, isWellFormedKey } from './api-keys.js';
import { newId } from './ids.js';
import { periodOf } from './period.js';
import { creditLimitsOf, isPlanId, planOf, type CreditLimits } from './plans.js';
import type { AccountField, AccountRefusal } from './account-refusal.js';

/**
 * A request the operator made that cannot be honoured (bad option, unknown id): `refusal` says why as a code with its
 * values (for fronts that word it themselves, like the console), the message says it in English (CLI, logs).
 */
export class AccountError extends Error {
  constructor(
    readonly refusal: AccountRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

export interface CreateAccountOptions {
  plan: PlanId;
  /** Starter and Growth only; default 0 (a hard stop at the allowance). */
  overageCapCredits?: number;
}

export interface CreateKeyOptions {
  /** An existing account; without it a new account is created on `plan`. */
  accountId?: string;
  /** Plan of the new account (default `free`); with `accountId`, must match the account's plan if given. */
  plan?: PlanId;
  /** Overage cap of the new account; ignored with `accountId`. */
  overageCapCredits?: number;
  sites?: string[];
  operations?: Operation[];
  outputs?: Output[];
  monthlyCreditLimit?: number;
  /** Never above the plan's concurrency. */
  concurrencyLimit?: number;
  expiresAt?: Date | string;
  /** The owner's name for the key: 1–64 characters, no control characters (kept through rotations). */
  label?: string;
}

export interface CreatedKey {
  /** The secret. Returned once, here; only its hash is stored. */
  key: string;
  keyId: string;
  accountId: string;
}

/** What listings show of a key: everything but the secret and its hash. */
/** A key as listings show it: everything but the hash, plus whether it still works. */
export type KeySummary = Omit<KeyRecord, 'hash'> & {
  status: 'active' | 'revoked' | 'expired';
  /** Credits its line of rotations spent this month (Asia/Tokyo), which its monthly credit limit is held to. */
  usedThisMonth: number;
};

export interface AuthenticatedCaller {
  account: AccountRecord;
  key: KeyRecord;
}

/** What approving needs to know of a site: its id and which page types are under review (and why). */
export type ReviewedSite = Pick<Site, 'id' | 'name'> & {
  pageTypes: readonly { pageType: string; review?: { reason: string } }[];
};

/** The result of an approval: the approval in force, and whether this call made it (false: it was already there). */
export interface ReviewApprovalOutcome {
  approval: ReviewApprovalRecord;
  created: boolean;
}

const operations = allOperations;
/** An operator's name as recorded: one line of printable text, not an essay and not a secret. */
const operatorNameMax = 100;
const outputs: readonly Output[] = ['json', 'html', 'artifact'];
// The same characters and length the HTTP layer accepts after `Bearer `, so a bootstrap key can be presented.
const presentableSecret = /^[\x21-\x7e]{16,256}$/;

function narrowing<T extends string>(name: AccountField, value: T[] | undefined, allowed?: readonly T[]): T[] | null {
  if (value === undefined) return null;
  // An empty list would be a key that may do nothing: almost certainly a mistake, so refuse it.
  if (value.length === 0)
    throw new AccountError(
      { code: 'empty_narrowing', field: name },
      `${name} must name at least one value; omit it for no narrowing`,
    );
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '')
      throw new AccountError({ code: 'empty_value', field: name }, `${name} has an empty value`);
    if (allowed && !allowed.includes(item)) {
      throw new AccountError(
        { code: 'unknown_value', field: name },
        `${name}: unknown value ${item} (allowed: ${allowed.join(', ')})`,
      );
    }
  }
  return [...new Set(value)];
}

function wholeNumber(name: AccountField, value: number | undefined, min: number): number | null {
  if (value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < min)
    throw new AccountError({ code: 'not_whole_number', field: name }, `${name} must be a whole number ≥ ${min}`);
  return value;
}

function operatorName(value: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') throw new AccountError({ code: 'operator_name_invalid' }, "the operator's name (--by) is required");
  if (name.length > operatorNameMax)
    throw new AccountError({ code: 'operator_name_invalid' }, `the operator's name is longer than ${operatorNameMax}`);
  if (/\p{Cc}/u.test(name))
    throw new AccountError({ code: 'operator_name_invalid' }, "the operator's name has a control character");
  return name;
}

function statusOf(key: KeyRecord, now: Date): KeySummary['status'] {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

export class Accounts {
  readonly #storage: Storage;
  readonly #clock: () => Date;
  /** Hashes of bootstrap secrets ensured by this process: the only keys not in our format we look up. */
  readonly #bootstrapHashes = new Set<string>();

  constructor(storage: Storage, options: { clock?: () => Date } = {}) {
    this.#storage = storage;
    this.#clock = options.clock ?? (() => new Date());
  }

  async createAccount(options: CreateAccountOptions): Promise<AccountRecord> {
    const account = this.#newAccount(options);
    await this.#storage.accounts.create(account);
    return account;
  }

  async createKey(options: CreateKeyOptions = {}): Promise<CreatedKey> {
    let account: AccountRecord | null = null;
    let plan: PlanId;
    if (options.accountId !== undefined) {
      account = await this.#storage.accounts.get(options.accountId);
      if (!account) throw new AccountError({ code: 'no_account' }, `no account ${options.accountId}`);
      if (options.plan !== undefined && options.plan !== account.plan) {
        throw new AccountError(
          { code: 'plan_mismatch' },
          `account ${account.id} is on the ${account.plan} plan, not ${options.plan}`,
        );
      }
      plan = account.plan;
    } else {
      plan = options.plan ?? 'free';
    }
    // Everything is checked before anything is written, so a refused key leaves no orphan account behind.
    const newAccount = account ? null : this.#newAccount({ plan, overageCapCredits: options.overageCapCredits });
    const secret = generateKey();
    const key = this.#newKey(secret, (account ?? newAccount)!, options);
    if (newAccount) await this.#storage.accounts.create(newAccount);
    await this.#storage.keys.create(key);
    return { key: secret, keyId: key.id, accountId: key.accountId };
  }

  /** Whether any account has a key that works now: no listing, no usage read (the start-up check). */
  async anyActiveKey(): Promise<boolean> {
    const now = this.#clock();
    return (await this.#storage.keys.list()).some((key) => statusOf(key, now) === 'active');
  }

  async listKeys(accountId?: string): Promise<KeySummary[]> {
    const now = this.#clock();
    const keys = await this.#storage.keys.list(accountId);
    const period = periodOf(now);
    const used = await Promise.all(keys.map((key) => this.#storage.ledger.keyUsage(key.id, period)));
    return keys.map((key, i) => ({
      id: key.id,
      accountId: key.accountId,
      displayPrefix: key.displayPrefix,
      status: statusOf(key, now),
      sites: key.sites,
      operations: key.operations,
      outputs: key.outputs,
      monthlyCreditLimit: key.monthlyCreditLimit,
      concurrencyLimit: key.concurrencyLimit,
      createdAt: key.createdAt,
      revokedAt: key.revokedAt,
      expiresAt: key.expiresAt,
      ...(key.label === undefined ? {} : { label: key.label }),
      usedThisMonth: used[i]!.used,
    }));
  }

  /** False when there is no such key or it was already revoked. */
  async revokeKey(keyId: string): Promise<boolean> {
    return this.#storage.keys.revoke(keyId, this.#clock().toISOString());
  }

  /**
   * Narrows an active key further, effective from its next call: a list may only lose values (or be set where there
   * was none), a limit may only fall (or be set where there was none, concurrency never above the plan's). Omitted
   * fields stay as they are. Refuses anything that would widen the key.
   */
  async narrowKey(
    keyId: string,
    changes: Pick<CreateKeyOptions, 'sites' | 'operations' | 'outputs' | 'monthlyCreditLimit' | 'concurrencyLimit'>,
  ): Promise<KeySummary> {
    const key = await this.#storage.keys.get(keyId);
    if (!key || statusOf(key, this.#clock()) !== 'active')
      throw new AccountError({ code: 'key_not_active' }, `no active key ${keyId}`);
    const account = await this.#storage.accounts.get(key.accountId);
    if (!account) throw new AccountError({ code: 'no_account' }, `no account ${key.accountId}`);
    const within = <T extends string>(name: AccountField, current: T[] | null, next: T[] | null): T[] | null => {
      if (next === null) return current;
      const outside = current === null ? [] : next.filter((value) => !current.includes(value));
      if (outside.length > 0)
        throw new AccountError(
          { code: 'may_only_narrow', field: name, values: outside },
          `${name} may only narrow: ${outside.join(', ')} is not allowed now`,
        );
      return next;
    };
    const below = (name: AccountField, current: number | null, next: number | null): number | null => {
      if (next === null) return current;
      if (current !== null && next > current)
        throw new AccountError(
          { code: 'may_only_fall', field: name, now: current },
          `${name} may only fall (now ${current})`,
        );
      return next;
    };
    const plan = planOf(account.plan);
    const concurrency = wholeNumber('concurrencyLimit', changes.concurrencyLimit, 1);
    if (concurrency !== null && concurrency > plan.concurrency) {
      throw new AccountError(
        { code: 'concurrency_above_plan', limit: concurrency, plan: plan.id, max: plan.concurrency },
        `concurrency limit ${concurrency} is above the ${plan.id} plan's ${plan.concurrency}`,
      );
    }
    const narrowed: KeyNarrowing = {
      sites: within('sites', key.sites, narrowing('sites', changes.sites)),
      operations: within('operations', key.operations, narrowing('operations', changes.operations, operations)),
      outputs: within('outputs', key.outputs, narrowing('outputs', changes.outputs, outputs)),
      monthlyCreditLimit: below(
        'monthlyCreditLimit',
        key.monthlyCreditLimit,
        wholeNumber('monthlyCreditLimit', changes.monthlyCreditLimit, 0),
      ),
      concurrencyLimit: below('concurrencyLimit', key.concurrencyLimit, concurrency),
    };
    if (!(await this.#storage.keys.narrow(key.id, narrowed)))
      throw new AccountError({ code: 'key_revoked_meanwhile' }, `key ${keyId} was revoked meanwhile`);
    const { hash: _hash, ...rest } = { ...key, ...narrowed };
    const used = await this.#storage.ledger.keyUsage(key.id, periodOf(this.#clock()));
    return { ...rest, status: 'active', usedThisMonth: used.used };
  }

  /** A new secret with the same account and narrowing; the old key stops working at once. */
  async rotateKey(keyId: string): Promise<CreatedKey> {
    const old = await this.#storage.keys.get(keyId);
    if (!old || old.revokedAt !== null) throw new AccountError({ code: 'key_not_active' }, `no active key ${keyId}`);
    if (statusOf(old, this.#clock()) === 'expired')
      throw new AccountError({ code: 'key_expired' }, `key ${keyId} has expired; create a new key`);
    const account = await this.#storage.accounts.get(old.accountId);
    if (!account) throw new AccountError({ code: 'no_account' }, `no account ${old.accountId}`);
    const secret = generateKey();
    const key: KeyRecord = {
      ...old,
      id: newId('key'),
      displayPrefix: displayPrefix(secret),
      hash: hashKey(secret),
      createdAt: this.#clock().toISOString(),
      revokedAt: null,
    };
    await this.#storage.keys.create(key);
    // The new key exists before the old one goes, so a failure in between never leaves the account keyless; a
    // concurrent rotation or revocation that won the old key voids this new one.
    if (!(await this.#storage.keys.revoke(old.id, this.#clock().toISOString()))) {
      await this.#storage.keys.revoke(key.id, this.#clock().toISOString());
      throw new AccountError({ code: 'key_revoked_meanwhile' }, `key ${keyId} was revoked meanwhile`);
    }
    return { key: secret, keyId: key.id, accountId: key.accountId };
  }

  /**
   * The caller behind a secret, or null when it is malformed, unknown, revoked or expired, or its account is gone.
   * Every null must become the same 401: which case it was is not the caller's business.
   */
  async authenticate(secret: string): Promise<AuthenticatedCaller | null> {
    if (typeof secret !== 'string' || secret.length === 0 || secret.length > 256) return null;
    const hash = hashKey(secret);
    // A bad checksum is rejected without touching the database, so floods of junk keys cost nothing.
    if (!isWellFormedKey(secret) && !this.#bootstrapHashes.has(hash)) return null;
    const key = await this.#storage.keys.findByHash(hash);
    if (!key || statusOf(key, this.#clock()) !== 'active') return null;
    const account = await this.#storage.accounts.get(key.accountId);
    return account ? { account, key } : null;
  }

  /**
   * Makes sure an account on `plan` owns a key of exactly `secret` (which need not be in our format); idempotent
   * across restarts and instances. The plan follows the configuration. A bootstrap key that was revoked stays
   * revoked: starting with it fails loudly rather than bringing back a key someone turned off.
   */
  async ensureBootstrapKey(
    secret: string,
    plan: PlanId,
  ): Promise<{ keyId: string; accountId: string; created: boolean }> {
    if (!presentableSecret.test(secret)) {
      throw new AccountError(
        { code: 'bootstrap_key_malformed' },
        'the bootstrap key must be 16 to 256 printable ASCII characters without spaces',
      );
    }
    if (!isPlanId(plan)) throw new AccountError({ code: 'unknown_plan' }, `unknown plan ${String(plan)}`);
    const hash = hashKey(secret);
    let existing = await this.#storage.keys.findByHash(hash);
    if (!existing) {
      const account = this.#newAccount({ plan });
      const key = this.#newKey(secret, account, {});
      try {
        await this.#storage.accounts.create(account);
        await this.#storage.keys.create(key);
        this.#bootstrapHashes.add(hash);
        return { keyId: key.id, accountId: account.id, created: true };
      } catch (error) {
        // Another instance starting at the same moment created it first.
        existing = await this.#storage.keys.findByHash(hash);
        if (!existing) throw error;
      }
    }
    if (existing.revokedAt !== null) {
      throw new AccountError(
        { code: 'bootstrap_key_revoked' },
        `the bootstrap key ${existing.id} was revoked; configure a new secret`,
      );
    }
    const account = await this.#storage.accounts.get(existing.accountId);
    if (account && account.plan !== plan) await this.#storage.accounts.update(account.id, { plan });
    this.#bootstrapHashes.add(hash);
    return { keyId: existing.id, accountId: existing.accountId, created: false };
  }

  /**
   * An operator's change of an account's plan and/or overage cap, effective from the next call. A cap is for Starter
   * and Growth only; moving to Free drops it to 0 (Free is a hard stop), moving between the others keeps it.
   */
  async changePlan(accountId: string, changes: { plan?: PlanId; overageCapCredits?: number }): Promise<AccountRecord> {
    if (changes.plan !== undefined && !isPlanId(changes.plan))
      throw new AccountError({ code: 'unknown_plan' }, `unknown plan ${String(changes.plan)}`);
    const requested = wholeNumber('overageCapCredits', changes.overageCapCredits, 0);
    const account = await this.#storage.accounts.get(accountId);
    if (!account) throw new AccountError({ code: 'no_account' }, `no account ${accountId}`);
    const plan = planOf(changes.plan ?? account.plan);
    if (requested !== null && requested > 0 && !plan.overageAllowed) {
      throw new AccountError(
        { code: 'no_overage' },
        `the ${plan.id} plan has no overage; its allowance is a hard stop`,
      );
    }
    const overageCapCredits = plan.overageAllowed ? (requested ?? account.overageCapCredits) : 0;
    await this.#storage.accounts.update(account.id, { plan: plan.id, overageCapCredits });
    return { ...account, plan: plan.id, overageCapCredits };
  }

  /**
   * An operator approves an account for a site's reviewed page types (DESIGN: high-risk data is served only to
   * accounts an operator approved). Refuses an unknown account and a site with no page type under review; approving
   * again while an approval is in force changes nothing and returns that approval. Effective from the next call.
   */
  async approveReview(accountId: string, site: ReviewedSite, by: string): Promise<ReviewApprovalOutcome> {
    const approvedBy = operatorName(by);
    if (!site.pageTypes.some((entry) => entry.review)) {
      throw new AccountError(
        { code: 'nothing_under_review' },
        `${site.id} has no page type under review; its pages need no approval`,
      );
    }
    if (!(await this.#storage.accounts.get(accountId)))
      throw new AccountError({ code: 'no_account' }, `no account ${accountId}`);
    return this.#storage.reviews.approve({
      id: newId('apr'),
      accountId,
      siteId: site.id,
      approvedBy,
      approvedAt: this.#clock().toISOString(),
    });
  }

  /**
   * Ends the account's approval for the site, effective from the next call; the approval stays in the history with
   * who revoked it and when. Any site id is accepted (a site since dropped from the catalogue can still be cleaned
   * up); with no approval in force it refuses.
   */
  async revokeReview(accountId: string, siteId: string, by: string): Promise<ReviewApprovalRecord> {
    const revokedBy = operatorName(by);
    const revoked = await this.#storage.reviews.revoke({
      accountId,
      siteId,
      revokedBy,
      revokedAt: this.#clock().toISOString(),
    });
    if (!revoked)
      throw new AccountError({ code: 'no_approval' }, `account ${accountId} has no approval in force for ${siteId}`);
    return revoked;
  }

  /** The approvals, in force and revoked, oldest first. */
  async listReviews(filter: { accountId?: string; siteId?: string } = {}): Promise<ReviewApprovalRecord[]> {
    return this.#storage.reviews.list(filter);
  }

  /** The account's limit (allowance + overage cap, if the plan allows overage) and the key's own limit. */
  creditLimits(account: AccountRecord, key: KeyRecord): CreditLimits {
    return creditLimitsOf(account, key);
  }

  #newAccount(options: CreateAccountOptions): AccountRecord {
    const plan = planOf(options.plan);
    const overage = wholeNumber('overageCapCredits', options.overageCapCredits, 0) ?? 0;
    if (overage > 0 && !plan.overageAllowed) {
      throw new AccountError(
        { code: 'no_overage' },
        `the ${plan.id} plan has no overage; its allowance is a hard stop`,
      );
    }
    return {
      id: newId('acc'),
      plan: plan.id,
      overageCapCredits: overage,
      createdAt: this.#clock().toISOString(),
      approvedSites: [],
    };
  }

  #newKey(secret: string, account: AccountRecord, options: CreateKeyOptions): KeyRecord {
    const plan = planOf(account.plan);
    const concurrencyLimit = wholeNumber('concurrencyLimit', options.concurrencyLimit, 1);
    if (concurrencyLimit !== null && concurrencyLimit > plan.concurrency) {
      throw new AccountError(
        { code: 'concurrency_above_plan', limit: concurrencyLimit, plan: plan.id, max: plan.concurrency },
        `concurrency limit ${concurrencyLimit} is above the ${plan.id} plan's ${plan.concurrency}; a key may only narrow it`,
      );
    }
    let expiresAt: string | null = null;
    if (options.expiresAt !== undefined) {
      const time = options.expiresAt instanceof Date ? options.expiresAt.getTime() : Date.parse(options.expiresAt);
      if (Number.isNaN(time))
        throw new AccountError({ code: 'invalid_time', field: 'expiresAt' }, 'expiresAt is not a valid time');
      expiresAt = new Date(time).toISOString();
    }
    return {
      id: newId('key'),
      accountId: account.id,
      displayPrefix: displayPrefix(secret),
      hash: hashKey(secret),
      sites: narrowing('sites', options.sites),
      operations: narrowing('operations', options.operations, operations),
      outputs: narrowing('outputs', options.outputs, outputs),
      monthlyCreditLimit: wholeNumber('monthlyCreditLimit', options.monthlyCreditLimit, 0),
      concurrencyLimit,
      createdAt: this.#clock().toISOString(),
      revokedAt: null,
      expiresAt,
      ...(options.label === undefined ? {} : { label: keyLabel(options.label) }),
    };
  }
}

/** The most a key's label may hold. */
export const keyLabelMax = 64;

/** A key's label as given, trimmed: 1–64 characters, none of them a control character. */
function keyLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === '' || [...trimmed].length > keyLabelMax || /\p{Cc}/u.test(trimmed)) {
    throw new AccountError(
      { code: 'label_invalid', max: keyLabelMax },
      `a key's label is 1 to ${keyLabelMax} characters without control characters`,
    );
  }
  return trimmed;
}
