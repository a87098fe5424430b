// The refusal limit's window arithmetic on a ManualClock: when a key is held back, for how long, and what is forgotten.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.js';
import { InProcessRefusalLimiter } from './in-process-refusal-limiter.js';

describe('InProcessRefusalLimiter', () => {
  it('holds a subject back once it has maxRefusals in its window, until the window (from its first refusal) ends', async () => {
    const clock = new ManualClock();
    const limiter = new InProcessRefusalLimiter({ maxRefusals: 3, windowMs: 10_000, clock });
    limiter.recordRefusal('key_a');
    await clock.advance(2_000);
    limiter.recordRefusal('key_a');
    expect(limiter.retryAfterSeconds('key_a')).toBe(0);
    limiter.recordRefusal('key_a');
    expect(limiter.retryAfterSeconds('key_a')).toBe(8);
    expect(limiter.retryAfterSeconds('key_b')).toBe(0);
    await clock.advance(7_500);
    expect(limiter.retryAfterSeconds('key_a')).toBe(1);
    await clock.advance(500);
    expect(limiter.retryAfterSeconds('key_a')).toBe(0);
    // A fresh window: one refusal is far from the limit again.
    limiter.recordRefusal('key_a');
    expect(limiter.retryAfterSeconds('key_a')).toBe(0);
  });

  it('a sane rate of refusals is never held back', async () => {
    const clock = new ManualClock();
    const limiter = new InProcessRefusalLimiter({ maxRefusals: 60, windowMs: 10_000, clock });
    for (let i = 0; i < 1_000; i++) {
      limiter.recordRefusal('key_a');
      expect(limiter.retryAfterSeconds('key_a')).toBe(0);
      await clock.advance(200); // 5 refusals a second: 50 per window
    }
  });

  it('remembers at most maxSubjects, forgetting ended windows first and then the oldest', async () => {
    const clock = new ManualClock();
    const limiter = new InProcessRefusalLimiter({ maxRefusals: 1, windowMs: 10_000, clock, maxSubjects: 10 });
    limiter.recordRefusal('old');
    await clock.advance(1_000);
    for (let i = 0; i < 10; i++) limiter.recordRefusal(`key_${i}`);
    // Eleven running windows for ten places: the oldest one went.
    expect(limiter.retryAfterSeconds('old')).toBe(0);
    expect(limiter.retryAfterSeconds('key_9')).toBe(10);
  });

  it('refuses settings that would never or always hold back', () => {
    expect(() => new InProcessRefusalLimiter({ maxRefusals: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => new InProcessRefusalLimiter({ maxRefusals: 1, windowMs: 0 })).toThrow(RangeError);
  });
});

describe('InProcessRefusalLimiter and a wall clock stepped back', () => {
  it('never holds a key back, nor keeps its window running, longer than the window', async () => {
    const clock = new ManualClock();
    const limiter = new InProcessRefusalLimiter({ maxRefusals: 2, windowMs: 10_000, clock });
    limiter.recordRefusal('key_a');
    limiter.recordRefusal('key_a');
    expect(limiter.retryAfterSeconds('key_a')).toBe(10);
    clock.stepBack(3_600_000);
    expect(limiter.retryAfterSeconds('key_a')).toBeLessThanOrEqual(10);
    await clock.advance(10_000);
    expect(limiter.retryAfterSeconds('key_a')).toBe(0);

    // A window still counting when the clock steps back ends within its length too.
    limiter.recordRefusal('key_b');
    clock.stepBack(3_600_000);
    limiter.recordRefusal('key_b');
    expect(limiter.retryAfterSeconds('key_b')).toBeLessThanOrEqual(10);
    await clock.advance(10_000);
    expect(limiter.retryAfterSeconds('key_b')).toBe(0);
  });
});
