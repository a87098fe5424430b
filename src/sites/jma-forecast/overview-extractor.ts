// 気象庁 bosai weather overview JSON (`overview_forecast/<office>.json`): the 天気概況 bulletin text.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction } from '../../extract/extractor.js';
import { obj, str } from '../../extract/json-path.js';
import type { ForecastOverviewData } from '../../extract/page-types.js';
import { normalizeMultilineText, normalizeText } from '../../normalize/text.js';

const ID = 'jma_forecast/forecast_overview';

export const jmaOverviewExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'forecast_overview',
  input: 'json',
  extract(page): Extraction {
    const root = obj(page.json);
    if (!root) throw new KumoError('extraction_failed', `${ID}: expected a JSON object`);
    const headline = normalizeMultilineText(str(root.headlineText) ?? '');
    const data: ForecastOverviewData = {
      publishing_office: normalizeText(str(root.publishingOffice) ?? ''),
      report_datetime: str(root.reportDatetime) ?? '',
      target_area: normalizeText(str(root.targetArea) ?? ''),
      headline: headline === '' ? null : headline,
      // The bulletin's paragraphs carry meaning, so line breaks survive normalization.
      text: normalizeMultilineText(str(root.text) ?? ''),
    };
    const provenance = {
      publishing_office: 'json:$.publishingOffice',
      report_datetime: 'json:$.reportDatetime',
      target_area: 'json:$.targetArea',
      headline: 'json:$.headlineText',
      text: 'json:$.text',
    };
    return { data, provenance, warnings: [] };
  },
});
