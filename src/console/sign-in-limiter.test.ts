// The sign-in bound: locks a subject out after its failures in a window, says for how long, and forgets it after.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.js';
import { SignInLimiter } from './sign-in-limiter.js';

describe('SignInLimiter', () => {
  it('locks out an address after maxFailures, counts subjects apart, and lets it in again when the window ends', async () => {
    const clock = new ManualClock();
    const limiter = new SignInLimiter({ maxFailures: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds(['addr:1.2.3.4'])).toBe(0);
      limiter.recordFailure(['addr:1.2.3.4', `prefix:kumo_live_${i}`]);
    }
    expect(limiter.retryAfterSeconds(['addr:1.2.3.4'])).toBe(60);
    expect(limiter.retryAfterSeconds(['addr:5.6.7.8', 'prefix:kumo_live_0'])).toBe(0);
    await clock.advance(45_000);
    expect(limiter.retryAfterSeconds(['addr:5.6.7.8', 'addr:1.2.3.4'])).toBe(15);
    await clock.advance(15_000);
    expect(limiter.retryAfterSeconds(['addr:1.2.3.4'])).toBe(0);
  });

  it('locks out a key prefix tried from many addresses', () => {
    const limiter = new SignInLimiter({ maxFailures: 2, windowMs: 10_000 });
    limiter.recordFailure(['addr:a', 'prefix:kumo_live_AbCd']);
    limiter.recordFailure(['addr:b', 'prefix:kumo_live_AbCd']);
    expect(limiter.retryAfterSeconds(['addr:c', 'prefix:kumo_live_AbCd'])).toBeGreaterThan(0);
  });

  it('keeps at most maxSubjects windows', () => {
    const limiter = new SignInLimiter({ maxFailures: 1, windowMs: 10_000, maxSubjects: 2 });
    limiter.recordFailure(['a']);
    limiter.recordFailure(['b']);
    limiter.recordFailure(['c']);
    expect(limiter.retryAfterSeconds(['a'])).toBe(0);
    expect(limiter.retryAfterSeconds(['c'])).toBeGreaterThan(0);
  });

  it('keeps lockouts when fresh subjects flood the table', () => {
    const limiter = new SignInLimiter({ maxFailures: 2, windowMs: 10_000, maxSubjects: 3 });
    limiter.recordFailure(['addr:victim-lockout']);
    limiter.recordFailure(['addr:victim-lockout']);
    for (let i = 0; i < 50; i++) limiter.recordFailure([`addr:spoofed-${i}`]);
    expect(limiter.retryAfterSeconds(['addr:victim-lockout'])).toBeGreaterThan(0);
  });
});

describe('SignInLimiter and a wall clock stepped back', () => {
  it('never locks a subject out, nor keeps counting its failures, longer than the window', async () => {
    const clock = new ManualClock();
    const limiter = new SignInLimiter({ maxFailures: 2, windowMs: 60_000, clock });
    limiter.recordFailure(['addr:a']);
    limiter.recordFailure(['addr:a']);
    expect(limiter.retryAfterSeconds(['addr:a'])).toBe(60);
    clock.stepBack(3_600_000);
    expect(limiter.retryAfterSeconds(['addr:a'])).toBeLessThanOrEqual(60);
    await clock.advance(60_000);
    expect(limiter.retryAfterSeconds(['addr:a'])).toBe(0);

    limiter.recordFailure(['addr:b']);
    clock.stepBack(3_600_000);
    limiter.recordFailure(['addr:b']);
    expect(limiter.retryAfterSeconds(['addr:b'])).toBeLessThanOrEqual(60);
    await clock.advance(60_000);
    expect(limiter.retryAfterSeconds(['addr:b'])).toBe(0);
  });
});
