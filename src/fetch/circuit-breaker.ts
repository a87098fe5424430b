// A per-host circuit breaker: after repeated failures Kumo stops sending to a host for a while (research §6.2–6.3).
import { KumoError } from '../errors.js';
import { systemClock, withinNominal, type Clock } from '../time/clock.js';
import { maxRetryAfterMs, retryAfterSeconds } from './retry-policy.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Who a failed fetch is blamed on, and whether the target itself asked for a pause. */
export interface Blame {
  /** The account whose call failed; absent = one shared anonymous account. */
  accountId?: string;
  /** The target's own Retry-After (ms), if it sent one: a request to everyone, so it rests the whole host. */
  retryAfterMs?: number;
  /**
   * A pause (ms) owed without the target saying to whom (a 429 without Retry-After): it rests this account only, for
   * at least that long (at most an hour), since the limit may be the caller's own.
   */
  accountPauseMs?: number;
}

/**
 * Guards every fetch to a host. `permit` throws KumoError('site_busy', …, { retryAfterSeconds }) while the host (or
 * the calling account at that host) is resting; the fetch then reports how it went with `succeeded` or `failed`.
 *
 * Blame is shared per account: one account's failures rest the host for that account only. The host rests for everyone
 * when a run of failures (no success between) reaches the threshold counting at most ceil(threshold / minAccounts)
 * failures per account, so it takes at least `minAccounts` accounts; or when the target itself asks for a pause.
 */
/** The probe slots a permitted call took (host-wide and/or its account's); see {@link CircuitBreaker.released}. */
export interface Probe {
  host: boolean;
  account: boolean;
}

export interface CircuitBreaker {
  /** Lets the call through, or throws; returns the probe slots it took when a rest was over (null: none). */
  permit(host: string, accountId?: string): Probe | null;
  /**
   * A permitted call that never reached the host (refused by the politeness gate or robots.txt, or its caller went
   * away): it says nothing about the host, so the probe slots it took are free at once for the next caller.
   */
  released(host: string, accountId: string | undefined, probe: Probe): void;
  succeeded(host: string, accountId?: string): void;
  /** A failed fetch (network, timeout, 5xx, 429). */
  failed(host: string, blame?: Blame): void;
  /** The host-wide state (what `/metrics` shows; per-account rests are not listed there). */
  state(host: string): BreakerState;
  /** How long `permit` would still refuse this account at this host, in ms (0 = it would let the call through). */
  restingMs(host: string, accountId?: string): number;
}

export interface InProcessCircuitBreakerOptions {
  /** Consecutive failed fetches that open the breaker (research §7: 5). */
  failureThreshold: number;
  /** How long an opened breaker refuses before letting one fetch through. */
  cooldownMs: number;
  /** Accounts that must share a run of failures before the host rests for everyone (default 2). */
  minAccounts?: number;
  onStateChange?: (host: string, state: BreakerState) => void;
  /** Rests and probe slots are measured on it (default the system clock). */
  clock?: Clock;
}

interface Circuit {
  failures: number;
  state: BreakerState;
  /** Open: refuse until then. Half-open: the probe's slot, reopened to another probe after this. */
  until: number;
  /** How long that rest (or probe slot) was set for: what is left of it is never more, whatever the wall clock did. */
  lengthMs: number;
}

interface HostState extends Circuit {
  /** Failures of the current run (no success since), per account. */
  blamed: Map<string, number>;
  /** Each account's own circuit at this host; absent = closed with no failures. */
  accounts: Map<string, Circuit>;
}

// Accounts per host whose circuits are remembered; the oldest is forgotten first.
const maxAccountsPerHost = 10_000;
const anonymous = '';

/** One process's view of each host; enough because every instance independently stops at the first sign of distress. */
export class InProcessCircuitBreaker implements CircuitBreaker {
  readonly #o: InProcessCircuitBreakerOptions;
  readonly #hosts = new Map<string, HostState>();
  readonly #clock: Clock;
  readonly #minAccounts: number;
  /** No rest (and so no Retry-After of a refusal) is longer than an hour. */
  readonly #cooldownMs: number;

  constructor(options: InProcessCircuitBreakerOptions) {
    this.#o = options;
    this.#cooldownMs = Math.min(maxRetryAfterMs, options.cooldownMs);
    this.#clock = options.clock ?? systemClock;
    this.#minAccounts = Math.max(1, options.minAccounts ?? 2);
  }

  permit(host: string, accountId = anonymous): Probe | null {
    const entry = this.#hosts.get(host);
    if (!entry) return null;
    const account = entry.accounts.get(accountId);
    const now = this.#clock.now();
    const waitMs = Math.max(refusing(entry, now), account ? refusing(account, now) : 0);
    if (waitMs > 0) throw this.#busy(host, waitMs);
    // The rest is over: one probe goes through. A probe that never reports back frees the slot after a cool-down, and
    // the next caller is then the probe (half-open never lets everyone through).
    const probe: Probe = {
      host: entry.state !== 'closed',
      account: account !== undefined && account.state !== 'closed',
    };
    if (probe.host) {
      this.#set(host, entry, 'half_open');
      entry.until = now + this.#cooldownMs;
      entry.lengthMs = this.#cooldownMs;
    }
    if (account && probe.account) {
      account.state = 'half_open';
      account.until = now + this.#cooldownMs;
      account.lengthMs = this.#cooldownMs;
    }
    return probe.host || probe.account ? probe : null;
  }

  released(host: string, accountId = anonymous, probe: Probe): void {
    const entry = this.#hosts.get(host);
    if (!entry) return;
    const now = this.#clock.now();
    if (probe.host && entry.state === 'half_open') entry.until = Math.min(entry.until, now);
    const account = entry.accounts.get(accountId);
    if (probe.account && account?.state === 'half_open') account.until = Math.min(account.until, now);
  }

  succeeded(host: string, accountId = anonymous): void {
    const entry = this.#hosts.get(host);
    if (!entry) return;
    entry.failures = 0;
    entry.blamed.clear();
    entry.accounts.delete(accountId);
    if (entry.state !== 'closed') this.#set(host, entry, 'closed');
  }

  failed(host: string, blame: Blame = {}): void {
    const accountId = blame.accountId ?? anonymous;
    const entry = this.#entry(host);
    const now = this.#clock.now();
    // No site may rest a host longer than an hour, whatever it asked for.
    const asked = blame.retryAfterMs === undefined ? undefined : Math.min(maxRetryAfterMs, blame.retryAfterMs);

    let account = entry.accounts.get(accountId);
    entry.accounts.delete(accountId);
    if (entry.accounts.size >= maxAccountsPerHost) {
      const oldest = entry.accounts.keys().next();
      if (!oldest.done) entry.accounts.delete(oldest.value);
    }
    account ??= { failures: 0, state: 'closed', until: 0, lengthMs: 0 };
    entry.accounts.set(accountId, account);
    account.failures += 1;
    // This account's failed probe, or its own run of failures: it rests, and nobody else is held back by it.
    if (account.state === 'half_open' || account.failures >= this.#o.failureThreshold) {
      open(account, now, this.#cooldownMs);
    }
    if (blame.accountPauseMs !== undefined) open(account, now, Math.min(maxRetryAfterMs, blame.accountPauseMs));

    entry.failures += 1;
    entry.blamed.set(accountId, (entry.blamed.get(accountId) ?? 0) + 1);
    // The host's failed probe, a run of failures shared by enough accounts, or the target asking us to wait.
    if (entry.state !== 'half_open' && !this.#shared(entry) && asked === undefined) return;
    // A failure while already open (a call let in before) never shortens a longer rest the target asked for.
    rest(entry, now, Math.max(this.#cooldownMs, asked ?? 0));
    // The host's state changes through #set alone, so /metrics hears of it.
    this.#set(host, entry, 'open');
  }

  /** Whether the current run of failures, each account counting at most its share, rests the host for everyone. */
  #shared(entry: HostState): boolean {
    if (entry.blamed.size < this.#minAccounts) return false;
    const share = Math.ceil(this.#o.failureThreshold / this.#minAccounts);
    let counted = 0;
    for (const failures of entry.blamed.values()) counted += Math.min(failures, share);
    return counted >= this.#o.failureThreshold;
  }

  state(host: string): BreakerState {
    return this.#hosts.get(host)?.state ?? 'closed';
  }

  restingMs(host: string, accountId = anonymous): number {
    const entry = this.#hosts.get(host);
    if (!entry) return 0;
    const account = entry.accounts.get(accountId);
    const now = this.#clock.now();
    return Math.max(refusing(entry, now), account ? refusing(account, now) : 0);
  }

  #entry(host: string): HostState {
    let entry = this.#hosts.get(host);
    if (!entry) {
      entry = { failures: 0, state: 'closed', until: 0, lengthMs: 0, blamed: new Map(), accounts: new Map() };
      this.#hosts.set(host, entry);
    }
    return entry;
  }

  #set(host: string, entry: HostState, state: BreakerState): void {
    if (entry.state === state) return;
    entry.state = state;
    this.#o.onStateChange?.(host, state);
  }

  #busy(host: string, waitMs: number): KumoError {
    return new KumoError('site_busy', `${host} is failing or asked us to wait; Kumo is resting it`, {
      // The breaker's own remaining rest, so the caller's retry lands when a call can go through.
      retryAfterSeconds: retryAfterSeconds(waitMs),
    });
  }
}

/**
 * How much longer a circuit refuses calls (ms); 0 when closed, or when its rest (or a probe's slot) is over. The clock
 * is the wall clock: were it stepped back, the rest would end further away than it was set for, so it is pulled back
 * to at most its length from now (as the host gate's spacing is), and no step can rest a host for longer.
 */
function refusing(circuit: Circuit, now: number): number {
  if (circuit.state === 'closed') return 0;
  circuit.until = withinNominal(circuit.until, circuit.lengthMs, now);
  return Math.max(0, circuit.until - now);
}

/** Rests a circuit for `ms` from now, or keeps the longer rest it already has; its state is the caller's to set. */
function rest(circuit: Circuit, now: number, ms: number): void {
  if (circuit.state !== 'open' || now + ms > circuit.until) {
    circuit.until = now + ms;
    circuit.lengthMs = ms;
  }
}

/** Opens an account's own circuit (its state is not reported anywhere) for `ms`, or keeps its longer rest. */
function open(circuit: Circuit, now: number, ms: number): void {
  rest(circuit, now, ms);
  circuit.state = 'open';
}
