// The daily chart: one bar per day, scaled to the busiest day, each with its value as a title.
import { describe, expect, it } from 'vitest';
import { dailyChart } from './chart.js';

describe('dailyChart', () => {
  it('draws a bar per day of the month, the busiest one full height, empty days flat', () => {
    const svg = dailyChart(
      [
        { day: 1, credits: 5 },
        { day: 3, credits: 10 },
      ],
      30,
      'Credits <by> day',
      'credits',
    ).value;
    expect(svg.match(/<rect /g)).toHaveLength(30);
    expect(svg).toContain('aria-label="Credits &lt;by&gt; day"');
    expect(svg).toMatch(/height="132"><title>3: 10 credits<\/title>/);
    expect(svg).toMatch(/height="66"><title>1: 5 credits<\/title>/);
    expect(svg).toMatch(/height="0"><title>2: 0 credits<\/title>/);
    expect(svg).not.toContain('style=');
  });
});
