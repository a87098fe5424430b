// `kumo batch` against a local HTTP stand-in of the batch API's documented shape (DESIGN §8, docs/batches.md): chunked
// submission with seal/append, the Idempotency-Key that makes a re-run resume instead of duplicating, Retry-After
// waits on the clock, progress on stderr, JSON Lines results and the exit code. The real server's routes are tested
// end to end in test/e2e/batches-cli.e2e.test.ts once they exist (see the note there).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../time/clock.js';
import { BatchApiClient } from './batch-client.js';
import { batchCommand, submissionKey, type BatchIo, type Sink } from './batch-command.js';
import { UsageError } from './args.js';

interface StubItem {
  id: string;
  index: number;
  url: string;
  ref: string | null;
  state: string;
}

interface StubBatch {
  id: string;
  sealed: boolean;
  items: StubItem[];
  rejected: { index: number; url: string; code: string }[];
  body: unknown;
  cancelled: boolean;
}

const key = 'kumo_test_cli_key';

/** The batch API as documented, in memory. Each GET of a batch runs up to `perPoll` queued items. */
class StubApi {
  server: Server;
  batches = new Map<string, StubBatch>();
  byKey = new Map<string, string>();
  log: { method: string; path: string; seal?: boolean; items?: number; key?: string }[] = [];
  /** Answers to give before the real one, by "METHOD path-prefix": a status (with Retry-After) or a dropped socket. */
  faults: { match: string; status: number | 'drop'; retryAfter?: string; skip?: number }[] = [];
  perPoll = 400;
  /** Which URLs fail when run (the rest become ready, or not_found for /missing). */
  fails = (url: string) => url.includes('/broken');

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  view(batch: StubBatch, rejected = batch.rejected) {
    const counts: Record<string, number> = { total: batch.items.length };
    for (const state of [
      'queued',
      'running',
      'ready',
      'delivered',
      'failed',
      'not_found',
      'skipped',
      'cancelled',
      'expired',
    ])
      counts[state] = batch.items.filter((i) => i.state === state).length;
    const busy = counts.queued! + counts.running! > 0;
    return {
      id: batch.id,
      status: batch.cancelled
        ? 'cancelled'
        : !batch.sealed || busy
          ? counts.queued === counts.total
            ? 'queued'
            : 'running'
          : 'completed',
      sealed: batch.sealed,
      counts,
      credits: { charged: counts.delivered, held: counts.ready, max: null },
      estimate: { cost_units_max: counts.total, eta_s: 60 },
      rejected,
    };
  }

  add(batch: StubBatch, items: { url: string; ref?: string }[]): StubBatch['rejected'] {
    const rejected: StubBatch['rejected'] = [];
    for (const item of items) {
      const index = batch.items.length + batch.rejected.length + rejected.length;
      if (!item.url.startsWith('https://')) rejected.push({ index, url: item.url, code: 'invalid_url' });
      else batch.items.push({ id: `itm_${index}`, index, url: item.url, ref: item.ref ?? null, state: 'queued' });
    }
    batch.rejected.push(...rejected);
    return rejected;
  }

  async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const url = new URL(req.url!, 'http://x');
    const entry = {
      method: req.method!,
      path: url.pathname,
      ...(body?.seal !== undefined ? { seal: body.seal as boolean } : {}),
      ...(body?.items ? { items: (body.items as unknown[]).length } : {}),
      ...(req.headers['idempotency-key'] ? { key: String(req.headers['idempotency-key']) } : {}),
    };
    const fault = this.faults.findIndex((f) => {
      if (!`${req.method} ${url.pathname}`.startsWith(f.match)) return false;
      // `skip`: let that many matching requests through first.
      if ((f.skip ?? 0) > 0) {
        f.skip! -= 1;
        return false;
      }
      return true;
    });
    if (fault !== -1) {
      const [f] = this.faults.splice(fault, 1);
      this.log.push({ ...entry, method: `${entry.method} (${f!.status})` });
      if (f!.status === 'drop') return req.socket.destroy();
      res.writeHead(f!.status, {
        'content-type': 'application/problem+json',
        ...(f!.retryAfter ? { 'retry-after': f!.retryAfter } : {}),
      });
      return res.end(JSON.stringify({ code: 'unavailable', detail: 'busy', request_id: 'req_x' }));
    }
    this.log.push(entry);
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const problem = (status: number, code: string) =>
      send(status, { code, detail: code, request_id: 'req_x', status, title: code });
    if (req.headers.authorization !== `Bearer ${key}`) return problem(401, 'unauthorized');
    const parts = url.pathname.split('/').filter(Boolean); // v1 batches id items
    const batch = parts[2] ? this.batches.get(parts[2]) : undefined;
    if (req.method === 'POST' && parts.length === 2) {
      if (body.items.length < 1 || body.items.length > 1000) return problem(400, 'invalid_request');
      const idem = req.headers['idempotency-key'] as string | undefined;
      const known = idem ? this.byKey.get(idem) : undefined;
      if (known) {
        const prior = this.batches.get(known)!;
        if (JSON.stringify(prior.body) !== JSON.stringify(body)) return problem(409, 'idempotency_conflict');
        return send(202, { request_id: 'req_r', batch: this.view(prior) });
      }
      const created: StubBatch = {
        id: `bat_${this.batches.size + 1}`,
        sealed: body.seal !== false,
        items: [],
        rejected: [],
        body,
        cancelled: false,
      };
      this.batches.set(created.id, created);
      if (idem) this.byKey.set(idem, created.id);
      const rejected = this.add(created, body.items);
      return send(202, { request_id: 'req_c', batch: this.view(created, rejected) });
    }
    if (!batch) return problem(404, 'not_found');
    if (req.method === 'POST' && parts[3] === 'items') {
      if (batch.sealed) return problem(409, 'batch_sealed');
      const rejected = this.add(batch, body.items);
      batch.sealed = body.seal !== false;
      return send(202, { request_id: 'req_a', batch: this.view(batch, rejected) });
    }
    if (req.method === 'GET' && parts.length === 3) {
      if (batch.sealed) {
        let budget = this.perPoll;
        for (const item of batch.items) {
          if (budget === 0) break;
          if (item.state !== 'queued') continue;
          item.state = this.fails(item.url) ? 'failed' : item.url.includes('/missing') ? 'not_found' : 'ready';
          budget -= 1;
        }
      }
      return send(200, { request_id: 'req_g', batch: this.view(batch) });
    }
    if (req.method === 'GET' && parts[3] === 'items') {
      const after = url.searchParams.has('cursor') ? Number(url.searchParams.get('cursor')) : -1;
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const state = url.searchParams.get('state');
      const page = batch.items.filter((i) => i.index > after && (!state || i.state === state)).slice(0, limit);
      const items = page.map((item) => {
        // Handover on GET: a ready result is delivered (charged) as this page is written.
        if (item.state === 'ready') item.state = 'delivered';
        return {
          ...item,
          attempts: 1,
          request_id: `req_${item.index}`,
          cost_units: item.state === 'delivered' ? 1 : 0,
          ...(item.state === 'delivered' ? { result: { data: { title: `t${item.index}` } } } : {}),
          ...(item.state === 'failed' ? { error: { code: 'fetch_failed', status: 502, retryable: true } } : {}),
        };
      });
      const more = batch.items.some((i) => i.index > (page.at(-1)?.index ?? Infinity) && (!state || i.state === state));
      return send(200, { request_id: 'req_i', items, next_cursor: more ? String(page.at(-1)!.index) : null });
    }
    if (req.method === 'DELETE') {
      for (const item of batch.items) if (item.state === 'queued') item.state = 'cancelled';
      batch.cancelled = true;
      const cancelled = batch.items.filter((i) => i.state === 'cancelled').length;
      return send(200, { request_id: 'req_d', batch: this.view(batch), cancelled });
    }
    return problem(405, 'method_not_allowed');
  }
}

function memorySink(): Sink & { text: string } {
  const sink = {
    text: '',
    write: async (t: string) => void (sink.text += t),
    close: async () => {},
  };
  return sink;
}

let api: StubApi;
let baseUrl: string;
let clock: ManualClock;

beforeEach(async () => {
  api = new StubApi();
  baseUrl = await api.listen();
  clock = new ManualClock();
});
afterEach(async () => {
  await api.close();
});

function io(files: Record<string, string>, tty = false) {
  const stdout = memorySink();
  const outFiles = new Map<string, Sink & { text: string }>();
  const stderr = { text: '', isTTY: tty, columns: 200, write: (t: string) => (stderr.text += t) };
  const value: BatchIo = {
    client: new BatchApiClient({ baseUrl, apiKey: key, clock }),
    clock,
    stdout,
    stderr,
    readFile: async (path) => {
      if (!(path in files)) throw new Error('ENOENT');
      return new TextEncoder().encode(files[path]);
    },
    openOut: async (path) => {
      const sink = memorySink();
      outFiles.set(path, sink);
      return sink;
    },
  };
  return { io: value, stdout, stderr, outFiles };
}

/** Runs a command, moving the manual clock whenever it waits (polls, Retry-After), until it ends. */
async function drive<T>(work: Promise<T>): Promise<T> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    if (clock.pending > 0) await clock.advance(60_000);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  return work;
}

const urls = (n: number, path = (i: number) => `https://shop.example/item/${i}`) =>
  Array.from({ length: n }, (_, i) => path(i)).join('\n');

describe('kumo batch submit', () => {
  it('submits 2,500 URLs as one batch in requests of ≤ 1,000 (seal on the last), then waits and writes every item', async () => {
    const file = `# nightly\n${urls(2500, (i) => (i === 7 ? 'ftp://bad.example/' : i % 500 === 3 ? `https://shop.example/broken/${i}` : `https://shop.example/item/${i}`))}\n`;
    const { io: ctx, stdout, stderr, outFiles } = io({ 'urls.txt': file });
    const code = await drive(batchCommand(['submit', 'urls.txt', '--wait', '--out', 'r.jsonl'], ctx));

    const posts = api.log.filter((e) => e.method === 'POST');
    expect(posts.map((p) => [p.path, p.items, p.seal])).toEqual([
      ['/v1/batches', 1000, false],
      ['/v1/batches/bat_1/items', 1000, false],
      ['/v1/batches/bat_1/items', 500, true],
    ]);
    expect(posts[0]!.key).toBe(submissionKey(new TextEncoder().encode(file), {}));
    expect(stdout.text).toBe('bat_1\n');
    expect(stderr.text).toContain('1 of 2500 refused up front: line 9 invalid_url');
    // Plain progress lines (stderr is not a terminal), ending with the completed batch.
    const lines = stderr.text.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^\[#+\] 100% 2499\/2499 · .*failed 5 · completed$/);
    expect(lines.some((l) => l.includes('ETA'))).toBe(true);

    const results = outFiles
      .get('r.jsonl')!
      .text.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(results).toHaveLength(2500);
    expect(results.map((r) => r.index)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(results[7]).toEqual({
      id: null,
      index: 7,
      ref: null,
      url: 'ftp://bad.example/',
      state: 'rejected',
      request_id: null,
      cost_units: 0,
      error: { code: 'invalid_url' },
    });
    expect(results[3]).toMatchObject({ state: 'failed', cost_units: 0, error: { code: 'fetch_failed' } });
    expect(results[0]).toMatchObject({
      id: 'itm_0',
      state: 'delivered',
      cost_units: 1,
      result: { data: { title: 't0' } },
    });
    // Failures and a rejection: exit status 1.
    expect(code).toBe(1);
  });

  it('exits 0 when every item is delivered or not_found, and writes results to stdout (the id to stderr)', async () => {
    const {
      io: ctx,
      stdout,
      stderr,
    } = io({
      'items.csv': 'url,ref\nhttps://shop.example/a,A-1\n"https://shop.example/missing/b",B-2\n',
    });
    const code = await drive(batchCommand(['submit', 'items.csv', '--wait'], ctx));
    expect(code).toBe(0);
    expect(stderr.text.startsWith('batch bat_1\n')).toBe(true);
    const results = stdout.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(results.map((r) => [r.ref, r.state])).toEqual([
      ['A-1', 'delivered'],
      ['B-2', 'not_found'],
    ]);
    expect(api.log.filter((e) => e.method === 'POST').map((p) => p.seal)).toEqual([true]);
  });

  it('a re-run of the same submission gets the same batch (Idempotency-Key), and resumes an interrupted one', async () => {
    const file = urls(2100);
    // The second append is answered 503 (Retry-After 30), then its repeat loses its connection: the first two
    // requests landed (2,000 items), and the command fails.
    api.faults.push({ match: 'POST /v1/batches/bat_1/items', status: 503, retryAfter: '30', skip: 1 });
    api.faults.push({ match: 'POST /v1/batches/bat_1/items', status: 'drop', skip: 1 });
    const first = io({ 'u.txt': file });
    let failed = 0;
    // The 503 is waited out on the clock and repeated; then the drop ends the run.
    await drive(batchCommand(['submit', 'u.txt'], first.io)).catch(() => (failed += 1));
    expect(failed).toBe(1);
    expect(api.log.map((e) => e.method)).toEqual(['POST', 'POST', 'POST (503)', 'POST (drop)']);
    expect(api.batches.get('bat_1')!.items).toHaveLength(2000);

    const second = io({ 'u.txt': file });
    expect(await drive(batchCommand(['submit', 'u.txt'], second.io))).toBe(0);
    expect(second.stdout.text).toBe('bat_1\n');
    expect(api.batches.size).toBe(1);
    const batch = api.batches.get('bat_1')!;
    expect(batch.items.map((i) => i.index)).toEqual(Array.from({ length: 2100 }, (_, i) => i));
    expect(batch.sealed).toBe(true);

    // Once sealed, a third run changes nothing: the key brings the batch back and nothing is appended.
    const before = api.log.length;
    const third = io({ 'u.txt': file });
    expect(await drive(batchCommand(['submit', 'u.txt'], third.io))).toBe(0);
    expect(api.log.slice(before).map((e) => e.path)).toEqual(['/v1/batches']);
    expect(third.stdout.text).toBe('bat_1\n');

    // The same file with another option is another batch (another key), never an idempotency conflict.
    const fourth = io({ 'u.txt': urls(3) });
    await drive(
      batchCommand(
        ['submit', 'u.txt', '--max-credits', '5', '--retain-hours', '48', '--webhook', 'whe_abc'],
        fourth.io,
      ),
    );
    expect(api.batches.get('bat_2')!.body).toMatchObject({
      max_credits: 5,
      results: { retain_hours: 48 },
      webhook: { endpoint_id: 'whe_abc' },
      seal: true,
    });
  });

  it('draws the bar in place on a terminal', async () => {
    api.perPoll = 1;
    const { io: ctx, stderr } = io({ 'u.txt': urls(3) }, true);
    await drive(batchCommand(['submit', 'u.txt', '--wait', '--out', 'o.jsonl'], ctx));
    const draws = stderr.text.split('\r\x1b[2K').slice(1);
    expect(draws.length).toBeGreaterThanOrEqual(4);
    expect(draws[0]).toMatch(/^\[░+\] {3}0% 0\/3 · queued 3 · ETA 1m00s$/);
    expect(draws.at(-1)).toBe('[████████████████████████] 100% 3/3 · ready 3 · completed\n');
  });

  it('refuses bad command lines before anything is sent', async () => {
    const { io: ctx } = io({ 'u.txt': urls(2), 'refs.csv': 'url,ref\nhttps://a.example/,ヨドバシ\tKX-1\n' });
    for (const args of [
      ['submit'],
      ['submit', 'u.txt', '--out', 'x.jsonl'],
      ['submit', 'u.txt', '--retain-hours', '73'],
      ['submit', 'u.txt', '--webhook', 'https://x'],
      ['submit', 'missing.txt'],
      ['submit', 'refs.csv'],
      ['items', 'bat_1', '--state', 'done'],
      ['frobnicate'],
    ])
      await expect(drive(batchCommand(args, ctx))).rejects.toThrow(UsageError);
    expect(api.log).toEqual([]);
  });
});

describe('kumo batch status, items, cancel', () => {
  it('prints the batch, pages items by state, and cancels', async () => {
    const { io: ctx } = io({
      'u.txt': urls(250, (i) => (i < 5 ? `https://s.example/broken/${i}` : `https://s.example/${i}`)),
    });
    await drive(batchCommand(['submit', 'u.txt'], ctx));
    const status = io({});
    await drive(batchCommand(['status', 'bat_1'], status.io));
    expect(JSON.parse(status.stdout.text)).toMatchObject({
      id: 'bat_1',
      counts: { total: 250, failed: 5, ready: 245 },
    });

    const failed = io({});
    expect(await drive(batchCommand(['items', 'bat_1', '--state', 'failed'], failed.io))).toBe(0);
    expect(
      failed.stdout.text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { index: number }).index),
    ).toEqual([0, 1, 2, 3, 4]);

    const all = io({});
    await drive(batchCommand(['items', 'bat_1', '--out', 'all.jsonl'], all.io));
    expect(all.outFiles.get('all.jsonl')!.text.trim().split('\n')).toHaveLength(250);
    // The API's default page (100): three pages.
    expect(api.log.filter((e) => e.path.endsWith('/items') && e.method === 'GET').length).toBe(1 + 3);

    const cancel = io({});
    await drive(batchCommand(['cancel', 'bat_1'], cancel.io));
    expect(JSON.parse(cancel.stdout.text)).toMatchObject({ cancelled: 0, batch: { id: 'bat_1', status: 'cancelled' } });
    expect(api.log.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/batches/bat_1' });

    const missing = io({});
    await expect(drive(batchCommand(['status', 'bat_nope'], missing.io))).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'not_found',
    });
  });
});
