// InstanceLocks with real processes: a live holder's lock is never judged dead; a SIGKILLed one's is, at once.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InstanceLocks } from './instance-locks.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-locks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Another process that takes an instance lock and keeps it until killed. */
async function holderProcess(id: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { InstanceLocks } = await import(${JSON.stringify(path.join(here, 'instance-locks.ts'))});
       InstanceLocks.take(process.argv[1], process.argv[2]);
       process.stdout.write('held\\n');
       setInterval(() => {}, 1000);`,
      dir,
      id,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

describe('InstanceLocks', () => {
  it('another live process is alive; killed (SIGKILL), it is dead at once; its file goes when forgotten', async () => {
    const own = InstanceLocks.take(dir, 'ins_own');
    const child = await holderProcess('ins_other');
    try {
      expect(own.listed().sort()).toEqual(['ins_other', 'ins_own']);
      expect(own.deadAmong(['ins_other', 'ins_own'])).toEqual([]);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(own.deadAmong(['ins_other', 'ins_own'])).toEqual(['ins_other']);
      own.forget(['ins_other']);
      expect(own.listed()).toEqual(['ins_own']);
    } finally {
      child.kill('SIGKILL');
      own.release();
    }
  });

  it('an instance without a lock file is never judged (left to its heartbeat); a clean stop removes its file', () => {
    const own = InstanceLocks.take(dir, 'ins_own');
    expect(own.deadAmong(['ins_elsewhere', 'not an id/..'])).toEqual([]);
    own.release();
    expect(existsSync(path.join(dir, 'ins_own.lock'))).toBe(false);
  });

  it('two instances in one process see each other alive', () => {
    const a = InstanceLocks.take(dir, 'ins_a');
    const b = InstanceLocks.take(dir, 'ins_b');
    expect(a.deadAmong(['ins_b'])).toEqual([]);
    expect(b.deadAmong(['ins_a'])).toEqual([]);
    a.release();
    b.release();
  });
});
