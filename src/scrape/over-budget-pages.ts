// Pages whose parse ran past its deadline or heap, remembered for a while so that a repeat is refused before it takes a worker.
import { createHash } from 'node:crypto';
import type { Clock } from '../time/clock.js';
import type { ProduceJob } from './produce.js';

export interface OverBudgetPagesOptions {
  clock: Clock;
  /** Most pages remembered; the least recently seen is forgotten first. */
  capacity: number;
  /** How long a page stays remembered after it was last seen. */
  ttlMs: number;
}

interface Entry {
  expiresAt: number;
  shape: string;
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

  remember(job: ProduceJob): void {
    const shape = shapeOf(job);
    const digest = digestOf(job, shape);
    this.#drop(digest);
    this.#entries.set(digest, { expiresAt: this.#o.clock.now() + this.#o.ttlMs, shape });
    this.#shapes.set(shape, (this.#shapes.get(shape) ?? 0) + 1);
    while (this.#entries.size > this.#o.capacity) this.#drop(this.#entries.keys().next().value!);
  }

  /** Whether this page blew its budget within the TTL; a hit is seen again, so its TTL starts over. */
  has(job: ProduceJob): boolean {
    const shape = shapeOf(job);
    if (!this.#shapes.has(shape)) return false;
    const digest = digestOf(job, shape);
    const entry = this.#entries.get(digest);
    if (!entry) return false;
    this.#drop(digest);
    if (entry.expiresAt <= this.#o.clock.now()) return false;
    this.#entries.set(digest, { expiresAt: this.#o.clock.now() + this.#o.ttlMs, shape });
    this.#shapes.set(shape, (this.#shapes.get(shape) ?? 0) + 1);
    return true;
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
