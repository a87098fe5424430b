// みんかぶ (minkabu.jp) stock page `/stock/CODE`: the stock board (price, its date) and the 目標株価 card's four prices.
import type { Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { QuoteData, QuoteMetric } from '../../extract/page-types.js';
import { quoteMetric } from '../../extract/quote.js';
import { attrOf, elementText, firstText, selectMany, type Selection } from '../../extract/selectors.js';
import { parseNumber } from '../../normalize/number.js';

const ID = 'minkabu/quote';
const BOARD = '.md_stockBoard';

// The target card's columns, found by their heading; the value is the column's `span.fsxl.fwb`.
const FORECASTS: Readonly<Record<string, { key: string; label: string }>> = {
  株価診断: { key: 'theoretical_price', label: '理論株価' },
  個人投資家の予想: { key: 'individual_forecast_price', label: '個人投資家の予想株価' },
  証券アナリストの予想: { key: 'analyst_forecast_price', label: '証券アナリストの予想株価' },
};

// The date the page was written, which it states at the head of its caution line and of its description.
const PAGE_DATE = /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})\s*-/;

// Everything read from the page, in one walk of it rather than a scan each.
const PARTS = {
  first: {
    label: `${BOARD} div.stock_label`,
    name: `${BOARD} .md_stockBoard_stockName`,
    price: `${BOARD} .stock_price`,
    date: `${BOARD} h2.stock_label .fsm`,
    target: `${BOARD} .md_target_box_price`,
    caution: 'p.stock_caution',
  },
  all: { descriptions: 'meta[name="description"]', subIndexes: '.md_sub_index' },
} as const;
type Parts = Selection<keyof typeof PARTS.first, keyof typeof PARTS.all>;

function pageDate(parts: Parts): { date: { y: number; m: number; d: number }; source: string } | null {
  const sources: [string, string | null][] = [
    ['selector:p.stock_caution', elementText(parts.first.caution)],
    ['meta:description', attrOf(parts.all.descriptions, 'content')],
  ];
  for (const [source, text] of sources) {
    const m = text ? PAGE_DATE.exec(text) : null;
    if (m) return { date: { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) }, source };
  }
  return null;
}

/**
 * `11/27` on a page written 2020/11/29 → 2020-11-27; `12/30` on a page written 2021/01/02 → 2020-12-30; a time
 * (`10:42`, during the trading day) is that time on the day the page was written.
 */
function boardDay(text: string, written: { y: number; m: number; d: number }): string | null {
  const time = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (time) {
    const day = boardDay(`${written.m}/${written.d}`, written);
    return day ? `${day}T${time[1]!.padStart(2, '0')}:${time[2]}:00+09:00` : null;
  }
  const m = /^(\d{1,2})\/(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = month * 100 + day > written.m * 100 + written.d ? written.y - 1 : written.y;
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const check = new Date(`${iso}T00:00:00Z`);
  return check.getUTCMonth() + 1 === month && check.getUTCDate() === day ? iso : null;
}

export const minkabuQuoteExtractor = defineExtractor({
  id: ID,
  version: 2,
  pageType: 'quote',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];

    // `2157  東証１部`: the code, then the market.
    const parts = selectMany(doc, PARTS);
    const label = elementText(parts.first.label);
    const m = label ? /^([0-9][0-9A-Z]{3})\s*(.*)$/.exec(label) : null;
    const name = elementText(parts.first.name);
    const priceText = elementText(parts.first.price);
    const missing = [!m && 'code', !name && 'name', !priceText && 'price'].filter(Boolean);
    if (missing.length > 0) throw new KumoError('extraction_failed', `${ID}: no ${missing.join(', ')}`);
    const price = parseNumber(priceText!);
    if (!price) throw new KumoError('extraction_failed', `${ID}: price is not a number`);
    // `(11/27)`: month and day only. The page dates itself (`2020/11/29 - コシダカ…` in its caution line and
    // description), and the board's day is the latest trading day not after that date: that fixes the year.
    const dateText = elementText(parts.first.date)?.replace(/^[(（]|[)）]$/g, '') ?? null;
    const written = pageDate(parts);
    const asOf = dateText && written ? boardDay(dateText, written.date) : null;

    const metrics: QuoteMetric[] = [];
    const target = elementText(parts.first.target);
    if (target) {
      const metric = quoteMetric('target_price', '目標株価', target, '円');
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: target price not read`);
    }
    for (const index of parts.all.subIndexes) {
      const heading = firstText(index, 'h3');
      const known = heading ? FORECASTS[heading] : undefined;
      if (!known || metrics.some((x) => x.key === known.key)) continue;
      const box = index.parent as Element | null;
      const value = box ? firstText(box, 'span.fsxl.fwb') : null;
      const metric = value ? quoteMetric(known.key, known.label, value, '円') : null;
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: ${known.key} not read`);
    }

    const data: QuoteData = {
      code: m![1]!,
      name: name!,
      market: m![2] ? m![2] : null,
      price: price.value,
      ...(price.reason ? { price_reason: price.reason } : {}),
      price_text: priceText!,
      currency: 'JPY',
      as_of: asOf,
      as_of_text: dateText,
      metrics,
    };
    const provenance: Record<string, string> = {
      code: `selector:${BOARD} div.stock_label`,
      name: `selector:${BOARD} .md_stockBoard_stockName`,
      market: `selector:${BOARD} div.stock_label`,
      price: `selector:${BOARD} .stock_price`,
      price_text: `selector:${BOARD} .stock_price`,
      currency: 'constant:JPY (a 東証 listing priced in 円)',
      as_of: asOf
        ? `selector:${BOARD} h2.stock_label .fsm (month/day) + ${written!.source} (the page's date: the year of the latest such day not after it)`
        : `none: ${dateText ? 'the page writes month/day and does not date itself' : 'no board date'}`,
      as_of_text: `selector:${BOARD} h2.stock_label .fsm`,
      metrics: `selector:${BOARD} .md_target_box_price, .md_sub_index h3 → span.fsxl.fwb`,
    };
    if (data.price_reason) provenance.price_reason = provenance.price!;
    return { data, provenance, warnings };
  },
});
