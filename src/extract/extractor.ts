// The Extractor role: a pure function from a normalized page to the `data` of one page type.
import type { NormalizedPage } from '../normalize/page.js';

export interface Extraction {
  data: Record<string, unknown>;
  /** Where each field came from: field name → source (`json-ld`, `meta:og`, `selector:.fs-c-price`, `json:$.path`). */
  provenance: Record<string, string>;
  warnings: string[];
  /**
   * Sources the extractor itself found disagreeing about a field (beside the shared cross-check of
   * src/extract/disagreements.ts): counted in metrics, never served.
   */
  disagreements?: Disagreement[];
}

export interface Extractor {
  /** `<site_id>/<page_type>` */
  id: string;
  /** Bumped whenever the output's shape or meaning changes. */
  version: number;
  pageType: string;
  input: NormalizedPage['kind'];
  /** Pure; throws KumoError('extraction_failed') when a required field cannot be found (never guesses). */
  extract(page: NormalizedPage): Extraction;
}

/** Two (or more) sources of one page that give different values for `field`. Never served to callers. */
export interface Disagreement {
  field: string;
  /** Source kinds, sorted: `json-ld`, `microdata`, `meta`, `shown` (the page's displayed text), `json` (state). */
  sources: string[];
}
