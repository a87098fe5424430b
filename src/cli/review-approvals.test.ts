// The review-approval commands in-process, over SQLite and a test catalogue with a site under review.
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import { createLogger } from '../logger.js';
import { UsageError } from './args.js';
import { reviewApprovals, type ReviewApprovalAction } from './review-approvals.js';

const sites = [
  {
    id: 'test_market',
    name: 'Test market',
    pageTypes: [{ pageType: 'item', review: { reason: 'personal data of private sellers' } }, { pageType: 'search' }],
  },
  { id: 'test_shop', name: 'Test shop', pageTypes: [{ pageType: 'item' }] },
];

let storage: KyselyStorage;
let out: string;
let logs: Record<string, unknown>[];
let accountId: string;

beforeEach(async () => {
  storage = await createSqliteStorage({ path: ':memory:' });
  await storage.migrate();
  // The command closes the storage it opened; keep this one open across commands.
  storage.close = async () => undefined;
  accountId = (await new Accounts(storage).createAccount({ plan: 'starter' })).id;
  out = '';
  logs = [];
});

afterEach(async () => {
  await storage.db.destroy();
});

function run(action: ReviewApprovalAction, ...args: string[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return reviewApprovals(action, args, {
    sites,
    connect: async () => ({ storage, logger: createLogger('info', sink) }),
    write: (text) => (out += text),
  });
}

describe('kumo accounts approve / revoke-approval / approvals', () => {
  it('approves, logs who and when, shows the history, and revokes', async () => {
    await run('approve', '--account', accountId, '--site', 'test_market', '--by', 'Aiko Operator', '--json');
    const approved = JSON.parse(out);
    expect(approved).toMatchObject({
      account_id: accountId,
      site_id: 'test_market',
      approved_by: 'Aiko Operator',
      revoked_by: null,
      in_force: true,
      created: true,
      page_types: [{ page_type: 'item', reason: 'personal data of private sellers' }],
    });
    expect(approved.approval_id).toMatch(/^apr_/);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'review approval granted',
        event: 'review_approval',
        account_id: accountId,
        site_id: 'test_market',
        page_types: ['item'],
        approved_by: 'Aiko Operator',
        approved_at: approved.approved_at,
        created: true,
      }),
    ]);
    expect((await storage.accounts.get(accountId))?.approvedSites).toEqual(['test_market']);

    out = '';
    await run('approve', '--account', accountId, '--site', 'test_market', '--by', 'Ken');
    expect(out).toContain('(already in force; nothing changed)');
    expect(out).toContain(`approval_id ${approved.approval_id}`);
    expect(logs[1]).toMatchObject({ msg: 'review approval already in force', created: false });

    out = '';
    await run('revoke-approval', '--account', accountId, '--site', 'test_market', '--by', 'Ken Lead', '--json');
    expect(JSON.parse(out)).toMatchObject({
      approval_id: approved.approval_id,
      approved_by: 'Aiko Operator',
      revoked_by: 'Ken Lead',
      in_force: false,
    });
    expect(logs[2]).toMatchObject({ msg: 'review approval revoked', revoked_by: 'Ken Lead', site_id: 'test_market' });
    expect((await storage.accounts.get(accountId))?.approvedSites).toEqual([]);

    out = '';
    await run('approvals', '--account', accountId);
    const history = JSON.parse(out);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ approval_id: approved.approval_id, in_force: false, revoked_by: 'Ken Lead' });
    for (const line of logs) expect(JSON.stringify(line)).not.toMatch(/kumo_live_|hash/);
  });

  it.each([
    [['--account', 'A', '--site', 'nosuch', '--by', 'Aiko'], /--site: unknown site nosuch/],
    [['--account', 'A', '--site', 'test_shop', '--by', 'Aiko'], /test_shop has no page type under review.*test_market/],
    [['--account', 'A', '--site', 'test_market'], /--by NAME/],
    [['--account', 'A', '--site', 'test_market', '--by', ''], /--by needs a value/],
    [['--site', 'test_market', '--by', 'Aiko'], /--account ID/],
    [['--account', 'A', '--site', 'test_market', '--by', 'Aiko', 'extra'], /unexpected argument extra/],
  ])('approve %j is a usage error and writes nothing', async (args, message) => {
    const attempt = run('approve', ...args.map((a) => (a === 'A' ? accountId : a)));
    await expect(attempt).rejects.toThrow(UsageError);
    await expect(attempt).rejects.toThrow(message);
    expect(await storage.reviews.list()).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('refuses an unknown account, a blank name, and revoking what is not in force', async () => {
    await expect(run('approve', '--account', 'acc_nosuch', '--site', 'test_market', '--by', 'Aiko')).rejects.toThrow(
      /no account acc_nosuch/,
    );
    await expect(run('approve', '--account', accountId, '--site', 'test_market', '--by', '  ')).rejects.toThrow(/--by/);
    await expect(
      run('revoke-approval', '--account', accountId, '--site', 'test_market', '--by', 'Ken'),
    ).rejects.toThrow(/no approval in force/);
    expect(await storage.reviews.list()).toEqual([]);
    expect(logs).toEqual([]);
  });
});
