// Worker threads that parse and extract pages off the event loop, each page under a wall-clock and heap budget: a
// hostile page costs one worker (stopped and replaced), never the latency of /healthz or of other callers.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { KumoError } from '../errors.js';
import type { OutputLimits, ProduceJob, Produced } from './produce.js';
import type { WorkerReply, WorkerRequest } from './extraction-thread.js';

/** The role: turns fetched bytes into what a call serves. */
export interface ExtractionRunner {
  /** Aborting `signal` (the caller has gone) drops the page if it still waits, or answers at once if it runs. */
  run(job: ProduceJob, options?: { signal?: AbortSignal }): Promise<Produced>;
  close(): Promise<void>;
}

export type WorkerLoss = 'deadline' | 'out_of_memory' | 'crashed' | 'failed_to_start';

export interface WorkerExtractionPoolOptions {
  /** Worker threads; 0 = os.availableParallelism(). */
  size: number;
  /** Per page, from the moment a worker takes it; past it the worker is terminated. */
  deadlineMs: number;
  /** Old-generation heap of one worker; a page that needs more ends that worker. */
  maxHeapMb: number;
  limits: OutputLimits;
  /** Pages waiting for a worker beyond which a call is refused (503 unavailable); default 128 per worker. */
  maxQueue?: number;
  /** Body bytes waiting for a worker from which a further call is refused (503 unavailable); default 64 MiB. Each
   * waiting page holds its body: this bounds the queue's memory (to this plus one page) whatever the pages' sizes, so
   * that the count above can be large enough for many callers of ordinary pages. */
  maxQueueBytes?: number;
  /** Longest a page may wait for a worker; past it the call is refused (503 unavailable, free). Bounded so that a
   * call ends well within its concurrency lease and its credit hold (config.ts checks the sum); default 20 s. */
  maxQueueWaitMs?: number;
  /** Told whenever a worker is lost and replaced (for logs and metrics; never page content). */
  onWorkerLost?: (reason: WorkerLoss) => void;
  /** Tests point this elsewhere; default the entry next to this module (.ts under vitest, .js in dist/). */
  workerUrl?: URL;
}

interface Pending {
  job: ProduceJob;
  resolve: (produced: Produced) => void;
  reject: (error: KumoError) => void;
  /** Fires when the page has waited too long for a worker; cleared when a worker takes it. */
  waitTimer: NodeJS.Timeout | null;
  /** Detaches the caller's abort listener once the page is answered. */
  unlisten: () => void;
}

/** Default bound on the body bytes waiting for a worker. */
export const defaultMaxQueueBytes = 64 * 2 ** 20;

/** Default bound on the wait for a worker (KUMO_EXTRACT_QUEUE_WAIT_MS). */
export const defaultMaxQueueWaitMs = 20_000;

interface Slot {
  worker: Worker;
  ready: boolean;
  current: { id: number; pending: Pending; timer: NodeJS.Timeout } | null;
}

const defaultWorkerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './extraction-worker.ts' : './extraction-worker.js',
  import.meta.url,
);

export class WorkerExtractionPool implements ExtractionRunner {
  readonly #o: WorkerExtractionPoolOptions;
  readonly #size: number;
  readonly #slots = new Set<Slot>();
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  #restartTimer: NodeJS.Timeout | null = null;

  constructor(options: WorkerExtractionPoolOptions) {
    this.#o = options;
    this.#size = options.size > 0 ? options.size : os.availableParallelism();
    for (let i = 0; i < this.#size; i++) this.#spawn();
  }

  get size(): number {
    return this.#size;
  }

  /** Workers loaded and able to take a page (a replacement takes a moment to load). */
  get readyWorkers(): number {
    return [...this.#slots].filter((slot) => slot.ready).length;
  }

  run(job: ProduceJob, options: { signal?: AbortSignal } = {}): Promise<Produced> {
    const { signal } = options;
    if (this.#closed) return Promise.reject(new KumoError('unavailable', 'the service is shutting down'));
    if (signal?.aborted) return Promise.reject(goneError());
    if (
      this.#queue.length >= (this.#o.maxQueue ?? this.#size * 128) ||
      this.#queuedBytes() >= (this.#o.maxQueueBytes ?? defaultMaxQueueBytes)
    ) {
      return Promise.reject(
        new KumoError('unavailable', 'every extraction worker is busy; retry shortly', { retryAfterSeconds: 1 }),
      );
    }
    return new Promise<Produced>((resolve, reject) => {
      // A waiting page holds the caller's bytes, not a copy: the copy is made when a worker takes it (#dispatch).
      const pending: Pending = {
        job,
        resolve: (produced) => {
          pending.unlisten();
          resolve(produced);
        },
        reject: (error) => {
          pending.unlisten();
          reject(error);
        },
        waitTimer: null,
        unlisten: () => undefined,
      };
      if (signal) {
        const onAbort = () => this.#abandon(pending);
        signal.addEventListener('abort', onAbort, { once: true });
        pending.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      const waitMs = this.#o.maxQueueWaitMs ?? defaultMaxQueueWaitMs;
      pending.waitTimer = setTimeout(() => this.#expire(pending, waitMs), waitMs);
      pending.waitTimer.unref();
      this.#queue.push(pending);
      this.#dispatch();
    });
  }

  #queuedBytes(): number {
    let bytes = 0;
    for (const pending of this.#queue) bytes += pending.job.body.byteLength;
    return bytes;
  }

  /** The caller has gone: a waiting page leaves the queue. A running one is answered at once but its worker runs on
   * (still under the page deadline): ending it would cost a ~1 s respawn, which a client disconnecting on purpose
   * could repeat to keep every worker restarting. */
  #abandon(pending: Pending): void {
    const index = this.#queue.indexOf(pending);
    if (index !== -1) {
      this.#queue.splice(index, 1);
      if (pending.waitTimer) clearTimeout(pending.waitTimer);
      pending.waitTimer = null;
      pending.reject(goneError());
      return;
    }
    // Running: settle the caller's promise now; the worker's late answer then settles nothing.
    pending.reject(goneError());
  }

  /** A page still waiting for a worker past the bound: refused, free, so the caller can retry elsewhere or later. */
  #expire(pending: Pending, waitMs: number): void {
    pending.waitTimer = null;
    const index = this.#queue.indexOf(pending);
    if (index === -1) return;
    this.#queue.splice(index, 1);
    pending.reject(
      new KumoError('unavailable', `no extraction worker was free within ${waitMs} ms; retry shortly`, {
        retryAfterSeconds: 1,
      }),
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#restartTimer) clearTimeout(this.#restartTimer);
    for (const pending of this.#queue.splice(0)) {
      if (pending.waitTimer) clearTimeout(pending.waitTimer);
      pending.reject(new KumoError('unavailable', 'the service is shutting down'));
    }
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) {
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.pending.reject(new KumoError('unavailable', 'the service is shutting down'));
      }
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): void {
    const worker = new Worker(this.#o.workerUrl ?? defaultWorkerUrl, {
      workerData: { limits: this.#o.limits },
      resourceLimits: { maxOldGenerationSizeMb: this.#o.maxHeapMb },
    });
    const slot: Slot = { worker, ready: false, current: null };
    worker.on('message', (message: WorkerReply | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        this.#dispatch();
        return;
      }
      const current = slot.current;
      if (!current || current.id !== message.id) return;
      clearTimeout(current.timer);
      slot.current = null;
      if (message.ok) current.pending.resolve(message.produced);
      else {
        const { code, message: detail, body } = message.failure;
        current.pending.reject(new KumoError(code, detail, body ? { body } : {}));
      }
      this.#dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      this.#lose(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'crashed');
    });
    worker.on('exit', () => this.#lose(slot, 'crashed'));
    this.#slots.add(slot);
  }

  /** Ends a worker, answers its page, and puts a new worker in its place. */
  #lose(slot: Slot, reason: WorkerLoss): void {
    if (!this.#slots.has(slot)) return;
    this.#slots.delete(slot);
    const loss: WorkerLoss = slot.ready ? reason : 'failed_to_start';
    const current = slot.current;
    slot.current = null;
    if (current) {
      clearTimeout(current.timer);
      current.pending.reject(this.#errorFor(loss));
    }
    void slot.worker.terminate();
    this.#o.onWorkerLost?.(loss);
    if (this.#closed) return;
    if (loss === 'failed_to_start') {
      // A worker that cannot even load would be respawned in a tight loop: retry later. The waiting calls stay for
      // the workers still there (ready, or loading); only when none is left would they hang, so they are answered.
      if (this.#slots.size === 0) {
        for (const pending of this.#queue.splice(0)) {
          if (pending.waitTimer) clearTimeout(pending.waitTimer);
          pending.reject(this.#errorFor(loss));
        }
      }
      this.#restartTimer ??= setTimeout(() => {
        this.#restartTimer = null;
        while (!this.#closed && this.#slots.size < this.#size) this.#spawn();
      }, 1_000);
      this.#restartTimer.unref();
      return;
    }
    this.#spawn();
  }

  #errorFor(loss: WorkerLoss): KumoError {
    switch (loss) {
      case 'deadline':
        return new KumoError(
          'content_too_complex',
          `the page could not be parsed and extracted within ${this.#o.deadlineMs} ms`,
        );
      case 'out_of_memory':
        return new KumoError(
          'content_too_complex',
          `the page needed more than ${this.#o.maxHeapMb} MB to be parsed and extracted`,
        );
      case 'crashed':
      case 'failed_to_start':
        return new KumoError('internal', 'an internal error occurred while extracting');
    }
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (!slot.ready || slot.current) continue;
      const pending = this.#queue.shift()!;
      if (pending.waitTimer) clearTimeout(pending.waitTimer);
      pending.waitTimer = null;
      const id = this.#nextId++;
      const timer = setTimeout(() => this.#lose(slot, 'deadline'), this.#o.deadlineMs);
      slot.current = { id, pending, timer };
      // The one copy, made at hand-off, in a buffer of its own that is moved (not cloned) to the worker; the caller
      // keeps its bytes (a view into a larger, shared buffer must not be transferred).
      const body = pending.job.body.slice();
      const request: WorkerRequest = { id, job: { ...pending.job, body } };
      slot.worker.postMessage(request, [body.buffer]);
    }
  }
}

function goneError(): KumoError {
  return new KumoError('internal', 'the caller went away before the page was produced');
}
