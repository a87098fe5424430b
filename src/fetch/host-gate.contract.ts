// The behaviour every HostGate must show, run against each implementation (in-process and Redis).
import { describe, expect, it } from 'vitest';
import { KumoError } from '../errors.js';
import type { HostGate } from './host-gate.js';

export interface HostGateFixture {
  /** Two gates that must act as one (the same object for an in-process gate; two instances for a shared one). */
  gates: [HostGate, HostGate];
  /** A host name nobody else uses, so runs do not meet in shared state. */
  host: string;
  cleanup: () => Promise<void>;
}

/** Registers the contract's tests; `make` gives a fresh fixture per test. */
export function describeHostGateContract(name: string, make: () => Promise<HostGateFixture>): void {
  const hold = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  describe(`HostGate contract: ${name}`, () => {
    it('never lets more than maxInFlight requests in at once, across callers', async () => {
      const { gates, host, cleanup } = await make();
      try {
        let inFlight = 0;
        let peak = 0;
        const rule = { maxInFlight: 2, minIntervalMs: 0 };
        await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const leave = await gates[i % 2]!.enter(host, rule, Date.now() + 5_000);
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await hold(30);
            inFlight -= 1;
            leave();
          }),
        );
        expect(peak).toBe(2);
      } finally {
        await cleanup();
      }
    });

    it('starts requests at least minIntervalMs apart, across callers', async () => {
      const { gates, host, cleanup } = await make();
      try {
        const rule = { maxInFlight: 5, minIntervalMs: 60 };
        const starts: number[] = [];
        await Promise.all(
          Array.from({ length: 5 }, async (_, i) => {
            const leave = await gates[i % 2]!.enter(host, rule, Date.now() + 5_000);
            starts.push(performance.now());
            leave();
          }),
        );
        starts.sort((a, b) => a - b);
        // 2 ms of slack for the local clock reading the grant after the gate gave it (Redis round trip jitter).
        for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(58);
      } finally {
        await cleanup();
      }
    });

    it('counts the spacing from the end of a request too, so the site sees the gap however late ours arrived', async () => {
      const { gates, host, cleanup } = await make();
      try {
        const rule = { maxInFlight: 1, minIntervalMs: 60 };
        const first = await gates[0].enter(host, rule, Date.now() + 5_000);
        const second = gates[1].enter(host, rule, Date.now() + 5_000);
        await hold(100);
        const leftAt = performance.now();
        first();
        (await second)();
        expect(performance.now() - leftAt).toBeGreaterThanOrEqual(58);
      } finally {
        await cleanup();
      }
    });

    it('answers site_busy with Retry-After when the caller cannot start before its deadline', async () => {
      const { gates, host, cleanup } = await make();
      try {
        const rule = { maxInFlight: 1, minIntervalMs: 0 };
        const leave = await gates[0].enter(host, rule, Date.now() + 5_000);
        const started = Date.now();
        const error = await gates[1].enter(host, rule, Date.now() + 150).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(KumoError);
        expect((error as KumoError).code).toBe('site_busy');
        expect((error as KumoError).extras.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(Date.now() - started).toBeLessThan(1_000);
        leave();
        leave();
        // Leaving (twice, harmlessly) frees the slot for the next caller.
        const next = await gates[1].enter(host, rule, Date.now() + 2_000);
        next();
      } finally {
        await cleanup();
      }
    });

    it('refuses at once when the spacing alone ends past the deadline', async () => {
      const { gates, host, cleanup } = await make();
      try {
        const rule = { maxInFlight: 5, minIntervalMs: 10_000 };
        (await gates[0].enter(host, rule, Date.now() + 1_000))();
        const started = Date.now();
        const error = await gates[1].enter(host, rule, Date.now() + 1_000).catch((e: unknown) => e);
        expect((error as KumoError).code).toBe('site_busy');
        expect(Date.now() - started).toBeLessThan(500);
      } finally {
        await cleanup();
      }
    });

    it("rejects with the signal's reason when the caller gives up while waiting", async () => {
      const { gates, host, cleanup } = await make();
      try {
        const rule = { maxInFlight: 1, minIntervalMs: 0 };
        const leave = await gates[0].enter(host, rule, Date.now() + 5_000);
        const controller = new AbortController();
        const waiting = gates[1].enter(host, rule, Date.now() + 5_000, controller.signal);
        setTimeout(() => controller.abort(new Error('gone')), 30);
        await expect(waiting).rejects.toThrow('gone');
        leave();
      } finally {
        await cleanup();
      }
    });
  });
}
