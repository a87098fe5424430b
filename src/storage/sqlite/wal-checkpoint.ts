// Checkpoints the embedded database's write-ahead log on a thread of its own, so that copying the log into the file
// (and its fsync) never blocks the event loop inside a commit (docs/decisions/0024).
import { Worker } from 'node:worker_threads';

/**
 * SQLite checkpoints automatically inside whichever commit takes the log past `wal_autocheckpoint` pages (1,000 by
 * default): on the server that is a commit on the event loop, and it copies every page of the log into the database
 * file and fsyncs it. This thread opens its own connection to the same file and runs a PASSIVE checkpoint every
 * `everyMs`, which never waits for (nor blocks) the server's writer; the next write after a complete checkpoint starts
 * the log again from its beginning. The server's own connection keeps a high `wal_autocheckpoint` as a backstop,
 * should this thread fall behind or be gone.
 *
 * Durability is SQLite's: the checkpointing connection runs with synchronous=NORMAL, under which SQLite syncs the log
 * before a checkpoint and the database file after it. Nothing committed is ever only in memory because of this.
 */
export class ThreadCheckpointer {
  readonly #worker: Worker;
  #failures = 0;

  /** `onFailure` hears of a checkpoint that threw (its code only), at most once. */
  constructor(path: string, options: { everyMs: number; onFailure?: (code: string) => void }) {
    this.#worker = new Worker(checkpointThreadSource, { eval: true, workerData: { path, everyMs: options.everyMs } });
    this.#worker.unref();
    this.#worker.on('message', (message: { failed?: string }) => {
      if (message.failed !== undefined && this.#failures++ === 0) options.onFailure?.(message.failed);
    });
    // A thread that cannot start (or dies) leaves the backstop: the server's connection checkpoints as SQLite does.
    this.#worker.on('error', () => undefined);
  }

  /** Stops checkpointing and closes the thread's connection. */
  async close(): Promise<void> {
    this.#worker.postMessage('close');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void this.#worker.terminate().finally(resolve), 1_000);
      this.#worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The server's connection checkpoints by itself only past this many log pages (4 KiB each): the backstop. */
export const backstopAutocheckpointPages = 10_000;

// CommonJS by eval, as wal-sync.ts's thread: no file of its own in src/ and dist/.
const checkpointThreadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: 0 });
db.exec('PRAGMA synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch (error) {
    parentPort.postMessage({ failed: String((error && (error.errcode || error.code)) || 'error') });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;
