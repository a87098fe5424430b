// The built server's start, as an operator reads it: every configuration mistake in one refusal, and what keys exist.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot, startKumo, testKey } from '../support/kumo-process.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-e2e-start-'));
  dirs.push(dir);
  return dir;
}

describe('a start with several configuration mistakes', () => {
  it('exits 2 naming each of them, with the allowed values, and never a value', async () => {
    // Spawned here rather than through startKumo, to read stderr to its end ('close', not 'exit').
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist/main.js')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        KUMO_DATA_DIR: await dataDir(),
        PORT: 'abc',
        KUMO_TRUST_PROXY: 'true',
        LOG_LEVEL: 'verbose',
        KUMO_SECRETS_KEY: 'secret-value-not-base64',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let message = '';
    child.stdout.on('data', (chunk: Buffer) => (message += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (message += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', (exit) => resolve(exit)));
    expect(code).toBe(2);
    expect(message).toContain('kumo: invalid configuration (4 problems):');
    expect(message).toContain('  - PORT: must be a whole number from 0 to 65535');
    expect(message).toContain('  - LOG_LEVEL: must be one of: fatal, error, warn, info, debug, silent');
    expect(message).toContain('  - KUMO_TRUST_PROXY=true would trust every X-Forwarded-For entry');
    expect(message).toContain('  - KUMO_SECRETS_KEY must be the base64 of exactly 32 bytes');
    expect(message).not.toContain('secret-value-not-base64');
  });
});

describe('the start log about keys', () => {
  it('says the bootstrap account was created, then that it exists; never the key', async () => {
    const dir = await dataDir();
    const first = await startKumo({}, { dataDir: dir });
    await first.stop();
    const second = await startKumo({}, { dataDir: dir });
    await second.stop();
    expect(first.output()).toMatch(/"msg":"bootstrap key: account acc_\w+ created on the free plan \(key key_\w+\)"/);
    expect(second.output()).toMatch(/"msg":"bootstrap key: account acc_\w+ already exists, on the free plan/);
    expect(first.output() + second.output()).not.toContain(testKey);
  });

  it('without a bootstrap key and with no key at all, says how to make one', async () => {
    const kumo = await startKumo({ KUMO_BOOTSTRAP_KEY: '' }, { dataDir: await dataDir() });
    await kumo.stop();
    expect(kumo.output()).toContain(
      '"msg":"no API key exists yet: create one with `npm run -s kumo -- keys create --plan free`',
    );
  });
});
