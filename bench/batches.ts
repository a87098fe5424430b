// `npm run bench:batches`: a batch's pages/s against the synchronous API's at the same concurrency, on the bench's page
// set, in one run (issue 20, target ≥ 0.9×). Options: --levels 5,15 (concurrency: one Growth account's batch lane is 5,
// so a level is served by level/5 accounts, each with one batch; the synchronous side runs as many callers on the same
// keys), --pages N (per window), --rounds N (windows taken in turn, median reported), --pages-set all|real.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOrigin, connectToSpec, type Origin, type OriginHandler } from '../test/support/origin.ts';
import { startKumo, scrape, repoRoot, kumoCli, type KumoProcess } from '../test/support/kumo-process.ts';
import { closedLoop, countOption } from './load.ts';
import { loadPages, type BenchPage } from './pages.ts';

const { values: args } = parseArgs({
  options: {
    levels: { type: 'string', default: '5,15' },
    pages: { type: 'string', default: '600' },
    rounds: { type: 'string', default: '3' },
    'pages-set': { type: 'string', default: 'all' },
    quick: { type: 'boolean', default: false },
  },
});
const laneOfGrowth = 5;
const levels = args.levels.split(',').map(Number);
for (const c of levels)
  if (!Number.isInteger(c) || c < laneOfGrowth || c % laneOfGrowth !== 0) {
    console.error(`--levels: each level is a multiple of ${laneOfGrowth} (a Growth account's batch lane), not ${c}`);
    process.exit(2);
  }
const perWindow = countOption('pages', args.quick ? '150' : args.pages);
const rounds = countOption('rounds', args.quick ? '1' : args.rounds);

const dist = (file: string) => path.join(repoRoot, 'dist', file);
const set = await loadPages(dist, path.resolve(repoRoot, '../shared/corpus/real'));
if (args['pages-set'] === 'real') set.pages = set.pages.filter((p) => p.source === 'corpus');
if (set.pages.length === 0) {
  console.log('bench skipped: no HTML fixtures found');
  process.exit(0);
}

// One origin per host; every page is served at its own path and at `?kumo-bench=N` variants of it, so that each batch
// item is a distinct URL (a batch of one URL repeated is what a cache would answer, not what a price team sends).
const origins = new Map<string, { origin: Origin; pages: Map<string, BenchPage> }>();
for (const page of set.pages) {
  const url = new URL(page.url);
  let host = origins.get(url.hostname);
  if (!host) {
    const pages = new Map<string, BenchPage>();
    host = { origin: await startOrigin({ keepAliveTimeoutMs: 5_000 }), pages };
    origins.set(url.hostname, host);
  }
  host.pages.set(url.pathname + url.search, page);
  const pages = host.pages;
  const answer: OriginHandler = (req, res) => {
    const asked = new URL(req.url ?? '/', 'http://origin');
    asked.searchParams.delete('kumo-bench');
    const hit = pages.get(asked.pathname + asked.search);
    if (!hit) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit.contentType }).end(hit.body);
  };
  host.origin.route('GET', url.pathname, answer);
}

const kumo: KumoProcess = await startKumo({
  KUMO_CONNECT_TO: connectToSpec(Object.fromEntries([...origins].map(([host, o]) => [host, o.origin.url]))),
  KUMO_BOOTSTRAP_PLAN: 'growth',
  KUMO_HOST_MAX_IN_FLIGHT: '256',
  KUMO_HOST_MIN_INTERVAL_MS: '0',
});

interface BatchBody {
  batch: { id: string; counts: Record<'queued' | 'running' | 'failed' | 'not_found' | 'skipped', number> };
}

async function json(
  method: string,
  pathname: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: BatchBody }> {
  const res = await fetch(`${kumo.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as BatchBody };
}

let variant = 0;
/** A page URL no call of this run has asked for yet (the query is ignored by the origin). */
function freshUrl(page: BenchPage): string {
  const url = new URL(page.url);
  url.searchParams.set('kumo-bench', String(++variant));
  return url.href;
}

const itemOf = (page: BenchPage) => ({
  url: freshUrl(page),
  ...(page.workType ? { params: { work_type: page.workType } } : {}),
});

/** One batch per account, `n` items split evenly, submitted at once; the window ends when every item is ready. */
async function batchWindow(
  keys: string[],
  pages: BenchPage[],
  n: number,
): Promise<{ elapsedMs: number; failed: number }> {
  const per = Math.ceil(n / keys.length);
  const started = performance.now();
  const ids = await Promise.all(
    keys.map(async (key, k) => {
      const items = Array.from({ length: per }, (_, i) => itemOf(pages[(k * per + i) % pages.length]!));
      let id: string | null = null;
      for (let at = 0; at < items.length; at += 1000) {
        const chunk = items.slice(at, at + 1000);
        const seal = at + 1000 >= items.length;
        const res: { status: number; body: BatchBody } = id
          ? await json('POST', `/v1/batches/${id}/items`, key, { items: chunk, seal })
          : await json('POST', '/v1/batches', key, { items: chunk, seal });
        if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.body)}`);
        id = res.body.batch.id;
      }
      return { key, id: id! };
    }),
  );
  let failed = 0;
  for (const { key, id } of ids) {
    for (;;) {
      const res = await json('GET', `/v1/batches/${id}`, key);
      const c = res.body.batch.counts;
      if (c.queued + c.running === 0) {
        failed += c.failed + c.not_found + c.skipped;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return { elapsedMs: performance.now() - started, failed };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: string[] = [];
try {
  const keys: string[] = [];
  while (keys.length < Math.max(...levels) / laneOfGrowth) {
    keys.push(((await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string }).key);
  }
  // Pages this build serves here (as the main bench does): the rest are left out of both sides.
  const pages: BenchPage[] = [];
  for (const page of set.pages) {
    const res = await scrape(kumo.baseUrl, itemOf(page), keys[0]);
    if (res.status === 200 && (res.body as { data: unknown }).data !== null) pages.push(page);
  }
  for (const c of levels) {
    const accountKeys = keys.slice(0, c / laneOfGrowth);
    const syncCall = async (i: number, caller: number) => {
      const res = await scrape(
        kumo.baseUrl,
        itemOf(pages[i % pages.length]!),
        accountKeys[caller % accountKeys.length],
      );
      return res.status === 200 && (res.body as { data: unknown }).data !== null;
    };
    // Warm both paths once.
    await closedLoop(c, Math.max(c, Math.round(perWindow / 4)), syncCall);
    await batchWindow(accountKeys, pages, Math.round(perWindow / 4));
    const sync: number[] = [];
    const batch: number[] = [];
    let failures = 0;
    for (let r = 0; r < rounds; r++) {
      const s = await closedLoop(c, perWindow, syncCall);
      failures += s.failures;
      sync.push((perWindow * 1000) / s.elapsedMs);
      const b = await batchWindow(accountKeys, pages, perWindow);
      failures += b.failed;
      batch.push((Math.ceil(perWindow / accountKeys.length) * accountKeys.length * 1000) / b.elapsedMs);
    }
    const fmt = (v: number[]) => `${median(v).toFixed(1)} [${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)}]`;
    rows.push(
      `| ${c} | ${accountKeys.length} | ${fmt(sync)} | ${fmt(batch)} | ${(median(batch) / median(sync)).toFixed(2)} | ${failures} |`,
    );
    console.error(`concurrency ${c} done`);
  }
} finally {
  await kumo.stop();
  await kumo.cleanup();
  for (const { origin } of origins.values()) await origin.close();
}

console.log(`pages: ${set.pages.length} in the set; ${perWindow} per window, ${rounds} round(s), median [range]`);
console.log('');
console.log('| concurrency | Growth accounts | sync pages/s | batch pages/s | batch / sync | failures |');
console.log('| ----------- | --------------- | ------------ | ------------- | ------------ | -------- |');
for (const row of rows) console.log(row);
