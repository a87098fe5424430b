// Worker threads that parse and extract pages off the event loop, each page under a wall-clock and heap budget: a
// hostile page costs one worker (stopped and replaced), never the latency of /healthz or of other callers.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { KumoError } from '../errors.js';
import { systemClock, type Clock, type ClockTimer } from '../time/clock.js';
import { OverBudgetPages } from './over-budget-pages.js';
import type { OutputLimits, ProduceJob, Produced } from './produce.js';
import type { WorkerReply, WorkerRequest } from './extraction-thread.js';

/** The role: turns fetched bytes into what a call serves. */
export interface ExtractionRunner {
  /** Aborting `signal` (the caller has gone) drops the page if it still waits, or answers at once if it runs.
   * `account` is whose page it is: the workers and the queue are shared fairly between accounts. */
  run(job: ProduceJob, options?: RunOptions): Promise<Produced>;
  close(): Promise<void>;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** The account the page is produced for; pages without one share a single turn. */
  account?: string;
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
  /** The same bound for the pages of one account; default a quarter of `maxQueue`, so that one account filling its
   * share leaves the rest of the queue to the others. */
  maxAccountQueue?: number;
  /** Body bytes waiting for a worker from which a further call is refused (503 unavailable); default 64 MiB. Each
   * waiting page holds its body: this bounds the queue's memory (to this plus one page) whatever the pages' sizes, so
   * that the count above can be large enough for many callers of ordinary pages. */
  maxQueueBytes?: number;
  /** The same bound for the waiting bodies of one account; default a quarter of `maxQueueBytes`. */
  maxAccountQueueBytes?: number;
  /** A page of more bytes than this is heavy: heavy pages together hold at most all workers but one, and those of one
   * account at most half of them (at least one each), so that a worker stays free for the ordinary pages of others
   * whatever heavy pages wait. Default 256 KiB (KUMO_EXTRACT_HEAVY_PAGE_BYTES). */
  heavyPageBytes?: number;
  /** Pages that ran past their heap, or past their deadline twice, remembered (by SHA-256 of body, extractor and
   * outputs), so that a repeat is refused at once without a worker; default 1024, each for `overBudgetTtlMs` (default
   * 1 h) after it was remembered. */
  overBudgetCapacity?: number;
  overBudgetTtlMs?: number;
  /** Times the queue-wait bound, the page deadline, the restart delay and the over-budget TTL; default systemClock. */
  clock?: Clock;
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
  account: string;
  heavy: boolean;
  resolve: (produced: Produced) => void;
  reject: (error: KumoError) => void;
  /** Fires when the page has waited too long for a worker; cleared when a worker takes it. */
  waitTimer: ClockTimer | null;
  /** Detaches the caller's abort listener once the page is answered. */
  unlisten: () => void;
}

/** Default bound on the body bytes waiting for a worker. */
export const defaultMaxQueueBytes = 64 * 2 ** 20;

/** Default bound on the wait for a worker (KUMO_EXTRACT_QUEUE_WAIT_MS). */
export const defaultMaxQueueWaitMs = 20_000;

/** Default size past which a page is heavy (KUMO_EXTRACT_HEAVY_PAGE_BYTES). */
export const defaultHeavyPageBytes = 256 * 1024;

/** The waiting pages of one account, in arrival order, and their body bytes. */
interface AccountQueue {
  pages: Pending[];
  bytes: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: { id: number; pending: Pending; timer: ClockTimer } | null;
}

const defaultWorkerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './extraction-worker.ts' : './extraction-worker.js',
  import.meta.url,
);

export class WorkerExtractionPool implements ExtractionRunner {
  readonly #o: WorkerExtractionPoolOptions;
  readonly #size: number;
  readonly #clock: Clock;
  readonly #slots = new Set<Slot>();
  /** Accounts with pages waiting, in order of their first waiting page (a tie of turns goes to the first). */
  readonly #queues = new Map<string, AccountQueue>();
  /** When each account with pages waiting or running last had a page taken by a worker (see #next). */
  readonly #lastTurn = new Map<string, number>();
  #turns = 0;
  #queuedPages = 0;
  #queuedBytes = 0;
  readonly #overBudget: OverBudgetPages;
  #nextId = 1;
  #closed = false;
  #restartTimer: ClockTimer | null = null;

  constructor(options: WorkerExtractionPoolOptions) {
    this.#o = options;
    this.#size = options.size > 0 ? options.size : os.availableParallelism();
    this.#clock = options.clock ?? systemClock;
    this.#overBudget = new OverBudgetPages({
      clock: this.#clock,
      capacity: options.overBudgetCapacity ?? 1024,
      ttlMs: options.overBudgetTtlMs ?? 3_600_000,
    });
    for (let i = 0; i < this.#size; i++) this.#spawn();
  }

  get size(): number {
    return this.#size;
  }

  /** Workers loaded and able to take a page (a replacement takes a moment to load). */
  get readyWorkers(): number {
    return [...this.#slots].filter((slot) => slot.ready).length;
  }

  /** Pages waiting for a worker, of every account. */
  get waiting(): number {
    return this.#queuedPages;
  }

  /** Workers heavy pages may hold together, and those of one account. */
  get heavyWorkers(): { total: number; perAccount: number } {
    return { total: Math.max(1, this.#size - 1), perAccount: Math.max(1, Math.floor(this.#size / 2)) };
  }

  run(job: ProduceJob, options: RunOptions = {}): Promise<Produced> {
    const { signal } = options;
    const account = options.account ?? '';
    if (this.#closed) return Promise.reject(new KumoError('unavailable', 'the service is shutting down'));
    if (signal?.aborted) return Promise.reject(goneError());
    // Before any bound: a repeat costs no worker and no queue room, and is the same answer as the first time.
    if (this.#overBudget.has(job)) return Promise.reject(overBudgetError());
    const maxQueue = this.#o.maxQueue ?? this.#size * 128;
    const maxQueueBytes = this.#o.maxQueueBytes ?? defaultMaxQueueBytes;
    const mine = this.#queues.get(account);
    if (
      this.#queuedPages >= maxQueue ||
      this.#queuedBytes >= maxQueueBytes ||
      (mine?.pages.length ?? 0) >= (this.#o.maxAccountQueue ?? Math.max(1, Math.floor(maxQueue / 4))) ||
      (mine?.bytes ?? 0) >= (this.#o.maxAccountQueueBytes ?? Math.floor(maxQueueBytes / 4))
    ) {
      return Promise.reject(
        new KumoError('unavailable', 'every extraction worker is busy; retry shortly', { retryAfterSeconds: 1 }),
      );
    }
    return new Promise<Produced>((resolve, reject) => {
      // A waiting page holds the caller's bytes, not a copy: the copy is made when a worker takes it (#dispatch).
      const pending: Pending = {
        job,
        account,
        heavy: job.body.byteLength > (this.#o.heavyPageBytes ?? defaultHeavyPageBytes),
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
      // Unref'd: a page waiting for a worker is kept alive by its caller, not by its bound.
      pending.waitTimer = this.#clock.setTimeout(() => this.#expire(pending, waitMs), waitMs, { unref: true });
      let queue = this.#queues.get(account);
      if (!queue) {
        queue = { pages: [], bytes: 0 };
        this.#queues.set(account, queue);
      }
      queue.pages.push(pending);
      queue.bytes += job.body.byteLength;
      this.#queuedPages++;
      this.#queuedBytes += job.body.byteLength;
      this.#dispatch();
    });
  }

  /** Takes a waiting page out of its account's queue (the account leaves the turn order once it has none); false
   * if it no longer waits. */
  #unqueue(pending: Pending): boolean {
    const queue = this.#queues.get(pending.account);
    const index = queue?.pages.indexOf(pending) ?? -1;
    if (!queue || index === -1) return false;
    queue.pages.splice(index, 1);
    queue.bytes -= pending.job.body.byteLength;
    this.#queuedPages--;
    this.#queuedBytes -= pending.job.body.byteLength;
    if (queue.pages.length === 0) this.#queues.delete(pending.account);
    this.#clock.clearTimeout(pending.waitTimer ?? undefined);
    pending.waitTimer = null;
    return true;
  }

  /** The caller has gone: a waiting page leaves the queue. A running one is answered at once but its worker runs on
   * (still under the page deadline): ending it would cost a ~1 s respawn, which a client disconnecting on purpose
   * could repeat to keep every worker restarting. */
  #abandon(pending: Pending): void {
    // Waiting or running, the caller's promise settles now; a running page's late answer then settles nothing.
    this.#unqueue(pending);
    pending.reject(goneError());
  }

  /** A page still waiting for a worker past the bound: refused, free, so the caller can retry elsewhere or later. */
  #expire(pending: Pending, waitMs: number): void {
    pending.waitTimer = null;
    if (!this.#unqueue(pending)) return;
    pending.reject(
      new KumoError('unavailable', `no extraction worker was free within ${waitMs} ms; retry shortly`, {
        retryAfterSeconds: 1,
      }),
    );
  }

  #rejectAllWaiting(error: KumoError): void {
    for (const queue of [...this.#queues.values()]) {
      for (const pending of [...queue.pages]) {
        this.#unqueue(pending);
        pending.reject(error);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#clock.clearTimeout(this.#restartTimer ?? undefined);
    this.#rejectAllWaiting(new KumoError('unavailable', 'the service is shutting down'));
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) {
      if (slot.current) {
        this.#clock.clearTimeout(slot.current.timer);
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
      this.#clock.clearTimeout(current.timer);
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
      this.#clock.clearTimeout(current.timer);
      // Most likely a property of the page: the same bytes would cost a worker the same way again (a deadline loss
      // counts once of two, since the machine's load may have caused it).
      if (loss === 'deadline' || loss === 'out_of_memory') this.#overBudget.remember(current.pending.job, loss);
      current.pending.reject(this.#errorFor(loss));
    }
    void slot.worker.terminate();
    this.#o.onWorkerLost?.(loss);
    if (this.#closed) return;
    if (loss === 'failed_to_start') {
      // A worker that cannot even load would be respawned in a tight loop: retry later. The waiting calls stay for
      // the workers still there (ready, or loading); only when none is left would they hang, so they are answered.
      if (this.#slots.size === 0) this.#rejectAllWaiting(this.#errorFor(loss));
      // Unref'd: a pool nobody uses any more (a CLI done with its work) must not keep the process alive to restart.
      this.#restartTimer ??= this.#clock.setTimeout(
        () => {
          this.#restartTimer = null;
          while (!this.#closed && this.#slots.size < this.#size) this.#spawn();
        },
        1_000,
        { unref: true },
      );
      return;
    }
    this.#spawn();
    // A freed heavy turn may let a waiting heavy page onto a worker that is already free.
    this.#dispatch();
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

  /**
   * The next page for a free worker. The account served least recently goes first (one that has had no turn while it
   * had pages waiting or running goes before one that has): a flood from one account takes every other turn at
   * most, however many pages it queued first. Within an account pages go in arrival order, except that a heavy page
   * over its cap lets the account's ordinary pages behind it go first.
   */
  #next(): Pending | undefined {
    const cap = this.heavyWorkers;
    let heavyTotal = 0;
    const heavyOf = new Map<string, number>();
    const running = new Set<string>();
    for (const slot of this.#slots) {
      const page = slot.current?.pending;
      if (!page) continue;
      running.add(page.account);
      if (!page.heavy) continue;
      heavyTotal++;
      heavyOf.set(page.account, (heavyOf.get(page.account) ?? 0) + 1);
    }
    // An account with nothing waiting or running starts afresh: the record stays as small as the work in the pool.
    for (const account of this.#lastTurn.keys()) {
      if (!running.has(account) && !this.#queues.has(account)) this.#lastTurn.delete(account);
    }
    let chosen: Pending | undefined;
    let chosenTurn = Infinity;
    for (const [account, queue] of this.#queues) {
      const turn = this.#lastTurn.get(account) ?? 0;
      if (turn >= chosenTurn) continue;
      const heavyAllowed = heavyTotal < cap.total && (heavyOf.get(account) ?? 0) < cap.perAccount;
      const pending = queue.pages.find((page) => heavyAllowed || !page.heavy);
      if (!pending) continue;
      chosen = pending;
      chosenTurn = turn;
    }
    if (!chosen) return undefined;
    this.#unqueue(chosen);
    this.#lastTurn.set(chosen.account, ++this.#turns);
    return chosen;
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queuedPages === 0) return;
      if (!slot.ready || slot.current) continue;
      let pending = this.#next();
      // Copies of a page that blew its budget while they waited (a caller looping on it) are refused here, not run.
      while (pending && this.#overBudget.has(pending.job)) {
        pending.reject(overBudgetError());
        pending = this.#next();
      }
      if (!pending) return;
      const id = this.#nextId++;
      const timer = this.#clock.setTimeout(() => this.#lose(slot, 'deadline'), this.#o.deadlineMs);
      slot.current = { id, pending, timer };
      // The one copy, made at hand-off, in a buffer of its own that is moved (not cloned) to the worker; the caller
      // keeps its bytes (a view into a larger, shared buffer must not be transferred).
      const body = pending.job.body.slice();
      const request: WorkerRequest = { id, job: { ...pending.job, body } };
      slot.worker.postMessage(request, [body.buffer]);
    }
  }
}

function overBudgetError(): KumoError {
  return new KumoError(
    'content_too_complex',
    'the same page ran past the parse and extraction budget a moment ago; it is not parsed again',
  );
}

function goneError(): KumoError {
  return new KumoError('internal', 'the caller went away before the page was produced');
}
