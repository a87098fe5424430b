// The ConcurrencyLimiter role: how many calls may be in flight per key and per account, rejected at once past it.
// Implementations: in-process (embedded default) and Redis (shared by many instances); both pass the contract suite.

export interface ConcurrencyScope {
  /** e.g. `account:acc_…` or `key:key_…` */
  key: string;
  limit: number;
}

export interface Lease {
  /** Idempotent: a second release does nothing. */
  release(): Promise<void>;
}

export type AcquireOutcome = { granted: true; lease: Lease } | { granted: false; deniedScope: string };

export interface ConcurrencyLimiter {
  /**
   * Takes one slot in every scope, or none at all. A lease not released within `leaseMs` (a process killed
   * mid-call) stops counting after that time.
   */
  tryAcquire(scopes: readonly ConcurrencyScope[], leaseMs: number): Promise<AcquireOutcome>;
  /** Slots currently held in a scope. */
  inUse(scopeKey: string): Promise<number>;
  /**
   * Says this instance is alive (docs/architecture.md, liveness); also proves the store accepts writes (/readyz).
   * Called every heartbeat interval. In-process: nothing to do, the slots die with the process.
   */
  heartbeat(): Promise<void>;
  /**
   * Frees the slots of instances whose liveness lapsed, and retries releases that failed during an outage; returns
   * how many leases it freed. `tryAcquire` runs it once itself before refusing, so a dead instance's slots never
   * answer `concurrency_limited`.
   */
  releaseOrphaned(): Promise<number>;
  close(): Promise<void>;
}
