// Quote-page figures (PER, 時価総額, 目標株価 …) → typed metrics that keep the text they were read from.
import { parseNumber, parseTableNumber } from '../normalize/number.js';
import { normalizeText } from '../normalize/text.js';
import type { QuoteMetric } from './page-types.js';

// Units a quote shows after a figure without changing its magnitude; 円 amounts (百万円, 億円) go to parseNumber whole.
const DISPLAY_UNIT = /\s*(?:倍|%)$/;
// Any trailing unit, to see whether what stands before it is a mark rather than a figure (`---円`, `－倍`).
const ANY_UNIT = /\s*(?:倍|%|円|株)$/;
// Market sites write "no figure" as runs of dashes or N/A; one dash is the standard 該当なし mark (research §0 rule 6).
const NO_FIGURE = /^(?:-{2,}|―{2,}|ー+|N\/?A|n\/?a)$/;

/**
 * One figure of a quote page. `unit` is the unit of the value once 千/百万/億 are applied (`円`, `株`, `倍`, `%`);
 * the text as written stays in `raw`. Returns null when the text is neither a number nor a known mark: the
 * caller decides whether that is a warning or an error.
 */
export function quoteMetric(key: string, label: string, raw: string, unit: string | null): QuoteMetric | null {
  const text = normalizeText(raw).replace(/\s+/g, ' ').trim();
  const label_ = normalizeText(label).replace(/\s+/g, ' ').trim();
  const bare = text.replace(DISPLAY_UNIT, '').trim();
  const core = text.replace(ANY_UNIT, '').trim();
  if (NO_FIGURE.test(core)) return { key, label: label_, value: null, unit, raw: text, reason: 'unavailable' };
  const mark = parseTableNumber(core);
  if (mark && mark.value === null)
    return { key, label: label_, value: null, unit, raw: text, reason: mark.reason ?? 'unavailable' };
  const n = parseNumber(unit === '円' || unit === '株' ? text : bare);
  if (!n) return null;
  if (n.value === null) return { key, label: label_, value: null, unit, raw: text, reason: n.reason ?? 'unavailable' };
  return { key, label: label_, value: n.value, unit, raw: text };
}
