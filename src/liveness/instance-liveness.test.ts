// The liveness loop with fakes: what it beats and sweeps, that one failing backend does not stop the other, and
// that an outage is logged when it starts and when it ends, not at every tick.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { InstanceLiveness } from './instance-liveness.js';

function harness(extra: { releaseOrphaned?: (staleBefore: string, dead: readonly string[]) => Promise<number> } = {}) {
  const calls: string[] = [];
  let storageDown = false;
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  const down = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  const liveness = new InstanceLiveness({
    instanceId: 'ins_test',
    storage: {
      instances: {
        heartbeat: async (id, at) => (storageDown ? down() : void calls.push(`heartbeat ${id} ${at}`)),
        lastHeartbeat: async () => null,
        remove: async (id) => void calls.push(`remove ${id}`),
      },
      ledger: {
        releaseOrphaned: async (staleBefore: string) => {
          if (storageDown) return down();
          calls.push(`releaseOrphaned ${staleBefore}`);
          return 2;
        },
      } as never,
    },
    limiter: {
      heartbeat: async () => void calls.push('limiter heartbeat'),
      releaseOrphaned: async () => {
        calls.push('limiter releaseOrphaned');
        return 1;
      },
    },
    heartbeatIntervalMs: 60_000,
    staleAfterMs: 30_000,
    logger: pino({ level: 'info' }, sink),
    clock: () => new Date('2026-05-10T00:01:00.000Z'),
    ...extra,
  });
  return { liveness, calls, logs: () => logged, setStorageDown: (v: boolean) => (storageDown = v) };
}

describe('InstanceLiveness', () => {
  it('beats with its own id, then sweeps instances stale by the bound, and says what it freed', async () => {
    const { liveness, calls, logs } = harness();
    await liveness.tick();
    expect(calls).toEqual([
      'heartbeat ins_test 2026-05-10T00:01:00.000Z',
      'limiter heartbeat',
      'releaseOrphaned 2026-05-10T00:00:30.000Z',
      'limiter releaseOrphaned',
    ]);
    expect(logs()).toContain('"reservations":2');
    expect(logs()).toContain('"slots":1');
  });

  it('a storage outage does not stop the limits steps, and is logged once when it starts and once when it ends', async () => {
    const { liveness, calls, logs, setStorageDown } = harness();
    setStorageDown(true);
    for (let i = 0; i < 3; i++) await liveness.tick();
    expect(calls.filter((c) => c === 'limiter heartbeat')).toHaveLength(3);
    expect(logs().match(/liveness: failing/g)).toHaveLength(2); // storage heartbeat and storage sweep, once each
    expect(logs()).not.toContain('connect ECONNREFUSED'); // the class is logged, never the message
    setStorageDown(false);
    await liveness.tick();
    await liveness.tick();
    expect(logs().match(/liveness: recovered/g)).toHaveLength(2);
  });

  it('overlapping ticks are joined, and stop removes the instance', async () => {
    const { liveness, calls } = harness();
    await Promise.all([liveness.tick(), liveness.tick()]);
    expect(calls.filter((c) => c.startsWith('heartbeat'))).toHaveLength(1);
    await liveness.start();
    await liveness.stop();
    expect(calls.at(-1)).toBe('remove ins_test');
  });

  it("gives back dead instances' work (batch items) with the same bound, after their reservations", async () => {
    let failing = true;
    const seen: string[] = [];
    const { liveness, calls, logs } = harness({
      releaseOrphaned: async (staleBefore, dead) => {
        if (failing) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        seen.push(`${staleBefore} [${dead.join(',')}]`);
        return 3;
      },
    });
    await liveness.tick();
    // Its failure is its own step: the reservations were still released, and the limits swept.
    expect(calls).toContain('releaseOrphaned 2026-05-10T00:00:30.000Z');
    expect(calls).toContain('limiter releaseOrphaned');
    expect(logs()).toContain('"step":"work sweep"');
    failing = false;
    await liveness.tick();
    expect(seen).toEqual(['2026-05-10T00:00:30.000Z []']);
    expect(logs()).toContain('"work":3');
  });
});
