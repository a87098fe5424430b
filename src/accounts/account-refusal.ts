// Why the accounts service refused an operator's or a console's request: a closed set of codes with the values at
// stake, so that each front (the CLI in English, the console in Japanese or English) words it without parsing prose.

/** The key and account settings a refusal can name. */
export type AccountField =
  'sites' | 'operations' | 'outputs' | 'monthlyCreditLimit' | 'concurrencyLimit' | 'overageCapCredits' | 'expiresAt';

/** Every reason code, in one list (the union below is checked against it). */
export const accountRefusalCodes = [
  'no_account',
  'plan_mismatch',
  'unknown_plan',
  'no_overage',
  'empty_narrowing',
  'empty_value',
  'unknown_value',
  'not_whole_number',
  'invalid_time',
  'may_only_narrow',
  'may_only_fall',
  'concurrency_above_plan',
  'key_not_active',
  'key_expired',
  'key_revoked_meanwhile',
  'bootstrap_key_malformed',
  'bootstrap_key_revoked',
  'operator_name_invalid',
  'nothing_under_review',
  'no_approval',
  'label_invalid',
] as const;

export type AccountRefusalCode = (typeof accountRefusalCodes)[number];

/** A refusal's code and, where a front needs them to say it, the values at stake. */
export type AccountRefusal =
  | { code: 'may_only_narrow'; field: AccountField; values: string[] }
  | { code: 'may_only_fall'; field: AccountField; now: number }
  | { code: 'concurrency_above_plan'; limit: number; plan: string; max: number }
  | { code: 'label_invalid'; max: number }
  | {
      code: 'unknown_value' | 'empty_narrowing' | 'empty_value' | 'not_whole_number' | 'invalid_time';
      field: AccountField;
    }
  | {
      code: Exclude<
        AccountRefusalCode,
        | 'may_only_narrow'
        | 'may_only_fall'
        | 'concurrency_above_plan'
        | 'label_invalid'
        | 'unknown_value'
        | 'empty_narrowing'
        | 'empty_value'
        | 'not_whole_number'
        | 'invalid_time'
      >;
    };
