// みんかぶ (minkabu.jp) stock page `/stock/CODE`: the stock board (price, its date) and the 目標株価 card's four prices.
import type { Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import type { Extraction, Extractor } from '../../extract/extractor.js';
import type { QuoteData, QuoteMetric } from '../../extract/page-types.js';
import { quoteMetric } from '../../extract/quote.js';
import { all, firstText } from '../../extract/selectors.js';
import { parseNumber } from '../../normalize/number.js';
import type { NormalizedPage } from '../../normalize/page.js';

const ID = 'minkabu/quote';
const BOARD = '.md_stockBoard';

// The target card's columns, found by their heading; the value is the column's `span.fsxl.fwb`.
const FORECASTS: Readonly<Record<string, { key: string; label: string }>> = {
  株価診断: { key: 'theoretical_price', label: '理論株価' },
  個人投資家の予想: { key: 'individual_forecast_price', label: '個人投資家の予想株価' },
  証券アナリストの予想: { key: 'analyst_forecast_price', label: '証券アナリストの予想株価' },
};

export const minkabuQuoteExtractor: Extractor = {
  id: ID,
  version: 1,
  pageType: 'quote',
  input: 'html',
  extract(page: NormalizedPage): Extraction {
    if (page.kind !== 'html') throw new KumoError('extraction_failed', `${ID} reads HTML pages`);
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];

    // `2157  東証１部`: the code, then the market.
    const label = firstText(doc, `${BOARD} div.stock_label`);
    const m = label ? /^([0-9][0-9A-Z]{3})\s*(.*)$/.exec(label) : null;
    const name = firstText(doc, `${BOARD} .md_stockBoard_stockName`);
    const priceText = firstText(doc, `${BOARD} .stock_price`);
    const missing = [!m && 'code', !name && 'name', !priceText && 'price'].filter(Boolean);
    if (missing.length > 0) throw new KumoError('extraction_failed', `${ID}: no ${missing.join(', ')}`);
    const price = parseNumber(priceText!);
    if (!price) throw new KumoError('extraction_failed', `${ID}: price is not a number`);
    // `(11/27)`: month and day only; a year would be a guess from the capture date, so as_of stays null.
    const dateText = firstText(doc, `${BOARD} h2.stock_label .fsm`)?.replace(/^[(（]|[)）]$/g, '') ?? null;

    const metrics: QuoteMetric[] = [];
    const target = firstText(doc, `${BOARD} .md_target_box_price`);
    if (target) {
      const metric = quoteMetric('target_price', '目標株価', target, '円');
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: target price not read`);
    }
    for (const index of all(doc, '.md_sub_index')) {
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
      as_of: null,
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
      as_of: 'constant:null (the page writes month/day without a year)',
      as_of_text: `selector:${BOARD} h2.stock_label .fsm`,
      metrics: `selector:${BOARD} .md_target_box_price, .md_sub_index h3 → span.fsxl.fwb`,
    };
    if (data.price_reason) provenance.price_reason = provenance.price!;
    return { data, provenance, warnings };
  },
};
