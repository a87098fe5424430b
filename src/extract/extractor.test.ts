// defineExtractor: the kind check done once, the page typed by the declared kind, the id tied to the page type.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { defineExtractor } from './extractor.js';

const page = (body: string, contentType: string, input: 'html' | 'json') =>
  normalizePage({
    body: new TextEncoder().encode(body),
    headers: { 'content-type': contentType },
    finalUrl: 'https://example.test/item/1',
    input,
  });

const titleOfJson = defineExtractor({
  id: 'example/item',
  version: 1,
  pageType: 'item',
  input: 'json',
  // `page.json` compiles only because the page is typed as a JSON page.
  extract: (p) => ({ data: { title: String((p.json as { t: string }).t) }, provenance: {}, warnings: [] }),
});

describe('defineExtractor', () => {
  it('hands the extractor a page of its declared kind', () => {
    expect(titleOfJson.extract(page('{"t":"テスト"}', 'application/json', 'json')).data).toEqual({ title: 'テスト' });
    expect(titleOfJson).toMatchObject({ id: 'example/item', version: 1, pageType: 'item', input: 'json' });
  });

  it('refuses a page of another kind as extraction_failed, in the kind’s words or its own', () => {
    const html = page('<p>x</p>', 'text/html', 'html');
    expect(() => titleOfJson.extract(html)).toThrow(KumoError);
    expect(() => titleOfJson.extract(html)).toThrow('example/item reads JSON answers');
    const worded = defineExtractor({
      ...titleOfJson,
      id: 'example/item',
      pageType: 'item',
      input: 'json',
      reads: 'the item API’s JSON',
      extract: () => ({ data: {}, provenance: {}, warnings: [] }),
    });
    expect(() => worded.extract(html)).toThrow('example/item reads the item API’s JSON');
    try {
      titleOfJson.extract(html);
    } catch (error) {
      expect((error as KumoError).code).toBe('extraction_failed');
    }
  });

  // The assertions here are the @ts-expect-error directives: `npm run typecheck` fails when one stops being an error.
  it('is checked when it compiles: the id names the page type, the page is of the declared kind', () => {
    const wrongId = defineExtractor({
      // @ts-expect-error the page type after the slash is not `item`
      id: 'example/search',
      version: 1,
      pageType: 'item',
      input: 'html',
      extract: () => ({ data: {}, provenance: {}, warnings: [] }),
    });
    const notAType = defineExtractor({
      id: 'example/item',
      version: 1,
      // @ts-expect-error not a page type
      pageType: 'product',
      input: 'html',
      extract: () => ({ data: {}, provenance: {}, warnings: [] }),
    });
    const wrongKind = defineExtractor({
      id: 'example/item',
      version: 1,
      pageType: 'item',
      input: 'html',
      // @ts-expect-error an HTML page has no `json`
      extract: (p) => ({ data: { v: p.json }, provenance: {}, warnings: [] }),
    });
    // At run time they are still extractors: the compiler, not the definer, is what refuses them.
    expect([wrongId, notAType, wrongKind].map((e) => e.input)).toEqual(['html', 'html', 'html']);
  });
});
