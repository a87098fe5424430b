// The price chart: the step line from points, the lowest price marked and labelled, stock gaps shaded, yen and JST
// date axes, and what it says for an empty or one-point history, in Japanese and English.
import { describe, expect, it } from 'vitest';
import {
  chartSize,
  dateTicks,
  gapRuns,
  lowestOf,
  plotArea,
  priceChart,
  stepPath,
  yenScale,
  type PricePoint,
} from './price-chart.js';

const hour = 3_600_000;
const at = (iso: string) => Date.parse(iso);

// A week and a half in November 2026 (times UTC; JST is +9): a rise, a stock gap without a price, a drop to the low.
const points: PricePoint[] = [
  { t: '2026-11-20T00:00:00.000Z', price: 12800, availability: 'in_stock' },
  { t: '2026-11-23T00:00:00.000Z', price: 13200, availability: 'in_stock' },
  { t: '2026-11-25T00:00:00.000Z', price: null, availability: 'out_of_stock' },
  { t: '2026-11-26T00:00:00.000Z', price: 12800, availability: 'in_stock' },
  { t: '2026-11-27T04:00:00.000Z', price: 11800, availability: 'in_stock' },
];
const until = '2026-11-29T00:00:00.000Z';

describe('stepPath', () => {
  it('holds each price until the next point, moves vertically, and breaks where a point has no price', () => {
    const t0 = at(points[0]!.t);
    const path = stepPath(
      points,
      at(until),
      (ms) => (ms - t0) / hour,
      (yen) => yen / 100,
    );
    expect(path).toBe('M0.0 128.0 H72.0 V132.0 H120.0 M144.0 128.0 H172.0 V118.0 H216.0');
  });
});

describe('gapRuns and lowestOf', () => {
  it('merges consecutive out-of-stock stretches, keeps discontinued apart, and runs the last one to until', () => {
    const runs = gapRuns(
      [
        { t: '2026-11-01T00:00:00.000Z', price: 1000, availability: 'in_stock' },
        { t: '2026-11-02T00:00:00.000Z', price: null, availability: 'out_of_stock' },
        { t: '2026-11-03T00:00:00.000Z', price: null, availability: 'out_of_stock' },
        { t: '2026-11-04T00:00:00.000Z', price: 1000, availability: 'limited' },
        { t: '2026-11-05T00:00:00.000Z', price: null, availability: 'discontinued' },
      ],
      at('2026-11-07T00:00:00.000Z'),
    );
    expect(runs).toEqual([
      { from: at('2026-11-02T00:00:00.000Z'), to: at('2026-11-04T00:00:00.000Z'), value: 'out_of_stock' },
      { from: at('2026-11-05T00:00:00.000Z'), to: at('2026-11-07T00:00:00.000Z'), value: 'discontinued' },
    ]);
  });

  it('takes the first time the lowest price was seen', () => {
    expect(
      lowestOf([
        { t: '2026-11-01T00:00:00.000Z', price: 900, availability: null },
        { t: '2026-11-02T00:00:00.000Z', price: 800, availability: null },
        { t: '2026-11-03T00:00:00.000Z', price: 800, availability: null },
      ]),
    ).toEqual({ price: 800, t: at('2026-11-02T00:00:00.000Z') });
    expect(lowestOf([{ t: '2026-11-01T00:00:00.000Z', price: null, availability: 'out_of_stock' }])).toBeNull();
  });
});

describe('axes', () => {
  it('puts yen ticks on whole, round steps around the prices, and a band around a flat price', () => {
    expect(yenScale(11800, 13200)).toEqual({ lo: 11500, hi: 13500, ticks: [11500, 12000, 12500, 13000, 13500] });
    expect(yenScale(12800, 12800)).toEqual({
      lo: 11500,
      hi: 14000,
      ticks: [11500, 12000, 12500, 13000, 13500, 14000],
    });
    expect(yenScale(98, 102).ticks).toEqual([98, 99, 100, 101, 102]);
    // Never below zero for prices.
    expect(yenScale(0, 30).lo).toBe(0);
  });

  it('puts at most six date ticks at JST midnights (or hours, or months), labelled as people write dates', () => {
    const days = dateTicks(at('2026-11-19T15:00:00.000Z'), at('2026-11-29T15:00:00.000Z'), 'ja');
    expect(days.map((tick) => tick.label)).toEqual(['11/20', '11/22', '11/24', '11/26', '11/28', '11/30']);
    expect(new Date(days[0]!.ms).toISOString()).toBe('2026-11-19T15:00:00.000Z');
    const hours = dateTicks(at('2026-11-27T00:30:00.000Z'), at('2026-11-27T10:00:00.000Z'), 'en');
    expect(hours.map((tick) => tick.label)).toEqual([
      '27 Nov 10:00',
      '27 Nov 12:00',
      '27 Nov 14:00',
      '27 Nov 16:00',
      '27 Nov 18:00',
    ]);
    // Under two hours, the ends to the minute (one when they read the same).
    const minutes = dateTicks(at('2026-11-28T10:18:14.000Z'), at('2026-11-28T10:19:40.000Z'), 'ja');
    expect(minutes.map((tick) => tick.label)).toEqual(['11/28 19:18', '11/28 19:19']);
    expect(dateTicks(at('2026-11-28T10:18:01.000Z'), at('2026-11-28T10:18:02.000Z'), 'en')).toHaveLength(1);
    const months = dateTicks(at('2026-06-01T00:00:00.000Z'), at('2027-05-01T00:00:00.000Z'), 'ja');
    expect(months.length).toBeLessThanOrEqual(6);
    expect(months[0]!.label).toBe('2026年7月');
  });
});

describe('priceChart', () => {
  const svg = priceChart(points, { lang: 'ja', subject: 'SKU-0001', until, id: 'c1' }).value;

  it('is one accessible image whose title and description say what it shows', () => {
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="c1-title c1-desc"');
    expect(svg).toContain(`viewBox="0 0 ${chartSize.width} ${chartSize.height}"`);
    expect(svg).toContain('<title id="c1-title">価格の推移：SKU-0001</title>');
    expect(svg).toContain(
      '<desc id="c1-desc">11月20日〜11月29日（日本時間）の価格：最初 ¥12,800、最新 ¥11,800。' +
        '最安値 ¥11,800（11月27日）、最高値 ¥13,200。購入できない期間：在庫切れ 11月25日〜11月26日。</desc>',
    );
    expect(svg).not.toContain('style=');
  });

  it('draws the step line over the plot, from the first point to the last good check', () => {
    const d = /class="price-line" d="([^"]+)"/.exec(svg)![1]!;
    expect(d.startsWith(`M${plotArea.left.toFixed(1)} `)).toBe(true);
    expect(d.endsWith(`H${plotArea.right.toFixed(1)}`)).toBe(true);
    // Two runs: before the gap, and after it.
    expect(d.match(/M/g)).toHaveLength(2);
  });

  it('marks and labels the lowest price with its date', () => {
    // ¥11,800 on a ¥11,500–¥13,500 axis: 300/2000 of the plot's 188 px above its bottom.
    expect(svg).toMatch(/<circle class="lowest" cx="560.1" cy="195.8"/);
    expect(svg).toMatch(/<text class="lowest-label"[^>]*>最安値 ¥11,800（11月27日）<\/text>/);
  });

  it('shades the out-of-stock period, with a legend entry and the period as its title', () => {
    expect(svg.match(/<rect class="gap"/g)).toHaveLength(1);
    expect(svg).toContain('<title>在庫切れ 11月25日〜11月26日</title>');
    expect(svg).toContain('>在庫切れ・販売終了</text>');
    const without = priceChart(
      points.filter((p) => p.availability === 'in_stock'),
      { lang: 'ja', subject: 'x' },
    ).value;
    expect(without).not.toContain('class="gap"');
    expect(without).not.toContain('>在庫切れ・販売終了</text>');
    expect(without).toContain('在庫切れ・販売終了の期間はありません。');
  });

  it('has yen ticks as people write prices and JST dates below', () => {
    for (const yen of ['¥11,500', '¥12,000', '¥12,500', '¥13,000', '¥13,500']) expect(svg).toContain(`>${yen}</text>`);
    expect(svg).toContain('>11/21</text>');
    expect(svg).toContain('>日付は日本時間</text>');
  });

  it('speaks English for en', () => {
    const en = priceChart(points, { lang: 'en', subject: 'SKU-0001', until }).value;
    expect(en).toContain('>Lowest ¥11,800 (27 Nov)</text>');
    expect(en).toContain('Out of stock 25 Nov – 26 Nov');
    expect(en).toContain('>Dates in JST</text>');
    expect(en).toContain('>21 Nov</text>');
  });

  it('says there is nothing to draw for an empty history or one without a price', () => {
    for (const none of [[], [{ t: '2026-11-20T00:00:00.000Z', price: null, availability: 'out_of_stock' }]]) {
      const html = priceChart(none, { lang: 'ja', subject: 'x' }).value;
      expect(html).not.toContain('<svg');
      expect(html).toContain('この期間、この対象の価格は記録されていません。');
    }
  });

  it('draws one point in the middle of the plot, marked as the lowest', () => {
    const one = priceChart([{ t: '2026-11-20T00:00:00.000Z', price: 9800, availability: 'in_stock' }], {
      lang: 'ja',
      subject: 'x',
    }).value;
    const middle = ((plotArea.left + plotArea.right) / 2).toFixed(1);
    expect(one).toContain(`<circle class="lowest" cx="${middle}"`);
    expect(one).toContain('最安値 ¥9,800（11月20日 9:00）');
  });

  it('escapes what it is given', () => {
    const hostile = priceChart(points, { lang: 'en', subject: '<script>alert(1)</script>' }).value;
    expect(hostile).not.toContain('<script>');
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
