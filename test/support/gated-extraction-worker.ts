// Test-only extraction worker entry: the real worker, except that the start a test names fails to load when told,
// and a page the test names is held in its worker until the test lets it go.
import { parentPort, workerData } from 'node:worker_threads';

// The test passes a SharedArrayBuffer beside the limits: [0] starts so far, [1] which start (1-based) fails, [2] set
// to 1 by the test when that start should fail; when longer (see holdGate below): [3] pages taken by any worker so
// far, and [n] for n ≥ 4 the state of the page whose final URL ends in `#hold-n`: 0 not taken yet, 1 held by a
// worker, 2 let go by the test.
const gate = new Int32Array((workerData as { limits: { gate: SharedArrayBuffer } }).limits.gate);
const start = Atomics.add(gate, 0, 1) + 1;
if (start === Atomics.load(gate, 1)) {
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (Atomics.load(gate, 2) === 1) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
  throw new Error('this extraction worker cannot start');
}
if (gate.length > 3) {
  // Registered before the real worker's listener, so it runs first and holds the page before it is produced. The
  // wait is in short slices so that terminating the worker (its page deadline) is never stuck behind it.
  parentPort?.on('message', ({ job }: { job: { finalUrl: string } }) => {
    Atomics.add(gate, 3, 1);
    const hold = /#hold-(\d+)$/.exec(job.finalUrl);
    if (!hold) return;
    const n = Number(hold[1]);
    // Let go before it was even taken: it runs at once.
    if (Atomics.compareExchange(gate, n, 0, 1) === 2) return;
    while (Atomics.load(gate, n) !== 2) Atomics.wait(gate, n, 1, 20);
  });
}
await import('../../src/scrape/extraction-worker.ts');
