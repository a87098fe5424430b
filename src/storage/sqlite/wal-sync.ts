// Group commit for the embedded database: a charge's transaction commits without an fsync, and this flushes the
// write-ahead log to disk off the event loop, one fdatasync for every settlement waiting at that moment.
import { closeSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Puts a file's written bytes on the disk; resolves when they are there. */
export interface FileFlush {
  flush(): Promise<void>;
  close(): Promise<void>;
}

// The flushing thread: CommonJS by eval, so that it needs no file of its own in src/ and dist/.
const flushThreadSource = `
const { parentPort } = require('node:worker_threads');
const { fdatasyncSync } = require('node:fs');
parentPort.on('message', ({ id, fd }) => {
  try {
    fdatasyncSync(fd);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, code: String(error && error.code || 'EIO') });
  }
});
`;

/**
 * fdatasync on a thread of its own, through a descriptor opened at the first flush and kept.
 * - Its own thread, not libuv's pool: the pool's four threads also run DNS lookups and zlib, and a charged call must
 *   not wait behind a resolver timeout for its flush.
 * - One descriptor: the log is the same file for the life of the server's connection (SQLite deletes it only when the
 *   last connection closes and rewrites it in place otherwise), and opening it per flush cost more of the event loop
 *   than the flush.
 * - No log is an error, not "nothing to flush": it is only asked for after a commit has written to it.
 */
export class ThreadFdatasync implements FileFlush {
  readonly #path: string;
  #fd: number | null = null;
  #worker: Worker | null = null;
  readonly #waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  #nextId = 1;

  constructor(path: string) {
    this.#path = path;
  }

  flush(): Promise<void> {
    try {
      this.#fd ??= openSync(this.#path, 'r');
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error('cannot open the write-ahead log'));
    }
    const worker = (this.#worker ??= this.#startThread());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, fd: this.#fd });
    });
  }

  #startThread(): Worker {
    const worker = new Worker(flushThreadSource, { eval: true });
    worker.unref();
    worker.on('message', ({ id, code }: { id: number; code?: string }) => {
      const waiter = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (!waiter) return;
      if (code === undefined) waiter.resolve();
      else waiter.reject(Object.assign(new Error(`fdatasync of the write-ahead log failed (${code})`), { code }));
    });
    const lost = () => {
      this.#worker = null;
      for (const waiter of this.#waiting.values()) waiter.reject(new Error('the flushing thread ended'));
      this.#waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

/**
 * `flush()` resolves once everything written to the file before the call is on the disk. Callers that arrive while a
 * flush runs cannot use it (it may have started before their write): they share the next one, which starts as soon
 * as the running one ends. So at most two flushes are ever pending, however many calls wait, and a burst of
 * settlements costs two fsyncs, not one each.
 *
 * A failure is final: after a failed fdatasync Linux may have dropped the dirty pages and reports the error once, so
 * a later flush that succeeds proves nothing about the frames before it. Every later `flush()` rejects at once, and
 * the storage stops using group commit (KyselyStorage.settle).
 */
export class WalFlusher {
  readonly #file: FileFlush;
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  #failed: Error | null = null;

  constructor(file: FileFlush) {
    this.#file = file;
  }

  /** True once a flush has failed; then nothing written since is known to be on the disk. */
  get failed(): boolean {
    return this.#failed !== null;
  }

  flush(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#next) return this.#next;
    if (!this.#running) return this.#start();
    const after = this.#running;
    this.#next = after
      .catch(() => undefined)
      .then(() => {
        this.#next = null;
        return this.#start();
      });
    return this.#next;
  }

  #start(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    const running: Promise<void> = this.#file
      .flush()
      .catch((error: unknown) => {
        this.#failed ??= error instanceof Error ? error : new Error('fdatasync failed');
        throw this.#failed;
      })
      .finally(() => {
        if (this.#running === running) this.#running = null;
      });
    this.#running = running;
    return running;
  }

  /** Waits for the flushes already asked for, then lets the file go. */
  async close(): Promise<void> {
    while (this.#next ?? this.#running) await (this.#next ?? this.#running)!.catch(() => undefined);
    await this.#file.close();
  }
}
