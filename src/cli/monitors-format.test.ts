// What `kumo monitors` prints for people: JST times, schedules, a target's last values, a check's changes in either
// language (the alert messages' words), and caller text kept to one line without escape sequences.
import { describe, expect, it } from 'vitest';
import {
  changeLines,
  checkLines,
  describeMonitor,
  jstTime,
  languageOf,
  oneLine,
  scheduleText,
  targetSummary,
  type CheckView,
  type MonitorView,
  type TargetView,
} from './monitors-format.js';

const target: TargetView = {
  id: 'tgt_1',
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
  ref: null,
  site: 'ikebe_gakki',
  page_type: 'item',
  removed: false,
  last: { price: 12_800, price_tax: 'included', points: 128, availability: 'limited', at: '2026-06-01T00:00:00Z' },
  last_check: { at: '2026-06-01T00:00:00Z', state: 'completed', error_code: null },
};

describe('languageOf', () => {
  it.each([
    ['ja-JP', 'ja'],
    ['ja', 'ja'],
    ['en-US', 'en'],
    ['und', 'en'],
    ['jv-ID', 'en'],
  ])('%s → %s', (locale, language) => {
    expect(languageOf(locale)).toBe(language);
  });
});

describe('jstTime', () => {
  it('writes a UTC instant in Japan time, across the date line, and — for none', () => {
    expect(jstTime('2026-06-01T00:30:00.000Z')).toBe('2026-06-01 09:30 JST');
    expect(jstTime('2026-12-31T15:00:00Z')).toBe('2027-01-01 00:00 JST');
    expect(jstTime(null)).toBe('—');
    expect(jstTime('soon')).toBe('soon');
  });
});

describe('scheduleText', () => {
  const base = { every_minutes: 15, cron: null, timezone: 'Asia/Tokyo', calendar: null, next_run_at: null };
  it('says the interval or the cron, the timezone when not Japan’s (or when asked), and the calendar', () => {
    expect(scheduleText(base)).toBe('every 15 min');
    expect(scheduleText(base, true)).toBe('every 15 min, Asia/Tokyo');
    expect(
      scheduleText({ ...base, every_minutes: null, cron: '0 9 * * *', timezone: 'UTC', calendar: 'jp_business_days' }),
    ).toBe('cron "0 9 * * *", UTC, JP business days');
  });
});

describe('targetSummary', () => {
  it('shows the last price as ¥12,800 and the availability, with the ref first when there is one', () => {
    expect(targetSummary(target)).toBe('¥12,800 limited');
    expect(targetSummary({ ...target, ref: 'SKU 1' })).toBe('SKU 1 ¥12,800 limited');
    expect(targetSummary({ ...target, last: { price: null } })).toBe('— —');
  });

  it('says when there is nothing yet, when the last check failed, and when the page is gone', () => {
    expect(targetSummary({ ...target, last: null })).toBe('not checked yet');
    expect(targetSummary({ ...target, last_check: { at: null, state: 'failed', error_code: 'blocked' } })).toBe(
      '¥12,800 limited (last check failed: blocked)',
    );
    expect(targetSummary({ ...target, removed: true })).toBe('removed');
  });
});

describe('describeMonitor', () => {
  it('flags an estimate over the plan and lists every host', () => {
    const monitor: MonitorView = {
      id: 'mon_1',
      name: null,
      status: 'active',
      schedule: { every_minutes: 15, cron: null, timezone: 'Asia/Tokyo', calendar: null, next_run_at: null },
      estimate: {
        checks_per_month: 5760,
        credits_per_month: 11_520,
        within_plan: false,
        host_load: [
          { host: 'a.example', checks_per_day: 96, share_per_day: 1000 },
          { host: 'b.example', checks_per_day: 96.5, share_per_day: 1000 },
          { host: 'c.example', checks_per_day: 1, share_per_day: null },
        ],
      },
      targets: [],
    };
    expect(describeMonitor(monitor).split('\n').slice(-5)).toEqual([
      "estimate   5,760 checks / month · 11,520 credits / month at most (over the plan's monthly credits)",
      "host load  a.example: 96 checks / day (this account's fair share: 1,000 / day)",
      "           b.example: 96.5 checks / day (this account's fair share: 1,000 / day)",
      '           c.example: 1 checks / day (no per-host limit on this server)',
      '',
    ]);
  });
});

describe('changeLines', () => {
  it('words each change as the alerts do, then the values now', () => {
    const changes = [
      { field: 'points' as const, before: 100, after: 128, delta: 28, delta_pct: 28 },
      { field: 'on_sale' as const, before: false, after: true },
    ];
    expect(changeLines(changes, { price: 12_800, availability: 'in_stock' }, [], 'en')).toEqual([
      'Points: 100 pts → 128 pts (+28 pts)',
      'On sale: Not on sale → On sale',
      'Now: ¥12,800 / In stock',
    ]);
    expect(changeLines(changes, {}, ['up'], 'ja')).toEqual([
      'ポイント: 100pt → 128pt（+28pt）',
      'セール: セールなし → セール中',
      'ルール: up',
    ]);
  });
});

describe('checkLines', () => {
  const check: CheckView = {
    id: 'chk_1',
    target_id: 'tgt_1',
    state: 'completed',
    reason: 'manual',
    cost_units: 1,
    changes: [],
    rules_hit: [],
    error: null,
  };

  it('says there was no change, and shows the values now', () => {
    expect(checkLines(check, target, 'ja')).toEqual([
      `chk_1  completed  1クレジット  ${target.url}`,
      '  変化なし',
      '  現在: ¥12,800（税込） / 128pt / 残りわずか',
    ]);
  });

  it('shows a skipped check as it is, and a check of an unknown target by its id', () => {
    expect(checkLines({ ...check, state: 'skipped', cost_units: 0 }, undefined, 'en')).toEqual([
      'chk_1  skipped  0 credits  tgt_1',
    ]);
  });
});

describe('oneLine', () => {
  it('keeps caller text to one line without control or format characters', () => {
    expect(oneLine('a\nb\u001b[2J\u202ec  ')).toBe('a b [2J c');
  });
});
