// What `kumo batch submit --wait` shows on stderr while a batch runs: a bar with the counts by state and an ETA,
// redrawn in place on a terminal, as plain lines (at most one per interval) when stderr is a file or a pipe.

import { itemStates } from '../batches/batch-store.js';

/** The part of the API's `batch` JSON (DESIGN §8) the progress needs. */
export interface BatchView {
  id: string;
  status: string;
  counts: Record<string, number> & { total: number; queued: number; running: number };
  estimate?: { eta_s?: number } | null;
}

/** The states shown after the bar, in the order an item moves through them (the server's own list). */
const shownStates = itemStates;

/** Items no longer waiting to run: everything but queued and running. */
export function doneOf(batch: BatchView): number {
  return Math.max(0, batch.counts.total - batch.counts.queued - batch.counts.running);
}

/** `1h02m`, `3m05s`, `42s`; `?` when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The time left, from the pace seen since the first reading that had work left; before any item finished, the
 * server's own estimate (from the hosts' politeness) less the time already waited.
 */
export class EtaEstimator {
  #first: { at: number; done: number } | null = null;

  constructor(
    private readonly serverEtaS: number | null,
    private readonly startedAt: number,
  ) {}

  /** Seconds left at `now` with `done` of `total` finished; null when there is nothing to go on. */
  estimate(now: number, done: number, total: number): number | null {
    if (done >= total) return 0;
    if (this.#first === null) this.#first = { at: now, done };
    const finished = done - this.#first.done;
    const elapsedS = (now - this.#first.at) / 1000;
    if (finished > 0 && elapsedS > 0) return ((total - done) * elapsedS) / finished;
    if (this.serverEtaS === null) return null;
    return Math.max(0, this.serverEtaS - (now - this.startedAt) / 1000);
  }
}

export interface RenderOptions {
  /** Seconds left, or null when unknown. */
  etaS: number | null;
  /** A terminal gets the bar in block characters; a plain line gets `#` and `.` (a log file reads those). */
  tty: boolean;
  /** Cells of the bar. */
  width?: number;
}

/** One line: `[██████░░░░] 60% 600/1000 · queued 390 · running 10 · ready 580 · failed 20 · ETA 1m40s`. */
export function renderProgress(batch: BatchView, options: RenderOptions): string {
  const width = options.width ?? 24;
  const total = batch.counts.total;
  const done = doneOf(batch);
  const ratio = total === 0 ? 1 : done / total;
  // Floor, so 100 % (and a full bar) means every item, never 999 of 1,000 rounded up.
  const percent = Math.floor(ratio * 100);
  const filled = Math.floor(ratio * width);
  const [full, empty] = options.tty ? ['█', '░'] : ['#', '.'];
  const bar = `[${full.repeat(filled)}${empty.repeat(width - filled)}]`;
  const states = shownStates
    .filter((state) => (batch.counts[state] ?? 0) > 0)
    .map((state) => `${state} ${batch.counts[state]}`);
  const ending =
    batch.status === 'completed' || batch.status === 'cancelled'
      ? batch.status
      : `${batch.status === 'cancelling' ? 'cancelling · ' : ''}ETA ${formatDuration(options.etaS)}`;
  return [`${bar} ${String(percent).padStart(3)}% ${done}/${total}`, ...states, ending].join(' · ');
}

/** Where the progress goes: Node's stderr, or a test's buffer. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Draws readings of a batch: on a TTY each replaces the last (carriage return, erase line); otherwise a plain line
 * when the counts changed and `lineIntervalMs` has passed since the last line, and always the final reading.
 */
export class ProgressDisplay {
  #lastLineAt = -Infinity;
  #lastCounts = '';
  #drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly lineIntervalMs = 10_000,
  ) {}

  show(batch: BatchView, etaS: number | null, now: number, final = false): void {
    const tty = this.stream.isTTY === true;
    const line = renderProgress(batch, { etaS, tty });
    if (tty) {
      // Cut to the terminal's width, or a wrapped line could not be erased by the next redraw.
      const columns = this.stream.columns ?? 80;
      const shown = line.length >= columns ? line.slice(0, Math.max(0, columns - 1)) : line;
      this.stream.write(`\r\x1b[2K${shown}${final ? '\n' : ''}`);
      this.#drawn = !final;
      return;
    }
    const counts = JSON.stringify(batch.counts) + batch.status;
    if (!final && (counts === this.#lastCounts || now - this.#lastLineAt < this.lineIntervalMs)) return;
    this.#lastCounts = counts;
    this.#lastLineAt = now;
    this.stream.write(`${line}\n`);
  }

  /** Ends a bar left drawn (an error while waiting), so what follows starts on its own line. */
  close(): void {
    if (this.#drawn) this.stream.write('\n');
    this.#drawn = false;
  }
}
