// `npm run bench:produce`: one page's work in an extraction worker, split into its phases (decode + parse, the rest of
// normalization, extract, validate), median ms per page type over N repetitions; no server, no network, one thread.
// Runs on Node 24's own TypeScript stripping against dist/; options: --reps N, --pages all|real, --only site[,site],
// --corpus DIR (default ../shared/corpus/real beside the repository).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { parseDocument } from 'htmlparser2';
import type * as RegistryModule from '../src/sites/registry.ts';
import type * as NormalizeModule from '../src/normalize/normalize-page.ts';
import type * as CharsetModule from '../src/normalize/charset.ts';
import type * as PageTypesModule from '../src/extract/page-types.ts';
import type * as ProduceModule from '../src/scrape/produce.ts';
import type { Extractor } from '../src/extract/extractor.ts';
import type { HtmlPage } from '../src/normalize/page.ts';
import { countOption } from './load.ts';
import { loadPages, type BenchPage } from './pages.ts';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: '25' },
    /** `real`: the corpus pages only; default `all`. */
    pages: { type: 'string', default: 'all' },
    only: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const reps = countOption('reps', args.reps);

const repoRoot = path.resolve(import.meta.dirname, '..');
const dist = (file: string) => path.join(repoRoot, 'dist', file);
const corpusDir = path.resolve(args.corpus ?? path.join(repoRoot, '../shared/corpus/real'));

const { siteCatalogue } = (await import(dist('sites/registry.js'))) as typeof RegistryModule;
const { normalizePage } = (await import(dist('normalize/normalize-page.js'))) as typeof NormalizeModule;
const { decodeBody } = (await import(dist('normalize/charset.js'))) as typeof CharsetModule;
const { validateExtraction } = (await import(dist('extract/page-types.js'))) as typeof PageTypesModule;
const { capLists } = (await import(dist('scrape/produce.js'))) as typeof ProduceModule;

const set = await loadPages(dist, corpusDir);
if (!set.corpusAvailable) console.log(`note: ${corpusDir} is absent; corpus pages skipped, in-project fixtures only`);
let pages = set.pages;
if (args.pages === 'real') pages = pages.filter((p) => p.source === 'corpus');
if (args.only) {
  const only = new Set(args.only.split(','));
  pages = pages.filter((p) => only.has(p.site));
}
if (pages.length === 0) {
  console.log('bench:produce skipped: no HTML pages to run');
  process.exit(0);
}

// The worker's default cap (KUMO_OUTPUT_MAX_ROWS); fixtures stay under it, so the cut is a walk, as when serving.
const maxRows = 10_000;

function extractorOf(page: BenchPage): Extractor {
  const site = siteCatalogue.find((s) => s.id === page.site)!;
  return site.pageTypes.find((e) => e.pageType === page.pageType)!.extractor;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Phases {
  decodeParse: number;
  normalizeRest: number;
  extract: number;
  validate: number;
}

/** Median ms of each phase for one page. Every repetition starts from the bytes, as a worker does. */
function measure(page: BenchPage): Phases {
  const extractor = extractorOf(page);
  const headers = { 'content-type': page.contentType };
  const times = {
    decodeParse: [] as number[],
    normalize: [] as number[],
    extract: [] as number[],
    validate: [] as number[],
  };
  // One unmeasured round first: lazily compiled selectors and schema validators are a once-per-worker cost.
  for (let i = -1; i < reps; i++) {
    const body = new Uint8Array(page.body);
    let t = performance.now();
    const { text } = decodeBody(body, page.contentType);
    parseDocument(text, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
    const decodeParse = performance.now() - t;
    t = performance.now();
    const normalized = normalizePage({ body, headers, finalUrl: page.url, input: extractor.input }) as HtmlPage;
    const normalize = performance.now() - t;
    t = performance.now();
    const extraction = extractor.extract(normalized);
    const extract = performance.now() - t;
    t = performance.now();
    capLists(extraction.data, maxRows);
    validateExtraction(extractor.pageType, extraction);
    const validate = performance.now() - t;
    if (i < 0) continue;
    times.decodeParse.push(decodeParse);
    times.normalize.push(normalize);
    times.extract.push(extract);
    times.validate.push(validate);
  }
  const decodeParse = median(times.decodeParse);
  return {
    decodeParse,
    // Normalization decodes and parses itself; what it does beyond that is its cleaning walk and link rewriting.
    normalizeRest: Math.max(0, median(times.normalize) - decodeParse),
    extract: median(times.extract),
    validate: median(times.validate),
  };
}

const byType = new Map<string, { pages: number; kb: number; sum: Phases }>();
const total: Phases = { decodeParse: 0, normalizeRest: 0, extract: 0, validate: 0 };
for (const page of pages) {
  const key = `${page.site}/${page.pageType}`;
  const phases = measure(page);
  const row = byType.get(key) ?? {
    pages: 0,
    kb: 0,
    sum: { decodeParse: 0, normalizeRest: 0, extract: 0, validate: 0 },
  };
  row.pages++;
  row.kb += page.body.length / 1024;
  for (const k of Object.keys(total) as (keyof Phases)[]) {
    row.sum[k] += phases[k];
    total[k] += phases[k];
  }
  byType.set(key, row);
}

const ms = (v: number) => v.toFixed(3);
const sumOf = (p: Phases) => p.decodeParse + p.normalizeRest + p.extract + p.validate;
console.log(`\n${pages.length} pages, median of ${reps} repetitions each; ms per page (mean over the type's pages)\n`);
console.log('| page type | pages | KiB/page | decode+parse | rest of normalize | extract | validate | total |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [key, { pages: n, kb, sum }] of [...byType].sort((a, b) => a[0].localeCompare(b[0]))) {
  const per = (v: number) => ms(v / n);
  console.log(
    `| ${key} | ${n} | ${(kb / n).toFixed(0)} | ${per(sum.decodeParse)} | ${per(sum.normalizeRest)} | ${per(sum.extract)} | ${per(sum.validate)} | ${per(sumOf(sum))} |`,
  );
}
const share = (v: number) => `${((100 * v) / sumOf(total)).toFixed(1)} %`;
console.log(
  `| **all ${pages.length} pages (sum)** | ${pages.length} | | ${ms(total.decodeParse)} | ${ms(total.normalizeRest)} | ${ms(total.extract)} | ${ms(total.validate)} | ${ms(sumOf(total))} |`,
);
console.log(
  `| share | | | ${share(total.decodeParse)} | ${share(total.normalizeRest)} | ${share(total.extract)} | ${share(total.validate)} | |`,
);
if (set.skipped.length > 0) console.log(`\nleft out: ${set.skipped.join('; ')}`);
