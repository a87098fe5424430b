// The console's monitor pages: the list (last price and change per target, schedule in words, next run in JST) and a
// monitor's page (settings, price chart with its target switch, targets, checks, alerts as the notifications word
// them), Japanese first, escaped; over HTTP only the account's own monitors, and the CSV download. The monitors come
// from an in-memory MonitorReader of plain records (the Kysely store is checked by its own contract suite).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleApp, type ConsoleApp } from '../../test/support/console-app.js';
import { createSqliteStorage } from '../storage/sqlite/sqlite-storage.js';
import type { KyselyStorage } from '../storage/kysely/kysely-storage.js';
import { Accounts } from '../accounts/accounts-service.js';
import type { MonitorReader } from './routes.js';
import { defaultNoise, emptyTargetState } from '../monitors/model.js';
import type { CheckRecord, HistoryPoint, MonitorRecord, TargetRecord } from '../monitors/monitor-store.js';
import { historyView } from '../monitors/monitor-service.js';
import { historyCsv } from '../monitors/history-csv.js';
import type { MonitorAlertData, MonitorCheckFailedData } from '../monitors/messages.js';
import { monitorDetailPage, monitorsPage, type MonitorDetailData, type MonitorEventRecord } from './monitor-views.js';
import type { PageContext } from './views.js';
import { translator, type Lang } from './i18n.js';

function target(id: string, monitorId: string, partial: Partial<TargetRecord> = {}): TargetRecord {
  return {
    id,
    monitorId,
    index: 0,
    url: `https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/${id}`,
    ref: `SKU-${id}`,
    host: 'www.ikebe-gakki.com',
    siteId: 'ikebe_gakki',
    pageType: 'item',
    route: 'http',
    costMax: 1,
    state: {
      ...emptyTargetState,
      last: { price: 11800, price_tax: 'included', points: 118, availability: 'in_stock' },
      lastAt: '2026-11-27T04:00:00.000Z',
    },
    lastCheckAt: '2026-11-29T00:00:00.000Z',
    lastCheckState: 'completed',
    lastErrorCode: null,
    removed: false,
    ...partial,
  };
}

function monitor(id: string, accountId: string, partial: Partial<MonitorRecord> = {}): MonitorRecord {
  return {
    id,
    accountId,
    keyId: 'key_1',
    name: 'WH-1000XM5 競合価格',
    status: 'active',
    pausedReason: null,
    schedule: { every_minutes: null, cron: '0 9,13 * * *', timezone: 'Asia/Tokyo', calendar: 'jp_business_days' },
    jitterS: 0,
    anchorAt: '2026-11-20T00:00:00.000Z',
    nextRunAt: '2026-11-30T04:00:00.000Z',
    watch: ['price', 'price_tax', 'points', 'availability'],
    rules: [],
    noise: { ...defaultNoise },
    alertAfter: 3,
    notify: { webhook: { endpoint_id: 'whe_abc' }, language: 'ja', channels: [{ kind: 'slack', masked: {} }] },
    retainDays: 30,
    maxCreditsPerMonth: 500,
    creditsPeriod: '2026-11',
    creditsUsed: 12,
    checksPerDay: 2,
    createdAt: '2026-11-20T00:00:00.000Z',
    updatedAt: '2026-11-20T00:00:00.000Z',
    targets: [
      target('tgt_a', id),
      target('tgt_b', id, {
        index: 1,
        ref: null,
        state: { ...emptyTargetState, last: { price: 9800, availability: 'out_of_stock' }, lastAt: null },
        lastCheckState: 'failed',
        lastErrorCode: 'fetch_timeout',
      }),
    ],
    ...partial,
  };
}

function check(id: string, partial: Partial<CheckRecord> = {}): CheckRecord {
  return {
    id,
    monitorId: 'mon_1',
    targetId: 'tgt_a',
    state: 'completed',
    reason: null,
    scheduledAt: '2026-11-27T04:00:00.000Z',
    startedAt: '2026-11-27T04:00:01.000Z',
    finishedAt: '2026-11-27T04:00:03.000Z',
    attempts: 1,
    requestId: 'req_1',
    costUnits: 1,
    changes: [],
    rulesHit: [],
    skippedRules: [],
    error: null,
    ...partial,
  };
}

const checks: CheckRecord[] = [
  check('chk_4', {
    targetId: 'tgt_b',
    state: 'failed',
    costUnits: 0,
    error: { code: 'fetch_timeout', status: 504 },
    finishedAt: '2026-11-29T00:00:00.000Z',
  }),
  check('chk_3', {
    changes: [
      { field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 },
      { field: 'points', before: 128, after: 118, delta: -10 },
    ],
    rulesHit: ['drop5'],
  }),
  check('chk_2', { state: 'skipped', reason: 'overlap', costUnits: 0, startedAt: null, finishedAt: null }),
  check('chk_1', {
    targetId: 'tgt_b',
    changes: [{ field: 'availability', before: 'in_stock', after: 'out_of_stock' }],
    finishedAt: '2026-11-26T00:00:00.000Z',
  }),
];

const history: HistoryPoint[] = [
  { t: '2026-11-20T00:00:00.000Z', values: { price: 12800, availability: 'in_stock' } },
  { t: '2026-11-23T00:00:00.000Z', values: { price: 13200, availability: 'in_stock' } },
  { t: '2026-11-25T00:00:00.000Z', values: { price: null, availability: 'out_of_stock' } },
  { t: '2026-11-26T00:00:00.000Z', values: { price: 12800, availability: 'in_stock' } },
  { t: '2026-11-27T04:00:00.000Z', values: { price: 11800, price_tax: 'included', availability: 'in_stock' } },
];

const alertData: MonitorAlertData = {
  monitor_id: 'mon_1',
  monitor_name: 'WH-1000XM5 競合価格',
  check_id: 'chk_3',
  target_id: 'tgt_a',
  ref: 'SKU-tgt_a',
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/tgt_a',
  site: 'ikebe_gakki',
  observed_at: '2026-11-27T04:00:03.000Z',
  previous_at: '2026-11-26T00:00:00.000Z',
  rules_hit: ['drop5'],
  changes: [{ field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 }],
  current: { price: 11800, price_tax: 'included', availability: 'in_stock' },
  request_id: 'req_1',
  cost_units: 1,
};
const failedData: MonitorCheckFailedData = {
  monitor_id: 'mon_1',
  monitor_name: 'WH-1000XM5 競合価格',
  target_id: 'tgt_b',
  ref: null,
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/tgt_b',
  site: 'ikebe_gakki',
  failures_in_a_row: 3,
  error: { code: 'fetch_timeout', status: 504 },
  observed_at: '2026-11-29T00:00:00.000Z',
};
const events: MonitorEventRecord[] = [
  {
    id: 'evt_2',
    type: 'monitor.check.failed',
    targetId: 'tgt_b',
    data: JSON.stringify(failedData),
    createdAt: '2026-11-29T00:00:00.000Z',
  },
  {
    id: 'evt_1',
    type: 'monitor.alert',
    targetId: 'tgt_a',
    data: JSON.stringify(alertData),
    createdAt: '2026-11-27T04:00:03.000Z',
  },
];

function ctx(lang: Lang): PageContext {
  return { lang, t: translator(lang), path: '/console/monitors', query: '', session: null };
}

function detail(partial: Partial<MonitorDetailData> = {}): MonitorDetailData {
  const m = monitor('mon_1', 'acc_1');
  return { monitor: m, target: m.targets[0]!, history, historyDays: 30, checks, events, ...partial };
}

describe('monitor views', () => {
  it('the list shows each monitor with its schedule in words, targets, last price and change, next run (ja)', () => {
    const m = monitor('mon_1', 'acc_1');
    const html = monitorsPage(ctx('ja'), {
      monitors: [{ monitor: m, lastChanges: { tgt_a: checks[1]!, tgt_b: checks[3]! } }],
    });
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('<h1>監視</h1>');
    expect(html).toContain('<a href="/console/monitors/mon_1">WH-1000XM5 競合価格</a');
    expect(html).toContain('<td>稼働中</td>');
    expect(html).toContain('<td>毎日 9:00, 13:00（営業日のみ）</td>');
    expect(html).toContain('<td class="num">2</td>');
    expect(html).toMatch(/<span class="target-name">SKU-tgt_a<\/span> <strong>¥11,800<\/strong>/);
    expect(html).toContain('価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）');
    // No ref: the host names the target; its last change was its availability.
    expect(html).toMatch(/<span class="target-name">www.ikebe-gakki.com<\/span> <strong>¥9,800<\/strong>/);
    expect(html).toContain('在庫: 在庫あり → 在庫切れ');
    expect(html).toContain('<time datetime="2026-11-30T04:00:00.000Z">2026年11月30日 13:00:00 JST</time>');
  });

  it('says the same in English, and when a target has no change, a monitor is paused, or there are none', () => {
    const m = monitor('mon_2', 'acc_1', {
      name: null,
      status: 'paused',
      pausedReason: 'max_credits_per_month',
      nextRunAt: null,
      schedule: { every_minutes: 60, cron: null, timezone: 'Asia/Tokyo', calendar: null },
    });
    const html = monitorsPage(ctx('en'), { monitors: [{ monitor: m, lastChanges: {} }] });
    expect(html).toContain('<a href="/console/monitors/mon_2">mon_2</a');
    expect(html).toContain('paused: its monthly credit limit was reached');
    expect(html).toContain('<td>Every 60 minutes</td>');
    expect(html).toContain('no change in the recent checks');
    expect(html).toContain('none while paused');
    expect(html).toContain('Last price and last change');
    expect(monitorsPage(ctx('ja'), { monitors: [] })).toContain('監視はまだありません。');
    const many = monitor('mon_3', 'acc_1', {
      targets: Array.from({ length: 7 }, (_, i) => target(`tgt_${i}`, 'mon_3', { index: i })),
    });
    const listed = monitorsPage(ctx('ja'), { monitors: [{ monitor: many, lastChanges: {} }] });
    expect(listed.match(/class="target-name"/g)).toHaveLength(5);
    expect(listed).toContain('ほか 2 件');
  });

  it('a monitor page has its settings, the chart of the chosen target, targets, checks and alerts (ja)', () => {
    const html = monitorDetailPage(ctx('ja'), detail());
    expect(html).toContain('<h1>監視 WH-1000XM5 競合価格</h1>');
    expect(html).toContain('毎日 9:00, 13:00（営業日のみ）');
    expect(html).toContain('価格、税表示、ポイント、在庫');
    expect(html).toContain('30 日間');
    expect(html).toContain('Webhook <code>whe_abc</code>, slack');
    // The chart: an accessible SVG with the lowest price labelled; the switch names both targets.
    expect(html).toMatch(/<svg\s+class="price-chart"/);
    expect(html).toContain('最安値 ¥11,800（11月27日）');
    expect(html).toContain('<rect class="gap"');
    expect(html).toContain('aria-label="対象を選ぶ"');
    expect(html).toContain(
      'href="/console/monitors/mon_1?target=tgt_a#price-history" aria-current="true">SKU-tgt_a</a>',
    );
    expect(html).toContain('href="/console/monitors/mon_1?target=tgt_b#price-history">www.ikebe-gakki.com</a>');
    expect(html).toContain('href="/console/monitors/mon_1/history.csv?target=tgt_a"');
    expect(html).toContain('この対象の履歴を CSV でダウンロード');
    // Targets: last values as the alerts write them, the last check's state and error.
    expect(html).toContain('価格: ¥11,800<br />税表示: 税込<br />ポイント: 118pt<br />在庫: 在庫あり');
    expect(html).toContain(
      '失敗（無料）<br /><span class="muted">2026年11月29日 09:00:00 JST</span><br /><code>fetch_timeout</code>',
    );
    // Checks: state, cost, changes, rules hit, errors, why one was skipped.
    expect(html).toContain('価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）<br />ポイント: 128pt → 118pt（−10pt）');
    expect(html).toContain('<code>drop5</code>');
    expect(html).toContain('<code>fetch_timeout</code> (504)');
    expect(html).toContain('スキップ（無料）<br /><span class="muted">前回のチェックが実行中</span>');
    // Alerts: the notification's own title, in the page's language.
    expect(html).toContain('<summary>【値下がり】WH-1000XM5 競合価格</summary>');
    expect(html).toContain('<summary>【チェック失敗】WH-1000XM5 競合価格</summary>');
    expect(html).toContain('<td>アラート</td>');
    expect(html).not.toMatch(/style="/);
  });

  it('speaks English for en, and says how to turn history on when it is off', () => {
    const html = monitorDetailPage(ctx('en'), detail());
    expect(html).toContain('<summary>Price drop: WH-1000XM5 競合価格</summary>');
    expect(html).toContain('Lowest ¥11,800 (27 Nov)');
    expect(html).toContain('Price: ¥12,800 → ¥11,800 (−¥1,000, −7.8%)');
    expect(html).toContain('Download this target&#39;s history as CSV');
    const off = monitorDetailPage(
      ctx('ja'),
      detail({ monitor: monitor('mon_1', 'acc_1', { retainDays: null }), history: null }),
    );
    expect(off).not.toContain('<svg');
    expect(off).toContain('PATCH /v1/monitors/mon_1 で history.retain_days（例：30）を設定してください。');
    expect(off).not.toContain('history.csv');
    const quiet = monitorDetailPage(ctx('en'), detail({ checks: [], events: [] }));
    expect(quiet).toContain('No checks yet.');
    expect(quiet).toContain('No alerts in the last 72 hours.');
  });

  it('escapes every value it shows', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const m = monitor('mon_1', 'acc_1', {
      name: hostile,
      targets: [target('tgt_a', 'mon_1', { ref: hostile, url: `https://x.example/?q="${hostile}` })],
    });
    const html = monitorDetailPage(ctx('en'), {
      ...detail(),
      monitor: m,
      target: m.targets[0]!,
      checks: [check('chk_9', { rulesHit: [hostile] })],
      events: [
        {
          ...events[1]!,
          data: JSON.stringify({ ...alertData, monitor_name: hostile }),
        },
      ],
    });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const list = monitorsPage(ctx('en'), { monitors: [{ monitor: m, lastChanges: {} }] });
    expect(list).not.toContain('<img');
  });
});

describe('monitor pages over HTTP', () => {
  let storage: KyselyStorage;
  let accounts: Accounts;
  let app: ConsoleApp;
  const asked: string[] = [];

  /** Plain records, read as the store would: only the account's own. */
  function reader(records: MonitorRecord[]): MonitorReader {
    const own = (id: string, accountId: string) => records.find((m) => m.id === id && m.accountId === accountId);
    return {
      list: async (accountId, limit) => {
        asked.push(`list ${accountId} ${limit}`);
        return records.filter((m) => m.accountId === accountId).slice(0, limit);
      },
      get: async (id, accountId) => own(id, accountId) ?? null,
      checks: async (id, accountId, query) => {
        asked.push(`checks ${id} ${query.limit}`);
        return own(id, accountId) ? checks.slice(0, query.limit) : [];
      },
      history: async (id, accountId, targetId, since) => {
        asked.push(`history ${id} ${targetId} ${since.slice(0, 10)}`);
        return own(id, accountId) && targetId === 'tgt_a' ? history.filter((p) => p.t >= since) : [];
      },
      events: async (id, accountId, limit) => {
        asked.push(`events ${id} ${limit}`);
        return own(id, accountId) ? events.slice(0, limit) : [];
      },
    };
  }

  async function build(monitors: MonitorReader | undefined) {
    app = await consoleApp(storage, accounts, monitors ? { monitors } : {});
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

  it('lists and shows only the account’s own monitors, in Japanese and English; another’s is a 404', async () => {
    const mine = await accounts.createKey({ plan: 'starter' });
    const theirs = await accounts.createKey({ plan: 'starter' });
    await build(
      reader([monitor('mon_1', mine.accountId), monitor('mon_9', theirs.accountId, { name: 'theirs-secret' })]),
    );
    const cookie = await signIn(mine.key);

    const list = await get('/console/monitors', cookie);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<h1>監視</h1>');
    expect(list.body).toMatch(/<a href="\/console\/monitors"\s+aria-current="page">監視<\/a>/);
    expect(list.body).toContain('/console/monitors/mon_1');
    expect(list.body).toContain('価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）');
    expect(list.body).not.toContain('mon_9');
    expect(list.body).not.toContain('theirs-secret');
    expect(asked).toEqual([`list ${mine.accountId} 50`, 'checks mon_1 100']);
    expect((await get('/console/monitors', cookie, 'en')).body).toContain('<h1>Monitors</h1>');

    asked.length = 0;
    const page = await get('/console/monitors/mon_1', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>監視 WH-1000XM5 競合価格</h1>');
    expect(page.body).toMatch(/<svg\s+class="price-chart"/);
    expect(page.body).toContain('最安値 ¥11,800（11月27日）');
    expect(page.headers['content-security-policy']).toContain("style-src 'self'");
    expect(page.body).not.toMatch(/style="/);
    // The window is the monitor's retention (30 days back from now).
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    expect(asked).toEqual([`history mon_1 tgt_a ${since}`, 'checks mon_1 20', 'events mon_1 20']);
    const english = await get('/console/monitors/mon_1?target=tgt_b', cookie, 'en');
    expect(english.body).toContain('<h1>Monitor WH-1000XM5 競合価格</h1>');
    expect(english.body).toContain('aria-current="true">www.ikebe-gakki.com</a>');
    expect(english.body).toContain('No price was recorded for this target in this period.');

    for (const url of [
      '/console/monitors/mon_9',
      '/console/monitors/mon_nope',
      '/console/monitors/x%3Cy',
      '/console/monitors/mon_9/history.csv?target=tgt_a',
    ]) {
      const other = await get(url, cookie);
      expect([url, other.statusCode]).toEqual([url, 404]);
      expect(other.body).toContain('このアカウントにその ID の監視はありません。');
      expect(other.body).not.toContain('theirs-secret');
    }
    const unknownTarget = await get('/console/monitors/mon_1?target=tgt_zzz', cookie);
    expect(unknownTarget.statusCode).toBe(404);
    expect(unknownTarget.body).toContain('この監視にその ID の対象はありません。');
  });

  it('downloads a target’s history as the API’s CSV, with the console session only', async () => {
    const mine = await accounts.createKey({ plan: 'starter' });
    const m = monitor('mon_1', mine.accountId);
    await build(reader([m]));
    const cookie = await signIn(mine.key);
    const csv = await get('/console/monitors/mon_1/history.csv?target=tgt_a', cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="mon_1-tgt_a.csv"');
    expect(csv.headers['cache-control']).toBe('no-store');
    expect(csv.body).toBe(historyCsv(historyView(m, 'tgt_a', m.watch, history, new Date(0), new Date())));
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      '\ufefft,price,price_tax,points,availability',
      '2026-11-20T00:00:00.000Z,12800,,,in_stock',
      '2026-11-23T00:00:00.000Z,13200,,,in_stock',
    ]);
    // The first target when none is named; an unknown target is a 404; no session, no CSV.
    expect((await get('/console/monitors/mon_1/history.csv', cookie)).body).toBe(csv.body);
    expect((await get('/console/monitors/mon_1/history.csv?target=tgt_zzz', cookie)).statusCode).toBe(404);
    const stranger = await get('/console/monitors/mon_1/history.csv?target=tgt_a', '');
    expect([stranger.statusCode, stranger.headers.location]).toEqual([303, '/console/sign-in']);
  });

  it('refuses a key without the monitor operation, and says when monitors are off', async () => {
    const narrowed = await accounts.createKey({ plan: 'starter', operations: ['usage'] });
    await build(reader([monitor('mon_1', narrowed.accountId)]));
    const cookie = await signIn(narrowed.key);
    for (const url of ['/console/monitors', '/console/monitors/mon_1', '/console/monitors/mon_1/history.csv']) {
      const refused = await get(url, cookie);
      expect([url, refused.statusCode]).toEqual([url, 403]);
      expect(refused.body).toContain('monitor 操作');
    }
    expect(asked).toEqual([]);
    await app.close();

    const full = await accounts.createKey({ plan: 'starter' });
    await build(undefined);
    const off = await get('/console/monitors', await signIn(full.key), 'en');
    expect(off.statusCode).toBe(503);
    expect(off.body).toContain('Monitors are not available on this server.');
  });
});
