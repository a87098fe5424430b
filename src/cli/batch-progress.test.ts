// The progress `kumo batch submit --wait` draws: the bar, the counts, the ETA, on a terminal and in a log.
import { describe, expect, it } from 'vitest';
import { EtaEstimator, formatDuration, ProgressDisplay, renderProgress, type BatchView } from './batch-progress.js';

function batch(counts: Partial<BatchView['counts']>, status = 'running'): BatchView {
  return {
    id: 'bat_1',
    status,
    counts: { total: 1000, queued: 0, running: 0, ...counts },
    estimate: { eta_s: 100 },
  };
}

describe('renderProgress', () => {
  it('shows the bar, percent, done of total, the non-zero states and the ETA', () => {
    const line = renderProgress(batch({ queued: 390, running: 10, ready: 580, failed: 20 }), {
      etaS: 100,
      tty: true,
      width: 10,
    });
    expect(line).toBe('[██████░░░░]  60% 600/1000 · queued 390 · running 10 · ready 580 · failed 20 · ETA 1m40s');
  });

  it('uses # and . off a terminal, never rounds up to 100 %, and ends with the final status', () => {
    expect(renderProgress(batch({ running: 1, delivered: 999 }), { etaS: null, tty: false, width: 4 })).toBe(
      '[###.]  99% 999/1000 · running 1 · delivered 999 · ETA ?',
    );
    expect(renderProgress(batch({ delivered: 1000 }, 'completed'), { etaS: 0, tty: false, width: 4 })).toBe(
      '[####] 100% 1000/1000 · delivered 1000 · completed',
    );
    expect(renderProgress(batch({ total: 0 }, 'completed'), { etaS: 0, tty: false, width: 2 })).toBe(
      '[##] 100% 0/0 · completed',
    );
  });
});

describe('formatDuration and EtaEstimator', () => {
  it('formats seconds, minutes and hours', () => {
    expect([formatDuration(42), formatDuration(185), formatDuration(3720), formatDuration(null)]).toEqual([
      '42s',
      '3m05s',
      '1h02m',
      '?',
    ]);
  });

  it("uses the server's estimate until items finish, then the pace seen", () => {
    const eta = new EtaEstimator(100, 0);
    expect(eta.estimate(0, 0, 1000)).toBe(100);
    expect(eta.estimate(30_000, 0, 1000)).toBe(70);
    // 200 done in the 40 s since the first reading: 800 left at 5/s.
    expect(eta.estimate(40_000, 200, 1000)).toBe(160);
    expect(eta.estimate(50_000, 1000, 1000)).toBe(0);
    expect(new EtaEstimator(null, 0).estimate(0, 0, 10)).toBeNull();
  });
});

describe('ProgressDisplay', () => {
  it('redraws one line in place on a terminal, cut to its width, and ends it with a newline', () => {
    const written: string[] = [];
    const display = new ProgressDisplay({ write: (t: string) => written.push(t), isTTY: true, columns: 30 });
    display.show(batch({ queued: 1000 }), 10, 0);
    display.show(batch({ delivered: 1000 }, 'completed'), 0, 1000, true);
    expect(written).toHaveLength(2);
    for (const w of written) expect(w.startsWith('\r\x1b[2K')).toBe(true);
    expect(written[0]!.length).toBe('\r\x1b[2K'.length + 29);
    expect(written[1]!.endsWith('\n')).toBe(true);
  });

  it('writes plain lines off a terminal: only changed counts, at most one per interval, always the last', () => {
    const written: string[] = [];
    const display = new ProgressDisplay({ write: (t: string) => written.push(t) }, 10_000);
    display.show(batch({ queued: 1000 }), 10, 0);
    display.show(batch({ queued: 1000 }), 10, 20_000); // unchanged
    display.show(batch({ queued: 900, ready: 100 }), 10, 21_000);
    display.show(batch({ queued: 800, ready: 200 }), 10, 25_000); // within the interval
    display.show(batch({ ready: 1000 }, 'completed'), 0, 26_000, true);
    display.close();
    expect(written.map((w) => w.split(' · ')[0])).toEqual([
      '[........................]   0% 0/1000',
      '[##......................]  10% 100/1000',
      '[########################] 100% 1000/1000',
    ]);
    expect(written.every((w) => w.endsWith('\n') && !w.includes('\r'))).toBe(true);
  });
});
