// The group commit's flusher: every caller waits for a flush that began after it asked, and a burst shares two.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ThreadFdatasync, WalFlusher } from './wal-sync.js';

/** A flushFile whose every flush waits until the test finishes it. */
function heldFlushes() {
  const flushes: { finish: () => void; fail: (error: Error) => void }[] = [];
  const flushFile = {
    flush: () =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ finish: resolve, fail: reject });
      }),
    close: () => Promise.resolve(),
  };
  return { flushes, flushFile };
}

const settledYet = (promise: Promise<unknown>) => {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('WalFlusher', () => {
  it('starts a flush at once when none runs, and resolves when it ends', async () => {
    const { flushes, flushFile } = heldFlushes();
    const flusher = new WalFlusher(flushFile);
    const first = settledYet(flusher.flush());
    expect(flushes).toHaveLength(1);
    await turn();
    expect(first.settled).toBe(false);
    flushes[0]!.finish();
    await turn();
    expect(first.settled).toBe(true);
  });

  it('makes callers who arrive during a flush wait for the next one, which all of them share', async () => {
    const { flushes, flushFile } = heldFlushes();
    const flusher = new WalFlusher(flushFile);
    const first = settledYet(flusher.flush());
    // These wrote after the running flush began: it may not hold their bytes.
    const later = Array.from({ length: 10 }, () => settledYet(flusher.flush()));
    expect(flushes).toHaveLength(1);
    flushes[0]!.finish();
    await turn();
    expect(first.settled).toBe(true);
    expect(later.some((state) => state.settled)).toBe(false);
    // One more flush for all ten, begun only after the first ended.
    expect(flushes).toHaveLength(2);
    flushes[1]!.finish();
    await turn();
    expect(later.every((state) => state.settled)).toBe(true);
    expect(flushes).toHaveLength(2);
    // Idle again: the next caller starts a flush of its own at once.
    void flusher.flush();
    expect(flushes).toHaveLength(3);
  });

  it('a failed flush is final: its waiters, the queued ones and every later caller are refused without a flush', async () => {
    const { flushes, flushFile } = heldFlushes();
    const flusher = new WalFlusher(flushFile);
    const first = flusher.flush();
    const queued = flusher.flush();
    flushes[0]!.fail(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    // After a failed fdatasync the kernel may have dropped the pages: a later success would prove nothing.
    await expect(queued).rejects.toThrow('EIO');
    await expect(flusher.flush()).rejects.toThrow('EIO');
    expect(flusher.failed).toBe(true);
    expect(flushes).toHaveLength(1);
  });

  it('close waits for the flushes already asked for, then lets the file go', async () => {
    const { flushes, flushFile } = heldFlushes();
    let closed = false;
    const flusher = new WalFlusher({ flush: flushFile.flush, close: () => Promise.resolve(void (closed = true)) });
    const first = flusher.flush();
    const second = flusher.flush();
    const closing = flusher.close();
    await turn();
    expect(closed).toBe(false);
    flushes[0]!.finish();
    await turn();
    expect(closed).toBe(false);
    flushes[1]!.finish();
    await closing;
    expect(closed).toBe(true);
    await expect(Promise.all([first, second])).resolves.toBeDefined();
  });

  it('fdatasyncs a real file on its own thread, and refuses a missing log', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kumo-wal-sync-'));
    try {
      const file = join(dir, 'kumo.sqlite-wal');
      await writeFile(file, 'frames');
      const real = new ThreadFdatasync(file);
      await expect(real.flush()).resolves.toBeUndefined();
      await writeFile(file, 'more frames', { flag: 'a' });
      await expect(new WalFlusher(real).flush()).resolves.toBeUndefined();
      await real.close();
      // Asked only after a commit wrote to it: a missing log is an error, never "nothing to flush".
      await expect(new ThreadFdatasync(join(dir, 'absent-wal')).flush()).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
