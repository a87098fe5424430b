// What the benchmark scripts share: the closed-loop driver, the handshake with the process that measures a contender,
// and the reading of their count options.
import { createInterface } from 'node:readline';

/** One page for a contender to fetch: the origin URL it is served at on loopback. */
export interface Target {
  url: string;
}

/** What run.ts hands a child contender (as a JSON file named on its command line). */
export interface ChildJob {
  targets: Target[];
  concurrency: number;
  total: number;
  warmup: number;
}

/** A contender's measured window: per-page latencies (ms), wall time, and the pages that failed. */
export interface WindowResult {
  latencies: number[];
  elapsedMs: number;
  failures: number;
}

/** `concurrency` callers each take the next index until `total` are done; every call's duration is kept. */
export async function closedLoop(
  concurrency: number,
  total: number,
  call: (i: number, caller: number) => Promise<boolean>,
): Promise<WindowResult> {
  let next = 0;
  let failures = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async (_, caller) => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        let ok = false;
        try {
          ok = await call(i, caller);
        } catch {
          ok = false;
        }
        latencies.push(performance.now() - t);
        if (!ok) failures++;
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started, failures };
}

// Lines on stdout that carry the protocol; anything else a contender prints (a library's log) is ignored.
const TAG = 'BENCH ';

/** In a child: say warm, wait for `go`, run the window, report it, then wait to be let go (so that the parent reads
 * the process's CPU time and memory before it exits). */
export async function childWindow(measure: () => Promise<WindowResult>): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write(`${TAG}warm\n`);
  await lines.next();
  const result = await measure();
  process.stdout.write(`${TAG}${JSON.stringify(result)}\n`);
  await lines.next();
  process.exit(0);
}

export function protocolLine(line: string): string | null {
  return line.startsWith(TAG) ? line.slice(TAG.length) : null;
}

/** A count option (`--rounds`, `--reps`): a whole number ≥ 1, or the script stops with a one-line error (exit 2). */
export function countOption(name: string, raw: string): number {
  const count = Number(raw);
  if (Number.isInteger(count) && count >= 1) return count;
  console.error(`--${name} takes a whole number ≥ 1, not ${raw}`);
  process.exit(2);
}
