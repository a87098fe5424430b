// The overview's daily usage chart: inline SVG drawn on the server (no chart library, no script, CSP-clean).
import { markup, type SafeHtml } from './html.js';

export interface DayBar {
  /** Day of the month, 1-based. */
  day: number;
  credits: number;
}

/**
 * One bar per day of the month, scaled to the busiest day; presentation attributes only (no inline style, which the
 * console's CSP forbids). Each bar has its own <title>, so a pointer or a screen reader can read the value.
 */
export function dailyChart(bars: readonly DayBar[], daysInMonth: number, label: string, unit: string): SafeHtml {
  const width = 620;
  const height = 160;
  const left = 32;
  const bottom = 20;
  const plotHeight = height - bottom - 8;
  const slot = (width - left) / daysInMonth;
  const max = Math.max(1, ...bars.map((bar) => bar.credits));
  const byDay = new Map(bars.map((bar) => [bar.day, bar.credits]));
  const rects = [];
  for (let day = 1; day <= daysInMonth; day++) {
    const credits = byDay.get(day) ?? 0;
    const h = credits === 0 ? 0 : Math.max(1, Math.round((credits / max) * plotHeight));
    const x = (left + (day - 1) * slot + slot * 0.15).toFixed(1);
    const y = height - bottom - h;
    rects.push(
      markup`<rect class="bar" x="${x}" y="${y}" width="${(slot * 0.7).toFixed(1)}" height="${h}"><title>${day}: ${credits} ${unit}</title></rect>`,
    );
  }
  const ticks = [1, 8, 15, 22, 29]
    .filter((day) => day <= daysInMonth)
    .map(
      (day) =>
        markup`<text x="${(left + (day - 0.5) * slot).toFixed(1)}" y="${height - 5}" text-anchor="middle">${day}</text>`,
    );
  return markup`<svg
    class="chart"
    viewBox="0 0 ${width} ${height}"
    role="img"
    aria-label="${label}"
    xmlns="http://www.w3.org/2000/svg"
  >
    <line class="axis" x1="${left}" y1="${height - bottom}" x2="${width}" y2="${height - bottom}" />
    <text x="${left - 6}" y="14" text-anchor="end">${max}</text>
    <text x="${left - 6}" y="${height - bottom}" text-anchor="end">0</text>
    ${rects}${ticks}
  </svg>`;
}
