// 株探 (kabutan.jp) stock page `/stock/?code=CODE`: price, market, the PER/PBR/利回り/信用倍率/時価総額 box, company block.
import type { Element } from 'domhandler';
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import type { QuoteData, QuoteMetric } from '../../extract/page-types.js';
import { quoteMetric } from '../../extract/quote.js';
import { all, attrOf, elementText, first, firstAttr, firstText, selectMany, textOf } from '../../extract/selectors.js';
import { parseDate } from '../../normalize/date.js';
import { parseNumber } from '../../normalize/number.js';

const ID = 'kabutan/quote';
const HEAD = '#stockinfo_i1';
const BOX = '#stockinfo_i3';

// The indicator box's headings; an unknown heading is skipped with a warning rather than filed under a guess.
const INDICATORS: Readonly<Record<string, { key: string; unit: string }>> = {
  PER: { key: 'per', unit: '倍' },
  PBR: { key: 'pbr', unit: '倍' },
  利回り: { key: 'dividend_yield', unit: '%' },
  信用倍率: { key: 'margin_ratio', unit: '倍' },
};

// The day's figures beside the chart (#kobetsu_left th/td rows), found by heading; other rows are not typed.
const DAY_ROWS: Readonly<Record<string, { key: string; unit: string }>> = {
  始値: { key: 'open', unit: '円' },
  高値: { key: 'high', unit: '円' },
  安値: { key: 'low', unit: '円' },
  出来高: { key: 'volume', unit: '株' },
  売買代金: { key: 'turnover', unit: '円' },
  発行済株式数: { key: 'shares_outstanding', unit: '株' },
};

// Everything read from the page, in one walk of it rather than a scan each.
const PARTS = {
  first: {
    heading: `${HEAD} .si_i1_1 h2`,
    code: `${HEAD} .si_i1_1 h2 span.inline-block`,
    price: `${HEAD} .si_i1_2 span.kabuka`,
    capLabel: `${BOX} th.v_zika1`,
    capText: `${BOX} td.v_zika2`,
    market: `${HEAD} span.market`,
  },
  all: {
    stamps: `${HEAD} .si_i1_1_rbox time`,
    labels: `${BOX} thead th`,
    rows: `${BOX} tbody tr`,
    dayRows: '#kobetsu_left tr',
    companyRows: '.company_block tr',
  },
} as const;

export const kabutanQuoteExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'quote',
  input: 'html',
  extract(page): Extraction {
    const doc = page.document;
    const warnings = [...(page.warnings ?? [])];

    const parts = selectMany(doc, PARTS);
    const heading = parts.first.heading;
    const code = elementText(parts.first.code);
    const name = heading && code ? textOf(heading).replace(code, '').trim() : null;
    const priceText = elementText(parts.first.price);
    const missing = [!code && 'code', !name && 'name', !priceText && 'price'].filter(Boolean);
    if (missing.length > 0) throw new KumoError('extraction_failed', `${ID}: no ${missing.join(', ')}`);

    const price = parseNumber(priceText!);
    if (!price) throw new KumoError('extraction_failed', `${ID}: price is not a number`);
    const stamp = attrOf(parts.all.stamps, 'datetime');
    const asOf = stamp ? parseDate(stamp).value : null;

    const metrics: QuoteMetric[] = [];
    const labels = parts.all.labels.map((th) => textOf(th));
    const cells = parts.all.rows[0];
    const values = cells ? all(cells, 'td').map((td) => textOf(td)) : [];
    labels.forEach((label, i) => {
      const known = INDICATORS[label];
      const metric = known ? quoteMetric(known.key, label, values[i] ?? '', known.unit) : null;
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: indicator ${i + 1} not read`);
    });
    const capLabel = elementText(parts.first.capLabel);
    const capText = elementText(parts.first.capText);
    if (capLabel && capText) {
      const cap = quoteMetric('market_cap', capLabel, capText, '円');
      if (cap) metrics.push(cap);
      else warnings.push(`${ID}: market cap not read`);
    }

    for (const tr of parts.all.dayRows) {
      const label = firstText(tr, 'th');
      const known = label ? DAY_ROWS[label] : undefined;
      const cell = firstText(tr, 'td');
      if (!known || !cell || metrics.some((x) => x.key === known.key)) continue;
      const metric = quoteMetric(known.key, label!, cell, known.unit);
      if (metric) metrics.push(metric);
      else warnings.push(`${ID}: ${known.key} not read`);
    }

    const company = companyRows(parts.all.companyRows);
    const themes = parts.all.companyRows
      .filter((tr) => firstText(tr, 'th') === 'テーマ')
      .flatMap((tr) => all(tr, 'li').map((li) => textOf(li)))
      .filter((t) => t.length > 0);
    const website = company.site?.href;

    const data: QuoteData = {
      code: code!,
      name: name!,
      market: elementText(parts.first.market),
      price: price.value,
      ...(price.reason ? { price_reason: price.reason } : {}),
      price_text: priceText!,
      currency: 'JPY',
      as_of: asOf,
      as_of_text: stamp,
      metrics,
      ...(company.industry?.text ? { industry: company.industry.text } : {}),
      ...(company.english?.text ? { english_name: company.english.text } : {}),
      ...(website && /^https?:\/\//.test(website) ? { website } : {}),
      ...(themes.length > 0 ? { themes } : {}),
    };
    const provenance: Record<string, string> = {
      code: `selector:${HEAD} h2 span.inline-block`,
      name: `selector:${HEAD} h2`,
      market: `selector:${HEAD} span.market`,
      price: `selector:${HEAD} span.kabuka`,
      price_text: `selector:${HEAD} span.kabuka`,
      currency: 'constant:JPY (a 東証 listing priced in 円)',
      as_of: `selector:${HEAD} .si_i1_1_rbox time[datetime]`,
      as_of_text: `selector:${HEAD} .si_i1_1_rbox time[datetime]`,
      metrics: `selector:${BOX} thead th + tbody td, ${BOX} .v_zika1/.v_zika2, #kobetsu_left tr th/td`,
    };
    if (data.price_reason) provenance.price_reason = provenance.price!;
    if (data.industry) provenance.industry = 'selector:.company_block tr(業種) td';
    if (data.english_name) provenance.english_name = 'selector:.company_block tr(英語社名) td';
    if (data.website) provenance.website = 'selector:.company_block tr(会社サイト) a[href]';
    if (data.themes) provenance.themes = 'selector:.company_block tr(テーマ) li';
    return { data, provenance, warnings };
  },
});

// The 会社情報 block is a th/td table; rows are found by their heading, not their position.
function companyRows(trs: readonly Element[]) {
  const rows: Record<string, { text: string; href?: string }> = {};
  const keys: Record<string, string> = { 業種: 'industry', 英語社名: 'english', 会社サイト: 'site' };
  for (const tr of trs) {
    const key = keys[firstText(tr, 'th') ?? ''];
    const td = first(tr, 'td');
    if (!key || !td) continue;
    const href = firstAttr(td, 'a', 'href');
    rows[key] = { text: textOf(td), ...(href ? { href } : {}) };
  }
  return rows as Partial<Record<'industry' | 'english' | 'site', { text: string; href?: string }>>;
}
