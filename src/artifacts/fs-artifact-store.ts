// ArtifactStore on the local filesystem: one folder per artifact under the data folder.
import { access, chmod, constants, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactContent, ArtifactMeta, ArtifactStore } from './artifact-store.js';
import { systemClock, type Clock } from '../time/clock.js';

const idPattern = /^art_[0-9A-Za-z]{10,64}$/;

/** Artifacts hold a customer's page and data: owner-only on disk, whatever the process umask says. */
export const artifactModes = { folder: 0o700, file: 0o600 } as const;

async function writePrivateFile(file: string, text: string): Promise<void> {
  await writeFile(file, text, { encoding: 'utf8', mode: artifactModes.file });
  // The mode given at creation is masked by the umask; chmod is not.
  await chmod(file, artifactModes.file);
}

export class FsArtifactStore implements ArtifactStore {
  readonly #dir: string;
  readonly #clock: Clock;

  constructor(options: { dir: string; clock?: Clock }) {
    this.#dir = options.dir;
    this.#clock = options.clock ?? systemClock;
  }

  #expired(meta: ArtifactMeta): boolean {
    return Date.parse(meta.expiresAt) <= this.#clock.now();
  }

  #folder(id: string): string | null {
    // Ids reach us from URLs: only our own shape may become a path, so `..` and friends never do.
    return idPattern.test(id) ? path.join(this.#dir, id) : null;
  }

  /** The store's own folder, owner-only too: a listing of artifact ids tells who scraped what. */
  async #ensureRoot(): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: artifactModes.folder });
    await chmod(this.#dir, artifactModes.folder);
  }

  async checkWritable(): Promise<void> {
    await this.#ensureRoot();
    await access(this.#dir, constants.W_OK);
  }

  async save(meta: ArtifactMeta, content: ArtifactContent): Promise<void> {
    const folder = this.#folder(meta.id);
    if (!folder) throw new Error('invalid artifact id');
    // Written under a temporary name and renamed, so a crash never leaves a half artifact that looks whole.
    const staging = `${folder}.tmp`;
    await this.#ensureRoot();
    await mkdir(staging, { recursive: true, mode: artifactModes.folder });
    await chmod(staging, artifactModes.folder);
    if (content.html !== null) await writePrivateFile(path.join(staging, 'page.html'), content.html);
    await writePrivateFile(path.join(staging, 'data.json'), JSON.stringify(content.data));
    await writePrivateFile(path.join(staging, 'meta.json'), JSON.stringify(meta));
    await rename(staging, folder);
  }

  async #meta(folder: string): Promise<ArtifactMeta | null> {
    try {
      return JSON.parse(await readFile(path.join(folder, 'meta.json'), 'utf8')) as ArtifactMeta;
    } catch {
      return null;
    }
  }

  async get(id: string, accountId: string) {
    const folder = this.#folder(id);
    if (!folder) return null;
    const meta = await this.#meta(folder);
    if (!meta || meta.accountId !== accountId || this.#expired(meta)) return null;
    const data: unknown = JSON.parse(await readFile(path.join(folder, 'data.json'), 'utf8'));
    let html: string | null = null;
    try {
      html = await readFile(path.join(folder, 'page.html'), 'utf8');
    } catch {
      html = null;
    }
    return { meta, content: { html, data } };
  }

  async delete(id: string, accountId: string): Promise<boolean> {
    const folder = this.#folder(id);
    if (!folder) return false;
    const meta = await this.#meta(folder);
    // An expired artifact is already gone for its owner; the sweeper removes it.
    if (!meta || meta.accountId !== accountId || this.#expired(meta)) return false;
    await rm(folder, { recursive: true, force: true });
    return true;
  }

  async sweepExpired(now: Date): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return 0;
    }
    for (const name of names) {
      const folder = path.join(this.#dir, name);
      if (name.endsWith('.tmp')) {
        // A staging folder left by a crash; a young one may belong to a save in progress.
        const info = await stat(folder).catch(() => null);
        if (info && now.getTime() - info.mtimeMs > 600_000) await rm(folder, { recursive: true, force: true });
        continue;
      }
      const meta = await this.#meta(folder);
      if (meta && Date.parse(meta.expiresAt) <= now.getTime()) {
        await rm(folder, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}
