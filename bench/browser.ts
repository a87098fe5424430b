// `npm run bench:browser`: warm render latency and pages/s of the browser route (render_js) through the built server.
// A local origin plays jp.mercari.com, its asset CDN and its API with the modelled web app of the e2e test
// (test/fixtures/mercari-web-app); Chromium is Debian's, found as the server finds it. Runs on Node 24 directly.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { startOrigin, connectToSpec } from '../test/support/origin.ts';
import { startKumo, scrape, call, kumoCli, repoRoot } from '../test/support/kumo-process.ts';
import type * as PoolModule from '../src/browser/browser-pool.ts';

const { findChromium } = (await import(`${repoRoot}/dist/browser/browser-pool.js`)) as typeof PoolModule;
const chromium = findChromium('');
if (!chromium) {
  console.log('bench:browser skipped: no Chromium (apt-get install chromium-headless-shell)');
  process.exit(0);
}

const maxPages = Number(process.env.BENCH_BROWSER_PAGES ?? 4);
const app = (name: string) => readFileSync(`${repoRoot}/test/fixtures/mercari-web-app/${name}`);
const apiAnswer = readFileSync(`${repoRoot}/src/sites/mercari/fixtures/modelled-new-buyer-pays.json`);
const ITEM = 'm40582716093';
const cors = {
  'access-control-allow-origin': 'https://jp.mercari.com',
  'access-control-allow-headers': 'x-platform, dpop',
};

const origin = await startOrigin();
origin.route('GET', `/item/${ITEM}`, {
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: app('shell.html'),
});
origin.route('GET', '/_next/static/chunks/item-app.js', {
  status: 200,
  headers: { 'content-type': 'application/javascript' },
  body: app('item-app.js'),
});
origin.route('OPTIONS', '/items/get', { status: 204, headers: cors });
origin.route('GET', '/items/get', {
  status: 200,
  headers: { ...cors, 'content-type': 'application/json' },
  body: apiAnswer,
});

const kumo = await startKumo({
  KUMO_CONNECT_TO: connectToSpec({
    'jp.mercari.com': origin.url,
    'web-jp-assets.mercdn.net': origin.url,
    'api.mercari.jp': origin.url,
  }),
  KUMO_BOOTSTRAP_PLAN: 'growth',
  KUMO_BROWSER_MAX_PAGES: String(maxPages),
  KUMO_BROWSER_QUEUE_WAIT_MS: '20000',
});
const accountId = ((await call(kumo.baseUrl, '/v1/usage')).body as { account_id: string }).account_id;
await kumoCli(kumo.dataDir, [
  'accounts',
  'approve',
  '--account',
  accountId,
  '--site',
  'mercari',
  '--by',
  'bench',
  '--json',
]);

const body = { url: `https://jp.mercari.com/item/${ITEM}`, params: { render_js: true } };
async function once(): Promise<number> {
  const t = performance.now();
  const res = await scrape(kumo.baseUrl, body);
  if (res.status !== 200 || (res.body as { data?: { price?: number } }).data?.price !== 12800)
    throw new Error(`bad answer ${res.status}`);
  return performance.now() - t;
}
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

try {
  // The first call starts Chromium; then a few warm-ups.
  const cold = await once();
  for (let i = 0; i < 5; i++) await once();
  const sequential: number[] = [];
  for (let i = 0; i < 40; i++) sequential.push(await once());
  sequential.sort((a, b) => a - b);

  const total = 120;
  const callers = maxPages;
  let next = 0;
  const parallel: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < total) {
        next += 1;
        parallel.push(await once());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  parallel.sort((a, b) => a - b);

  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`chromium: ${chromium}; date: ${new Date().toISOString()}`);
  console.log('');
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| first call (starts Chromium) | ${cold.toFixed(0)} ms |`);
  console.log(`| warm render, one caller, median of 40 | ${quantile(sequential, 0.5).toFixed(0)} ms |`);
  console.log(`| same, p95 | ${quantile(sequential, 0.95).toFixed(0)} ms |`);
  console.log(
    `| ${total} calls, ${callers} callers, ${maxPages} pages: throughput | ${(total / seconds).toFixed(2)} pages/s |`,
  );
  console.log(
    `| latency p50 / p95 under that load | ${quantile(parallel, 0.5).toFixed(0)} / ${quantile(parallel, 0.95).toFixed(0)} ms |`,
  );
} finally {
  await kumo.stop();
  await kumo.cleanup();
  await origin.close();
}
