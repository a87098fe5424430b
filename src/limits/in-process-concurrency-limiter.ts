// ConcurrencyLimiter for the single embedded process: leases in memory, expiring by time on an injectable clock.
import { randomUUID } from 'node:crypto';
import type { AcquireOutcome, ConcurrencyLimiter, ConcurrencyScope, Lease } from './concurrency-limiter.js';

export interface InProcessConcurrencyLimiterOptions {
  /** Milliseconds since the epoch; tests pass a fake one to expire leases without waiting. */
  clock?: () => number;
}

export class InProcessConcurrencyLimiter implements ConcurrencyLimiter {
  /** scope key → lease id → expiry (ms). */
  readonly #scopes = new Map<string, Map<string, number>>();
  readonly #clock: () => number;

  constructor(options: InProcessConcurrencyLimiterOptions = {}) {
    this.#clock = options.clock ?? Date.now;
  }

  async tryAcquire(scopes: readonly ConcurrencyScope[], leaseMs: number): Promise<AcquireOutcome> {
    if (!(leaseMs > 0)) throw new RangeError('leaseMs must be positive');
    const now = this.#clock();
    // Check every scope before touching any: all slots or none. Nothing here awaits, so no other call interleaves.
    for (const scope of scopes) {
      if (this.#live(scope.key, now).size >= scope.limit) return { granted: false, deniedScope: scope.key };
    }
    const id = randomUUID();
    const keys = [...new Set(scopes.map((s) => s.key))];
    for (const key of keys) {
      let leases = this.#scopes.get(key);
      if (!leases) this.#scopes.set(key, (leases = new Map<string, number>()));
      leases.set(id, now + leaseMs);
    }
    let released = false;
    const lease: Lease = {
      release: async () => {
        if (released) return;
        released = true;
        for (const key of keys) {
          const leases = this.#scopes.get(key);
          leases?.delete(id);
          if (leases?.size === 0) this.#scopes.delete(key);
        }
      },
    };
    return { granted: true, lease };
  }

  async inUse(scopeKey: string): Promise<number> {
    return this.#live(scopeKey, this.#clock()).size;
  }

  /** One process holds every lease here; a dead process takes them with it, so there is nothing to keep alive. */
  async heartbeat(): Promise<void> {}

  async releaseOrphaned(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    this.#scopes.clear();
  }

  /** The scope's leases with expired ones dropped (a lease held by code that never released it). */
  #live(key: string, now: number): Map<string, number> {
    const leases = this.#scopes.get(key);
    if (!leases) return new Map<string, number>();
    for (const [id, expiry] of leases) if (expiry <= now) leases.delete(id);
    if (leases.size === 0) this.#scopes.delete(key);
    return leases;
  }
}
