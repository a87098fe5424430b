// Pages whose parse ran past its deadline (twice) or heap, remembered for a while so that a repeat is refused before it takes a worker.
import { createHash } from 'node:crypto';
import { withinNominal, type Clock } from '../time/clock.js';
import type { ProduceJob } from './produce.js';

export interface OverBudgetPagesOptions {
  clock: Clock;
  /** Most pages remembered; the least recently seen is forgotten first. */
  capacity: number;
  /** How long a page is refused once it blew its budget enough times (a hit does not extend it), and how long a
   * first deadline loss is kept waiting for a second. */
  ttlMs: number;
}

/**
 * Why a page ended its worker. A deadline loss may be the machine's load rather than the page (a worker starved of CPU
 * by its neighbours), so it counts as one strike of two; a heap loss is the page's alone, since load cannot make a
 * parse need more memory, and it is refused at once.
 */
export type OverBudgetLoss = 'deadline' | 'out_of_memory';

/** Deadline losses of the same page, within the TTL of the first, after which it is refused. */
export const deadlineStrikes = 2;

interface Entry {
  expiresAt: number;
  shape: string;
  /** Deadline losses so far; at `deadlineStrikes` (or after a heap loss) the page is refused. */
  strikes: number;
}

/**
 * Keyed by SHA-256 of the body with the extractor and the outputs asked for (a page that blew its budget being
 * extracted may still be served as html only). Hashing every page would cost the event loop about a millisecond per
 * megabyte for nothing on ordinary traffic, so a page is hashed only when one of the same extractor, outputs and
 * byte length is remembered: a repeat costs one hash, any other page nothing.
 */
export class OverBudgetPages {
  readonly #o: OverBudgetPagesOptions;
  /** Digest → entry, in order of last sight (a Map keeps insertion order: the first is the least recent). */
  readonly #entries = new Map<string, Entry>();
  /** Shape (extractor, outputs, byte length) → how many remembered pages have it. */
  readonly #shapes = new Map<string, number>();

  constructor(options: OverBudgetPagesOptions) {
    this.#o = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * A page ended its worker. It is refused from then on for the TTL after a heap loss, or after its second deadline
   * loss within the TTL of its first; a loss of a page already refused (a copy that was running) changes nothing.
   */
  remember(job: ProduceJob, loss: OverBudgetLoss): void {
    const shape = shapeOf(job);
    const digest = digestOf(job, shape);
    const now = this.#o.clock.now();
    const known = this.#live(digest, now);
    if (known && known.strikes >= deadlineStrikes) return;
    const strikes = loss === 'out_of_memory' ? deadlineStrikes : (known?.strikes ?? 0) + 1;
    // A strike keeps the first loss's lifetime; the refusal runs its own TTL from the loss that made it.
    const expiresAt = known && strikes < deadlineStrikes ? known.expiresAt : now + this.#o.ttlMs;
    this.#drop(digest);
    this.#entries.set(digest, { expiresAt, shape, strikes });
    this.#shapes.set(shape, (this.#shapes.get(shape) ?? 0) + 1);
    while (this.#entries.size > this.#o.capacity) this.#drop(this.#entries.keys().next().value!);
  }

  /**
   * Whether this page is refused: it blew its budget enough times within the TTL. A hit counts as a sighting for the
   * capacity bound but does not extend the TTL: a page polled hourly is parsed again once the hour is over.
   */
  has(job: ProduceJob): boolean {
    const shape = shapeOf(job);
    if (!this.#shapes.has(shape)) return false;
    const digest = digestOf(job, shape);
    const entry = this.#live(digest, this.#o.clock.now());
    if (!entry || entry.strikes < deadlineStrikes) return false;
    this.#entries.delete(digest);
    this.#entries.set(digest, entry);
    return true;
  }

  /** The entry if its lifetime is not over; an ended one is forgotten. */
  #live(digest: string, now: number): Entry | undefined {
    const entry = this.#entries.get(digest);
    if (!entry) return undefined;
    // The wall clock stepped back: what is left is never more than a TTL.
    entry.expiresAt = withinNominal(entry.expiresAt, this.#o.ttlMs, now);
    if (entry.expiresAt > now) return entry;
    this.#drop(digest);
    return undefined;
  }

  #drop(digest: string): void {
    const entry = this.#entries.get(digest);
    if (!entry) return;
    this.#entries.delete(digest);
    const left = (this.#shapes.get(entry.shape) ?? 1) - 1;
    if (left > 0) this.#shapes.set(entry.shape, left);
    else this.#shapes.delete(entry.shape);
  }
}

function shapeOf(job: ProduceJob): string {
  return `${job.extractorId}\0${job.wantData ? 'd' : ''}${job.wantHtml ? 'h' : ''}\0${job.body.byteLength}`;
}

function digestOf(job: ProduceJob, shape: string): string {
  return createHash('sha256').update(shape).update('\0').update(job.body).digest('hex');
}
