// ScrapeService.plan() on a page type under review: only accounts an operator approved for the site get past it.
import { describe, expect, it } from 'vitest';
import { ScrapeService, type ScrapeParams, type ScrapeServiceOptions } from './scrape-service.js';
import { SiteRegistry } from '../sites/registry.js';
import { ikebeGakki } from '../sites/ikebe-gakki/site.js';
import type { Site } from '../sites/site.js';
import { isKumoError, type KumoError } from '../errors.js';
import type { Caller } from './caller.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const params: ScrapeParams = { mode: 'html_json', work_type: 'auto', include_html: false, store_artifact: false };

// A test catalogue: イケベ's item pages marked as under review, served from its own fixtures (not a real review).
const reviewedSite: Site = {
  ...ikebeGakki,
  pageTypes: ikebeGakki.pageTypes.map((entry) => ({ ...entry, review: { reason: 'personal data of test sellers' } })),
};

function planner(sites: readonly Site[]): ScrapeService {
  // plan() reads only the registry and the environment; nothing else is reached before a call is planned.
  return new ScrapeService({
    registry: new SiteRegistry(sites, { record: null }),
    environment: 'production',
  } as unknown as ScrapeServiceOptions);
}

const reviewed = planner([reviewedSite]);
const open = planner([ikebeGakki]);

function caller(approvedSites: string[] | undefined, key: Partial<Caller['key']> = {}): Caller {
  const createdAt = '2026-05-01T00:00:00.000Z';
  return {
    account: {
      id: 'acc_test',
      plan: 'starter',
      overageCapCredits: 0,
      createdAt,
      ...(approvedSites ? { approvedSites } : {}),
    },
    key: {
      id: 'key_test',
      accountId: 'acc_test',
      displayPrefix: 'kumo_live_test',
      hash: 'h',
      sites: null,
      operations: null,
      outputs: null,
      monthlyCreditLimit: null,
      concurrencyLimit: null,
      createdAt,
      revokedAt: null,
      expiresAt: null,
      ...key,
    },
  };
}

function refusal(run: () => unknown): KumoError {
  try {
    run();
  } catch (error) {
    if (isKumoError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('plan() on a page type under review', () => {
  it('refuses an account with no approval: 403 key_scope_denied naming the review and its reason', () => {
    for (const approvedSites of [undefined, [], ['mercari']]) {
      const error = refusal(() => reviewed.plan(caller(approvedSites), url, params));
      expect(error.code).toBe('key_scope_denied');
      expect(error.message).toBe(
        "ikebe_gakki item needs an operator's review approval for this account (personal data of test sellers); ask support",
      );
    }
  });

  it('lets an account approved for the site through, and an explicit work_type too', () => {
    const planned = reviewed.plan(caller(['ikebe_gakki']), url, params);
    expect(planned.site.id).toBe('ikebe_gakki');
    expect(planned.entry.pageType).toBe('item');
    expect(reviewed.plan(caller(['ikebe_gakki']), url, { ...params, work_type: 'item' }).entry.review).toEqual({
      reason: 'personal data of test sellers',
    });
  });

  it('leaves page types that are not under review alone', () => {
    expect(open.plan(caller([]), url, params).entry.pageType).toBe('item');
  });

  it('comes after resolving the site and page type, and after the key’s own narrowing', () => {
    const unapproved = caller([]);
    expect(refusal(() => reviewed.plan(unapproved, 'https://shop.example.net/x', params)).code).toBe(
      'site_not_supported',
    );
    expect(refusal(() => reviewed.plan(unapproved, url, { ...params, work_type: 'ranking' })).code).toBe(
      'page_not_supported',
    );
    expect(refusal(() => reviewed.plan(caller([], { sites: ['jma_forecast'] }), url, params)).message).toBe(
      'this key may not use site ikebe_gakki',
    );
    expect(refusal(() => reviewed.plan(caller([], { operations: ['usage'] }), url, params)).message).toBe(
      'this key may not use the scrape operation',
    );
    // An approval never widens a key: a key barred from the site stays barred.
    expect(
      refusal(() => reviewed.plan(caller(['ikebe_gakki'], { sites: ['jma_forecast'] }), url, params)).message,
    ).toBe('this key may not use site ikebe_gakki');
    expect(
      refusal(() =>
        reviewed.plan(caller(['ikebe_gakki'], { outputs: ['json'] }), url, { ...params, include_html: true }),
      ).message,
    ).toBe('this key may not produce the html output');
  });
});
