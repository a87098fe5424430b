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
import { WorkerExtractionPool, type WorkerLoss } from './extraction-pool.js';
import type { OutputLimits, ProduceJob } from './produce.js';

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
    const runaway = pool.run(htmlJob(millionDeep)).catch((error: unknown) => error);
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
    const broken = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 5_000,
      maxHeapMb: 64,
      limits: { maxRows: 10, maxBytes: 1e6 },
      workerUrl: new URL('./no-such-extraction-worker.js', import.meta.url),
      onWorkerLost: (reason) => lost.push(reason),
    });
    try {
      await expect(broken.run(htmlJob(smallPage))).rejects.toMatchObject({ code: 'internal' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lost).toEqual(['failed_to_start']);
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
    const slow = new WorkerExtractionPool({
      size: 1,
      deadlineMs: 4_000,
      maxHeapMb: 128,
      maxQueueWaitMs: waitMs,
      limits: { maxRows: 10, maxBytes: 1e6 },
    });
    try {
      while (slow.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      // Took a worker at once: its own deadline applies, never the queue-wait bound.
      const runaway = slow.run(htmlJob(millionDeep)).catch((error: KumoError) => error.code);
      const waiting = [1, 2, 3].map(() =>
        slow.run(htmlJob(smallPage)).then(
          () => ({ outcome: 'served', ms: performance.now() - started }),
          (error: KumoError) => ({
            outcome: `${error.code} ${error.extras.retryAfterSeconds}`,
            ms: performance.now() - started,
          }),
        ),
      );
      const answers = await Promise.all(waiting);
      for (const answer of answers) {
        expect(answer.outcome).toBe('unavailable 1');
        expect(answer.ms).toBeGreaterThanOrEqual(waitMs - 50);
        // Answered at the bound, long before the worker would have been free (the runaway's 4 s deadline).
        expect(answer.ms).toBeLessThan(3_000);
      }
      expect(await runaway).toBe('content_too_complex');
      // The pool still serves after both the expiries and the replaced worker (once the replacement has loaded).
      while (slow.readyWorkers < 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const next = await slow.run(htmlJob(smallPage));
      expect(next.extraction?.data.price).toBe(1980);
    } finally {
      await slow.close();
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
