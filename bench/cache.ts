// `npm run bench:cache`: the result cache's gain, through the HTTP API of one Kumo process (SQLite): the same pages
// fetched once (misses, each charged and kept) and then again with max_age_s (hits), same concurrency, same run.
// Options: --pages N (distinct pages, default 400), --concurrency C (default 16), --kb K (page size, default 200).
import { parseArgs } from 'node:util';
import { startOrigin, connectToSpec } from '../test/support/origin.ts';
import { startKumo, scrape, kumoCli } from '../test/support/kumo-process.ts';
import { itemPage } from '../test/support/pages.ts';
import { closedLoop, countOption, type WindowResult } from './load.ts';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '16' },
    kb: { type: 'string', default: '200' },
  },
});
const pages = countOption('pages', args.pages);
const concurrency = countOption('concurrency', args.concurrency);
const kb = countOption('kb', args.kb);

const host = 'www.ikebe-gakki.com';
const pathOf = (i: number) => `/c/c-/kb/kb01/kb011427/${800000 + i}`;
// Pages the size of real shop pages (the corpus' median is about 220 KB): the miss pays for the fetch and the parse.
const filler = `<div class="spec">${'<p>仕様 スペック 詳細 テキスト specification text</p>'.repeat(Math.ceil((kb * 1024) / 60))}</div>`;
const origin = await startOrigin({ keepAliveTimeoutMs: 5_000 });
for (let i = 0; i < pages; i++) {
  origin.route('GET', pathOf(i), {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ title: `Bench item ${i}` }).replace('</body>', `${filler}</body>`),
  });
}
const kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ [host]: origin.url }) });
try {
  const { key } = (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string };
  const pass = async (state: 'miss' | 'hit'): Promise<WindowResult> =>
    closedLoop(concurrency, pages, async (i) => {
      const res = await scrape(kumo.baseUrl, { url: `https://${host}${pathOf(i)}`, params: { max_age_s: 3600 } }, key);
      const body = res.body as { cache?: { state?: string } } | null;
      return res.status === 200 && body?.cache?.state === state;
    });
  const misses = await pass('miss');
  const before = origin.hits();
  const hits = await pass('hit');
  const p50 = (r: WindowResult) => [...r.latencies].sort((a, b) => a - b)[Math.floor(r.latencies.length / 2)]!;
  const rate = (r: WindowResult) => (pages / r.elapsedMs) * 1000;
  const line = (name: string, r: WindowResult) =>
    `| ${name} | ${pages} | ${concurrency} | ${rate(r).toFixed(0)} | ${p50(r).toFixed(1)} | ${r.failures} |`;
  console.log(`pages of ${kb} KB, one process (SQLite), node ${process.version}`);
  console.log('| pass | pages | concurrency | pages/s | p50 ms (client) | failures |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(line('miss (fetch, extract, charge, keep)', misses));
  console.log(line('hit (cost 0, no fetch)', hits));
  console.log(
    `hit/miss: ${(rate(hits) / rate(misses)).toFixed(1)}×; origin requests during the hit pass: ${origin.hits() - before}`,
  );
} finally {
  await kumo.stop();
  await kumo.cleanup();
  await origin.close();
}
