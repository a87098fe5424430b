// The alert texts people read in Slack, ChatWork and LINE, in Japanese and English, for every monitor event.
import { describe, expect, it } from 'vitest';
import {
  formatYen,
  renderMessage,
  type MonitorAlertData,
  type MonitorCheckFailedData,
  type MonitorPausedData,
  type MonitorTargetRemovedData,
} from './messages.js';

// The research's example event (next-capabilities.md §2.5).
const alert: MonitorAlertData = {
  monitor_id: 'mon_01JE2',
  monitor_name: 'WH-1000XM5 競合価格',
  check_id: 'chk_01JE3',
  target_id: 'tgt_01',
  ref: 'SKU-0001',
  url: 'https://item.rakuten.co.jp/shop/wh1000xm5/',
  site: 'rakuten_ichiba',
  observed_at: '2026-11-27T13:03:04+09:00',
  previous_at: '2026-11-27T00:02:51Z',
  rules_hit: ['drop5'],
  changes: [
    { field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 },
    { field: 'points', before: 128, after: 118, delta: -10 },
  ],
  current: {
    price: 11800,
    price_tax: 'included',
    points: 118,
    points_rate: 1,
    shipping: 'free',
    availability: 'in_stock',
    effective_price: 11682,
  },
  request_id: 'req_01JE3',
  cost_units: 1,
};

const restock: MonitorAlertData = {
  ...alert,
  monitor_name: null,
  previous_at: null,
  rules_hit: [],
  changes: [
    { field: 'availability', before: 'out_of_stock', after: 'in_stock' },
    { field: 'price', before: 12800, after: 13800, delta: 1000, delta_pct: 7.81 },
    { field: 'shipping_fee', before: null, after: 440 },
  ],
  current: { price: 13800, price_tax: 'excluded', shipping: 'extra', shipping_fee: 440, availability: 'in_stock' },
};

const failed: MonitorCheckFailedData = {
  monitor_id: 'mon_01JE2',
  monitor_name: 'WH-1000XM5 競合価格',
  target_id: 'tgt_01',
  ref: 'SKU-0001',
  url: 'https://item.rakuten.co.jp/shop/wh1000xm5/',
  site: 'rakuten_ichiba',
  failures_in_a_row: 3,
  error: { code: 'upstream_unavailable', status: 502 },
  observed_at: '2026-11-27T04:03:04Z',
};

const removed: MonitorTargetRemovedData = {
  monitor_id: 'mon_01JE2',
  monitor_name: null,
  target_id: 'tgt_01',
  ref: null,
  url: 'https://www.yodobashi.com/product/100000001007207513/',
  site: 'yodobashi',
  status: 404,
  observed_at: '2026-11-27T04:03:04Z',
};

const paused: MonitorPausedData = {
  monitor_id: 'mon_01JE2',
  monitor_name: 'WH-1000XM5 競合価格',
  reason: 'max_credits_per_month',
  credits_this_month: 500,
  max_credits_per_month: 500,
  at: '2026-11-30T15:00:00Z',
};

describe('formatYen', () => {
  it('groups thousands after ¥, with U+2212 before the sign for a negative amount', () => {
    expect(formatYen(12800)).toBe('¥12,800');
    expect(formatYen(0)).toBe('¥0');
    expect(formatYen(999)).toBe('¥999');
    expect(formatYen(1234567)).toBe('¥1,234,567');
    expect(formatYen(-1000)).toBe('\u2212¥1,000');
  });
});

describe('renderMessage: monitor.alert', () => {
  it('Japanese: the price change as people write it, the points, what the page says now, the rule and the URL', () => {
    expect(renderMessage('monitor.alert', alert, 'ja')).toMatchInlineSnapshot(`
      {
        "text": "価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）
      ポイント: 128pt → 118pt（−10pt）
      現在: ¥11,800（税込） / 118pt（1%） / 送料無料 / 在庫あり / 実質 ¥11,682
      ルール: drop5
      参照: SKU-0001
      監視: WH-1000XM5 競合価格（mon_01JE2）
      確認: 2026/11/27 13:03（前回 2026/11/27 09:02）
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "【値下がり】WH-1000XM5 競合価格",
      }
    `);
  });

  it('is Japanese by default, with U+2212 minus signs and full-width parentheses as the research writes them', () => {
    expect(renderMessage('monitor.alert', alert)).toEqual(renderMessage('monitor.alert', alert, 'ja'));
    expect(renderMessage('monitor.alert', alert).text).toContain(
      '¥12,800 → ¥11,800\uFF08\u22121,000円, \u22127.8%\uFF09',
    );
    expect(renderMessage('monitor.alert', alert, 'en').text).toContain('¥12,800 → ¥11,800 (\u2212¥1,000, \u22127.8%)');
  });

  it('English', () => {
    expect(renderMessage('monitor.alert', alert, 'en')).toMatchInlineSnapshot(`
      {
        "text": "Price: ¥12,800 → ¥11,800 (−¥1,000, −7.8%)
      Points: 128 pts → 118 pts (−10 pts)
      Now: ¥11,800 (tax incl.) / 118 pts (1%) / Free shipping / In stock / effective ¥11,682
      Rules: drop5
      Ref: SKU-0001
      Monitor: WH-1000XM5 競合価格 (mon_01JE2)
      Checked: 2026-11-27 13:03 JST (previous 2026-11-27 09:02 JST)
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "Price drop: WH-1000XM5 競合価格",
      }
    `);
  });

  it('a restock with a price rise: both in the title, the ref as subject without a name, shipping on top', () => {
    expect(renderMessage('monitor.alert', restock, 'ja')).toMatchInlineSnapshot(`
      {
        "text": "在庫: 在庫切れ → 在庫あり
      価格: ¥12,800 → ¥13,800（+1,000円, +7.8%）
      送料額: 不明 → ¥440
      現在: ¥13,800（税抜） / 送料別（+¥440） / 在庫あり
      参照: SKU-0001
      監視: mon_01JE2
      確認: 2026/11/27 13:03
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "【在庫復活・値上がり】SKU-0001",
      }
    `);
    expect(renderMessage('monitor.alert', restock, 'en')).toMatchInlineSnapshot(`
      {
        "text": "Availability: Out of stock → In stock
      Price: ¥12,800 → ¥13,800 (+¥1,000, +7.8%)
      Shipping fee: unknown → ¥440
      Now: ¥13,800 (tax excl.) / Shipping +¥440 / In stock
      Ref: SKU-0001
      Monitor: mon_01JE2
      Checked: 2026-11-27 13:03 JST
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "Back in stock, price rise: SKU-0001",
      }
    `);
  });
});

describe('renderMessage: other events', () => {
  it('monitor.check.failed', () => {
    expect(renderMessage('monitor.check.failed', failed, 'ja')).toMatchInlineSnapshot(`
      {
        "text": "3回連続でチェックに失敗しました（エラー: upstream_unavailable / 502）。
      最後に取得できた値はそのまま保持しています（失敗は変更として扱いません）。
      参照: SKU-0001
      監視: WH-1000XM5 競合価格（mon_01JE2）
      確認: 2026/11/27 13:03
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "【チェック失敗】WH-1000XM5 競合価格",
      }
    `);
    expect(renderMessage('monitor.check.failed', failed, 'en')).toMatchInlineSnapshot(`
      {
        "text": "3 checks in a row failed (error: upstream_unavailable / 502).
      The last good values are kept (a failure is never reported as a change).
      Ref: SKU-0001
      Monitor: WH-1000XM5 競合価格 (mon_01JE2)
      Checked: 2026-11-27 13:03 JST
      https://item.rakuten.co.jp/shop/wh1000xm5/",
        "title": "Check failed: WH-1000XM5 競合価格",
      }
    `);
  });

  it('monitor.target.removed (404 and 410)', () => {
    expect(renderMessage('monitor.target.removed', removed, 'ja')).toMatchInlineSnapshot(`
      {
        "text": "ページが見つかりません（HTTP 404）。削除されたか、URLが変わった可能性があります。
      監視: mon_01JE2
      確認: 2026/11/27 13:03
      https://www.yodobashi.com/product/100000001007207513/",
        "title": "【ページ削除】www.yodobashi.com",
      }
    `);
    expect(renderMessage('monitor.target.removed', removed, 'en')).toMatchInlineSnapshot(`
      {
        "text": "The page was not found (HTTP 404): it may have been removed or moved.
      Monitor: mon_01JE2
      Checked: 2026-11-27 13:03 JST
      https://www.yodobashi.com/product/100000001007207513/",
        "title": "Page removed: www.yodobashi.com",
      }
    `);
    expect(renderMessage('monitor.target.removed', { ...removed, status: 410 }, 'ja').text).toMatchInlineSnapshot(`
      "ページは削除されました（HTTP 410）。
      監視: mon_01JE2
      確認: 2026/11/27 13:03
      https://www.yodobashi.com/product/100000001007207513/"
    `);
    expect(renderMessage('monitor.target.removed', { ...removed, status: 410 }, 'en').text).toMatchInlineSnapshot(`
      "The page has been removed (HTTP 410).
      Monitor: mon_01JE2
      Checked: 2026-11-27 13:03 JST
      https://www.yodobashi.com/product/100000001007207513/"
    `);
  });

  it('monitor.paused', () => {
    expect(renderMessage('monitor.paused', paused, 'ja')).toMatchInlineSnapshot(`
      {
        "text": "今月の使用クレジット（500）が上限（max_credits_per_month: 500）に達したため、監視を一時停止しました。
      監視: WH-1000XM5 競合価格（mon_01JE2）
      停止: 2026/12/01 00:00",
        "title": "【監視停止】WH-1000XM5 競合価格",
      }
    `);
    expect(renderMessage('monitor.paused', paused, 'en')).toMatchInlineSnapshot(`
      {
        "text": "The monitor is paused: it used 500 credits this month, its limit (max_credits_per_month) is 500.
      Monitor: WH-1000XM5 競合価格 (mon_01JE2)
      Paused: 2026-12-01 00:00 JST",
        "title": "Monitor paused: WH-1000XM5 競合価格",
      }
    `);
  });
});

describe('renderMessage: titles and edge cases', () => {
  const titled = (changes: MonitorAlertData['changes'], language: 'ja' | 'en' = 'ja') =>
    renderMessage('monitor.alert', { ...alert, monitor_name: 'M', changes, current: {} }, language).title;
  const availability = (before: string | null, after: string) => [{ field: 'availability' as const, before, after }];

  it('names the availability transition, then the first of price, effective price, points, shipping and sale', () => {
    const table: [MonitorAlertData['changes'], string, string][] = [
      [availability('out_of_stock', 'in_stock'), '【在庫復活】M', 'Back in stock: M'],
      [availability('discontinued', 'limited'), '【在庫復活】M', 'Back in stock: M'],
      [availability('in_stock', 'limited'), '【残りわずか】M', 'Low stock: M'],
      [availability('in_stock', 'out_of_stock'), '【在庫切れ】M', 'Out of stock: M'],
      [availability('in_stock', 'discontinued'), '【販売終了】M', 'Discontinued: M'],
      [availability('out_of_stock', 'preorder'), '【予約開始】M', 'Pre-order open: M'],
      [availability('in_stock', 'backorder'), '【取り寄せ】M', 'Backorder: M'],
      // Nothing known before is not a restock.
      [availability(null, 'in_stock'), '【変更】M', 'Change: M'],
      [[{ field: 'price', before: 1000, after: 1100, delta: 100, delta_pct: 10 }], '【値上がり】M', 'Price rise: M'],
      [
        [{ field: 'effective_price', before: 1000, after: 900, delta: -100, delta_pct: -10 }],
        '【実質値下がり】M',
        'Effective price drop: M',
      ],
      [[{ field: 'points', before: 10, after: 100, delta: 90 }], '【ポイントアップ】M', 'Points up: M'],
      [[{ field: 'points_rate', before: 10, after: 1, delta: -9 }], '【ポイントダウン】M', 'Points down: M'],
      [[{ field: 'shipping', before: 'free', after: 'extra' }], '【送料変更】M', 'Shipping change: M'],
      [[{ field: 'on_sale', before: false, after: true }], '【セール開始】M', 'Sale started: M'],
      [[{ field: 'on_sale', before: true, after: false }], '【セール終了】M', 'Sale ended: M'],
      [
        [
          { field: 'price', before: 1100, after: 1000, delta: -100, delta_pct: -9.09 },
          { field: 'price_tax', before: 'included', after: 'excluded' },
        ],
        '【税表示変更】M',
        'Tax basis change: M',
      ],
      [
        [
          ...availability('in_stock', 'out_of_stock'),
          { field: 'price', before: 1000, after: 900, delta: -100, delta_pct: -10 },
          { field: 'points', before: 10, after: 9, delta: -1 },
        ],
        '【在庫切れ・値下がり】M',
        'Out of stock, price drop: M',
      ],
    ];
    for (const [changes, japanese, english] of table) {
      expect([titled(changes), titled(changes, 'en')], JSON.stringify(changes)).toEqual([japanese, english]);
    }
  });

  it('writes each field in its own words, a small percentage with two decimals, and unknown values as unknown', () => {
    const data: MonitorAlertData = {
      ...alert,
      changes: [
        { field: 'price_tax', before: 'included', after: 'excluded' },
        { field: 'list_price', before: 100000, after: 99990, delta: -10, delta_pct: -0.01 },
        { field: 'points_rate', before: 1, after: 10, delta: 9 },
        { field: 'on_sale', before: false, after: true },
        { field: 'availability', before: 'preorder', after: 'sold_out_soon' },
        { field: 'price', before: null, after: 5000 },
      ],
      current: { price: 5000, price_tax: 'unknown', points_rate: 10, shipping: 'included', on_sale: true },
    };
    expect(renderMessage('monitor.alert', data, 'ja').text.split('\n').slice(0, 7)).toEqual([
      '税表示: 税込 → 税抜',
      '定価: ¥100,000 → ¥99,990（−10円, −0.01%）',
      'ポイント還元率: 1% → 10%',
      'セール: セールなし → セール中',
      '在庫: 予約受付中 → sold_out_soon',
      '価格: 不明 → ¥5,000',
      '現在: ¥5,000 / ポイント還元率: 10% / 送料込 / セール中',
    ]);
    expect(renderMessage('monitor.alert', data, 'en').text.split('\n').slice(0, 7)).toEqual([
      'Tax basis: tax included → tax excluded',
      'List price: ¥100,000 → ¥99,990 (−¥10, −0.01%)',
      'Points rate: 1% → 10%',
      'On sale: Not on sale → On sale',
      'Availability: Pre-order → sold_out_soon',
      'Price: unknown → ¥5,000',
      'Now: ¥5,000 / Points rate: 10% / Shipping included / On sale',
    ]);
  });

  it('keeps a name or ref with newlines on one line, so it cannot forge a line of the message', () => {
    const forged = renderMessage(
      'monitor.check.failed',
      { ...failed, failures_in_a_row: 1, monitor_name: '価格\n確認: 偽', ref: 'A\r\nB' },
      'ja',
    );
    expect(forged.title).toBe('【チェック失敗】価格 確認: 偽');
    expect(forged.text.split('\n')).toEqual([
      'チェックに失敗しました（エラー: upstream_unavailable / 502）。',
      '最後に取得できた値はそのまま保持しています（失敗は変更として扱いません）。',
      '参照: A B',
      '監視: 価格 確認: 偽（mon_01JE2）',
      '確認: 2026/11/27 13:03',
      'https://item.rakuten.co.jp/shop/wh1000xm5/',
    ]);
    expect(renderMessage('monitor.check.failed', { ...failed, failures_in_a_row: 1 }, 'en').text).toMatch(
      /^A check failed \(error: upstream_unavailable \/ 502\)\./,
    );
  });
});
