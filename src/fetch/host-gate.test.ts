// The in-process politeness gate: in-flight cap, spacing between starts, FIFO, and site_busy instead of endless queues.
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import { ManualClock } from '../time/clock.js';
import { InProcessHostGate, spacingLeftMs } from './host-gate.js';
import { describeHostGateContract } from './host-gate.contract.js';

async function busy(promise: Promise<unknown>): Promise<KumoError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(KumoError);
    return error as KumoError;
  }
  throw new Error('entered');
}

/** Whether a promise has settled yet; the gate's timers run only when the test moves its clock. */
function watch(promise: Promise<unknown>): { readonly settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

describe('InProcessHostGate', () => {
  // Every test runs the gate on a ManualClock: spacing and deadlines are asserted exactly, at the instants the test
  // moves time to, so a loaded machine's pauses can neither shorten a gap nor fire a deadline early.
  it('N parallel callers never exceed maxInFlight and start at least minIntervalMs apart, in arrival order', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 2, minIntervalMs: 50 };
    let inFlight = 0;
    let peak = 0;
    const starts: { id: number; at: number }[] = [];
    const deadlineAt = clock.now() + 5_000;
    const all = Promise.all(
      Array.from({ length: 8 }, async (_, id) => {
        const leave = await gate.enter('shop.example.jp', rule, deadlineAt);
        starts.push({ id, at: clock.now() });
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        // Held longer than the spacing, so the in-flight cap is what binds part of the time.
        await clock.sleep(120);
        inFlight -= 1;
        leave();
      }),
    );
    await clock.advance(2_000);
    await all;
    expect(peak).toBe(2);
    expect(starts.map((s) => s.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 1; i < starts.length; i++) expect(starts[i]!.at - starts[i - 1]!.at).toBeGreaterThanOrEqual(50);
    // The cap binds too: the third start waits for the first leave (at 120 ms) and the spacing counted from it.
    expect(starts[2]!.at - starts[0]!.at).toBeGreaterThanOrEqual(170);
  });

  it('hosts are independent', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 1, minIntervalMs: 5_000 };
    const deadlineAt = clock.now() + 10_000;
    const a = await gate.enter('a.example.jp', rule, deadlineAt);
    const b = gate.enter('b.example.jp', rule, deadlineAt);
    const sameHost = gate.enter('a.example.jp', rule, deadlineAt);
    const [bState, sameState] = [watch(b), watch(sameHost)];
    await clock.advance(0);
    // Were the hosts one, b would wait out the 5 s spacing like the second caller of a.example.jp does.
    expect(bState.settled).toBe(true);
    expect(sameState.settled).toBe(false);
    a();
    (await b)();
    await clock.advance(5_000);
    (await sameHost)();
  });

  it('refuses at once with site_busy when the caller could not start before its deadline', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 1, minIntervalMs: 5_000 };
    const leave = await gate.enter('shop.example.jp', rule, clock.now() + 1_000);
    const refused = gate.enter('shop.example.jp', rule, clock.now() + 1_000);
    const state = watch(refused);
    await clock.advance(0);
    // At once: before any time passes, not when the 1 s deadline runs out.
    expect(state.settled).toBe(true);
    const error = await busy(refused);
    expect(error.code).toBe('site_busy');
    expect(error.extras.retryAfterSeconds).toBe(5);
    leave();
  });

  it('gives up with site_busy when the deadline passes while waiting, and the queue moves on', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 1, minIntervalMs: 10 };
    const holder = await gate.enter('shop.example.jp', rule, clock.now() + 1_000);
    const waiting = gate.enter('shop.example.jp', rule, clock.now() + 80);
    const state = watch(waiting);
    const patient = gate.enter('shop.example.jp', rule, clock.now() + 10_000);
    await clock.advance(79);
    expect(state.settled).toBe(false);
    await clock.advance(1);
    expect(state.settled).toBe(true);
    expect((await busy(waiting)).code).toBe('site_busy');
    holder();
    await clock.advance(10);
    const leave = await patient;
    leave();
  });

  it('refuses with site_busy when the queue is full', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ maxQueue: 2, clock });
    const rule = { maxInFlight: 1, minIntervalMs: 0 };
    const deadlineAt = clock.now() + 1_000;
    const holder = await gate.enter('shop.example.jp', rule, deadlineAt);
    const queued = [gate.enter('shop.example.jp', rule, deadlineAt), gate.enter('shop.example.jp', rule, deadlineAt)];
    expect((await busy(gate.enter('shop.example.jp', rule, deadlineAt))).code).toBe('site_busy');
    holder();
    for (const q of queued) (await q)();
  });

  it('a full queue does not lock other accounts out: the biggest account gives up its last place', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ maxQueue: 3, clock });
    const rule = { maxInFlight: 1, minIntervalMs: 0 };
    const deadlineAt = clock.now() + 1_000;
    const holder = await gate.enter('shop.example.jp', rule, deadlineAt, undefined, 'a');
    const queued = [0, 1, 2].map(() => gate.enter('shop.example.jp', rule, deadlineAt, undefined, 'a'));
    // Account a may not add a fourth; account b may, and a's last caller is told site_busy instead.
    expect((await busy(gate.enter('shop.example.jp', rule, deadlineAt, undefined, 'a'))).code).toBe('site_busy');
    const b = gate.enter('shop.example.jp', rule, deadlineAt, undefined, 'b');
    expect((await busy(queued[2]!)).code).toBe('site_busy');
    holder();
    (await queued[0]!)();
    (await b)();
    (await queued[1]!)();
  });

  it('a caller that aborts while waiting leaves the queue', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 1, minIntervalMs: 0 };
    const deadlineAt = clock.now() + 1_000;
    const holder = await gate.enter('shop.example.jp', rule, deadlineAt);
    const controller = new AbortController();
    const aborted = gate.enter('shop.example.jp', rule, deadlineAt, controller.signal);
    const next = gate.enter('shop.example.jp', rule, deadlineAt);
    controller.abort(new Error('caller gone'));
    await expect(aborted).rejects.toThrow('caller gone');
    holder();
    const leave = await next;
    leave();
  });

  it('leaving twice frees one slot, not two', async () => {
    const clock = new ManualClock();
    const gate = new InProcessHostGate({ clock });
    const rule = { maxInFlight: 1, minIntervalMs: 0 };
    const deadlineAt = clock.now() + 300;
    const first = await gate.enter('shop.example.jp', rule, deadlineAt);
    const second = gate.enter('shop.example.jp', rule, deadlineAt);
    const third = gate.enter('shop.example.jp', rule, deadlineAt);
    const thirdState = watch(third);
    first();
    first();
    const leaveSecond = await second;
    await clock.advance(30);
    expect(thirdState.settled).toBe(false);
    leaveSecond();
    (await third)();
  });
});

describeHostGateContract('InProcessHostGate', async () => {
  const gate = new InProcessHostGate();
  return { gates: [gate, gate], host: 'contract.kumo-test.jp', cleanup: async () => undefined };
});

describe('spacingLeftMs', () => {
  it('owes what is left of the interval, nothing once it has passed, and never more than one interval', () => {
    expect(spacingLeftMs(1_000, 500, 1_200)).toBe(300);
    expect(spacingLeftMs(1_000, 500, 1_600)).toBe(0);
    // The wall clock stepped back an hour after the last start: one interval at most, not an hour's stall.
    expect(spacingLeftMs(1_000 + 3_600_000, 500, 1_000)).toBe(500);
  });
});
