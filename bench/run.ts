// `npm run bench`: parse+extract cost of a real page, and end-to-end throughput of the built server over loopback.
// Runs on Node 24's own TypeScript stripping; reads ../shared/corpus in place and skips when it is absent.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startOrigin, connectToSpec } from '../test/support/origin.ts';
import { startKumo, scrape, repoRoot, testKey } from '../test/support/kumo-process.ts';
import type * as NormalizeModule from '../src/normalize/normalize-page.ts';
import type * as RegistryModule from '../src/sites/registry.ts';
import type * as PoolModule from '../src/scrape/extraction-pool.ts';

// The built code is what is measured; the source only lends its types.
const dist = (file: string) => path.join(repoRoot, 'dist', file);
const { normalizePage } = (await import(dist('normalize/normalize-page.js'))) as typeof NormalizeModule;
const { SiteRegistry } = (await import(dist('sites/registry.js'))) as typeof RegistryModule;
const { WorkerExtractionPool } = (await import(dist('scrape/extraction-pool.js'))) as typeof PoolModule;

const pagePath = path.resolve(repoRoot, '../shared/corpus/real/ikebe-gakki/product.html');
if (!existsSync(pagePath)) {
  console.log(`bench skipped: ${pagePath} is absent (the corpus is read in place, never copied)`);
  process.exit(0);
}
const page = await readFile(pagePath);
const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

// 1. CPU per page: decode + parse + clean + extract, in this thread.
const registry = new SiteRegistry();
const site = registry.get('ikebe_gakki')!;
const entry = registry.pageTypeFor(site, new URL(url), 'auto')!;
const run = () =>
  entry.extractor.extract(
    normalizePage({
      body: new Uint8Array(page),
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      finalUrl: url,
      input: 'html',
    }),
  );
for (let i = 0; i < 20; i++) run();
const times: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  run();
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);

// 1b. The same page the way the server runs it: through one pool worker (copy + transfer in, result cloned back).
const pool = new WorkerExtractionPool({
  size: 1,
  deadlineMs: 60_000,
  maxHeapMb: 512,
  limits: { maxRows: 10_000, maxBytes: 20 * 2 ** 20 },
});
const job = {
  extractorId: entry.extractor.id,
  body: new Uint8Array(page),
  headers: { 'content-type': 'text/html; charset=UTF-8' },
  finalUrl: url,
  wantData: true,
  wantHtml: false,
};
for (let i = 0; i < 20; i++) await pool.run(job);
const poolTimes: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  await pool.run(job);
  poolTimes.push(performance.now() - t);
}
await pool.close();
poolTimes.sort((a, b) => a - b);

// 2. Throughput: the built server, a local origin serving the real page under its real hostname, 8 callers.
const origin = await startOrigin();
const paths = Array.from({ length: 50 }, (_, i) => `/c/c-/kb/kb01/kb011427/${750_000 + i}`);
for (const p of paths)
  origin.route('GET', p, { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: page });
const kumo = await startKumo({
  KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
  KUMO_BOOTSTRAP_PLAN: 'growth',
});
const total = 600;
const callers = 8;
let next = 0;
let failures = 0;
const latencies: number[] = [];
const warm = await scrape(kumo.baseUrl, { url: `https://www.ikebe-gakki.com${paths[0]}` }, testKey);
if (warm.status !== 200) throw new Error(`warm-up failed: ${JSON.stringify(warm.body)}`);
const started = performance.now();
await Promise.all(
  Array.from({ length: callers }, async () => {
    while (next < total) {
      const i = next++;
      const t = performance.now();
      const res = await scrape(kumo.baseUrl, { url: `https://www.ikebe-gakki.com${paths[i % paths.length]}` }, testKey);
      latencies.push(performance.now() - t);
      if (res.status !== 200 || (res.body as { data: { price: number } }).data.price !== 2200) failures++;
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
await kumo.stop();
await kumo.cleanup();
await origin.close();
latencies.sort((a, b) => a - b);

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
);
console.log(`date: ${new Date().toISOString()}`);
console.log('');
console.log('| measure | value |');
console.log('|---|---|');
console.log(
  `| parse + extract, ikebe-gakki/product.html (367 KB), median of 200 | ${quantile(times, 0.5).toFixed(2)} ms |`,
);
console.log(`| same, p95 | ${quantile(times, 0.95).toFixed(2)} ms |`);
console.log(
  `| same through one pool worker (as served), median / p95 | ${quantile(poolTimes, 0.5).toFixed(2)} / ${quantile(poolTimes, 0.95).toFixed(2)} ms |`,
);
console.log(`| end to end, ${total} calls, ${callers} callers: throughput | ${(total / seconds).toFixed(1)} pages/s |`);
console.log(
  `| latency p50 / p95 / p99 | ${quantile(latencies, 0.5).toFixed(0)} / ${quantile(latencies, 0.95).toFixed(0)} / ${quantile(latencies, 0.99).toFixed(0)} ms |`,
);
console.log(`| failed or wrong answers | ${failures} |`);
if (failures > 0) process.exitCode = 1;
