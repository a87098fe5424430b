// Test-only extraction worker entry: the real worker, except that the start a test names fails to load when told.
import { workerData } from 'node:worker_threads';

// The test passes a SharedArrayBuffer beside the limits: [0] starts so far, [1] which start (1-based) fails, [2] set
// to 1 by the test when that start should fail.
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
await import('../../src/scrape/extraction-worker.ts');
