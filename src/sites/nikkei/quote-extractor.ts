// 日経会社情報DIGITAL (www.nikkei.com) `/nkd/company/?scode=CODE`: price, date, and the 株価指標 list (売買高, PBR, 時価総額 …).
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { QuoteData, QuoteMetric } from '../../extract/page-types.js';
import { quoteMetric } from '../../extract/quote.js';
import { elementText, firstText, selectMany, textOf } from '../../extract/selectors.js';
import { parseDate } from '../../normalize/date.js';
import { parseNumber } from '../../normalize/number.js';

const ID = 'nikkei/quote';
const INFO = '#JSID_stockInfo';

// The 株価指標 headings (the "(解説)" link and a time or date in brackets removed); unknown ones are not typed.
const INDICATORS: Readonly<Record<string, { key: string; unit: string }>> = {
  始値: { key: 'open', unit: '円' },
  高値: { key: 'high', unit: '円' },
  安値: { key: 'low', unit: '円' },
  売買高: { key: 'volume', unit: '株' },
  予想PER: { key: 'per', unit: '倍' },
  予想配当利回り: { key: 'dividend_yield', unit: '%' },
  'PBR(実績)': { key: 'pbr', unit: '倍' },
  'ROE(予想)': { key: 'roe', unit: '%' },
  '株式益回り(予想)': { key: 'earnings_yield', unit: '%' },
  普通株式数: { key: 'shares_outstanding', unit: '株' },
  時価総額: { key: 'market_cap', unit: '円' },
  売買単位: { key: 'trading_unit', unit: '株' },
  最低購入金額: { key: 'minimum_purchase', unit: '円' },
};

const headingOf = (raw: string) =>
  raw
    .replace(/\(解説\)/g, '')
    .replace(/\s*\((?:\d{1,2}:\d{2}|\d{1,2}\/\d{1,2}\/\d{1,2})\)\s*$/, '')
    .replace(/\s+/g, '')
    .trim();

// Everything read from the page, in one walk of it rather than a scan each; an indicator's title and value in one
// walk of its item.
const PARTS = {
  first: {
    category: '.m-companyCategory_text',
    name: 'h1.m-headlineLarge_text',
    price: '.m-stockPriceElm_value.now',
    date: `${INFO} .m-stockInfo_date`,
    priceTitle: '.m-stockPriceElm_title',
    market: '.m-company_data_select_btn',
  },
  all: { indicators: `${INFO} .m-stockInfo_detail_list li` },
} as const;
const INDICATOR_PARTS = { first: { title: '.m-stockInfo_detail_title', value: '.m-stockInfo_detail_value' } } as const;

export const nikkeiQuoteExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'quote',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];

    // `9681 : レジャー・レジャー施設`: the code, then the industry link.
    const parts = selectMany(doc, PARTS);
    const category = parts.first.category;
    const code = category ? (/^([0-9][0-9A-Z]{3})\b/.exec(textOf(category))?.[1] ?? null) : null;
    const name = elementText(parts.first.name);
    const priceText = elementText(parts.first.price);
    const missing = [!code && 'code', !name && 'name', !priceText && 'price'].filter(Boolean);
    if (missing.length > 0) throw new KumoError('extraction_failed', `${ID}: no ${missing.join(', ')}`);
    const price = parseNumber(priceText!);
    if (!price) throw new KumoError('extraction_failed', `${ID}: price is not a number`);

    // The date under the indicators, and the time of the price in its heading (`現在値(15:00)：`).
    const dateText = elementText(parts.first.date);
    const time = /\((\d{1,2}:\d{2})\)/.exec(elementText(parts.first.priceTitle) ?? '')?.[1];
    const asOf = dateText ? parseDate(time ? `${dateText} ${time}` : dateText).value : null;

    const metrics: QuoteMetric[] = [];
    let benefits: string | null = null;
    for (const li of parts.all.indicators) {
      const { title, value } = selectMany(li, INDICATOR_PARTS).first;
      if (!title || !value) continue;
      const label = headingOf(textOf(title));
      if (label === '株主優待') {
        benefits = textOf(value) || null;
        continue;
      }
      const known = INDICATORS[label];
      if (!known || metrics.some((m) => m.key === known.key)) continue;
      const metric = quoteMetric(known.key, label, textOf(value), known.unit);
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: ${known.key} not read`);
    }

    const industry = category ? firstText(category, 'a') : null;
    const data: QuoteData = {
      code: code!,
      name: name!,
      market: elementText(parts.first.market),
      price: price.value,
      ...(price.reason ? { price_reason: price.reason } : {}),
      price_text: priceText!,
      currency: 'JPY',
      as_of: asOf,
      as_of_text: dateText,
      metrics,
      ...(industry ? { industry } : {}),
      ...(benefits ? { shareholder_benefits: benefits } : {}),
    };
    const provenance: Record<string, string> = {
      code: 'selector:.m-companyCategory_text',
      name: 'selector:h1.m-headlineLarge_text',
      market: 'selector:.m-company_data_select_btn',
      price: 'selector:.m-stockPriceElm_value.now',
      price_text: 'selector:.m-stockPriceElm_value.now',
      currency: 'constant:JPY (a 東証 listing priced in 円)',
      as_of: `selector:${INFO} .m-stockInfo_date (+ the time in .m-stockPriceElm_title)`,
      as_of_text: `selector:${INFO} .m-stockInfo_date`,
      metrics: `selector:${INFO} .m-stockInfo_detail_list li (title → value)`,
    };
    if (data.price_reason) provenance.price_reason = provenance.price!;
    if (data.industry) provenance.industry = 'selector:.m-companyCategory_text a';
    if (data.shareholder_benefits)
      provenance.shareholder_benefits = `selector:${INFO} .m-stockInfo_detail_list li(株主優待) .m-stockInfo_detail_value`;
    return { data, provenance, warnings };
  },
});
