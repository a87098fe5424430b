// `kumo batch submit|status|items|cancel`: a price team's list of URLs as one batch over the HTTP API (DESIGN §8),
// waited on with a progress bar, its results written as JSON Lines (docs/batches.md, "From the command line").
import { createHash } from 'node:crypto';
import type { Clock } from '../time/clock.js';
import { isValidRef, parse, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { batchHelp } from './batch-help.js';
import type { BatchApiClient } from './batch-client.js';
import { chunks, readBatchInput, type InputItem } from './batch-input.js';
import { doneOf, EtaEstimator, ProgressDisplay, type BatchView, type ProgressStream } from './batch-progress.js';
import { itemStates } from '../batches/batch-store.js';

/** The API's limit per request (POST /v1/batches and each append). */
export const itemsPerRequest = 1000;

/** A place JSON Lines go: a file, or stdout. */
export interface Sink {
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface BatchIo {
  client: BatchApiClient;
  clock: Clock;
  stdout: Sink;
  stderr: ProgressStream;
  readFile(path: string): Promise<Uint8Array>;
  /** Opens (creates or truncates) the --out file. */
  openOut(path: string): Promise<Sink>;
  /** Between two readings of the batch while waiting (default 2 s). */
  pollMs?: number;
}

interface ApiBatch extends BatchView {
  sealed?: boolean;
  rejected?: { index: number; url: string; code: string }[];
}

interface ApiItem {
  id: string;
  index: number;
  ref: string | null;
  url: string;
  state: string;
  attempts?: number;
  request_id?: string | null;
  cost_units?: number;
  result?: unknown;
  error?: unknown;
}

function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number ${min}–${max}`);
  return n;
}

function batchPath(id: string, rest = ''): string {
  return `v1/batches/${encodeURIComponent(id)}${rest}`;
}

/**
 * The submission's Idempotency-Key: the SHA-256 of the file's bytes and of the options that shape the batch, so the
 * same command run again (after a lost answer, a Ctrl-C, a crash) gets the batch it made the first time instead of a
 * second one, while the same file with another webhook or limit is a new batch.
 */
export function submissionKey(bytes: Uint8Array, options: Record<string, unknown>): string {
  const hash = createHash('sha256');
  hash.update(bytes);
  hash.update('\0');
  hash.update(JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b))));
  return `kumo-cli-${hash.digest('hex')}`;
}

function toApiItem(item: InputItem): { url: string; ref?: string } {
  return item.ref === undefined ? { url: item.url } : { url: item.url, ref: item.ref };
}

/** An item as one JSON line: what a price team's import needs, nothing of the transport. */
function itemLine(item: ApiItem): string {
  return JSON.stringify({
    id: item.id,
    index: item.index,
    ref: item.ref ?? null,
    url: item.url,
    state: item.state,
    request_id: item.request_id ?? null,
    cost_units: item.cost_units ?? 0,
    ...(item.result !== undefined ? { result: item.result } : {}),
    ...(item.error !== undefined && item.error !== null ? { error: item.error } : {}),
  });
}

/** An item the server refused up front (never an item of the batch), so every input line has its answer. */
function rejectedLine(rejected: { index: number; url: string; code: string }, input: InputItem | undefined): string {
  return JSON.stringify({
    id: null,
    index: rejected.index,
    ref: input?.ref ?? null,
    url: rejected.url,
    state: 'rejected',
    request_id: null,
    cost_units: 0,
    error: { code: rejected.code },
  });
}

/** Delivered (or handed over by this very page: the result is in it) and not_found are the ends a caller wanted. */
function endedWell(item: ApiItem): boolean {
  return (
    item.state === 'delivered' || item.state === 'not_found' || (item.state === 'ready' && item.result !== undefined)
  );
}

/**
 * Every item of the batch in index order (GET …/items pages), written as JSON Lines with the rejected ones merged in
 * at their index. Returns whether every line ended well. Reading a page hands its ready results over (charged once).
 */
async function writeItems(
  io: BatchIo,
  id: string,
  sink: Sink,
  options: {
    state?: string;
    rejected?: Map<number, { index: number; url: string; code: string }>;
    inputs?: InputItem[];
  },
): Promise<boolean> {
  let ok = true;
  const rejected = [...(options.rejected?.values() ?? [])].sort((a, b) => a.index - b.index);
  const flushRejected = async (below: number) => {
    while (rejected.length > 0 && rejected[0]!.index < below) {
      const r = rejected.shift()!;
      ok = false;
      await sink.write(`${rejectedLine(r, options.inputs?.[r.index])}\n`);
    }
  };
  let cursor: string | null = null;
  do {
    // No `limit`: the server's default page (100) is the most it gives.
    const query = new URLSearchParams();
    if (options.state) query.set('state', options.state);
    if (cursor) query.set('cursor', cursor);
    const page = await io.client.request<{ items: ApiItem[]; next_cursor: string | null }>(
      'GET',
      batchPath(id, `/items?${query.toString()}`),
    );
    for (const item of page.body.items) {
      await flushRejected(item.index);
      if (!endedWell(item)) ok = false;
      await sink.write(`${itemLine(item)}\n`);
    }
    cursor = page.body.next_cursor ?? null;
  } while (cursor);
  await flushRejected(Infinity);
  return ok;
}

async function submit(args: string[], io: BatchIo): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      webhook: { type: 'string' },
      wait: { type: 'boolean', default: false },
      out: { type: 'string' },
      'retain-hours': { type: 'string' },
      'max-credits': { type: 'string' },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError(commandHelpText(batchHelp));
  if (values.out !== undefined && !values.wait) throw new UsageError('--out needs --wait (or use kumo batch items)');
  if (values.webhook !== undefined && !/^whe_[0-9A-Za-z]+$/.test(values.webhook))
    throw new UsageError('--webhook takes a webhook endpoint id (whe_…)');
  const retainHours = wholeNumber(values['retain-hours'], 'retain-hours', 1, 72);
  const maxCredits = wholeNumber(values['max-credits'], 'max-credits', 1, Number.MAX_SAFE_INTEGER);
  const file = positionals[0]!;
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(file);
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  const inputs = readBatchInput(bytes);
  // The API refuses a whole request for one bad ref (its schema): said here with the line, before anything is sent.
  const badRef = inputs.find((item) => item.ref !== undefined && !isValidRef(item.ref));
  if (badRef)
    throw new UsageError(
      `line ${badRef.line}: a ref is printable text (no control characters), at most 128 characters`,
    );
  const parts = chunks(inputs, itemsPerRequest);
  const shape = {
    ...(values.webhook !== undefined ? { webhook: { endpoint_id: values.webhook } } : {}),
    ...(retainHours !== undefined ? { results: { retain_hours: retainHours } } : {}),
    ...(maxCredits !== undefined ? { max_credits: maxCredits } : {}),
  };
  // Opened before anything is submitted: a path that cannot be written must not leave a batch nobody reads.
  const out = values.out !== undefined ? await io.openOut(values.out) : null;
  try {
    const key = submissionKey(bytes, shape);
    const created = await io.client.request<{ batch: ApiBatch }>('POST', 'v1/batches', {
      body: { items: parts[0]!.map(toApiItem), ...shape, seal: parts.length === 1 },
      headers: { 'idempotency-key': key },
      repeatable: true,
    });
    let batch = created.body.batch;
    const rejected = new Map<number, { index: number; url: string; code: string }>();
    const noteRejected = (list: ApiBatch['rejected'], offset: number) => {
      for (const r of list ?? []) {
        // Indexes are the batch's (from 0 over all requests); one below this request's offset is this request's own.
        const index = r.index < offset ? r.index + offset : r.index;
        rejected.set(index, { ...r, index });
      }
    };
    noteRejected(batch.rejected, 0);
    if (parts.length > 1 && batch.sealed !== true) {
      // A run again after an interrupted one: the key brought back the same batch; go on after what it already has.
      const submitted = batch.counts.total + rejected.size;
      if (submitted % itemsPerRequest !== 0 || submitted > inputs.length)
        throw new UsageError(
          `batch ${batch.id} holds ${submitted} items, which is not where a submission of this file stops; ` +
            `cancel it (kumo batch cancel ${batch.id}) and submit again`,
        );
      for (let part = submitted / itemsPerRequest; part < parts.length; part++) {
        const appended = await io.client.request<{ batch: ApiBatch }>('POST', batchPath(batch.id, '/items'), {
          body: { items: parts[part]!.map(toApiItem), seal: part === parts.length - 1 },
        });
        batch = appended.body.batch;
        noteRejected(batch.rejected, part * itemsPerRequest);
      }
    }
    const resultsToStdout = values.wait && out === null;
    // The id is the answer on stdout, unless stdout carries the results; then it goes to stderr.
    if (resultsToStdout) io.stderr.write(`batch ${batch.id}\n`);
    else await io.stdout.write(`${batch.id}\n`);
    if (rejected.size > 0) {
      const first = [...rejected.values()].sort((a, b) => a.index - b.index).slice(0, 5);
      io.stderr.write(
        `${rejected.size} of ${inputs.length} refused up front: ${first
          .map((r) => `line ${inputs[r.index]?.line ?? '?'} ${r.code}`)
          .join(', ')}${rejected.size > first.length ? ', …' : ''}\n`,
      );
    }
    if (!values.wait) return 0;

    batch = await waitFor(io, batch);
    const ok = await writeItems(io, batch.id, out ?? io.stdout, { rejected, inputs });
    return ok ? 0 : 1;
  } finally {
    await out?.close();
  }
}

/** Reads the batch until it is completed or cancelled, drawing its progress. */
async function waitFor(io: BatchIo, first: ApiBatch): Promise<ApiBatch> {
  const display = new ProgressDisplay(io.stderr);
  const startedAt = io.clock.now();
  const eta = new EtaEstimator(first.estimate?.eta_s ?? null, startedAt);
  let batch = first;
  try {
    for (;;) {
      const finished = batch.status === 'completed' || batch.status === 'cancelled';
      const now = io.clock.now();
      display.show(batch, eta.estimate(now, doneOf(batch), batch.counts.total), now, finished);
      if (finished) return batch;
      await io.clock.sleep(io.pollMs ?? 2000);
      batch = (await io.client.request<{ batch: ApiBatch }>('GET', batchPath(batch.id))).body.batch;
    }
  } finally {
    display.close();
  }
}

export async function batchCommand(argv: string[], io: BatchIo): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'submit') return submit(rest, io);
  if (action === 'items') {
    const { values, positionals } = parse(rest, { state: { type: 'string' }, out: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('kumo batch items BATCH_ID [--state STATE] [--out FILE]');
    if (values.state !== undefined && !(itemStates as readonly string[]).includes(values.state))
      throw new UsageError(`--state must be one of ${itemStates.join(', ')}`);
    const out = values.out !== undefined ? await io.openOut(values.out) : null;
    try {
      await writeItems(io, positionals[0]!, out ?? io.stdout, values.state ? { state: values.state } : {});
    } finally {
      await out?.close();
    }
    return 0;
  }
  if (action === 'status' || action === 'cancel') {
    const { positionals } = parse(rest, {}, true);
    if (positionals.length !== 1) throw new UsageError(`kumo batch ${action} BATCH_ID`);
    const answer = await io.client.request<{ batch: ApiBatch; cancelled?: number }>(
      action === 'status' ? 'GET' : 'DELETE',
      batchPath(positionals[0]!),
    );
    const { batch, cancelled } = answer.body;
    await io.stdout.write(`${JSON.stringify(action === 'cancel' ? { cancelled, batch } : batch, null, 2)}\n`);
    return 0;
  }
  throw new UsageError(commandHelpText(batchHelp));
}
