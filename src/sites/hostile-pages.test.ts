// Hostile pages through normalize + a real extractor (test matrix D.63–D.65): deep nesting, JSON-LD floods and
// regex bait end in a result or extraction_failed, never a crash, a stack overflow or a runaway parse.
import { describe, expect, it } from 'vitest';
import { normalizePage, normalizeLimits } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import { ikebeItemExtractor } from './ikebe-gakki/item-extractor.js';
import { KumoError } from '../errors.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const encoder = new TextEncoder();

function extract(html: string) {
  const page = normalizePage({
    body: encoder.encode(html),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    finalUrl: url,
    input: 'html',
  });
  const extraction = ikebeItemExtractor.extract(page);
  validateExtraction('item', extraction);
  return extraction;
}

const product = (name: string, price: string) =>
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":${JSON.stringify(name)},"offers":{"@type":"Offer","price":${JSON.stringify(price)},"priceCurrency":"JPY"}}</script>`;

// A bound only a runaway (quadratic or worse) would cross on this 2-core machine; speed itself is the bench's job.
// The 50,000-deep page costs htmlparser2 itself 0.5–3 s here (its open-element stack), noted in docs/fetching.md.
const blowUpMs = 20_000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('hostile pages', () => {
  it('50,000 nested <div>s: the depth is capped, the product still extracted', () => {
    const html = `<html><head>${product('深い商品', '1980')}</head><body>${'<div>'.repeat(50_000)}x${'</div>'.repeat(50_000)}</body></html>`;
    const { value, ms } = timed(() => extract(html));
    expect(value.data.title).toBe('深い商品');
    expect(value.data.price).toBe(1980);
    expect(value.warnings.join(' ')).toContain(String(normalizeLimits.maxDomDepth));
    expect(ms).toBeLessThan(blowUpMs);
  });

  it('10,000 JSON-LD blocks: the first ones are read, the rest ignored with a warning', () => {
    const blocks = Array.from({ length: 10_000 }, () => product('洪水', '500')).join('');
    const { value, ms } = timed(() => extract(`<html><head>${blocks}</head><body></body></html>`));
    expect(value.data.price).toBe(500);
    expect(value.warnings.some((w) => w.includes('too many blocks'))).toBe(true);
    expect(ms).toBeLessThan(blowUpMs);
  });

  it('JSON-LD nested 100,000 levels deep is skipped, not a stack overflow', () => {
    const deep = `<script type="application/ld+json">${'['.repeat(100_000)}${']'.repeat(100_000)}</script>`;
    const html = `<html><head>${deep}</head><body><h1 class="fs-c-productNameHeading"><span class="fs-c-productNameHeading__name">無名</span></h1></body></html>`;
    let outcome: unknown;
    try {
      outcome = extract(html);
    } catch (error) {
      outcome = error;
    }
    // No price anywhere: the honest answer is extraction_failed, reached without a RangeError.
    expect(outcome).toBeInstanceOf(KumoError);
    expect((outcome as KumoError).code).toBe('extraction_failed');
  });

  it('regex bait in the title and price (100 KB runs, full-width runs) ends within the budget', () => {
    const bait = `${'a'.repeat(100_000)}!`;
    const wide = `${'１'.repeat(50_000)}円円`;
    const html = `<html><head>${product(bait, wide)}</head><body>
      <div class="fs-c-productPrice fs-c-productPrice--selling"><span class="fs-c-price__value">${'９'.repeat(50_000)}</span>
      <span class="fs-c-productPrice__addon__label">税込${'　'.repeat(50_000)}</span></div></body></html>`;
    const { value, ms } = timed(() => {
      try {
        return extract(html);
      } catch (error) {
        return error;
      }
    });
    // Either a typed refusal or a result whose price is a safe integer: never a hang, never a float.
    if (value instanceof KumoError) expect(value.code).toBe('extraction_failed');
    else expect(Number.isSafeInteger((value as { data: { price: number } }).data.price)).toBe(true);
    expect(ms).toBeLessThan(blowUpMs);
  });
});
