// Output caps, for any extractor: long lists are cut and named in warnings, an answer past the byte cap is refused
// with output_too_large, and the size check itself never builds an oversized string.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Extractor } from '../extract/extractor.js';
import { repoRoot } from '../sites/corpus.js';
import { KumoError } from '../errors.js';
import { estatStatsDataExtractor } from '../sites/estat-api/stats-data-extractor.js';
import { ikebeItemExtractor } from '../sites/ikebe-gakki/item-extractor.js';
import { capLists, jsonByteLength, jsonStringByteLength, produce, type ProduceJob } from './produce.js';

const encoder = new TextEncoder();

/** An e-Stat getStatsData answer shaped like the one in issue 7: class names repeated across every row. */
function estatResponse(rows: number, nameLength: number): ProduceJob {
  const name = '分'.repeat(nameLength);
  const response = {
    GET_STATS_DATA: {
      RESULT: { STATUS: 0 },
      STATISTICAL_DATA: {
        TABLE_INF: { '@id': '0003000000', TITLE: '生成された表' },
        CLASS_INF: {
          CLASS_OBJ: ['cat01', 'area', 'time'].map((id) => ({
            '@id': id,
            '@name': name,
            CLASS: Array.from({ length: 50 }, (_, i) => ({ '@code': String(i), '@name': `${name}${i}` })),
          })),
        },
        DATA_INF: {
          VALUE: Array.from({ length: rows }, (_, i) => ({
            '@cat01': String(i % 50),
            '@area': String(Math.floor(i / 50) % 50),
            '@time': String(Math.floor(i / 2500) % 50),
            '@unit': '人',
            $: String(i * 7),
          })),
        },
      },
    },
  };
  return {
    extractorId: estatStatsDataExtractor.id,
    body: encoder.encode(JSON.stringify(response)),
    headers: { 'content-type': 'application/json;charset=utf-8' },
    finalUrl: 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?statsDataId=0003000000',
    wantData: true,
    wantHtml: false,
  };
}

describe('output caps', () => {
  it('cuts a 50,000-row e-Stat table to the row cap and says so in warnings', () => {
    const job = estatResponse(50_000, 200);
    const produced = produce(job, estatStatsDataExtractor, { maxRows: 10_000, maxBytes: 20 * 1024 * 1024 });
    const data = produced.extraction!.data as { rows: { raw: string }[]; classes: { items: unknown[] }[] };
    expect(data.rows).toHaveLength(10_000);
    expect(data.rows.at(-1)!.raw).toBe(String(9_999 * 7));
    expect(produced.extraction!.warnings).toContain('rows_truncated:rows:10000/50000');
    // The answer stays of the order of its input: names are not copied per row.
    expect(jsonByteLength(data)).toBeLessThan(job.body.byteLength);
  });

  it('refuses with output_too_large when data would pass the byte cap, whichever extractor made it', () => {
    const job = estatResponse(5_000, 10);
    let outcome: unknown;
    try {
      produce(job, estatStatsDataExtractor, { maxRows: 10_000, maxBytes: 100_000 });
    } catch (error) {
      outcome = error;
    }
    expect(outcome).toBeInstanceOf(KumoError);
    expect((outcome as KumoError).code).toBe('output_too_large');
    expect((outcome as KumoError).message).not.toContain('分');
  });

  it('counts the served HTML against the byte cap too', () => {
    const filler = `<p>${'あ'.repeat(40_000)}</p>`;
    const page = `<html><head><script type="application/ld+json">{"@type":"Product","name":"商品","offers":{"@type":"Offer","price":"100","priceCurrency":"JPY"}}</script></head><body>${filler}</body></html>`;
    const job: ProduceJob = {
      extractorId: ikebeItemExtractor.id,
      body: encoder.encode(page),
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      wantData: true,
      wantHtml: false,
    };
    const limits = { maxRows: 100, maxBytes: 100_000 };
    expect(produce(job, ikebeItemExtractor, limits).extraction!.data.price).toBe(100);
    expect(() => produce({ ...job, wantHtml: true }, ikebeItemExtractor, limits)).toThrow(
      expect.objectContaining({ code: 'output_too_large' }),
    );
  });

  it('counts the HTML as it is served, JSON-escaped: a page just under the cap in raw bytes but over it as JSON is output_too_large', () => {
    const cap = 100_000;
    const itemJob = (body: string): ProduceJob => ({
      extractorId: ikebeItemExtractor.id,
      body: encoder.encode(
        `<html><head><script type="application/ld+json">{"@type":"Product","name":"商品","offers":{"@type":"Offer","price":"100","priceCurrency":"JPY"}}</script></head><body>${body}</body></html>`,
      ),
      headers: { 'content-type': 'text/html; charset=utf-8' },
      finalUrl: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
      wantData: true,
      wantHtml: true,
    });
    const limits = { maxRows: 100, maxBytes: cap };
    // Every character that JSON escapes and the served HTML keeps: quotes and backslashes (2 bytes each in JSON), in
    // text and in an attribute value.
    for (const filler of [
      `<p>${'\\'.repeat(cap * 0.6)}</p>`,
      `<p>${'"'.repeat(cap * 0.6)}</p>`,
      `<p title="${'\\'.repeat(cap * 0.3)}">${'"'.repeat(cap * 0.3)}</p>`,
    ]) {
      const job = itemJob(filler);
      expect(job.body.byteLength).toBeLessThan(cap);
      expect(() => produce(job, ikebeItemExtractor, limits), filler.slice(0, 20)).toThrow(
        expect.objectContaining({ code: 'output_too_large' }),
      );
      // Without the HTML the same page is served: it is the escaped HTML that is counted.
      expect(produce({ ...job, wantHtml: false }, ikebeItemExtractor, limits).extraction!.data.price).toBe(100);
    }
    // Control characters would take 6 bytes each in JSON; the served HTML does not carry them at all.
    const controls = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c))
      .filter((c) => !'\t\n\f\r'.includes(c))
      .join('');
    const job = itemJob(`<p title="${controls.repeat(1_000)}">${controls.repeat(2_000)}</p>`);
    expect(job.body.byteLength).toBeLessThan(cap);
    expect(job.body.byteLength * 6).toBeGreaterThan(cap);
    const produced = produce(job, ikebeItemExtractor, limits);
    expect(Buffer.byteLength(JSON.stringify(produced.html))).toBeLessThan(2_000);
  });

  it('measures a string as JSON exactly, for every UTF-16 code unit and surrogate pairs, lone or not', () => {
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));
    const wrong = units.filter((unit) => jsonStringByteLength(unit) !== Buffer.byteLength(JSON.stringify(unit)));
    expect(wrong.map((unit) => unit.charCodeAt(0).toString(16))).toEqual([]);
    for (const text of [
      '',
      'a"b\\c',
      '😀',
      '\ud83d',
      '\ude00x',
      'x\ud83d',
      '\ud83d\ud83d\ude00',
      '日本\u0001\u007f\u2028',
    ]) {
      expect(jsonStringByteLength(text), JSON.stringify(text)).toBe(Buffer.byteLength(JSON.stringify(text)));
    }
    expect(jsonStringByteLength(units.join(''))).toBe(Buffer.byteLength(JSON.stringify(units.join(''))));
  });

  it('cuts every over-long array at any depth, naming each path', () => {
    const data = {
      items: Array.from({ length: 5 }, (_, i) => ({ n: i, tags: Array.from({ length: i }, () => 'x') })),
      nested: { list: [1, 2, 3] },
      short: [1],
    };
    expect(capLists(data, 3)).toEqual(['rows_truncated:items:3/5']);
    expect(data.items).toHaveLength(3);
    expect(capLists(data, 1)).toEqual(['rows_truncated:items:1/3', 'rows_truncated:nested.list:1/3']);
  });

  it('measures JSON bytes exactly, and stops counting once past the limit', () => {
    const values: unknown[] = [
      { a: 'é"\n', b: [1, 2.5, null, true], c: {}, d: [], e: { f: '日本' } },
      [],
      'x',
      { skip: undefined, keep: 0 },
    ];
    for (const value of values) expect(jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    const huge = { rows: Array.from({ length: 100_000 }, () => 'x'.repeat(1_000)) };
    const started = performance.now();
    expect(jsonByteLength(huge, 1_000_000)).toBeGreaterThan(1_000_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('disagreements travel beside the result, never in what is served', () => {
  it("an extractor's reported disagreements and the cross-check's come back as plain data; the extraction has none", () => {
    const html = readFileSync(join(repoRoot, 'src/sites/ikebe-gakki/fixtures/modelled-price-disagreement.html'));
    const reporting: Extractor = {
      ...ikebeItemExtractor,
      extract: (page) => ({
        ...ikebeItemExtractor.extract(page),
        disagreements: [{ field: 'points', sources: ['json', 'shown'] }],
      }),
    };
    const produced = produce(
      {
        extractorId: ikebeItemExtractor.id,
        body: new Uint8Array(html),
        headers: { 'content-type': 'text/html; charset=utf-8' },
        finalUrl: 'https://www.ikebe-gakki.com/c/c-/gt/gt20/gt200001/400001',
        wantData: true,
        wantHtml: false,
      },
      reporting,
      { maxRows: 1000, maxBytes: 1_000_000 },
    );
    expect(produced.disagreements).toEqual([
      { field: 'points', sources: ['json', 'shown'] },
      { field: 'price', sources: ['json-ld', 'shown'] },
    ]);
    expect(produced.extraction).not.toHaveProperty('disagreements');
    expect(structuredClone(produced.disagreements)).toEqual(produced.disagreements);
  });
});
