// The console's batch pages: the list and a page per batch (progress, counts by state, failures by code, cost so far,
// results expiry), Japanese first, only the account's own batches, over the real app and SQLite accounts; the batches
// come from an in-memory BatchReader of plain records (the Kysely store is checked by its own contract suite).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleApp, type ConsoleApp } from '../../test/support/console-app.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import type { BatchReader } from './routes.js';
import type { BatchCounts, BatchRecord, FailureCount } from '../batches/batch-store.js';
import { batchDetailPage, batchesPage, type PageContext } from './views.js';
import { translator, type Lang } from './i18n.js';

function counts(partial: Partial<BatchCounts>): BatchCounts {
  const all: BatchCounts = {
    total: 0,
    queued: 0,
    running: 0,
    ready: 0,
    delivered: 0,
    failed: 0,
    not_found: 0,
    skipped: 0,
    cancelled: 0,
    expired: 0,
    ...partial,
  };
  return all;
}

function record(id: string, accountId: string, partial: Partial<BatchRecord> = {}): BatchRecord {
  return {
    id,
    accountId,
    keyId: 'key_1',
    status: 'running',
    sealed: true,
    params: {},
    webhook: { endpointId: 'whe_abc', events: ['item.succeeded'], payload: 'full' },
    retainHours: 24,
    resultsExpireAt: '2026-11-29T03:00:00.000Z',
    maxCredits: 5000,
    counts: counts({ total: 2000, queued: 700, running: 5, ready: 95, delivered: 1150, failed: 40, skipped: 10 }),
    credits: { charged: 1150, held: 95, reserved: 5 },
    estimate: { costUnitsMax: 2000, etaS: 600 },
    rejected: [{ index: 3, url: 'https://x.example/', code: 'site_not_supported' }],
    createdAt: '2026-11-28T03:00:00.000Z',
    finishedAt: null,
    ...partial,
  };
}

const failures: FailureCount[] = [
  { state: 'failed', code: 'fetch_timeout', count: 25 },
  { state: 'failed', code: 'target_blocked', count: 15 },
  { state: 'skipped', code: 'credits_exhausted', count: 10 },
];

function ctx(lang: Lang): PageContext {
  return { lang, t: translator(lang), path: '/console/batches', query: '', session: null };
}

describe('batch views', () => {
  it('the batch page shows the progress bar, every count by state, failures by code, cost so far and expiry (ja)', () => {
    const html = batchDetailPage(ctx('ja'), { batch: record('bat_1', 'acc_1'), failures });
    // 2000 − 700 queued − 5 running = 1,295 finished: 64 %.
    expect(html).toMatch(/<progress id="batch-progress" max="2000" value="1295"/);
    expect(html).toContain('2,000 件中 1,295 件が完了（64%）');
    for (const [label, value] of [
      ['待機中', '700'],
      ['実行中', '5'],
      ['受け渡し待ち', '95'],
      ['受け渡し済み（課金）', '1,150'],
      ['失敗（無料）', '40'],
      ['スキップ（無料）', '10'],
      ['期限切れ（無料）', '0'],
    ])
      expect(html).toMatch(new RegExp(`${label}</span> <code>[a-z_]+</code></th>\\s*<td class="num">${value}</td>`));
    expect(html).toMatch(/<code>fetch_timeout<\/code><\/td>\s*<td>失敗（無料）<\/td>\s*<td class="num">25<\/td>/);
    expect(html).toMatch(
      /<code>credits_exhausted<\/code><\/td>\s*<td>スキップ（無料）<\/td>\s*<td class="num">10<\/td>/,
    );
    // Cost so far: charged + held.
    expect(html).toContain('<strong>1,245</strong>');
    expect(html).toContain('課金済み 1,150 ＋ 確保中 95');
    expect(html).toContain('<time datetime="2026-11-29T03:00:00.000Z">2026年11月29日 12:00:00 JST</time>');
    expect(html).toContain('<code>whe_abc</code> (full)');
    expect(html).toContain('<html lang="ja">');
  });

  it('says the same in English, and when nothing failed, no webhook and no cap', () => {
    const batch = record('bat_2', 'acc_1', {
      status: 'completed',
      sealed: true,
      webhook: null,
      maxCredits: null,
      counts: counts({ total: 3, delivered: 2, not_found: 1 }),
      credits: { charged: 2, held: 0, reserved: 0 },
      finishedAt: '2026-11-28T04:00:00.000Z',
    });
    const html = batchDetailPage(ctx('en'), { batch, failures: [] });
    expect(html).toMatch(/<progress id="batch-progress" max="3" value="3"/);
    expect(html).toContain('3 of 3 finished (100 %)');
    expect(html).toContain('No item failed or was skipped.');
    expect(html).toContain('none (results by polling)');
    expect(html).toContain('completed · sealed');
    expect(html).toContain('<strong>2</strong>');
    // Finished: no reloading, and the page says its numbers are as of its load.
    expect(html).not.toContain('data-refresh-ms');
    expect(html).toContain('These numbers are as of this page load.');
    const running = batchDetailPage(ctx('en'), { batch: record('bat_4', 'acc_1'), failures: [] });
    expect(running).toContain('data-refresh-ms="5000"');
    expect(running).toContain('reloads itself every 5 s while the batch runs');
  });

  it('the list links each batch with its progress, failures and cost, and escapes what it shows', () => {
    const html = batchesPage(ctx('en'), {
      batches: [record('bat_1', 'acc_1'), record('bat_2', 'acc_1', { status: 'queued', sealed: false })],
    });
    expect(html).toContain('<a href="/console/batches/bat_1"><code>bat_1</code></a>');
    expect(html).toContain('1,295 of 2,000 finished (64 %)');
    expect(html).toContain('<td class="num">1,245</td>');
    expect(batchesPage(ctx('ja'), { batches: [] })).toContain('バッチはまだありません。');
    const hostile = batchDetailPage(ctx('en'), {
      batch: record('bat_3', 'acc_1', {
        webhook: { endpointId: '<script>x</script>', events: [], payload: 'thin' },
      }),
      failures: [],
    });
    expect(hostile).not.toContain('<script>x');
    expect(hostile).toContain('&lt;script&gt;x&lt;/script&gt;');
  });
});

describe('batch pages over HTTP', () => {
  let storage: KyselyStorage;
  let accounts: Accounts;
  let app: ConsoleApp;
  const asked: string[] = [];

  /** Plain records by account, read as the store would: only the account's own. */
  function reader(records: BatchRecord[]): BatchReader {
    return {
      list: async (accountId, limit) => {
        asked.push(`list ${accountId} ${limit}`);
        return records.filter((b) => b.accountId === accountId).slice(0, limit);
      },
      get: async (id, accountId) => records.find((b) => b.id === id && b.accountId === accountId) ?? null,
      failureCodes: async (id, accountId) => {
        asked.push(`failures ${id}`);
        return records.some((b) => b.id === id && b.accountId === accountId) ? failures : [];
      },
    };
  }

  async function build(batches: BatchReader | undefined) {
    app = await consoleApp(storage, accounts, batches ? { batches } : {});
  }

  const signIn = (key: string) => app.signIn(key);
  const get = (url: string, cookie: string, lang = 'ja') => app.get(url, cookie, lang);

  beforeEach(async () => {
    storage = await createSqliteStorage({ path: ':memory:' });
    await storage.migrate();
    accounts = new Accounts(storage);
    asked.length = 0;
  });
  afterEach(async () => {
    await app?.close();
    await storage.close();
  });

  it('lists the account’s own batches and shows one, in Japanese; another account’s batch is a 404', async () => {
    const mine = await accounts.createKey({ plan: 'starter' });
    const theirs = await accounts.createKey({ plan: 'starter' });
    await build(
      reader([record('bat_1', mine.accountId), record('bat_9', theirs.accountId, { counts: counts({ total: 7 }) })]),
    );
    const cookie = await signIn(mine.key);

    const list = await get('/console/batches', cookie);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<h1>バッチ</h1>');
    expect(list.body).toMatch(/<a href="\/console\/batches"\s+aria-current="page">バッチ<\/a>/);
    expect(list.body).toContain('/console/batches/bat_1');
    expect(list.body).not.toContain('bat_9');
    expect(asked).toEqual([`list ${mine.accountId} 50`]);

    const detail = await get('/console/batches/bat_1', cookie);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('<h1>バッチ bat_1</h1>');
    expect(detail.body).toContain('エラーコード別の失敗');
    expect(detail.headers['content-security-policy']).toContain("style-src 'self'");
    expect(detail.body).not.toMatch(/style="/);

    const english = await get('/console/batches/bat_1', cookie, 'en');
    expect(english.body).toContain('Failures by error code');

    for (const url of ['/console/batches/bat_9', '/console/batches/bat_nope', '/console/batches/x%3Cy']) {
      const other = await get(url, cookie);
      expect([url, other.statusCode]).toEqual([url, 404]);
      expect(other.body).toContain('このアカウントにその ID のバッチはありません。');
    }
    // Another account's batch is never read further than the ownership check.
    expect(asked.filter((a) => a.startsWith('failures'))).toEqual(['failures bat_1', 'failures bat_1']);
  });

  it('refuses a key without the batch operation, sends strangers to sign in, and says when batches are off', async () => {
    const narrowed = await accounts.createKey({ plan: 'starter', operations: ['usage'] });
    await build(reader([record('bat_1', narrowed.accountId)]));
    const stranger = await get('/console/batches', '');
    expect([stranger.statusCode, stranger.headers.location]).toEqual([303, '/console/sign-in']);
    const cookie = await signIn(narrowed.key);
    const refused = await get('/console/batches/bat_1', cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('batch 操作');
    expect(asked).toEqual([]);
    await app.close();

    const full = await accounts.createKey({ plan: 'starter' });
    await build(undefined);
    const off = await get('/console/batches', await signIn(full.key), 'en');
    expect(off.statusCode).toBe(503);
    expect(off.body).toContain('Batches are not available on this server.');
  });
});
