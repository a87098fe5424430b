// A monitor target's price over its history as inline SVG drawn on the server: a step line, the lowest price marked
// and labelled, out-of-stock periods shaded, yen and JST date axes. Pure (points in, markup out; no script, CSP-clean).
import { markup, type SafeHtml } from './html.js';
import { translator, type Lang } from './i18n.js';
import { formatValue, formatYen } from '../monitors/messages.js';

export interface PricePoint {
  t: string;
  price: number | null;
  availability: string | null;
}

export interface PriceChartOptions {
  lang: Lang;
  /** What the chart is of (the target's ref or URL), named in its title. */
  subject: string;
  /** Until when the last point's values held (the target's last good check); default the last point's time. */
  until?: string | null;
  /** Prefix of the ids of the chart's title and description (unique on the page). */
  id?: string;
}

/** The drawing's size: readable at about this many CSS pixels, scaled down on narrow screens. */
export const chartSize = { width: 700, height: 260 } as const;
/** The plot area inside it: room for yen labels on the left, the legend above and dates below. */
export const plotArea = { left: 76, right: 684, top: 36, bottom: 224 } as const;

/** Availability states shaded as gaps: the item could not be bought. */
export const gapStates: readonly string[] = ['out_of_stock', 'discontinued'];

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Japan has no daylight saving: JST is UTC+9 all year. */
const jstOffsetMs = 9 * hourMs;
const maxDateTicks = 6;
/** Past this many points a dot per point is clutter (and bytes): the line alone says it. */
const maxDots = 60;

const colours = {
  line: '#0b57d0',
  lowest: '#0a6b2e',
  gap: '#f4d7d3',
  gapEdge: '#c9a19b',
  grid: '#e1e4e8',
  axis: '#555',
  text: '#333',
} as const;

const fixed = (n: number) => n.toFixed(1);

function line(x1: number, y1: number, x2: number, y2: number, stroke: string, extra: SafeHtml | '' = ''): SafeHtml {
  const [a, b, c, d] = [x1, y1, x2, y2].map(fixed);
  return markup`<line x1="${a}" y1="${b}" x2="${c}" y2="${d}" stroke="${stroke}"${extra} />`;
}

function text(x: number, y: number, anchor: 'start' | 'middle' | 'end', content: string): SafeHtml {
  return markup`<text x="${fixed(x)}" y="${fixed(y)}" text-anchor="${anchor}">${content}</text>`;
}

/** A step for about four intervals over `raw`: 1, 2, 2.5 or 5 times a power of ten, whole yen. */
function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = m * magnitude;
    if (step >= raw && Number.isInteger(step)) return step;
  }
  return 10 * magnitude;
}

/** The yen axis: bounds on whole steps around the prices, and a tick per step (a flat price gets a band around it). */
export function yenScale(min: number, max: number): { lo: number; hi: number; ticks: number[] } {
  let [lo, hi] = [min, max];
  if (hi === lo) {
    const pad = Math.max(100, niceStep(Math.abs(lo) * 0.05));
    [lo, hi] = [lo - pad, hi + pad];
  }
  const step = niceStep((hi - lo) / 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (min >= 0 && lo < 0) lo = 0;
  const ticks: number[] = [];
  for (let tick = lo; tick <= hi; tick += step) ticks.push(tick);
  return { lo, hi, ticks };
}

interface JstParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function jstParts(ms: number): JstParts {
  const d = new Date(ms + jstOffsetMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  };
}

const monthsEn = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A JST date as a label: 「11月27日」 / "27 Nov", with the year and the time when asked. */
export function dateLabel(ms: number, lang: Lang, options: { year?: boolean; time?: boolean } = {}): string {
  const p = jstParts(ms);
  const time = options.time ? ` ${p.hour}:${String(p.minute).padStart(2, '0')}` : '';
  if (lang === 'ja') return `${options.year ? `${p.year}年` : ''}${p.month}月${p.day}日${time}`;
  return `${p.day} ${monthsEn[p.month - 1]}${options.year ? ` ${p.year}` : ''}${time}`;
}

/** A short tick label: 「11/27」 / "27 Nov" (months: 「11月」 / "Nov"), the year when the range crosses one. */
function tickLabel(ms: number, lang: Lang, unit: 'minute' | 'hour' | 'day' | 'month', year: boolean): string {
  const p = jstParts(ms);
  if (unit === 'month') {
    if (lang === 'ja') return `${year ? `${p.year}年` : ''}${p.month}月`;
    return `${monthsEn[p.month - 1]}${year ? ` ${p.year}` : ''}`;
  }
  const date = lang === 'ja' ? `${year ? `${p.year}/` : ''}${p.month}/${p.day}` : dateLabel(ms, 'en', { year });
  if (unit === 'day') return date;
  return `${date} ${p.hour}:${unit === 'hour' ? '00' : String(p.minute).padStart(2, '0')}`;
}

/** Date ticks over [from, to] at whole JST hours, days or months, at most six, with their labels. */
export function dateTicks(from: number, to: number, lang: Lang): { ms: number; label: string }[] {
  const span = Math.max(1, to - from);
  const year = jstParts(from).year !== jstParts(to).year;
  const aligned = (step: number) => Math.ceil((from + jstOffsetMs) / step) * step - jstOffsetMs;
  if (span < 2 * hourMs) {
    // No whole hour need fall inside a short range (checks run by hand minutes apart): its two ends, to the minute.
    const ends = [from, to].map((ms) => ({ ms, label: tickLabel(ms, lang, 'minute', year) }));
    return ends[0]!.label === ends[1]!.label ? [ends[0]!] : ends;
  }
  for (const hours of [1, 2, 3, 6, 12]) {
    const step = hours * hourMs;
    if (span / step > maxDateTicks - 1) continue;
    const ticks = [];
    for (let ms = aligned(step); ms <= to; ms += step) ticks.push({ ms, label: tickLabel(ms, lang, 'hour', year) });
    return ticks;
  }
  for (const days of [1, 2, 7, 14]) {
    const step = days * dayMs;
    if (span / step > maxDateTicks - 1) continue;
    const ticks = [];
    for (let ms = aligned(dayMs); ms <= to; ms += step) ticks.push({ ms, label: tickLabel(ms, lang, 'day', year) });
    return ticks;
  }
  // Months: the first of each JST month, every one, two, three or six months.
  const months = [1, 2, 3, 6].find((n) => span / (n * 30 * dayMs) <= maxDateTicks - 1) ?? 12;
  const start = jstParts(from);
  const ticks = [];
  for (let i = 1; ; i += months) {
    const ms = Date.UTC(start.year, start.month - 1 + i, 1) - jstOffsetMs;
    if (ms > to) break;
    ticks.push({ ms, label: tickLabel(ms, lang, 'month', year) });
  }
  return ticks;
}

/** One stretch of time during which a value held: from a point to the next one (the last to `until`). */
interface Stretch<T> {
  from: number;
  to: number;
  value: T;
}

function stretches<T>(points: readonly PricePoint[], until: number, value: (p: PricePoint) => T): Stretch<T>[] {
  return points.map((point, i) => ({
    from: Date.parse(point.t),
    to: i + 1 < points.length ? Date.parse(points[i + 1]!.t) : until,
    value: value(point),
  }));
}

/** The periods the item was out of stock or discontinued: consecutive stretches of one such state, merged. */
export function gapRuns(points: readonly PricePoint[], until: number): Stretch<string>[] {
  const runs: Stretch<string>[] = [];
  for (const s of stretches(points, until, (p) => p.availability)) {
    if (s.value === null || !gapStates.includes(s.value)) continue;
    const last = runs.at(-1);
    if (last && last.value === s.value && last.to === s.from) last.to = s.to;
    else runs.push({ from: s.from, to: s.to, value: s.value });
  }
  return runs;
}

/** The first point at the lowest price (the API's `lowest_at`), or null when no point has a price. */
export function lowestOf(points: readonly PricePoint[]): { price: number; t: number } | null {
  let lowest: { price: number; t: number } | null = null;
  for (const point of points) {
    if (point.price !== null && (lowest === null || point.price < lowest.price)) {
      lowest = { price: point.price, t: Date.parse(point.t) };
    }
  }
  return lowest;
}

/**
 * The step line's path: a price holds until the next point (horizontal), then moves (vertical). A point without a
 * price breaks the line until the next one with a price.
 */
export function stepPath(
  points: readonly PricePoint[],
  until: number,
  x: (ms: number) => number,
  y: (yen: number) => number,
): string {
  const parts: string[] = [];
  let open = false;
  for (const s of stretches(points, until, (p) => p.price)) {
    if (s.value === null) {
      open = false;
      continue;
    }
    parts.push(open ? `V${fixed(y(s.value))}` : `M${fixed(x(s.from))} ${fixed(y(s.value))}`);
    parts.push(`H${fixed(x(s.to))}`);
    open = true;
  }
  return parts.join(' ');
}

/** About how wide a label is drawn at 12 px (CJK full width, Latin about half), to lay the legend out. */
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ch.codePointAt(0)! >= 0x2e80 ? 12 : 6.8;
  return width;
}

/**
 * The chart, or a sentence saying there is nothing to draw (no point with a price). Accessible as one image whose
 * title and description say in words what it shows (range, first and latest, lowest with its date, stock gaps).
 */
export function priceChart(points: readonly PricePoint[], options: PriceChartOptions): SafeHtml {
  const { lang } = options;
  const t = translator(lang);
  const priced = points.filter((p) => p.price !== null);
  if (priced.length === 0) return markup`<p class="muted">${t('chartNoPrice')}</p>`;
  const id = options.id ?? 'price-chart';
  const firstMs = Date.parse(points[0]!.t);
  const lastMs = Date.parse(points.at(-1)!.t);
  const untilMs = Math.max(lastMs, options.until ? Date.parse(options.until) || lastMs : lastMs);
  // One moment only: half a day either side, so the point stands in the middle of the plot.
  const [from, to] = untilMs === firstMs ? [firstMs - dayMs / 2, firstMs + dayMs / 2] : [firstMs, untilMs];
  const prices = priced.map((p) => p.price!);
  const scale = yenScale(Math.min(...prices), Math.max(...prices));
  const { left, right, top, bottom } = plotArea;
  const x = (ms: number) => left + ((ms - from) / (to - from)) * (right - left);
  const y = (yen: number) => bottom - ((yen - scale.lo) / (scale.hi - scale.lo)) * (bottom - top);
  const crossesYear = jstParts(from).year !== jstParts(to).year;
  const withTime = to - from < 2 * dayMs;
  const when = (ms: number) => dateLabel(ms, lang, { year: crossesYear, time: withTime });

  const gaps = gapRuns(points, untilMs);
  const lowest = lowestOf(points)!;
  const lowestText = t('chartLowest', { price: formatYen(lowest.price), date: when(lowest.t) });
  const periods = gaps.map((g) =>
    t('chartGapPeriod', { state: formatValue('availability', g.value, lang), from: when(g.from), to: when(g.to) }),
  );
  const summary = [
    t('chartSummary', {
      from: when(firstMs),
      to: when(untilMs),
      first: formatYen(prices[0]!),
      last: formatYen(prices.at(-1)!),
      lowest: formatYen(lowest.price),
      lowestAt: when(lowest.t),
      highest: formatYen(Math.max(...prices)),
    }),
    periods.length === 0 ? t('chartNoGaps') : t('chartGaps', { periods: periods.join(lang === 'ja' ? '、' : '; ') }),
  ].join(lang === 'ja' ? '' : ' ');

  const shading = gaps.map((g, i) => {
    // A gap seen only at the last check has no length yet: a thin band still shows it.
    const width = Math.max(4, x(g.to) - x(g.from));
    const x0 = Math.min(x(g.from), right - width);
    return markup`<rect class="gap" x="${fixed(x0)}" y="${top}" width="${fixed(width)}" height="${bottom - top}"
      fill="${colours.gap}"><title>${periods[i]}</title></rect>`;
  });
  const yTicks = scale.ticks.map((tick) => {
    const at = y(tick);
    return markup`${line(left, at, right, at, colours.grid)}${text(left - 8, at + 4, 'end', formatYen(tick))}`;
  });
  const xTicks = dateTicks(from, to, lang).map((tick) => {
    const at = x(tick.ms);
    const anchor = at - left < 30 ? 'start' : right - at < 30 ? 'end' : 'middle';
    return markup`${line(at, bottom, at, bottom + 5, colours.axis)}${text(at, bottom + 19, anchor, tick.label)}`;
  });
  const dots = (points.length <= maxDots ? priced : []).map(
    (p) => markup`<circle cx="${fixed(x(Date.parse(p.t)))}" cy="${fixed(y(p.price!))}" r="2.5" />`,
  );

  // The lowest price's label sits above its mark, to the right unless that would leave the plot.
  const lx = x(lowest.t);
  const ly = y(lowest.price);
  const labelWidth = textWidth(lowestText);
  const toRight = lx + 8 + labelWidth <= chartSize.width - 4;
  const labelY = ly - 10 < top + 4 ? ly + 20 : ly - 10;

  // The legend, one row above the plot: the line, the lowest mark, the shaded gaps (only when there are any).
  const legend: SafeHtml[] = [];
  let lx0: number = left;
  const legendY = 16;
  const item = (swatch: SafeHtml, label: string) => {
    legend.push(markup`${swatch}${text(lx0 + 22, legendY + 4, 'start', label)}`);
    lx0 += 22 + textWidth(label) + 18;
  };
  item(line(lx0, legendY, lx0 + 16, legendY, colours.line, markup` stroke-width="2.5"`), t('chartLegendPrice'));
  item(
    markup`<circle cx="${fixed(lx0 + 8)}" cy="${legendY}" r="4.5" fill="${colours.lowest}" />`,
    t('chartLegendLowest'),
  );
  if (gaps.length > 0) {
    const swatch = markup`<rect x="${fixed(lx0)}" y="${legendY - 7}" width="16" height="14" fill="${colours.gap}"
      stroke="${colours.gapEdge}" />`;
    item(swatch, t('chartLegendGap'));
  }

  return markup`<svg
    class="price-chart"
    viewBox="0 0 ${chartSize.width} ${chartSize.height}"
    width="${chartSize.width}"
    height="${chartSize.height}"
    role="img"
    aria-labelledby="${id}-title ${id}-desc"
    xmlns="http://www.w3.org/2000/svg"
    font-size="12"
    fill="${colours.text}"
  >
    <title id="${id}-title">${t('chartTitle', { subject: options.subject })}</title>
    <desc id="${id}-desc">${summary}</desc>
    ${shading}${yTicks}${line(left, bottom, right, bottom, colours.axis)}${xTicks}
    <path class="price-line" d="${stepPath(points, untilMs, x, y)}" fill="none" stroke="${colours.line}"
      stroke-width="2.5" stroke-linejoin="round" />
    <g fill="${colours.line}">${dots}</g>
    <circle class="lowest" cx="${fixed(lx)}" cy="${fixed(ly)}" r="5" fill="${colours.lowest}" stroke="#fff"
      stroke-width="1.5" />
    <text class="lowest-label" x="${fixed(toRight ? lx + 8 : lx - 8)}" y="${fixed(labelY)}"
      text-anchor="${toRight ? 'start' : 'end'}" font-weight="700" fill="${colours.lowest}" stroke="#fff"
      stroke-width="4" paint-order="stroke">${lowestText}</text>
    ${legend}${text(right, legendY + 4, 'end', t('chartTimes'))}
  </svg>`;
}
