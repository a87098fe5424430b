// The serving thread's side of the browser thread: posts each render there and gets back only its outcome.
import { Worker } from 'node:worker_threads';
import { KumoError, type ErrorCode } from '../errors.js';
import type { FetchedPage } from '../fetch/fetcher.js';
import { systemClock, type Clock, type ClockTimer } from '../time/clock.js';
import {
  initialPoolState,
  poolStatus,
  poolUnavailableReason,
  unavailable,
  type BrowserPoolState,
  type BrowserPoolStatus,
} from './browser-pool.js';
import type { BrowserThreadSetup, CrossedError, FromBrowserThread, ToBrowserThread } from './browser-thread.js';
import type { PageRenderer, RenderJob, RenderRecord } from './page-renderer.js';

export interface WorkerThreadRendererOptions extends BrowserThreadSetup {
  /** Told once a render is over, with its final record and the page's host (metrics and the refusals log line). */
  finished?: (record: RenderRecord, host: string) => void;
  /** The worker entry (tests); default: browser-worker.js beside this file (.ts under vitest). */
  workerUrl?: URL;
  clock?: Clock;
}

/**
 * After a call ends (its client left, its deadline passed) the browser thread closes the page and answers; a thread
 * busy with a flood of events may take a while, and the call does not wait past this for it.
 */
export const abortGraceMs = 2_000;

/** How long close() waits for the browser thread to close its browser before ending the thread. */
const closeGraceMs = 10_000;

const exitedReason = 'the browser thread exited; it is restarted on the next call';

const defaultWorkerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './browser-worker.ts' : './browser-worker.js',
  import.meta.url,
);

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onReached?: () => void;
}

/**
 * Every render runs in one worker thread that holds the Playwright connection, so the browser's protocol traffic (a
 * page's navigations, console messages, requests, frames: as many as its scripts make) is handled there and never
 * delays the thread that answers /healthz and every other call. Started with the first browser call (Playwright adds
 * memory a service that never renders should not pay); restarted on the next call if it dies.
 */
export class WorkerThreadRenderer implements PageRenderer {
  readonly #o: WorkerThreadRendererOptions;
  readonly #clock: Clock;
  #worker: Worker | null = null;
  #state: BrowserPoolState = initialPoolState;
  #closed = false;
  #ids = 0;
  readonly #pending = new Map<number, Pending>();

  constructor(options: WorkerThreadRendererOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
  }

  status(): BrowserPoolStatus {
    return poolStatus(this.#o.pool, this.#state);
  }

  unavailableReason(): string | null {
    return poolUnavailableReason(this.#o.pool, this.#state, Date.now());
  }

  async start(): Promise<void> {
    if (this.#closed) return;
    await this.#ask({ type: 'start', id: ++this.#ids }).catch(() => undefined);
  }

  render(job: RenderJob, signal: AbortSignal, onReached: () => void): Promise<FetchedPage> {
    if (this.#closed) return Promise.reject(unavailable('the browser pool is closed'));
    if (signal.aborted) return Promise.reject(abortError(signal));
    const id = ++this.#ids;
    let grace: ClockTimer | undefined;
    const onAbort = () => {
      this.#worker?.postMessage({ type: 'abort', id } satisfies ToBrowserThread);
      grace = this.#clock.setTimeout(() => this.#settle(id)?.reject(abortError(signal)), abortGraceMs);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return this.#ask({ type: 'render', id, job }, onReached).finally(() => {
      signal.removeEventListener('abort', onAbort);
      this.#clock.clearTimeout(grace);
    }) as Promise<FetchedPage>;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#state = { ...this.#state, closed: true };
    const worker = this.#worker;
    if (!worker) return;
    let timer: ClockTimer | undefined;
    await Promise.race([
      this.#ask({ type: 'close', id: ++this.#ids }).catch(() => undefined),
      new Promise((resolve) => (timer = this.#clock.setTimeout(() => resolve(undefined), closeGraceMs))),
    ]);
    this.#clock.clearTimeout(timer);
    this.#worker = null;
    await worker.terminate();
  }

  /** Posts a message that the browser thread answers by its id. */
  #ask(message: ToBrowserThread, onReached?: () => void): Promise<unknown> {
    const worker = this.#ensure();
    return new Promise((resolve, reject) => {
      this.#pending.set(message.id, { resolve, reject, ...(onReached ? { onReached } : {}) });
      worker.postMessage(message);
    });
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending;
  }

  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const setup: BrowserThreadSetup = { pool: this.#o.pool, renderer: this.#o.renderer };
    const worker = new Worker(this.#o.workerUrl ?? defaultWorkerUrl, { workerData: setup });
    worker.on('message', (message: FromBrowserThread) => this.#receive(message));
    // An uncaught error in the thread ends it: 'exit' follows, and is where the calls in it are answered.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      // Its Chromium went with it (the pipe closed); the next call starts a new thread, after the usual pause.
      if (!this.#closed)
        this.#state = { ...this.#state, connected: false, failure: exitedReason, failedAt: Date.now() };
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      for (const call of pending) call.reject(unavailable(exitedReason));
    });
    this.#worker = worker;
    return worker;
  }

  #receive(message: FromBrowserThread): void {
    switch (message.type) {
      case 'state':
        this.#state = this.#closed ? { ...message.state, closed: true } : message.state;
        break;
      case 'finished':
        this.#o.finished?.(message.record, message.host);
        break;
      case 'reached':
        this.#pending.get(message.id)?.onReached?.();
        break;
      case 'rendered':
        this.#settle(message.id)?.resolve(message.page);
        break;
      case 'failed':
        this.#settle(message.id)?.reject(rebuilt(message.error));
        break;
      case 'done':
        this.#settle(message.id)?.resolve(undefined);
        break;
    }
  }
}

/** The signal's reason, as an Error (the fetcher answers by which of its signals fired, not by this). */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('the call ended');
}

/** A KumoError as the browser thread threw it; anything else as a plain error with its words, as fetch maps it. */
function rebuilt(error: CrossedError): Error {
  if (error.code === null) return new Error(error.message);
  return new KumoError(error.code as ErrorCode, error.message, error.extras ?? {});
}
