// Which embedded instances on this data folder are alive, by an OS file lock each holds: the kernel drops it the moment
// its process dies (SIGKILL included), so a restart frees what its predecessor held at once, not after the staleness.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Each instance keeps `{dir}/{instance id}.lock` locked for its whole life: an SQLite file in exclusive locking mode,
 * whose lock is a POSIX record lock, released by the kernel when the process ends however it ends. Another instance
 * that can lock the file knows its owner is gone (no pid involved: a reused pid cannot look alive). An instance whose
 * file is missing (a holder from before this existed, or one on another machine sharing the folder over a network
 * file system, where locks are not to be trusted) is never judged here: it is left to its heartbeat's staleness.
 */
export class InstanceLocks {
  readonly #dir: string;
  readonly #instanceId: string;
  #own: DatabaseSync | null;

  private constructor(dir: string, instanceId: string, own: DatabaseSync) {
    this.#dir = dir;
    this.#instanceId = instanceId;
    this.#own = own;
  }

  /** Takes this instance's lock. The file is locked under a temporary name and then renamed into place, so no other
   * instance ever finds it unlocked while its owner lives. */
  static take(dir: string, instanceId: string): InstanceLocks {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = path.join(dir, `${instanceId}.lock.new`);
    const own = new DatabaseSync(temporary);
    try {
      own.exec('PRAGMA journal_mode = OFF; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;');
      renameSync(temporary, lockFile(dir, instanceId));
    } catch (error) {
      own.close();
      rmSync(temporary, { force: true });
      throw error;
    }
    return new InstanceLocks(dir, instanceId, own);
  }

  /** The instances among `ids` whose process has certainly ended: their lock file exists and nobody holds it. */
  deadAmong(ids: readonly string[]): string[] {
    return ids.filter((id) => id !== this.#instanceId && this.#isDead(id));
  }

  /** Every instance with a lock file here, this one included (the ended ones' files await `forget`). */
  listed(): string[] {
    return readdirSync(this.#dir)
      .filter((name) => name.endsWith('.lock'))
      .map((name) => name.slice(0, -'.lock'.length));
  }

  /** Removes the lock files of dead instances once what they held is released. */
  forget(ids: readonly string[]): void {
    for (const id of ids) if (id !== this.#instanceId) rmSync(lockFile(this.#dir, id), { force: true });
  }

  /** A clean stop: the lock goes with the file. */
  release(): void {
    if (!this.#own) return;
    rmSync(lockFile(this.#dir, this.#instanceId), { force: true });
    this.#own.close();
    this.#own = null;
  }

  #isDead(id: string): boolean {
    if (!validId.test(id)) return false;
    const file = lockFile(this.#dir, id);
    if (!existsSync(file)) return false;
    let probe: DatabaseSync | null = null;
    try {
      // timeout 0: a held lock answers SQLITE_BUSY at once instead of waiting for it.
      probe = new DatabaseSync(file, { timeout: 0 });
      probe.exec('BEGIN EXCLUSIVE');
      probe.exec('ROLLBACK');
      return true;
    } catch {
      return false;
    } finally {
      probe?.close();
    }
  }
}

// Ids are `ins_` + base-32; anything else never names a file.
const validId = /^[A-Za-z0-9_-]+$/;

function lockFile(dir: string, instanceId: string): string {
  if (!validId.test(instanceId)) throw new RangeError('not an instance id');
  return path.join(dir, `${instanceId}.lock`);
}
