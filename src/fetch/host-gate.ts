// Politeness toward a target host, shared by every caller: how many requests at once, how far apart, and whose turn.
import { KumoError } from '../errors.js';
import { systemClock, type Clock, type ClockTimer } from '../time/clock.js';
import { maxRetryAfterMs } from './retry-policy.js';

export interface PolitenessRule {
  maxInFlight: number;
  minIntervalMs: number;
}

/**
 * How a request went, reported when it leaves: `success` (a page), `free_failure` (anything the caller is not charged
 * for: 404, 5xx, network error, block), or nothing (robots.txt, a redirect hop: neither). Free failures lower the
 * account's share of the host (see {@link fairCost}); successes restore it.
 */
export type GateOutcome = 'success' | 'free_failure';

/** Leaves the gate (idempotent), optionally saying how the request went. */
export type Leave = (outcome?: GateOutcome) => void;

/** The fairness identity of calls that name none (the CLI, robots.txt fetches share it). */
export const anonymousAccount = '';

/**
 * Every request to a target host (each retry and redirect hop included) enters the gate first and leaves when its
 * response is fully read. Implementations may be in-process or shared between instances.
 *
 * Fairness: waiting callers are served by start-time fair queuing over per-account queues, so an account with many
 * calls waiting cannot push another account's one call to the back: each account's next call starts at the
 * host's current virtual time, and each call advances its own account's virtual finish by {@link fairCost}.
 */
export interface HostGate {
  /**
   * Resolves when a request to `host` may start, in fair order between accounts (arrival order within one); the
   * returned function leaves. Throws KumoError('site_busy', …, { retryAfterSeconds }) when the caller would wait past
   * `deadlineAt` or the queue is full (Retry-After = the gate's estimate of the wait), and the signal's reason when
   * the caller aborts while waiting.
   */
  enter(
    host: string,
    rule: PolitenessRule,
    deadlineAt: number,
    signal?: AbortSignal,
    accountId?: string,
  ): Promise<Leave>;
  /** Releases connections the gate owns, if any. */
  close?(): Promise<void>;
}

/** Penalty points an account can collect at one host; its calls then cost 1 + this much virtual time. */
export const maxPenalty = 7;

/**
 * The virtual time one call of an account costs at a host: 1, plus one per recent free failure there (at most
 * {@link maxPenalty}). A free failure adds a point, a success halves the points: a key that only produces 404s ends
 * up with an eighth of the share of an account whose calls succeed, while the host is contended; alone, it still
 * gets the whole (spaced) host.
 */
export function fairCost(penalty: number): number {
  return 1 + Math.min(maxPenalty, Math.max(0, penalty));
}

/** The new penalty after a reported outcome. */
export function nextPenalty(penalty: number, outcome: GateOutcome): number {
  return outcome === 'free_failure' ? Math.min(maxPenalty, penalty + 1) : Math.floor(penalty / 2);
}

/**
 * Seconds for Retry-After from an estimated wait in ms: rounded up, at least 1, and at most an hour (issue 7 §2: no
 * answer of ours sends a caller away for longer, whatever spacing a host has or however many callers wait).
 */
export function gateRetryAfterSeconds(waitMs: number): number {
  return Math.min(maxRetryAfterMs / 1000, Math.max(1, Math.ceil(waitMs / 1000)));
}

export interface InProcessHostGateOptions {
  /** Callers allowed to wait per host before new ones are refused at once (default 100). */
  maxQueue?: number;
  /** Spacing, deadlines and their timers run on it (default the system clock). */
  clock?: Clock;
}

interface Waiter {
  rule: PolitenessRule;
  accountId: string;
  /** Virtual start tag: the smallest goes first; `seq` (arrival) breaks ties. */
  tag: number;
  seq: number;
  resolve: (leave: Leave) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

interface HostState {
  inFlight: number;
  /** The later of the last start and the last leave: the next start waits minIntervalMs after it. */
  lastStartAt: number;
  queue: Waiter[];
  timer: ClockTimer | null;
  /** Virtual time: the tag of the last call started. */
  virtual: number;
  /** Each account's virtual finish: where its next call's tag starts (if later than `virtual`). */
  finish: Map<string, number>;
  /** Each account's penalty points at this host (absent = 0). */
  penalty: Map<string, number>;
  seq: number;
}

// Penalties of this many accounts per host are remembered; the oldest is forgotten first.
const maxPenaltyEntries = 10_000;

/** One process's gate: right while a single instance serves; a shared (Redis) gate replaces it for several. */
export class InProcessHostGate implements HostGate {
  readonly #hosts = new Map<string, HostState>();
  readonly #maxQueue: number;
  readonly #clock: Clock;

  constructor(options: InProcessHostGateOptions = {}) {
    this.#maxQueue = options.maxQueue ?? 100;
    this.#clock = options.clock ?? systemClock;
  }

  enter(
    host: string,
    rule: PolitenessRule,
    deadlineAt: number,
    signal?: AbortSignal,
    accountId: string = anonymousAccount,
  ): Promise<Leave> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const state = this.#state(host);
    const timeLeft = deadlineAt - this.#clock.now();

    const tag = Math.max(state.virtual, state.finish.get(accountId) ?? -Infinity);
    const waiter: Waiter = {
      rule,
      accountId,
      tag,
      seq: state.seq++,
      resolve: () => undefined,
      reject: () => undefined,
      cleanup: () => undefined,
    };
    // The soonest this caller could start if everyone ahead of it left at once: a lower bound, so refusing on it is
    // safe. Ahead means ahead in the fair order, not in arrival order.
    const estimate = this.#estimate(state, rule, this.#aheadOf(state, waiter));
    if (estimate > timeLeft) return Promise.reject(this.#busy(host, estimate));
    if (state.queue.length >= this.#maxQueue && !this.#pushOut(host, state, accountId)) {
      return Promise.reject(this.#busy(host, this.#estimate(state, rule, state.queue.length)));
    }
    state.finish.set(accountId, tag + fairCost(state.penalty.get(accountId) ?? 0));

    return new Promise<Leave>((resolve, reject) => {
      waiter.resolve = resolve;
      waiter.reject = reject;
      const deadlineTimer = this.#clock.setTimeout(() => {
        this.#remove(host, waiter);
        reject(this.#busy(host, this.#estimate(state, rule, this.#aheadOf(state, waiter))));
      }, timeLeft);
      const onAbort = () => {
        this.#remove(host, waiter);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.cleanup = () => {
        this.#clock.clearTimeout(deadlineTimer);
        signal?.removeEventListener('abort', onAbort);
      };
      state.queue.push(waiter);
      this.#pump(host);
    });
  }

  #state(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = {
        inFlight: 0,
        lastStartAt: -Infinity,
        queue: [],
        timer: null,
        virtual: 0,
        finish: new Map(),
        penalty: new Map(),
        seq: 0,
      };
      this.#hosts.set(host, state);
    }
    return state;
  }

  /**
   * A full queue must not let one account lock the others out: a newcomer whose account has fewer callers waiting
   * than the largest account takes the place of that account's last caller, who is told site_busy.
   */
  #pushOut(host: string, state: HostState, accountId: string): boolean {
    const counts = new Map<string, number>();
    for (const w of state.queue) counts.set(w.accountId, (counts.get(w.accountId) ?? 0) + 1);
    let biggest: string | null = null;
    for (const [account, count] of counts) {
      if (biggest === null || count > counts.get(biggest)!) biggest = account;
    }
    if (biggest === null || biggest === accountId || counts.get(biggest)! <= (counts.get(accountId) ?? 0) + 1) {
      return false;
    }
    let last: Waiter | null = null;
    for (const w of state.queue) if (w.accountId === biggest && (last === null || before(last, w))) last = w;
    if (!last) return false;
    this.#remove(host, last);
    last.reject(this.#busy(host, this.#estimate(state, last.rule, state.queue.length)));
    return true;
  }

  #aheadOf(state: HostState, waiter: Waiter): number {
    let ahead = 0;
    for (const w of state.queue) if (w !== waiter && before(w, waiter)) ahead += 1;
    return ahead;
  }

  /** A lower bound on the wait of a caller with `ahead` callers before it: what is left of the spacing, then theirs. */
  #estimate(state: HostState, rule: PolitenessRule, ahead: number): number {
    const spacingLeft = spacingLeftMs(state.lastStartAt, rule.minIntervalMs, this.#clock.now());
    return spacingLeft + ahead * rule.minIntervalMs;
  }

  #remove(host: string, waiter: Waiter): void {
    const state = this.#hosts.get(host);
    if (!state) return;
    const index = state.queue.indexOf(waiter);
    if (index !== -1) state.queue.splice(index, 1);
    waiter.cleanup();
    // The head may have changed; the next one could be ready now.
    this.#pump(host);
  }

  #next(state: HostState): Waiter | undefined {
    let best: Waiter | undefined;
    for (const w of state.queue) if (!best || before(w, best)) best = w;
    return best;
  }

  #pump(host: string): void {
    const state = this.#hosts.get(host);
    if (!state || state.timer) return;
    for (;;) {
      const head = this.#next(state);
      if (!head) {
        // Nobody waits: nothing is owed to anyone, so the virtual clocks start afresh (penalties stay).
        state.finish.clear();
        state.virtual = 0;
        return;
      }
      // A rule of 0 would stall the host forever; one at a time is the floor.
      if (state.inFlight >= Math.max(1, head.rule.maxInFlight)) return;
      const now = this.#clock.now();
      const wait = spacingLeftMs(state.lastStartAt, head.rule.minIntervalMs, now);
      if (wait > 0) {
        state.timer = this.#clock.setTimeout(() => {
          state.timer = null;
          this.#pump(host);
        }, Math.ceil(wait));
        return;
      }
      state.queue.splice(state.queue.indexOf(head), 1);
      head.cleanup();
      state.inFlight += 1;
      state.lastStartAt = now;
      state.virtual = Math.max(state.virtual, head.tag);
      let left = false;
      head.resolve((outcome) => {
        if (left) return;
        left = true;
        state.inFlight -= 1;
        if (outcome) this.#judge(state, head.accountId, outcome);
        // Spacing also counts from the end of a response: only then does the site see the gap we meant, however
        // late our own request reached it.
        state.lastStartAt = Math.max(state.lastStartAt, this.#clock.now());
        this.#pump(host);
      });
    }
  }

  #judge(state: HostState, accountId: string, outcome: GateOutcome): void {
    const penalty = nextPenalty(state.penalty.get(accountId) ?? 0, outcome);
    state.penalty.delete(accountId);
    if (penalty === 0) return;
    if (state.penalty.size >= maxPenaltyEntries) {
      const oldest = state.penalty.keys().next();
      if (!oldest.done) state.penalty.delete(oldest.value);
    }
    state.penalty.set(accountId, penalty);
  }

  #busy(host: string, waitMs: number): KumoError {
    return new KumoError('site_busy', `too many requests are waiting for ${host}; try again shortly`, {
      retryAfterSeconds: gateRetryAfterSeconds(waitMs),
    });
  }
}

/** Fair order: the smaller virtual start tag first, arrival order among equals. */
function before(a: Waiter, b: Waiter): boolean {
  return a.tag < b.tag || (a.tag === b.tag && a.seq < b.seq);
}

/**
 * What is left of the spacing after the last start. The clock is the wall clock: were it stepped back, the last start
 * would lie in the future, and a gap is never owed more than one interval, so no step can stall a host for longer.
 */
export function spacingLeftMs(lastStartAt: number, minIntervalMs: number, now: number): number {
  return Math.min(minIntervalMs, Math.max(0, lastStartAt + minIntervalMs - now));
}
