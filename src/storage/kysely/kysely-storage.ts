// Storage assembled from the shared Kysely stores; a dialect supplies only its connection and its DDL.
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { SettleOutcome, SettleRequest, Storage } from '../storage.js';
import { isKumoError } from '../../errors.js';
import { systemClock, type Clock } from '../../time/clock.js';
import type { KumoDatabase } from './schema.js';
import { KyselyAccountStore } from './kysely-account-store.js';
import { KyselyKeyStore } from './kysely-key-store.js';
import { KyselyCreditLedger, type HoldTransaction, type KyselyCreditLedgerOptions } from './kysely-credit-ledger.js';
import { KyselyRequestLog, type JstDayOf } from './kysely-request-log.js';
import { KyselySessionStore } from './kysely-session-store.js';
import { KyselyInstanceStore } from './kysely-instance-store.js';
import { KyselyIdempotencyStore } from './kysely-idempotency-store.js';
import { KyselyReviewStore } from './kysely-review-store.js';

/** Migration name → its statements, run in order, one transaction per migration. Names sort in apply order. */
export type SqlMigrations = Readonly<Record<string, readonly string[]>>;

function toKyselyMigrations(migrations: SqlMigrations): Record<string, Migration> {
  const out: Record<string, Migration> = {};
  for (const [name, statements] of Object.entries(migrations)) {
    out[name] = {
      // One statement per call: node:sqlite prepares a single statement at a time.
      up: async (db) => {
        for (const statement of statements) await sql.raw(statement).execute(db);
      },
    };
  }
  return out;
}

/** Rolls back a settlement whose reservation or Idempotency-Key claim was no longer its own; never leaves this module. */
class NotCommitted extends Error {
  constructor(what = 'no open reservation to commit') {
    super(what);
  }
}

/**
 * The settlement's transaction runs through `settleTransaction` (committing without waiting for the disk), and a
 * settlement that charges then waits for `log.flush()`, which resolves once everything committed before it is on the
 * disk. Once a flush has failed (`log.failed`), settlements go back to plain durable transactions.
 */
export interface GroupCommit {
  settleTransaction: HoldTransaction;
  /** SQLite's WalFlusher. */
  log: { flush(): Promise<void>; readonly failed: boolean; close(): Promise<void> };
  onFlushFailure: (error: Error) => void;
}

export interface KyselyStorageOptions {
  db: Kysely<KumoDatabase>;
  migrations: SqlMigrations;
  ledger: KyselyCreditLedgerOptions;
  /** The dialect's expression for the Asia/Tokyo day of a request row (the console's daily chart). */
  jstDay: JstDayOf;
  /** Group commit (SQLite, docs/decisions/0017-group-commit-and-prepared-queries.md); absent, every settlement is a
   * plain transaction whose commit is itself durable (PostgreSQL, or SQLite without a log). */
  groupCommit?: GroupCommit;
  /**
   * A connection for migrations only, made when they run and destroyed after: without the per-statement timeout the
   * pool's calls have, so a long DDL (an index on a big table) does not fail startup. Default `db`.
   */
  migrationDb?: () => Kysely<KumoDatabase>;
  /** Spaces the read-backs of a settlement whose COMMIT answer was lost; default the system clock. */
  clock?: Clock;
  /**
   * Runs last in close(): what the dialect's own destroy leaves open. Kysely destroys a driver only if a query ever
   * ran, and does not wait for what the connection started (SQLite's checkpoint thread).
   */
  release?: () => Promise<void>;
}

/**
 * The waits before each read-back of a settlement whose COMMIT answer was lost: about 3 s in all, long enough for a
 * connection reset (a proxy, a failover) to be over, short against the client waiting for its answer.
 */
const readBackDelaysMs = [0, 250, 750, 2_000] as const;
/**
 * How long one read-back may wait (for the reservation's row lock held by a COMMIT still in flight, or for a silent
 * database) before it counts as unreachable and is asked again.
 */
const readBackLockWaitMs = 2_000;
/** No read-back starts later than this after the first: the read-back phase ends within it + one lock wait (7 s). */
const readBackBudgetMs = 5_000;

/** The waits between background settlements of a charge of unknown outcome; the last repeats until the hold ends. */
const convergeDelaysMs = [1_000, 2_000, 5_000, 10_000] as const;
/** The hold assumed when a settlement does not say when its reservation's ends. */
const defaultHoldMs = 300_000;

const isOutage = (error: unknown) => isKumoError(error) && error.code === 'unavailable';

export class KyselyStorage implements Storage {
  readonly db: Kysely<KumoDatabase>;
  readonly accounts: KyselyAccountStore;
  readonly keys: KyselyKeyStore;
  readonly ledger: KyselyCreditLedger;
  readonly requests: KyselyRequestLog;
  readonly instances: KyselyInstanceStore;
  readonly idempotency: KyselyIdempotencyStore;
  readonly reviews: KyselyReviewStore;
  readonly sessions: KyselySessionStore;
  readonly #migrations: SqlMigrations;
  readonly #groupCommit: KyselyStorageOptions['groupCommit'];
  readonly #migrationDb: KyselyStorageOptions['migrationDb'];
  readonly #clock: Clock;
  readonly #release: KyselyStorageOptions['release'];
  #closed: Promise<void> | null = null;
  /** Charges of unknown outcome being settled again in the background; close() stops and awaits them. */
  readonly #converging = new Set<Promise<void>>();
  readonly #stopConverging = new AbortController();

  constructor(options: KyselyStorageOptions) {
    this.db = options.db;
    this.#migrations = options.migrations;
    this.#groupCommit = options.groupCommit;
    this.#migrationDb = options.migrationDb;
    this.#clock = options.clock ?? systemClock;
    this.#release = options.release;
    this.accounts = new KyselyAccountStore(options.db);
    this.keys = new KyselyKeyStore(options.db);
    this.ledger = new KyselyCreditLedger(options.db, options.ledger);
    this.requests = new KyselyRequestLog(options.db, options.jstDay);
    this.instances = new KyselyInstanceStore(options.db);
    this.idempotency = new KyselyIdempotencyStore(options.db, {
      holder: options.ledger.holder,
      ...(options.ledger.staleAfterMs === undefined ? {} : { staleAfterMs: options.ledger.staleAfterMs }),
    });
    this.reviews = new KyselyReviewStore(options.db);
    this.sessions = new KyselySessionStore(options.db);
  }

  /**
   * One transaction for the charge and its evidence: a committed charge always has its request row (and a completed
   * Idempotency-Key), and a row that cannot be written takes the charge back with it. A charge is on the disk before
   * this returns (and so before the answer is sent), unless a flush has failed (decision 0017); a settlement that
   * charges nothing need not wait for it. Its outcome when the COMMIT's answer is lost is read back (`#readBack`).
   */
  async settle(request: SettleRequest): Promise<SettleOutcome> {
    const outcome = await this.#settleOnce(request);
    if (outcome === 'unknown' && typeof request.ledger === 'object' && !this.#stopConverging.signal.aborted) {
      // The call is served (it was delivered): its charge is settled again until the database says how it ended.
      const until = request.heldUntil ? Date.parse(request.heldUntil) : this.#clock.now() + defaultHoldMs;
      const task: Promise<void> = this.#converge(request, until).finally(() => this.#converging.delete(task));
      this.#converging.add(task);
    }
    return outcome;
  }

  /**
   * The same commit, again, until it lands (with its row), is refused (the reservation is no longer open: the first
   * one had landed, or the sweep freed it) or the hold ends (the sweep will free it: the call was free). A commit
   * cannot charge twice: it charges only an open reservation, and the ledger's UNIQUE(request_id) stands behind that.
   */
  async #converge(request: SettleRequest, until: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const delayMs = convergeDelaysMs[Math.min(attempt, convergeDelaysMs.length - 1)]!;
      if (this.#clock.now() + delayMs >= until) return;
      try {
        await this.#clock.sleep(delayMs, this.#stopConverging.signal);
      } catch {
        return;
      }
      try {
        if ((await this.#settleOnce(request)) !== 'unknown') return;
      } catch (error) {
        // Still out of reach (or it did not land and the database is back, yet the retry met an outage): again.
        if (!isOutage(error)) return;
      }
    }
  }

  async #settleOnce(request: SettleRequest): Promise<SettleOutcome> {
    const { record, ledger, idempotency } = request;
    const group = this.#groupCommit && !this.#groupCommit.log.failed ? this.#groupCommit : null;
    const transaction: HoldTransaction = group?.settleTransaction ?? ((db, body) => db.transaction().execute(body));
    /** Set when every write is done: an error after it came from the COMMIT itself. */
    let written = false;
    try {
      await transaction(this.db, async (trx) => {
        if (ledger === 'release') await this.ledger.releaseIn(trx, record.requestId);
        else if (ledger !== 'none' && !(await this.ledger.commitIn(trx, record.requestId, ledger.commit))) {
          throw new NotCommitted();
        }
        await this.requests.insertIn(trx, record);
        if (idempotency) {
          const held = await this.idempotency.finishIn(
            trx,
            record.accountId,
            idempotency.key,
            record.requestId,
            idempotency.complete,
          );
          // A call that ran past its hold was taken over by a retry, which will charge the key itself: charging this
          // one too would charge the key twice. (A release of a claim taken over has nothing to give back: it stands.)
          if (!held && idempotency.complete) throw new NotCommitted('the Idempotency-Key claim was taken over');
        }
        written = true;
      });
    } catch (error) {
      if (error instanceof NotCommitted) return 'refused';
      // The COMMIT was sent and the connection died before its answer: the database may have committed. Whether it
      // did is on the disk; the call's row is written by this transaction and nothing else, so it tells.
      if (!written || !isKumoError(error) || error.code !== 'unavailable') throw error;
      const found = await this.#readBack(record.requestId);
      if (found === null) return 'unknown';
      if (!found) throw error;
    }
    if (group && typeof ledger === 'object') {
      try {
        await group.log.flush();
      } catch (error) {
        // The charge is committed and every reader sees it; only its place on the disk is unknown. The call is
        // answered (charged and served), so the caller is never charged for an answer withheld; if the disk then
        // loses the charge, the call was free. Later settlements commit FULL (decision 0017).
        group.onFlushFailure(error instanceof Error ? error : new Error('flush failed'));
      }
    }
    return 'committed';
  }

  /**
   * Whether the settlement of `requestId` committed: its row exists. Asked again while the database cannot be reached
   * (each time on a connection the pool opens afresh, the dead one having been discarded); null when it never could
   * be in time (a COMMIT still in flight holding the lock counts as unreachable, and is asked again).
   */
  async #readBack(requestId: string): Promise<boolean | null> {
    const deadline = this.#clock.now() + readBackBudgetMs;
    for (const delayMs of readBackDelaysMs) {
      if (this.#clock.now() + delayMs > deadline) break;
      if (delayMs > 0) await this.#clock.sleep(delayMs);
      const found = await this.#readBackOnce(requestId);
      if (found !== 'unreachable') return found;
    }
    return null;
  }

  async #readBackOnce(requestId: string): Promise<boolean | 'unreachable'> {
    // The lost COMMIT may still be running on the server (it read the COMMIT, then lost the client). Its transaction
    // holds the reservation's row lock until it ends: touching that row first waits for it, so the row read after is
    // final. (PostgreSQL re-reads at each statement under READ COMMITTED; SQLite has one writer, so nothing to wait.)
    const read = this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('credit_reservations')
        .set((eb) => ({ state: eb.ref('state') }))
        .where('request_id', '=', requestId)
        .execute();
      const row = await trx
        .selectFrom('requests')
        .select('request_id')
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      return row !== undefined;
    });
    const answer = read.then(
      (found): boolean | 'unreachable' => found,
      (error: unknown): 'unreachable' => {
        if (isOutage(error)) return 'unreachable';
        throw error;
      },
    );
    // A read that outlives the wait below still ends on its own; its outcome is not wanted, nor is its error.
    answer.catch(() => undefined);
    const stop = new AbortController();
    // A read that has no answer in time (the database silent, or a COMMIT still holding the lock) is asked again.
    const waited: Promise<'unreachable'> = this.#clock.sleep(readBackLockWaitMs, stop.signal).then(
      () => 'unreachable',
      () => 'unreachable',
    );
    try {
      return await Promise.race([answer, waited]);
    } finally {
      stop.abort();
    }
  }

  async migrate(): Promise<void> {
    const migrations = toKyselyMigrations(this.#migrations);
    const db = this.#migrationDb?.() ?? this.db;
    try {
      await this.#migrateOn(db, migrations);
    } finally {
      if (db !== this.db) await db.destroy();
    }
  }

  async #migrateOn(db: Kysely<KumoDatabase>, migrations: Record<string, Migration>): Promise<void> {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      migrationTableName: 'kumo_migration',
      migrationLockTableName: 'kumo_migration_lock',
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  }

  /** Idempotent. */
  async close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#stopConverging.abort();
      await Promise.allSettled([...this.#converging]);
      await this.#groupCommit?.log.close();
      await this.db.destroy();
      await this.#release?.();
    })();
    await this.#closed;
  }
}
