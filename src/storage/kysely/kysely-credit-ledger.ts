// CreditLedger over Kysely: reserve with conditional counter UPDATEs, settle with state-guarded UPDATEs, one
// transaction each, so the same queries are race-free on SQLite (serialized writers) and PostgreSQL (row locks).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CreditLedger, CreditUsage, ReserveOutcome, ReserveRequest } from '../storage.js';
import type { KumoDatabase, ReservationState } from './schema.js';
import { isoOf, toIso } from './columns.js';
import { isKumoError } from '../../errors.js';
import { PreparedQuery, preparedFor } from './prepared.js';

export interface KyselyCreditLedgerOptions {
  /** This instance's id (`ins_…`), recorded as the owner of the reservations it makes (unless a request names one). */
  holder: string;
  /**
   * A heartbeat older than this marks its instance dead. `reserve` frees a dead instance's reservations before it
   * refuses for exhaustion. Default 30,000 ms.
   */
  staleAfterMs?: number;
  clock?: () => Date;
  /**
   * How a reservation's transaction runs; default a plain transaction. A reservation is a hold, not a charge: the
   * backend may commit it without waiting for the disk (docs/decisions/0014-reservations-without-fsync.md), because
   * the settlement that charges it is fully durable and persists everything written before it.
   */
  holdTransaction?: HoldTransaction;
}

/** What a reservation row tells the counters it moves: its subjects, period and cost, and its key's line of rotations. */
const reservationSubjects = () =>
  [
    'account_id',
    'key_id',
    'period',
    'cost',
    sql<
      string | null
    >`(SELECT coalesce(k.lineage_id, k.id) FROM api_keys k WHERE k.id = credit_reservations.key_id)`.as('key_lineage'),
  ] as const;

export type HoldTransaction = <T>(
  db: Kysely<KumoDatabase>,
  body: (trx: Transaction<KumoDatabase>) => Promise<T>,
) => Promise<T>;

export interface LedgerEntry {
  requestId: string;
  accountId: string;
  keyId: string;
  period: string;
  credits: number;
  createdAt: string;
}

/** The ledger's per-call statements, compiled once per database (src/storage/kysely/prepared.ts). */
function ledgerQueries(db: Kysely<KumoDatabase>) {
  const addReserved = (subject: string, period: string, cost: number) =>
    db
      .updateTable('credit_counters')
      .set((eb) => ({ reserved: eb('reserved', '+', cost) }))
      .where('subject', '=', subject)
      .where('period', '=', period);
  /** Of a commit, a release and a sweeper racing on one reservation, only the first finds it still reserved. */
  const settle = (requestId: string, state: 'committed' | 'released', committedCost: number | null, now: string) =>
    db
      .updateTable('credit_reservations')
      .set({ state, committed_cost: committedCost, settled_at: now })
      .where('request_id', '=', requestId)
      .where('state', '=', 'reserved')
      .returning(reservationSubjects());
  return {
    /** The line of rotations a key belongs to: its monthly credit limit counts the spend of the whole line. */
    lineageOf: new PreparedQuery<{ lineage: string | null }, [string]>(1, (keyId) =>
      db
        .selectFrom('api_keys')
        .select(sql<string | null>`coalesce(lineage_id, id)`.as('lineage'))
        .where('id', '=', keyId),
    ),
    openCounters: new PreparedQuery<never, [string, string, string]>(3, (account, key, period) =>
      db
        .insertInto('credit_counters')
        .values([
          { subject: account, period, used: 0, reserved: 0 },
          { subject: key, period, used: 0, reserved: 0 },
        ])
        .onConflict((oc) => oc.columns(['subject', 'period']).doNothing()),
    ),
    /** reserved += cost where used + reserved + cost stays within the limit. */
    reserveWithin: new PreparedQuery<never, [string, string, number, number]>(4, (subject, period, cost, limit) =>
      addReserved(subject, period, cost).where(sql<boolean>`used + reserved + ${cost} <= ${limit}`),
    ),
    /** A key without its own limit still counts, so its usage can be reported. */
    reserveUnlimited: new PreparedQuery<never, [string, string, number]>(3, (subject, period, cost) =>
      addReserved(subject, period, cost),
    ),
    insertReservation: new PreparedQuery<never, [string, string, string, string, number, string, string, string]>(
      8,
      (requestId, accountId, keyId, period, cost, holder, expiresAt, now) =>
        db
          .insertInto('credit_reservations')
          .values({
            request_id: requestId,
            account_id: accountId,
            key_id: keyId,
            period,
            cost,
            committed_cost: null,
            state: 'reserved',
            holder,
            expires_at: expiresAt,
            created_at: now,
            settled_at: null,
          })
          .onConflict((oc) => oc.column('request_id').doNothing()),
    ),
    usage: new PreparedQuery<{ used: number; reserved: number }, [string, string]>(2, (subject, period) =>
      db
        .selectFrom('credit_counters')
        .select(['used', 'reserved'])
        .where('subject', '=', subject)
        .where('period', '=', period),
    ),
    /** A charge may not exceed what was reserved. */
    commitReservation: new PreparedQuery<SettledRow, [string, number, string]>(3, (requestId, committedCost, now) =>
      settle(requestId, 'committed', committedCost, now).where('cost', '>=', committedCost),
    ),
    releaseReservation: new PreparedQuery<SettledRow, [string, string]>(2, (requestId, now) =>
      settle(requestId, 'released', null, now),
    ),
    openCost: new PreparedQuery<{ cost: number }, [string]>(1, (requestId) =>
      db
        .selectFrom('credit_reservations')
        .select('cost')
        .where('request_id', '=', requestId)
        .where('state', '=', 'reserved'),
    ),
    moveCounters: new PreparedQuery<never, [number, number, string, string]>(4, (reserved, used, subject, period) =>
      db
        .updateTable('credit_counters')
        .set((eb) => ({ reserved: eb('reserved', '-', reserved), used: eb('used', '+', used) }))
        .where('subject', '=', subject)
        .where('period', '=', period),
    ),
    insertEntry: new PreparedQuery<never, [string, string, string, string, number, string]>(
      6,
      (requestId, accountId, keyId, period, credits, now) =>
        db.insertInto('credit_ledger').values({
          request_id: requestId,
          account_id: accountId,
          key_id: keyId,
          period,
          credits,
          created_at: now,
        }),
    ),
  };
}

interface SettledRow {
  account_id: string;
  key_id: string;
  period: string;
  cost: number;
  key_lineage: string | null;
}

/** Thrown inside the reserve transaction to roll it back; never leaves this module. */
class Refused extends Error {
  constructor(readonly outcome: ReserveOutcome) {
    super('credits refused');
  }
}

const accountSubject = (id: string) => `account:${id}`;
/**
 * A key's counter is its lineage's (the first key's id of its line of rotations, migration 0006): a rotated key
 * starts from what its predecessors spent this month. A key that starts its own line has its own id as lineage, so
 * counters written before the migration stay valid.
 */
const keySubject = (lineageId: string) => `key:${lineageId}`;

function assertCredits(value: number, what: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${what} must be an integer ≥ ${min}`);
}

/**
 * Concurrency argument. Every reserve runs
 *   UPDATE credit_counters SET reserved = reserved + cost WHERE subject = ? AND period = ? AND used + reserved + cost <= limit
 * for the account row, then the key row, in one transaction, and rolls back if either matches no row.
 * - PostgreSQL (READ COMMITTED): an UPDATE that meets a row locked by another transaction waits, then re-checks its
 *   WHERE against the committed row version, so two reservations can never both pass on the same headroom.
 *   Rows are always locked account first, then key, so reservations cannot deadlock each other.
 * - SQLite: Kysely runs every query of this process on one connection behind a mutex, and transactions begin
 *   IMMEDIATE (see sqlite-storage.ts), so writers from other processes (the CLI) queue on the file lock.
 * Settling is `UPDATE credit_reservations SET state = … WHERE request_id = ? AND state = 'reserved'`: of a commit,
 * a release and a sweeper racing on one reservation exactly one sees a row, and only it touches the counters.
 */
export class KyselyCreditLedger implements CreditLedger {
  readonly #db: Kysely<KumoDatabase>;
  readonly #holder: string;
  readonly #staleAfterMs: number;
  readonly #clock: () => Date;
  readonly #holdTransaction: HoldTransaction;
  readonly #q: ReturnType<typeof ledgerQueries>;
  /** Releases that failed during an outage; `releaseOrphaned` retries them so the credits come back. */
  readonly #unreleased = new Set<string>();

  constructor(db: Kysely<KumoDatabase>, options: KyselyCreditLedgerOptions) {
    this.#db = db;
    this.#holder = options.holder;
    this.#staleAfterMs = options.staleAfterMs ?? 30_000;
    this.#clock = options.clock ?? (() => new Date());
    this.#holdTransaction = options.holdTransaction ?? ((db, body) => db.transaction().execute(body));
    this.#q = ledgerQueries(db);
  }

  async reserve(request: ReserveRequest): Promise<ReserveOutcome> {
    try {
      const outcome = await this.#reserveOrSweep(request);
      // This id's answer arrived after all (a retry of one whose answer was lost): its caller holds it now.
      this.#unreleased.delete(request.requestId);
      return outcome;
    } catch (error) {
      // The database may have committed the reservation and lost only its answer; the caller believes it holds
      // nothing and will never release it. The sweep releases it instead (a no-op if nothing was reserved).
      if (isKumoError(error) && error.code === 'unavailable') this.#unreleased.add(request.requestId);
      throw error;
    }
  }

  async #reserveOrSweep(request: ReserveRequest): Promise<ReserveOutcome> {
    return this.afterSweep(() => this.#reserveOnce(request));
  }

  /**
   * Runs `attempt`; when it is refused, frees what dead instances still hold (their heartbeat older than the staleness
   * bound) and, if that freed anything, runs it once more: credits a dead instance holds are not spent. The batch
   * store's reserve uses it around its own transaction.
   */
  async afterSweep<T extends { ok: boolean }>(attempt: () => Promise<T>): Promise<T> {
    const first = await attempt();
    if (first.ok) return first;
    const staleBefore = new Date(this.#clock().getTime() - this.#staleAfterMs).toISOString();
    if ((await this.releaseOrphaned(staleBefore)) === 0) return first;
    return attempt();
  }

  async #reserveOnce(request: ReserveRequest): Promise<ReserveOutcome> {
    try {
      await this.#holdTransaction(this.#db, async (trx) => {
        const outcome = await this.reserveIn(trx, request);
        if (!outcome.ok) throw new Refused(outcome);
      });
      return { ok: true };
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  /**
   * `reserve` inside a caller's transaction (the batch store reserves an item's credits with its batch's max_credits in
   * one). A refusal leaves nothing reserved in the transaction, which the caller may go on using.
   */
  async reserveIn(trx: Transaction<KumoDatabase>, request: ReserveRequest): Promise<ReserveOutcome> {
    assertCredits(request.cost, 'cost', 1);
    assertCredits(request.accountLimit, 'accountLimit', 0);
    if (request.keyLimit !== null) assertCredits(request.keyLimit, 'keyLimit', 0);
    const expiresAt = toIso(request.expiresAt);
    const now = this.#clock().toISOString();
    const account = accountSubject(request.accountId);
    const { period, cost } = request;
    const q = this.#q;
    /** Which kind of no: only committed credits make a refusal an exhaustion; reservations may still come back. */
    const refusal = async (which: 'account' | 'key', subject: string, limit: number): Promise<ReserveOutcome> => {
      const row = await q.usage.first(trx, subject, period);
      return (row?.used ?? 0) + cost > limit ? { ok: false, exhausted: which } : { ok: false, held: which };
    };
    const key = keySubject((await q.lineageOf.first(trx, request.keyId))?.lineage ?? request.keyId);
    await q.openCounters.execute(trx, account, key, period);
    if ((await q.reserveWithin.changed(trx, account, period, cost, request.accountLimit)) === 0) {
      return refusal('account', account, request.accountLimit);
    }
    const keyChanged =
      request.keyLimit === null
        ? await q.reserveUnlimited.changed(trx, key, period, cost)
        : await q.reserveWithin.changed(trx, key, period, cost, request.keyLimit);
    if (keyChanged === 0) {
      // Gives back the account's share taken above: the caller's transaction goes on without it.
      await q.reserveUnlimited.execute(trx, account, period, -cost);
      return refusal('key', key, request.keyLimit!);
    }
    const inserted = await q.insertReservation.changed(
      trx,
      request.requestId,
      request.accountId,
      request.keyId,
      period,
      cost,
      request.owner ?? this.#holder,
      expiresAt,
      now,
    );
    if (inserted === 0) throw new Error(`request ${request.requestId} already has a credit reservation`);
    return { ok: true };
  }

  /**
   * Turns an open call reservation into a hold (a ready batch item's credits awaiting handover): owned by no instance,
   * so the liveness sweep never frees it, until `expiresAt` (the batch's results_expire_at), of exactly `cost` (≤ what
   * was reserved; the rest goes back to the counters). The counters keep it reserved; `commitIn` charges it. False
   * when the reservation is no longer open (a sweep freed it).
   */
  async holdIn(trx: Transaction<KumoDatabase>, requestId: string, cost: number, expiresAt: string): Promise<boolean> {
    assertCredits(cost, 'cost', 1);
    // Locks the row (PostgreSQL) before reading its cost, so a sweeper racing on it waits and then finds it a hold.
    const row = await preparedFor<
      { account_id: string; key_id: string; period: string; cost: number; key_lineage: string | null },
      [string]
    >(trx, 'ledger:hold-lock', 1, (id: string) =>
      trx
        .updateTable('credit_reservations')
        .set((eb) => ({ state: eb.ref('state') }))
        .where('request_id', '=', id)
        .where('state', '=', 'reserved')
        .where('kind', '=', 'call')
        .returning(reservationSubjects()),
    ).first(trx, requestId);
    if (!row) return false;
    if (cost > row.cost) throw new RangeError(`cannot hold ${cost} credits against a reservation of ${row.cost}`);
    await preparedFor<never, [string, number, string]>(
      trx,
      'ledger:hold',
      3,
      (until: string, held: number, id: string) =>
        trx
          .updateTable('credit_reservations')
          .set({ kind: 'hold', holder: null, expires_at: until, cost: held })
          .where('request_id', '=', id),
    ).execute(trx, toIso(expiresAt), cost, requestId);
    if (row.cost > cost) await this.#moveCounters(trx, row, row.cost - cost, 0);
    return true;
  }

  async commit(requestId: string, cost: number): Promise<boolean> {
    assertCredits(cost, 'cost', 0);
    return this.#db.transaction().execute((trx) => this.commitIn(trx, requestId, cost));
  }

  async release(requestId: string): Promise<boolean> {
    try {
      const released = await this.#db.transaction().execute((trx) => this.releaseIn(trx, requestId));
      this.#unreleased.delete(requestId);
      return released;
    } catch (error) {
      if (isKumoError(error) && error.code === 'unavailable') this.#unreleased.add(requestId);
      throw error;
    }
  }

  /** `commit` inside a caller's transaction (KyselyStorage.settle writes the request row in the same one). */
  async commitIn(trx: Transaction<KumoDatabase>, requestId: string, cost: number): Promise<boolean> {
    assertCredits(cost, 'cost', 0);
    const now = this.#clock().toISOString();
    const row = await this.#q.commitReservation.first(trx, requestId, cost, now);
    if (!row) {
      const open = await this.#q.openCost.first(trx, requestId);
      // Charging more than was reserved could pass a limit; it is a bug in the caller, not a refusal.
      if (open) throw new RangeError(`cannot commit ${cost} credits against a reservation of ${open.cost}`);
      return false;
    }
    await this.#moveCounters(trx, row, row.cost, cost);
    // UNIQUE(request_id) is the last line of defence against a second charge for one request.
    await this.#q.insertEntry.execute(trx, requestId, row.account_id, row.key_id, row.period, cost, now);
    return true;
  }

  /** `release` inside a caller's transaction. */
  async releaseIn(trx: Transaction<KumoDatabase>, requestId: string): Promise<boolean> {
    const now = this.#clock().toISOString();
    const row = await this.#q.releaseReservation.first(trx, requestId, now);
    if (!row) return false;
    await this.#moveCounters(trx, row, row.cost, 0);
    return true;
  }

  async releaseExpired(now: string): Promise<number> {
    const expired = await this.#db
      .selectFrom('credit_reservations')
      .select('request_id')
      .where('state', '=', 'reserved')
      .where('expires_at', '<', toIso(now))
      .execute();
    return this.#releaseAll(expired.map((row) => row.request_id));
  }

  async foreignHolders(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('credit_reservations')
      .select('holder')
      .distinct()
      .where('state', '=', 'reserved')
      .where('kind', '=', 'call')
      .where('holder', 'is not', null)
      .where('holder', '!=', this.#holder)
      .execute();
    return rows.map((row) => row.holder).filter((holder): holder is string => holder !== null);
  }

  async releaseOrphaned(staleBefore: string, deadHolders: readonly string[] = []): Promise<number> {
    const stale = toIso(staleBefore);
    const dead = deadHolders.filter((holder) => holder !== this.#holder);
    // Never this instance's own: it is running this code, so it is alive even if its last heartbeat failed.
    const orphans = await this.#db
      .selectFrom('credit_reservations as r')
      .leftJoin('instances as i', 'i.id', 'r.holder')
      .select('r.request_id')
      .where('r.state', '=', 'reserved')
      // A hold (a ready batch item's credits) belongs to no instance: it lasts until its expires_at (releaseExpired).
      .where('r.kind', '=', 'call')
      .where((eb) => eb.or([eb('r.holder', 'is', null), eb('r.holder', '!=', this.#holder)]))
      .where((eb) =>
        eb.or([
          eb('i.heartbeat_at', '<', stale),
          ...(dead.length > 0 ? [eb('r.holder', 'in', dead)] : []),
          // No heartbeat row: an owner from before liveness existed, or one removed; only once old enough that a
          // live instance would have beaten by now.
          eb.and([eb('i.id', 'is', null), eb('r.created_at', '<', stale)]),
        ]),
      )
      .execute();
    const released = await this.#releaseAll([...this.#unreleased, ...orphans.map((row) => row.request_id)]);
    // Dead instances that hold nothing any more leave no row behind.
    await this.#db
      .deleteFrom('instances')
      .where((eb) => eb.or([eb('heartbeat_at', '<', stale), ...(dead.length > 0 ? [eb('id', 'in', dead)] : [])]))
      .where('id', '!=', this.#holder)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('credit_reservations')
              .select('request_id')
              .whereRef('credit_reservations.holder', '=', 'instances.id')
              .where('credit_reservations.state', '=', 'reserved'),
          ),
        ),
      )
      .execute();
    return released;
  }

  /** One transaction each: a call that commits meanwhile simply wins its state guard, and we skip it. */
  async #releaseAll(ids: Iterable<string>): Promise<number> {
    let released = 0;
    for (const id of new Set(ids)) if (await this.release(id)) released++;
    return released;
  }

  async accountUsage(accountId: string, period: string): Promise<CreditUsage> {
    return this.#usage(accountSubject(accountId), period);
  }

  /** What the key's line of rotations spent: the figure its monthly credit limit is checked against. */
  async keyUsage(keyId: string, period: string): Promise<CreditUsage> {
    const lineage = (await this.#q.lineageOf.first(this.#db, keyId))?.lineage ?? keyId;
    return this.#usage(keySubject(lineage), period);
  }

  /** The committed charges of an account, oldest first: for reconciliation and billing export. */
  async entries(accountId: string, period?: string): Promise<LedgerEntry[]> {
    let query = this.#db.selectFrom('credit_ledger').selectAll().where('account_id', '=', accountId);
    if (period !== undefined) query = query.where('period', '=', period);
    const rows = await query.orderBy('id').execute();
    return rows.map((row) => ({
      requestId: row.request_id,
      accountId: row.account_id,
      keyId: row.key_id,
      period: row.period,
      credits: row.credits,
      createdAt: isoOf(row.created_at),
    }));
  }

  /** Where one reservation stands, or null if there is none. */
  async reservationState(requestId: string): Promise<ReservationState | null> {
    const row = await this.#db
      .selectFrom('credit_reservations')
      .select('state')
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return row?.state ?? null;
  }

  async #usage(subject: string, period: string): Promise<CreditUsage> {
    const row = await this.#q.usage.first(this.#db, subject, period);
    return { used: row?.used ?? 0, reserved: row?.reserved ?? 0 };
  }

  /** Account row first, then key row: the same lock order as `reserve`. */
  async #moveCounters(trx: Transaction<KumoDatabase>, row: SettledRow, reserved: number, used: number): Promise<void> {
    for (const subject of [accountSubject(row.account_id), keySubject(row.key_lineage ?? row.key_id)]) {
      await this.#q.moveCounters.execute(trx, reserved, used, subject, row.period);
    }
  }
}
