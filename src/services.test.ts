// The composition root's own files on disk: a data folder Kumo creates is owner-only, and so are its database and key.
import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config.js';
import { openSecrets } from './services.js';
import { openStorage } from './open-storage.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

async function withUmask<T>(mask: number, run: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await run();
  } finally {
    process.umask(previous);
  }
}

describe('openStorage on disk', () => {
  it('creates the data folder 0700 and the SQLite file 0600, under umask 000', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'kumo-datadir-'));
    roots.push(root);
    const dataDir = path.join(root, 'fresh', 'data');
    const storage = await withUmask(0o000, () => openStorage(loadConfig({ KUMO_DATA_DIR: dataDir })));
    await storage.close();
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'kumo.sqlite'))).toBe(0o600);
  });

  it("leaves an operator's existing data folder as it is", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'kumo-datadir-'));
    roots.push(root);
    const dataDir = path.join(root, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o750);
    const storage = await openStorage(loadConfig({ KUMO_DATA_DIR: dataDir }));
    await storage.close();
    expect(await modeOf(dataDir)).toBe(0o750);
  });
});

describe('openSecrets', () => {
  it('embedded: makes secrets.key 0600 in the data folder (under umask 000) and reuses it', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'kumo-datadir-'));
    roots.push(root);
    const config = loadConfig({ KUMO_DATA_DIR: root });
    const first = await withUmask(0o000, () => openSecrets(config));
    expect(await modeOf(path.join(root, 'secrets.key'))).toBe(0o600);
    const second = await openSecrets(config);
    expect(second!.open(first!.seal('whsec_x', 'whe_1'), 'whe_1').toString()).toBe('whsec_x');
  });

  it('shared mode: the variable or nothing (never a file of its own)', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'kumo-datadir-'));
    roots.push(root);
    const shared = { KUMO_DATA_DIR: root, DATABASE_URL: 'postgres://db/kumo', REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(await openSecrets(loadConfig(shared))).toBeNull();
    const key = Buffer.alloc(32, 3).toString('base64');
    const secrets = await openSecrets(loadConfig({ ...shared, KUMO_SECRETS_KEY: key }));
    expect(secrets!.open(secrets!.seal('v', 'c'), 'c').toString()).toBe('v');
    await expect(stat(path.join(root, 'secrets.key'))).rejects.toThrow();
  });
});
