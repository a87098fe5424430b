// The worker pool: the same answers as the in-thread pipeline for every fixture, a runaway page stopped at its
// deadline (or heap cap) with content_too_complex while the pool and the event loop keep serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isKumoError, KumoError } from '../errors.js';
import { validateExtraction } from '../extract/page-types.js';
import { normalizePage, serializeHtml } from '../normalize/normalize-page.js';
import { corpusDir, corpusAvailable } from '../sites/corpus.js';
import { siteCatalogue } from '../sites/registry.js';
import { fixturesDirOf, type FixtureMeta } from '../sites/verification.js';
import type { PageTypeEntry } from '../sites/site.js';
import { gatedExtractionPool, settled, until } from '../../test/support/extraction.js';
import { ManualClock, type TimerOptions } from '../time/clock.js';
import { WorkerExtractionPool, type WorkerExtractionPoolOptions, type WorkerLoss } from './extraction-pool.js';
import type { OutputLimits, ProduceJob, Produced } from './produce.js';

const item = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';
const encoder = new TextEncoder();
const htmlJob = (html: string): ProduceJob => ({
  extractorId: 'ikebe_gakki/item',
  body: encoder.encode(html),
  headers: { 'content-type': 'text/html; charset=utf-8' },
  finalUrl: item,
  wantData: true,
  wantHtml: true,
});
const smallPage = `<html><head><script type="application/ld+json">{"@type":"Product","name":"小さな商品","offers":{"@type":"Offer","price":"1980","priceCurrency":"JPY"}}</script></head><body><p>ok</p></body></html>`;
/** A million nested elements: minutes of parsing on one core, far past any deadline used here. */
const millionDeep = `<html><body>${'<div>'.repeat(1_000_000)}x</body></html>`;

/** Outcome of the pipeline exactly as ScrapeService ran it in-thread before the pool existed. */
function inThread(entry: PageTypeEntry, job: ProduceJob) {
  try {
    const page = normalizePage({
      body: job.body,
      headers: job.headers,
      finalUrl: job.finalUrl,
      input: entry.extractor.input,
    });
    const extraction = entry.extractor.extract(page);
    validateExtraction(entry.pageType, extraction);
    return { ok: true, charset: page.charset, extraction, html: page.kind === 'html' ? serializeHtml(page) : null };
  } catch (error) {
    return { ok: false, code: isKumoError(error) ? error.code : 'internal', message: (error as Error).message };
  }
}

/** Far longer than a fixture needs, far shorter than the runaway page; the bounds below sit halfway. */
const deadlineMs = 3_000;
const losses: WorkerLoss[] = [];
let pool: WorkerExtractionPool;

beforeAll(() => {
  pool = new WorkerExtractionPool({
    size: 2,
    deadlineMs,
    maxHeapMb: 256,
    // High enough that no fixture is capped: the comparison is of the pipeline, not of the caps.
    limits: { maxRows: 1_000_000, maxBytes: 1_000_000_000 },
    // No page is heavy here, so that runaway pages can hold every worker at once: these tests are about deadlines.
    // The share of heavy pages is tested below ('shared between accounts').
    heavyPageBytes: Infinity,
    onWorkerLost: (reason) => losses.push(reason),
  });
});
afterAll(async () => {
  await pool?.close();
});

describe('WorkerExtractionPool', () => {
  it('answers every fixture (modelled, recorded, and corpus pages when present) exactly as the in-thread pipeline', async () => {
    let inProject = 0;
    let fromCorpus = 0;
    let corpusListed = 0;
    for (const site of siteCatalogue) {
      const dir = fixturesDirOf(site);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.meta.json'))) {
        const meta = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as FixtureMeta;
        const bodyPath =
          meta.source === 'corpus' ? path.join(corpusDir, meta.corpusPath ?? '') : path.join(dir, meta.page ?? '');
        if (meta.source === 'corpus') corpusListed++;
        if (!existsSync(bodyPath)) continue;
        const url = new URL(meta.url);
        const entry = meta.pageType
          ? site.pageTypes.find((e) => e.pageType === meta.pageType)!
          : site.pageTypes.find((e) => e.matches(url))!;
        const job: ProduceJob = {
          extractorId: entry.extractor.id,
          body: new Uint8Array(readFileSync(bodyPath)),
          headers: { 'content-type': meta.contentType },
          finalUrl: meta.url,
          wantData: true,
          wantHtml: true,
        };
        const expected = inThread(entry, job);
        const got = await pool.run(job).then(
          (p) => ({ ok: true, charset: p.charset, extraction: p.extraction, html: p.html }),
          (error: KumoError) => ({ ok: false, code: error.code, message: error.message }),
        );
        expect(got, `${site.id}/${file}`).toEqual(expected);
        if (meta.source === 'corpus') fromCorpus++;
        else inProject++;
      }
    }
    // The in-project fixtures alone are about a dozen; the corpus adds the real pages when it is beside the project.
    expect(inProject).toBeGreaterThanOrEqual(10);
    if (corpusAvailable()) expect(fromCorpus).toBe(corpusListed);
    else console.warn(`corpus absent: ${corpusListed} real-page fixtures not compared (../shared/corpus/real)`);
  });

  it('stops pages past their deadline with content_too_complex, replaces the workers, and serves the next pages', async () => {
    const before = losses.length;
    const started = performance.now();
    // As many runaways as workers: afterwards only replacements are left to serve.
    const outcomes = await Promise.all(
      [1, 2].map(() => pool.run(htmlJob(millionDeep)).catch((error: unknown) => error)),
    );
    const ms = performance.now() - started;
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(KumoError);
      expect((outcome as KumoError).code).toBe('content_too_complex');
    }
    expect(ms).toBeLessThan(deadlineMs + 3_000);
    expect(losses.slice(before)).toEqual(['deadline', 'deadline']);

    const next = await Promise.all([1, 2, 3, 4].map(() => pool.run(htmlJob(smallPage))));
    for (const produced of next) expect(produced.extraction?.data.price).toBe(1980);
  });

  it('keeps the event loop free and other pages served while runaway pages hold a worker', async () => {
    // The workers replaced by the test before must have loaded: this measures serving, not start-up.
    while (pool.readyWorkers < pool.size) await new Promise((resolve) => setTimeout(resolve, 50));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // Not the bytes of the runaways before: those would be refused at once, remembered as over budget.
    const runaway = pool.run(htmlJob(millionDeep.replace('x', 'y'))).catch((error: unknown) => error);
    const served: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await pool.run(htmlJob(smallPage));
      served.push(performance.now() - t);
    }
    const outcome = await runaway;
    delay.disable();
    expect((outcome as KumoError).code).toBe('content_too_complex');
    // In-thread, the parse alone would block this loop for minutes.
    expect(delay.max / 1e6).toBeLessThan(deadlineMs / 2);
    expect(Math.max(...served)).toBeLessThan(deadlineMs / 2);
  });

  it('stops a page that needs more than the heap cap with content_too_complex', async () => {
    const tight = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 30_000,
      maxHeapMb: 32,
      limits: { maxRows: 1_000_000, maxBytes: 1_000_000_000 },
    });
    try {
      // 10 MB of JSON: the parsed tree alone is several times the 32 MB heap.
      const rows = Array.from({ length: 200_000 }, (_, i) => `{"@cat01":"${i}","$":"${i}"}`).join(',');
      const body = encoder.encode(
        `{"GET_STATS_DATA":{"RESULT":{"STATUS":0},"STATISTICAL_DATA":{"TABLE_INF":{},"DATA_INF":{"VALUE":[${rows}]}}}}`,
      );
      const outcome = await tight
        .run({
          extractorId: 'estat_api/table',
          body,
          headers: { 'content-type': 'application/json' },
          finalUrl: 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData',
          wantData: true,
          wantHtml: false,
        })
        .catch((error: unknown) => error);
      expect((outcome as KumoError).code).toBe('content_too_complex');
      expect((outcome as KumoError).message).toContain('32 MB');
    } finally {
      await tight.close();
    }
  });

  it('answers unavailable for pages still waiting when it closes', async () => {
    const closing = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 5_000,
      maxHeapMb: 64,
      limits: { maxRows: 10, maxBytes: 1e6 },
    });
    const waiting = [closing.run(htmlJob(smallPage)), closing.run(htmlJob(smallPage))].map((p) =>
      p.then(
        () => 'served',
        (error: KumoError) => error.code,
      ),
    );
    await closing.close();
    expect(await Promise.all(waiting)).toEqual(['unavailable', 'unavailable']);
    await expect(closing.run(htmlJob(smallPage))).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('answers internal, not a hang, when its workers cannot start; and does not respawn them in a tight loop', async () => {
    const lost: WorkerLoss[] = [];
    const clock = new ManualClock();
    const broken = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 5_000,
      maxHeapMb: 64,
      limits: { maxRows: 10, maxBytes: 1e6 },
      workerUrl: new URL('./no-such-extraction-worker.js', import.meta.url),
      onWorkerLost: (reason) => lost.push(reason),
      clock,
    });
    try {
      await expect(broken.run(htmlJob(smallPage))).rejects.toMatchObject({ code: 'internal' });
      expect(lost).toEqual(['failed_to_start']);
      // The one timer left is the restart, a second away: nothing is respawned before it.
      await clock.advance(999);
      expect(clock.pending).toBe(1);
      await clock.advance(1);
      expect(clock.pending).toBe(0);
      await until(() => lost.length === 2, 'the second start tried');
      expect(lost).toEqual(['failed_to_start', 'failed_to_start']);
    } finally {
      await broken.close();
    }
  });

  /** One worker held by a runaway page and one page queued behind it: the next page is refused (unavailable, Retry-After
   * 1) while the queued one is still served. */
  async function expectNextPageRefused(bounds: { maxQueue: number; maxQueueBytes?: number }): Promise<void> {
    const small = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 2_000,
      maxHeapMb: 128,
      ...bounds,
      limits: { maxRows: 10, maxBytes: 1e6 },
    });
    try {
      while (small.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const runaway = small.run(htmlJob(millionDeep)).catch((error: KumoError) => error.code);
      const queued = small.run(htmlJob(smallPage)).then((p) => p.extraction?.data.price);
      await expect(small.run(htmlJob(smallPage))).rejects.toMatchObject({
        code: 'unavailable',
        extras: { retryAfterSeconds: 1 },
      });
      expect(await runaway).toBe('content_too_complex');
      expect(await queued).toBe(1980);
    } finally {
      await small.close();
    }
  }

  it('refuses with unavailable, not an unbounded queue, when every worker is busy and the queue is full', async () => {
    await expectNextPageRefused({ maxQueue: 1 });
  });

  it('bounds the bytes waiting for a worker too: once that many bytes wait, a page is refused, not queued', async () => {
    await expectNextPageRefused({ maxQueue: 100, maxQueueBytes: htmlJob(smallPage).body.byteLength });
  });

  it('refuses pages that waited for a worker past the queue-wait bound with unavailable + Retry-After, not when it frees', async () => {
    const waitMs = 400;
    // On a ManualClock: "at the bound, not before, and not when the worker frees" is exact, whatever the machine's load.
    const g = gatedPool({ size: 1, deadlineMs: 4_000, maxQueueWaitMs: waitMs });
    try {
      await g.ready();
      // Took a worker at once: its own deadline applies, never the queue-wait bound.
      const running = g.held(smallPage);
      const first = g.pool.run(running.job).then(price, (error: KumoError) => error.code);
      await until(() => g.state(running.n) === 1);
      const outcomes: string[] = [];
      const waiting = [1, 2, 3].map((i) =>
        g.pool.run(htmlJob(smallPage)).then(
          () => outcomes.push(`${i} served`),
          (error: KumoError) => outcomes.push(`${i} ${error.code} ${error.extras.retryAfterSeconds}`),
        ),
      );
      await g.clock.advance(waitMs - 1);
      expect(outcomes).toEqual([]);
      await g.clock.advance(1);
      await Promise.all(waiting);
      // Answered at the bound, long before the worker is free (it still holds the first page).
      expect(outcomes).toEqual(['1 unavailable 1', '2 unavailable 1', '3 unavailable 1']);
      expect(g.state(running.n)).toBe(1);
      expect(g.taken()).toBe(1);
      // The pool still serves after the expiries.
      g.release(running.n);
      expect(await first).toBe(1980);
      expect(price(await g.pool.run(htmlJob(smallPage)))).toBe(1980);
    } finally {
      await g.pool.close();
    }
  });

  it('keeps the waiting pages for the workers still there when one replacement cannot start', async () => {
    const lost: WorkerLoss[] = [];
    // The second worker start fails, when the test says so (test/support/gated-extraction-worker.ts).
    const gate = new Int32Array(new SharedArrayBuffer(12));
    gate[1] = 2;
    const limits = { maxRows: 10, maxBytes: 1e6, gate: gate.buffer } as OutputLimits;
    const flaky = new WorkerExtractionPool({
      size: 2,
      deadlineMs: 2_000,
      maxHeapMb: 128,
      limits,
      workerUrl: new URL('../../test/support/gated-extraction-worker.ts', import.meta.url),
      onWorkerLost: (reason) => lost.push(reason),
    });
    try {
      while (flaky.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      // The ready worker is busy with a runaway page; two pages wait behind it when the other worker fails to start.
      const runaway = flaky.run(htmlJob(millionDeep)).catch((error: KumoError) => error.code);
      const waiting = [1, 2].map(() =>
        flaky.run(htmlJob(smallPage)).then(
          (p) => p.extraction?.data.price,
          (error: KumoError) => error.code,
        ),
      );
      Atomics.store(gate, 2, 1);
      while (!lost.includes('failed_to_start')) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await runaway).toBe('content_too_complex');
      // Served by the replacement of the worker that was ready, not refused as internal.
      expect(await Promise.all(waiting)).toEqual([1980, 1980]);
      expect(lost).toEqual(['failed_to_start', 'deadline']);
    } finally {
      await flaky.close();
    }
  });

  it("holds one copy of a waiting page (the caller's), copying it only when a worker takes it", async () => {
    const busy = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 5_000,
      maxHeapMb: 128,
      limits: { maxRows: 10, maxBytes: 1e6 },
    });
    try {
      while (busy.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const runaway = busy.run(htmlJob(millionDeep)).catch((error: KumoError) => error.code);
      const mb = 2 ** 20;
      const jobs = Array.from({ length: 8 }, () => htmlJob(`${smallPage}${' '.repeat(4 * mb)}`));
      const before = process.memoryUsage().arrayBuffers;
      const waiting = jobs.map((job) => busy.run(job).catch((error: KumoError) => error.code));
      const grown = process.memoryUsage().arrayBuffers - before;
      // 32 MB of bodies wait; a copy each would add 32 MB more.
      expect(grown).toBeLessThan(4 * mb);
      // The caller's bytes are untouched (not moved away) while they wait.
      for (const job of jobs) expect(job.body.byteLength).toBeGreaterThan(4 * mb);
      await busy.close();
      expect(await Promise.all(waiting)).toEqual(Array.from({ length: 8 }, () => 'unavailable'));
      expect(await runaway).toBe('unavailable');
    } finally {
      await busy.close();
    }
  });

  it('drops a waiting page and answers a running one at once when the caller goes, without killing its worker', async () => {
    const lost: WorkerLoss[] = [];
    const deadline = 6_000;
    const gone = new WorkerExtractionPool({
      size: 1,
      deadlineMs: deadline,
      maxHeapMb: 128,
      limits: { maxRows: 10, maxBytes: 1e6 },
      onWorkerLost: (reason) => lost.push(reason),
    });
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => ({ code: 'served', ms: 0 }),
        (error: KumoError) => ({ code: error.code, message: error.message }),
      );
    try {
      while (gone.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const running = new AbortController();
      const runaway = outcome(gone.run(htmlJob(millionDeep), { signal: running.signal }));
      const queued = new AbortController();
      const waiting = outcome(gone.run(htmlJob(smallPage), { signal: queued.signal }));
      const stays = gone.run(htmlJob(smallPage)).then((p) => p.extraction?.data.price);
      // Already gone: refused before it is queued.
      const late = new AbortController();
      late.abort();
      expect(await outcome(gone.run(htmlJob(smallPage), { signal: late.signal }))).toMatchObject({ code: 'internal' });

      let started = performance.now();
      queued.abort();
      expect(await waiting).toEqual({ code: 'internal', message: 'the caller went away before the page was produced' });
      expect(performance.now() - started).toBeLessThan(deadline / 4);
      expect(lost).toEqual([]);

      await new Promise((resolve) => setTimeout(resolve, 200));
      started = performance.now();
      running.abort();
      expect(await runaway).toEqual({ code: 'internal', message: 'the caller went away before the page was produced' });
      // Answered at once, not at the page's deadline; the worker is not ended for it (a respawn costs ~1 s, and a
      // client could disconnect on purpose to force them).
      expect(performance.now() - started).toBeLessThan(deadline / 4);
      expect(lost).toEqual([]);
      // The runaway page still meets its own deadline; the page queued without a signal is served after it.
      expect(await stays).toBe(1980);
      expect(lost).toEqual(['deadline']);
    } finally {
      await gone.close();
    }
  });
});

const price = (p: Produced) => p.extraction?.data.price;

/** A pool of the gated worker (see test/support/extraction.ts), with `held(html)`: a page held in its worker once
 * taken, and its gate index. */
function gatedPool(options: Parameters<typeof gatedExtractionPool>[0]) {
  const g = gatedExtractionPool(options);
  return {
    ...g,
    held(html: string): { job: ProduceJob; n: number } {
      const n = g.nextHold();
      return { job: { ...htmlJob(html), finalUrl: `${item}#hold-${n}` }, n };
    },
  };
}
/** Over the 4096-byte heavy threshold of gatedPool. */
const heavyPage = `${smallPage}${' '.repeat(8192)}`;

describe('WorkerExtractionPool shared between accounts', () => {
  it("gives another account's page a worker while one account's heavy pages hold or wait for every worker", async () => {
    const g = gatedPool({ size: 2 });
    try {
      await g.ready();
      const heavy = [1, 2, 3].map(() => g.held(heavyPage));
      const a = heavy.map(({ job }) => g.pool.run(job, { account: 'a' }).then(price));
      await until(() => g.state(heavy[0]!.n) === 1);
      // A's heavy pages hold one of the two workers at most: B's page is taken by the other while they are held.
      expect(await settled(g.pool.run(htmlJob(smallPage), { account: 'b' }).then(price))).toBe(1980);
      expect(heavy.map(({ n }) => g.state(n))).toEqual([1, 0, 0]);
      for (const { n } of heavy) g.release(n);
      expect(await Promise.all(a)).toEqual([1980, 1980, 1980]);
    } finally {
      await g.pool.close();
    }
  });

  it('serves accounts in turn: a page of B goes before the pages A queued earlier', async () => {
    const g = gatedPool({ size: 1 });
    try {
      await g.ready();
      const pages = [1, 2, 3].map(() => g.held(smallPage));
      const a = pages.map(({ job }) => g.pool.run(job, { account: 'a' }).then(price));
      await until(() => g.state(pages[0]!.n) === 1);
      const b = g.pool.run(htmlJob(smallPage), { account: 'b' }).then(price);
      g.release(pages[0]!.n);
      // B went before A's second page: served at all, since that page would hold the one worker until let go.
      expect(await settled(b)).toBe(1980);
      expect(g.state(pages[2]!.n)).toBe(0);
      for (const { n } of pages) g.release(n);
      expect(await Promise.all(a)).toEqual([1980, 1980, 1980]);
    } finally {
      await g.pool.close();
    }
  });

  it('lets one account alone use every worker for ordinary pages; only its heavy pages are held to their share', async () => {
    const g = gatedPool({ size: 2 });
    try {
      await g.ready();
      const first = g.held(heavyPage);
      const second = g.held(heavyPage);
      const ordinary = g.held(smallPage);
      const a = [first, second, ordinary].map(({ job }) => g.pool.run(job, { account: 'a' }).then(price));
      // The ordinary page, though it came last, takes the second worker; the second heavy page waits.
      // (Each worker marks its page when it reads it, so the first may be marked after the ordinary one.)
      await until(() => g.state(ordinary.n) === 1 && g.state(first.n) === 1, 'the ordinary page taken');
      expect(g.state(second.n)).toBe(0);
      for (const { n } of [first, second, ordinary]) g.release(n);
      expect(await Promise.all(a)).toEqual([1980, 1980, 1980]);

      // Ordinary pages of one account, nobody else waiting: both workers at once.
      const both = [g.held(smallPage), g.held(smallPage)];
      const served = both.map(({ job }) => g.pool.run(job, { account: 'a' }).then(price));
      await until(() => both.every(({ n }) => g.state(n) === 1), 'both workers taken');
      for (const { n } of both) g.release(n);
      expect(await Promise.all(served)).toEqual([1980, 1980]);
    } finally {
      await g.pool.close();
    }
  });

  it('refuses a repeat of a page that ran past its deadline twice at once (content_too_complex) without a worker, until the TTL', async () => {
    const g = gatedPool({ size: 1, deadlineMs: 1_000, overBudgetTtlMs: 60_000 });
    try {
      await g.ready();
      const runaway = g.held(heavyPage);
      const first = g.pool.run(runaway.job, { account: 'a' }).catch((error: KumoError) => error.code);
      await until(() => g.state(runaway.n) === 1);
      const copies = [g.pool.run(runaway.job, { account: 'b' }), g.pool.run(runaway.job, { account: 'a' })].map((p) =>
        p.catch((error: KumoError) => error.code),
      );
      await g.clock.advance(999);
      expect(g.lost).toEqual([]);
      const takenBefore = g.taken();
      await g.clock.advance(1);
      expect(await first).toBe('content_too_complex');
      expect(g.lost).toEqual(['deadline']);
      // One deadline loss may be the machine's load, not the page: the first copy waiting gets the new worker.
      await until(() => g.taken() === takenBefore + 1, 'the copy taken by the new worker');
      await g.clock.advance(1_000);
      expect(g.lost).toEqual(['deadline', 'deadline']);
      // Blown twice, it is remembered: the copy still waiting is refused when its turn comes, not run.
      expect(await Promise.all(copies.map(settled))).toEqual(['content_too_complex', 'content_too_complex']);
      await g.ready();

      const taken = g.taken();
      expect(taken).toBe(takenBefore + 1);
      // The same bytes for the same extractor, from any account: refused before the queue, no worker taken or lost.
      for (const account of ['a', 'b']) {
        await expect(settled(g.pool.run(runaway.job, { account }))).resolves.toBe('content_too_complex');
      }
      const refusal = await g.pool.run(runaway.job).catch((error: KumoError) => error);
      expect(refusal).toMatchObject({ code: 'content_too_complex' });
      expect(g.taken()).toBe(taken);
      expect(g.lost).toEqual(['deadline', 'deadline']);

      // One byte different (same length): another page, parsed.
      const other = heavyPage.slice(0, -1) + '\n';
      expect(await settled(g.pool.run(htmlJob(other), { account: 'a' }).then(price))).toBe(1980);
      expect(g.taken()).toBe(taken + 1);

      // Remembered for the TTL after its second loss, however often it was asked for; then it gets a worker again.
      await g.clock.advance(59_999);
      expect(await settled(g.pool.run(runaway.job).catch((error: KumoError) => error.code))).toBe(
        'content_too_complex',
      );
      await g.clock.advance(1);
      g.release(runaway.n);
      expect(await settled(g.pool.run(runaway.job, { account: 'a' }).then(price))).toBe(1980);
      expect(g.taken()).toBe(taken + 2);
    } finally {
      await g.pool.close();
    }
  });

  it('sets its queue-wait bound as a timer that does not keep the process alive (a CLI ends when its work does)', async () => {
    const clock = new ManualClock();
    const options: (TimerOptions | undefined)[] = [];
    const setTimeout = clock.setTimeout.bind(clock);
    clock.setTimeout = (fn, ms, o) => {
      options.push(o);
      return setTimeout(fn, ms, o);
    };
    const g = gatedPool({ size: 1, clock });
    try {
      await g.ready();
      const running = g.held(smallPage);
      const first = g.pool.run(running.job).then(price);
      await until(() => g.state(running.n) === 1);
      const before = options.length;
      const waiting = g.pool.run(htmlJob(smallPage)).then(price);
      expect(options.slice(before)).toEqual([{ unref: true }]);
      g.release(running.n);
      expect(await Promise.all([first, waiting])).toEqual([1980, 1980]);
    } finally {
      await g.pool.close();
    }
  });

  it('remembers a page that ran out of heap at once', async () => {
    const g = gatedPool({ size: 1, deadlineMs: 60_000, maxHeapMb: 32 });
    try {
      await g.ready();
      // 10 MB of JSON: the parsed tree alone is several times the 32 MB heap (as in the heap test above).
      const rows = Array.from({ length: 200_000 }, (_, i) => `{"@cat01":"${i}","$":"${i}"}`).join(',');
      const hungry: ProduceJob = {
        extractorId: 'estat_api/table',
        body: encoder.encode(
          `{"GET_STATS_DATA":{"RESULT":{"STATUS":0},"STATISTICAL_DATA":{"TABLE_INF":{},"DATA_INF":{"VALUE":[${rows}]}}}}`,
        ),
        headers: { 'content-type': 'application/json' },
        finalUrl: 'https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData',
        wantData: true,
        wantHtml: false,
      };
      expect(await settled(g.pool.run(hungry).catch((error: KumoError) => error.code))).toBe('content_too_complex');
      expect(g.lost).toEqual(['out_of_memory']);
      await g.ready();
      const taken = g.taken();
      expect(await settled(g.pool.run(hungry).catch((error: KumoError) => error.code))).toBe('content_too_complex');
      expect(g.taken()).toBe(taken);
      expect(g.lost).toEqual(['out_of_memory']);
    } finally {
      await g.pool.close();
    }
  });

  /** One worker held by A, and A's pages waiting up to its share of a bound: A's next page is refused (503
   * unavailable), B's is queued and served. */
  async function expectOwnShareRefused(bounds: Partial<WorkerExtractionPoolOptions>): Promise<void> {
    const g = gatedPool({ size: 1, ...bounds });
    try {
      await g.ready();
      const running = g.held(smallPage);
      const first = g.pool.run(running.job, { account: 'a' }).then(price);
      await until(() => g.state(running.n) === 1);
      const a = [1, 2, 3, 4].map(() =>
        g.pool
          .run(htmlJob(smallPage), { account: 'a' })
          .then(price, (error: KumoError) => `${error.code} ${error.extras.retryAfterSeconds}`),
      );
      const b = g.pool.run(htmlJob(smallPage), { account: 'b' }).then(price, (error: KumoError) => error.code);
      g.release(running.n);
      expect(await first).toBe(1980);
      expect(await Promise.all(a)).toEqual([1980, 1980, 'unavailable 1', 'unavailable 1']);
      expect(await b).toBe(1980);
    } finally {
      await g.pool.close();
    }
  }

  it("bounds each account's share of the queue's pages: A filling its share does not make B's page refused", async () => {
    await expectOwnShareRefused({ maxQueue: 4, maxAccountQueue: 2 });
  });

  it("bounds each account's share of the queue's bytes: A filling its share does not make B's page refused", async () => {
    const bytes = htmlJob(smallPage).body.byteLength;
    await expectOwnShareRefused({ maxQueueBytes: 4 * bytes, maxAccountQueueBytes: 2 * bytes });
  });
});
