// Gives Kysely's SqliteDialect the better-sqlite3-shaped database it expects, over Node's built-in node:sqlite.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { ThreadCheckpointer, backstopAutocheckpointPages } from './wal-checkpoint.js';

export interface NodeSqliteOptions {
  /** How long a write waits for another process (the CLI) to finish its transaction before failing. */
  busyTimeoutMs?: number;
  /**
   * Checkpoint the write-ahead log on a thread of its own this often (ms), not inside commits on the event loop
   * (wal-checkpoint.ts); off when absent. Files in WAL mode only.
   */
  checkpointEveryMs?: number;
  /** Told (once) when a checkpoint on that thread fails; the backstop then keeps the log bounded. */
  onCheckpointFailure?: (code: string) => void;
}

// Kysely prepares every query it runs; reusing compiled statements saves the parse on the hot path.
const statementCacheSize = 256;

function toInput(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`cannot bind a ${typeof value} to an SQLite parameter`);
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    // A statement that yields columns (SELECT, or anything with RETURNING) is read with all(); others with run().
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...parameters.map(toInput));
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.#statement.run(...parameters.map(toInput));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...parameters.map(toInput)) as IterableIterator<unknown>;
  }
}

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();
  #checkpointer: ThreadCheckpointer | null = null;
  #checkpointerClosed: Promise<void> = Promise.resolve();

  /**
   * Opens (creating if needed) the file and sets it up for a money-like workload: WAL so readers never block the
   * writer, synchronous=FULL so a committed charge survives a power cut as well as a killed process, foreign keys on,
   * and a busy timeout so a second process queues instead of failing.
   */
  constructor(path: string, options: NodeSqliteOptions = {}) {
    this.#db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: options.busyTimeoutMs ?? 5_000 });
    if (path !== ':memory:') this.#db.exec('PRAGMA journal_mode = WAL');
    this.#db.exec('PRAGMA synchronous = FULL');
    this.#db.exec('PRAGMA foreign_keys = ON');
    // A deleted row is overwritten with zeros, not left in free space: what is deleted because it must go (an expired
    // cache entry, decision 0026) is gone from the file, not only from queries.
    this.#db.exec('PRAGMA secure_delete = ON');
    if (options.checkpointEveryMs !== undefined && this.walPath() !== null) {
      this.#db.exec(`PRAGMA wal_autocheckpoint = ${backstopAutocheckpointPages}`);
      this.#checkpointer = new ThreadCheckpointer(path, {
        everyMs: options.checkpointEveryMs,
        ...(options.onCheckpointFailure ? { onFailure: options.onCheckpointFailure } : {}),
      });
    }
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) {
      // Re-inserting keeps the Map in least-recently-used order.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = new NodeSqliteStatement(this.#db.prepare(sql));
    this.#statements.set(sql, statement);
    if (this.#statements.size > statementCacheSize) {
      this.#statements.delete(this.#statements.keys().next().value!);
    }
    return statement;
  }

  /**
   * The write-ahead log this connection writes, or null when it keeps none (`:memory:`, or a file system where SQLite
   * fell back from WAL). Read from SQLite, not built from the path it was given: SQLite follows symbolic links and
   * keeps the log beside the real file.
   */
  walPath(): string | null {
    const mode = this.#db.prepare('PRAGMA journal_mode').get() as { journal_mode?: string } | undefined;
    if (mode?.journal_mode?.toLowerCase() !== 'wal') return null;
    const main = (this.#db.prepare('PRAGMA database_list').all() as { name: string; file: string }[]).find(
      (row) => row.name === 'main',
    );
    return main?.file ? `${main.file}-wal` : null;
  }

  /** Idempotent; returns before the checkpoint thread has let go of the file: `closed()` waits for that. */
  close(): void {
    if (this.#checkpointer) this.#checkpointerClosed = this.#checkpointer.close();
    this.#checkpointer = null;
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /**
   * Settles once nothing of this database holds the file: the checkpoint thread's connection too. Without it a caller
   * that removes the folder right after close races a thread still opening (and so recreating) the log files.
   */
  closed(): Promise<void> {
    return this.#checkpointerClosed;
  }
}
