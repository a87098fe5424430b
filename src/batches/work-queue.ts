// The WorkQueue role: which batch item runs next on a host, claimed exclusively, fair between accounts.
// Implementations: SQLite (embedded default, Kysely) and pg-boss (shared mode, in Kumo's PostgreSQL); both pass
// work-queue.contract.ts. Every write joins a Kumo transaction, so an item's state, its credits and its queue row
// change together (DESIGN §8: charged exactly once, whatever crashes).
import type { Transaction } from 'kysely';
import type { KumoDatabase } from '../storage/kysely/schema.js';

/** A transaction on Kumo's database (the storage's Kysely). */
export type Tx = Transaction<KumoDatabase>;

export interface NewWork {
  /** The batch item's id (`itm_…`). */
  id: string;
  /** The batch (cancel removes a batch's queued work). */
  groupId: string;
  accountId: string;
  /** The fetched host: politeness, and so fairness, is per host. */
  host: string;
  /** Position among the account's work on the host (submission order); lower runs first. */
  order: number;
}

export interface ClaimedWork {
  id: string;
  groupId: string;
  accountId: string;
  host: string;
  /** Claims of this item so far, this one included. */
  attempts: number;
}

export interface LaneWithWork {
  host: string;
  accountId: string;
}

export interface ClaimOptions {
  /** Accounts that may not start more work now (their batch lane is full); their turn is kept. */
  skipAccounts?: readonly string[];
  /**
   * Runs inside the claim's transaction with what was claimed (the batch store marks the item running there). When it
   * returns false the claim is undone and the item stays queued in its place (then `claim` returns null).
   */
  onClaimed?: (tx: Tx, work: ClaimedWork) => Promise<boolean>;
}

export interface WorkQueue {
  /** Creates the engine's own tables or schema (pg-boss's); called once at start, after Kumo's migrations. */
  start(): Promise<void>;
  /** Inside the caller's transaction: submission writes the items and their queue rows together. */
  enqueue(tx: Tx, work: readonly NewWork[]): Promise<void>;
  /**
   * The next item on `host`, exclusive across every instance: of the accounts with queued work there, the one served
   * least recently on this host (round robin), then that account's lowest `order`. Leased to `holder` (an instance id,
   * `ins_…`) until it is finished, given back, or its holder is found dead. Null when nothing is queued there.
   */
  claim(host: string, holder: string, options?: ClaimOptions): Promise<ClaimedWork | null>;
  /**
   * The lanes (host, account) that have queued work, for the dispatcher's rounds: a host whose accounts' batch lanes
   * are all full here is not claimed from at all (a claim is a write transaction, even one that finds nothing).
   */
  lanesWithWork(): Promise<LaneWithWork[]>;
  /** Queued (not claimed) items on a host, for estimates: answered from a maintained figure, not a count. */
  depth(host: string): Promise<number>;
  /**
   * Inside the caller's transaction: the claimed item is done and leaves the queue. False when `holder` no longer
   * holds it (it was given back as orphaned): the caller must roll its transaction back.
   */
  finish(tx: Tx, id: string, holder: string): Promise<boolean>;
  /** Inside the caller's transaction: the claimed item goes back to the queue, in its account's turn, for a later try. */
  giveBack(tx: Tx, id: string, holder: string): Promise<boolean>;
  /** Inside the caller's transaction: removes the batch's queued (unclaimed) work; returns the item ids removed. */
  cancel(tx: Tx, groupId: string): Promise<string[]>;
  /**
   * Items claimed by instances whose heartbeat (the `instances` table) is older than `staleBefore`, or that are in
   * `deadHolders`, go back to the queue. `onRequeued(tx, ids)` runs in the same transaction (the batch store moves
   * them back to queued). Returns the ids requeued. Never this instance's own (`self`).
   */
  releaseOrphaned(
    self: string,
    staleBefore: string,
    deadHolders: readonly string[],
    onRequeued: (tx: Tx, ids: readonly string[]) => Promise<void>,
  ): Promise<string[]>;
  /**
   * The items `holder` has claimed and neither finished nor given back. A claim whose commit landed but whose answer
   * was lost (the database went away in between) is held with no one running it: its holder finds it here.
   */
  heldBy(holder: string): Promise<string[]>;
  close(): Promise<void>;
}
