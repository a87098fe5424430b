// The Extractor role: a pure function from a normalized page to the `data` of one page type, and its definer.
import { KumoError } from '../errors.js';
import type { NormalizedPage } from '../normalize/page.js';
import type { PageType } from './page-type.js';

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

/** The kinds of page normalization produces (`html`, `json`, `csv`, `xml`, `zip`). */
export type PageKind = NormalizedPage['kind'];
/** The normalized page of one kind: what an extractor declared with `input: K` reads. */
export type PageOf<K extends PageKind> = Extract<NormalizedPage, { kind: K }>;

export interface Extractor {
  /** `<site_id>/<page_type>` */
  id: string;
  /** Bumped whenever the output's shape or meaning changes. */
  version: number;
  pageType: PageType;
  input: PageKind;
  /** Pure; throws KumoError('extraction_failed') when a required field cannot be found (never guesses). */
  extract(page: NormalizedPage): Extraction;
}

/** What `defineExtractor` takes: the extractor, with `extract` typed by the kind of page it reads. */
export interface ExtractorDefinition<K extends PageKind, P extends PageType> {
  /** `<site_id>/<page_type>`: the text after the slash starts with `pageType` (checked when it compiles; `mercari/item_rendered` is an item extractor). */
  id: `${string}/${NoInfer<P>}${string}`;
  version: number;
  pageType: P;
  input: K;
  /** The page in a refusal's words (`the item API's JSON`); by default the kind's (`HTML pages`). */
  reads?: string;
  extract(page: PageOf<K>): Extraction;
}

const KIND_WORDS: Readonly<Record<PageKind, string>> = {
  html: 'HTML pages',
  json: 'JSON answers',
  csv: 'CSV answers',
  xml: 'XML documents',
  zip: 'ZIP archives',
};

/**
 * Builds an Extractor from its definition. The page reaching `extract` is already of the declared kind: a page of
 * another kind (a content type the site did not promise) is refused as `extraction_failed` here, once, instead of by
 * a check at the top of every extractor.
 */
export function defineExtractor<K extends PageKind, P extends PageType>(
  definition: ExtractorDefinition<K, P>,
): Extractor {
  const { id, version, pageType, input } = definition;
  const reads = definition.reads ?? KIND_WORDS[input];
  return {
    id,
    version,
    pageType,
    input,
    extract(page: NormalizedPage): Extraction {
      if (!isKind(page, input)) throw new KumoError('extraction_failed', `${id} reads ${reads}`);
      return definition.extract(page);
    },
  };
}

function isKind<K extends PageKind>(page: NormalizedPage, kind: K): page is PageOf<K> {
  return page.kind === kind;
}

/** Two (or more) sources of one page that give different values for `field`. Never served to callers. */
export interface Disagreement {
  field: string;
  /** Source kinds, sorted: `json-ld`, `microdata`, `meta`, `shown` (the page's displayed text), `json` (state). */
  sources: string[];
}
