// PollingLoop on a ManualClock: waits its interval, runs at once when woken or when a step asks, survives a throwing step.
import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import { PollingLoop } from './polling-loop.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PollingLoop', () => {
  it('steps at start, then once per interval; a wake steps at once; stop ends it', async () => {
    const clock = new ManualClock(0);
    let steps = 0;
    const loop = new PollingLoop({ clock, intervalMs: 1000, step: async () => (steps++, false) });
    loop.start();
    await settle();
    expect(steps).toBe(1);
    await clock.advance(999);
    expect(steps).toBe(1);
    await clock.advance(1);
    await settle();
    expect(steps).toBe(2);
    loop.wake();
    await settle();
    await settle();
    expect(steps).toBe(3);
    await loop.stop();
    await clock.advance(5000);
    expect(steps).toBe(3);
  });

  it('goes on at once while a step says there is more, and waits after a step that throws', async () => {
    const clock = new ManualClock(0);
    const answers = [true, true, false];
    const errors: unknown[] = [];
    let steps = 0;
    const loop = new PollingLoop({
      clock,
      intervalMs: 1000,
      step: async () => {
        steps += 1;
        if (steps === 4) throw new Error('down');
        return answers.shift() ?? false;
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    for (let i = 0; i < 5; i += 1) await settle();
    expect(steps).toBe(3);
    await clock.advance(1000);
    await settle();
    expect(steps).toBe(4);
    expect(errors).toHaveLength(1);
    await clock.advance(1000);
    await settle();
    expect(steps).toBe(5);
    await loop.stop();
  });
});
