// The filesystem ArtifactStore: the shared contract, and artifacts on disk owner-only (0700 folders, 0600 files)
// whatever the umask.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FsArtifactStore, artifactModes } from './fs-artifact-store.js';
import { describeArtifactStoreContract } from './artifact-store.contract.js';

describeArtifactStoreContract('filesystem', async ({ clock }) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-artifacts-contract-'));
  return {
    store: new FsArtifactStore({ dir: path.join(dir, 'artifacts'), clock }),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

let root: string;
let previousUmask: number;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'kumo-artifacts-'));
  // The most permissive umask: only an explicit mode keeps others out.
  previousUmask = process.umask(0o000);
});

afterEach(async () => {
  process.umask(previousUmask);
  await rm(root, { recursive: true, force: true });
});

const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

const meta = (id: string) => ({
  id,
  accountId: 'acc_1',
  requestId: 'req_1',
  url: 'https://www.ikebe-gakki.com/x',
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

describe('FsArtifactStore file modes', () => {
  it('creates the store folder, each artifact folder and every file owner-only, under umask 000', async () => {
    const dir = path.join(root, 'data', 'artifacts');
    const store = new FsArtifactStore({ dir });
    await store.save(meta('art_0123456789abc'), { html: '<p>x</p>', data: { title: 't' } });
    await store.save(meta('art_0123456789abd'), { html: null, data: { rows: [] } });

    expect(await modeOf(dir)).toBe(artifactModes.folder);
    for (const id of await readdir(dir)) {
      expect(await modeOf(path.join(dir, id))).toBe(0o700);
      for (const file of await readdir(path.join(dir, id))) {
        expect(await modeOf(path.join(dir, id, file))).toBe(0o600);
      }
    }
    const back = await store.get('art_0123456789abc', 'acc_1');
    expect(back?.content).toEqual({ html: '<p>x</p>', data: { title: 't' } });
  });

  it('narrows a store folder that an older version left world-readable', async () => {
    const dir = path.join(root, 'artifacts');
    await mkdir(dir);
    await chmod(dir, 0o755);
    await new FsArtifactStore({ dir }).save(meta('art_0123456789abe'), { html: null, data: {} });
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('the readiness check creates the store folder owner-only too, before any artifact is saved', async () => {
    const dir = path.join(root, 'fresh', 'artifacts');
    await new FsArtifactStore({ dir }).checkWritable();
    expect(await modeOf(dir)).toBe(artifactModes.folder);
  });

  it('the readiness check fails where no artifact can be written', async () => {
    // A file where the folder should be: refused for root too (a read-only mode would not stop root).
    const blocked = path.join(root, 'blocked');
    await writeFile(blocked, 'x');
    await expect(new FsArtifactStore({ dir: path.join(blocked, 'artifacts') }).checkWritable()).rejects.toThrow();
  });
});
