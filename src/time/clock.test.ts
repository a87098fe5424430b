// The manual clock runs timers in due order and wakes sleeps; the system clock's sleep honours an abort.
import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock, withinNominal } from './clock.js';

describe('ManualClock', () => {
  it('runs due timers in order of due time, reading each due time as now, and none early', async () => {
    const clock = new ManualClock(1_000);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 200);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 100);
    const late = clock.setTimeout(() => seen.push(['never', clock.now()]), 150);
    clock.clearTimeout(late);
    await clock.advance(99);
    expect(seen).toEqual([]);
    await clock.advance(101);
    expect(seen).toEqual([
      ['a', 1_100],
      ['b', 1_200],
    ]);
    expect(clock.now()).toBe(1_200);
    expect(clock.pending).toBe(0);
  });

  it('wakes a sleep once moved past its end, and chained sleeps within one advance', async () => {
    const clock = new ManualClock(0);
    let woke = 0;
    void (async () => {
      await clock.sleep(50);
      woke = clock.now();
      await clock.sleep(50);
      woke = clock.now();
    })();
    await clock.advance(49);
    expect(woke).toBe(0);
    await clock.advance(100);
    expect(woke).toBe(100);
  });

  it('rejects a sleep whose signal aborts, and clears its timer', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('left'));
    await expect(sleeping).rejects.toThrow('left');
    expect(clock.pending).toBe(0);
  });
});

describe('systemClock', () => {
  it('is close to the wall clock and rejects an already aborted sleep', async () => {
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1_000);
    await expect(systemClock.sleep(10_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});

describe('ManualClock.stepBack and withinNominal', () => {
  it('steps the reading back while set timers still fire after the time they were set for', async () => {
    const clock = new ManualClock(10_000);
    let firedAt = 0;
    clock.setTimeout(() => (firedAt = clock.now()), 100);
    clock.stepBack(3_600_000);
    expect(clock.now()).toBe(10_000 - 3_600_000);
    await clock.advance(100);
    expect(firedAt).toBe(10_100 - 3_600_000);
  });

  it('keeps a deadline at most its nominal length from now', () => {
    expect(withinNominal(1_500, 1_000, 1_000)).toBe(1_500);
    // Set at 3_600_000 for 1 s, read after the wall clock stepped back an hour: 1 s left, not an hour and a second.
    expect(withinNominal(3_601_000, 1_000, 0)).toBe(1_000);
  });
});

describe('systemClock timers and the process', () => {
  it('a timer set with unref does not keep the process alive; one without does', () => {
    const held = systemClock.setTimeout(() => undefined, 60_000);
    const loose = systemClock.setTimeout(() => undefined, 60_000, { unref: true });
    try {
      expect((held.id as NodeJS.Timeout).hasRef()).toBe(true);
      expect((loose.id as NodeJS.Timeout).hasRef()).toBe(false);
    } finally {
      systemClock.clearTimeout(held);
      systemClock.clearTimeout(loose);
    }
  });
});
