// The Keys page's refusals come from the accounts service's reason codes, worded in each language without English.
import { describe, expect, it } from 'vitest';
import { accountRefusalCodes, type AccountRefusal } from '../accounts/account-refusal.js';
import { translator } from './i18n.js';
import { refusalText } from './keys-routes.js';

/** One refusal of each code, with values where the code carries them. */
const examples: AccountRefusal[] = accountRefusalCodes.map((code): AccountRefusal => {
  switch (code) {
    case 'may_only_narrow':
      return { code, field: 'sites', values: ['ikebe_gakki', 'kakaku'] };
    case 'may_only_fall':
      return { code, field: 'monthlyCreditLimit', now: 100 };
    case 'concurrency_above_plan':
      return { code, limit: 9, plan: 'starter', max: 5 };
    case 'label_invalid':
      return { code, max: 64 };
    case 'unknown_value':
    case 'empty_narrowing':
    case 'empty_value':
    case 'not_whole_number':
    case 'invalid_time':
      return { code, field: 'expiresAt' };
    case 'no_account':
    case 'plan_mismatch':
    case 'unknown_plan':
    case 'no_overage':
    case 'key_not_active':
    case 'key_expired':
    case 'key_revoked_meanwhile':
    case 'bootstrap_key_malformed':
    case 'bootstrap_key_revoked':
    case 'operator_name_invalid':
    case 'nothing_under_review':
    case 'no_approval':
      return { code };
  }
});

describe('refusalText', () => {
  it('says each code in Japanese with its values, and no English word', () => {
    const ja = translator('ja');
    for (const refusal of examples) expect(refusalText(refusal, ja), refusal.code).not.toMatch(/[a-z]{3,} [a-z]{3,}/i);
    expect(
      refusalText(
        examples.find((r) => r.code === 'may_only_narrow')!,
        ja,
      ),
    ).toBe('対応サイトは絞り込むことしかできません。ikebe_gakki, kakaku は今は許可されていません。');
    expect(refusalText({ code: 'may_only_fall', field: 'monthlyCreditLimit', now: 100 }, ja)).toContain('（現在 100）');
    expect(refusalText({ code: 'concurrency_above_plan', limit: 9, plan: 'starter', max: 5 }, ja)).toBe(
      '同時実行数の上限 9 は starter プランの上限 5 を超えています。',
    );
    expect(refusalText({ code: 'key_expired' }, ja)).toBe('このキーはもう有効ではありません。');
  });

  it('says each code in English, the values named', () => {
    const en = translator('en');
    expect(refusalText({ code: 'may_only_fall', field: 'concurrencyLimit', now: 2 }, en)).toMatch(/\(now 2\)\.$/);
    expect(refusalText({ code: 'concurrency_above_plan', limit: 3, plan: 'free', max: 2 }, en)).toBe(
      "the concurrency limit 3 is above the free plan's 2.",
    );
    expect(refusalText({ code: 'no_account' }, en)).toBe('the values given cannot be applied.');
  });
});
