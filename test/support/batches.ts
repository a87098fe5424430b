// What the batch end-to-end tests share: the batch and webhook-endpoint API as a client calls it (DESIGN §8), item
// pages on five real hostnames, and reads of the ledger and the stored tables that the checks of exactly-once need.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { repoRoot, testKey, type ApiAnswer } from './kumo-process.js';
import type { Origin } from './origin.js';
import { itemPage } from './pages.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** A JSON request with a key: the batch and endpoint routes. */
export async function api(
  baseUrl: string,
  method: string,
  pathname: string,
  body?: unknown,
  key: string | null = testKey,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answer(response);
}

/** POST /v1/webhook-endpoints; returns the endpoint (with its one-time secret). Throws unless 201. */
export async function createEndpoint(
  baseUrl: string,
  key: string,
  body: { url: string; events?: string[] },
): Promise<{ id: string; url: string; events: string[]; secret: string }> {
  const res = await api(baseUrl, 'POST', '/v1/webhook-endpoints', body, key);
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.endpoint as { id: string; url: string; events: string[]; secret: string };
}

export interface BatchItemInput {
  url: string;
  ref?: string;
  params?: Record<string, unknown>;
}

/** POST /v1/batches (202 expected; the answer is returned as is for the caller to check). */
export function submitBatch(
  baseUrl: string,
  key: string,
  body: Record<string, unknown> & { items: BatchItemInput[] },
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  return api(baseUrl, 'POST', '/v1/batches', body, key, headers);
}

/** A batch of more than 1,000 items: the first 1,000 unsealed, then appends of 1,000, the last one sealing. */
export async function submitLargeBatch(
  baseUrl: string,
  key: string,
  items: BatchItemInput[],
  rest: Record<string, unknown> = {},
): Promise<any> {
  const chunks: BatchItemInput[][] = [];
  for (let i = 0; i < items.length; i += 1000) chunks.push(items.slice(i, i + 1000));
  const first = await submitBatch(baseUrl, key, { ...rest, items: chunks[0]!, seal: chunks.length === 1 });
  if (first.status !== 202) throw new Error(`batch not accepted: ${first.status} ${JSON.stringify(first.body)}`);
  const id = first.body.batch.id as string;
  for (let c = 1; c < chunks.length; c++) {
    const more = await api(
      baseUrl,
      'POST',
      `/v1/batches/${id}/items`,
      { items: chunks[c], seal: c === chunks.length - 1 },
      key,
    );
    if (more.status !== 202) throw new Error(`append not accepted: ${more.status} ${JSON.stringify(more.body)}`);
  }
  return (await api(baseUrl, 'GET', `/v1/batches/${id}`, undefined, key)).body.batch;
}

export async function getBatch(baseUrl: string, key: string, id: string): Promise<any> {
  const res = await api(baseUrl, 'GET', `/v1/batches/${id}`, undefined, key);
  if (res.status !== 200) throw new Error(`GET batch: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.batch;
}

/** Polls GET /v1/batches/{id} until `ok` holds (answers other than 200, e.g. 503 in an outage, are retried). */
export async function waitForBatch(
  baseUrl: string | (() => string),
  key: string,
  id: string,
  what: string,
  ok: (batch: any) => boolean,
  ms = 60_000,
): Promise<any> {
  const deadline = Date.now() + ms;
  let last: ApiAnswer | null = null;
  for (;;) {
    const base = typeof baseUrl === 'function' ? baseUrl() : baseUrl;
    try {
      last = await api(base, 'GET', `/v1/batches/${id}`, undefined, key);
      if (last.status === 200 && ok(last.body.batch)) return last.body.batch;
    } catch {
      // An instance being restarted: ask again.
    }
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last?.body)} after ${ms} ms`);
    await sleep(200);
  }
}

/** An item as GET /v1/batches/{id}/items shows it (DESIGN §8). */
export interface ItemView {
  id: string;
  index: number;
  ref: string | null;
  url: string;
  state: string;
  attempts: number;
  request_id: string | null;
  cost_units: number;
  result?: any;
  error?: { code: string; status: number; retryable: boolean };
}

/** Every item of a batch through GET …/items, page by page (each page may hand results over: it charges). */
export async function allItems(baseUrl: string, key: string, id: string, query = ''): Promise<ItemView[]> {
  const items: ItemView[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(query);
    q.set('limit', '100');
    if (cursor) q.set('cursor', cursor);
    const res = await api(baseUrl, 'GET', `/v1/batches/${id}/items?${q.toString()}`, undefined, key);
    if (res.status !== 200) throw new Error(`GET items: ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    cursor = res.body.next_cursor ?? null;
  } while (cursor);
  return items;
}

/** Counts in a terminal-or-ready state: nothing left queued or running. */
export const settled = (batch: any) => batch.counts.queued === 0 && batch.counts.running === 0;
/** Every item in a state it never leaves. */
export const allTerminal = (batch: any) =>
  batch.counts.queued + batch.counts.running + batch.counts.ready === 0 &&
  ['completed', 'cancelled'].includes(batch.status);

// ---------------------------------------------------------------------------------------------------------------
// Pages under five real hostnames (KUMO_CONNECT_TO sends each host to a local origin).

export interface BatchSite {
  host: string;
  /** The page URL of item `i` (distinct per i, matching the site's item page type). */
  url(i: number): string;
  path(i: number): string;
  contentType: string;
  body: Buffer;
}

function fixture(site: string, name: string): { body: Buffer; contentType: string } {
  const dir = path.join(repoRoot, 'src/sites', site, 'fixtures');
  const meta = JSON.parse(readFileSync(path.join(dir, `${name}.meta.json`), 'utf8')) as {
    page: string;
    contentType: string;
  };
  return { body: readFileSync(path.join(dir, meta.page)), contentType: meta.contentType };
}

const html = 'text/html; charset=utf-8';

/** ikebe-gakki items from pages.ts's generator (a marker and a title of the test's choosing). */
export function ikebeSite(options: { marker?: string; title?: string } = {}): BatchSite {
  const p = (i: number) => `/c/c-/kb/kb01/kb011427/${800000 + i}`;
  return {
    host: 'www.ikebe-gakki.com',
    path: p,
    url: (i) => `https://www.ikebe-gakki.com${p(i)}`,
    contentType: html,
    body: Buffer.from(itemPage(options), 'utf8'),
  };
}

/** Five hosts of the catalogue, each serving one of its in-project (modelled) item pages for every item URL. */
export function fiveSites(): BatchSite[] {
  const yodobashi = fixture('yodobashi', 'modelled-backorder-sale-no-meta');
  const biccamera = fixture('biccamera', 'modelled-json-ld-disagrees-variants');
  const surugaya = fixture('surugaya', 'modelled-item-new-and-used');
  const rakuten = fixture('rakuten-ichiba', 'modelled-coupon-after');
  const yp = (i: number) => `/product/${String(200000000100000000 + i)}/`;
  const bp = (i: number) => `/bc/item/${String(11000000 + i)}/`;
  const sp = (i: number) => `/product/detail/KB${String(100000 + i)}`;
  const rp = (i: number) => `/kumo-zakka/kb-${i}/`;
  return [
    ikebeSite(),
    { host: 'www.yodobashi.com', path: yp, url: (i) => `https://www.yodobashi.com${yp(i)}`, ...yodobashi },
    { host: 'www.biccamera.com', path: bp, url: (i) => `https://www.biccamera.com${bp(i)}`, ...biccamera },
    { host: 'www.suruga-ya.jp', path: sp, url: (i) => `https://www.suruga-ya.jp${sp(i)}`, ...surugaya },
    { host: 'item.rakuten.co.jp', path: rp, url: (i) => `https://item.rakuten.co.jp${rp(i)}`, ...rakuten },
  ];
}

/** Serves items `from`…`to - 1` of a site on an origin (each a route of its own). */
export function serveItems(origin: Origin, site: BatchSite, from: number, to: number): void {
  for (let i = from; i < to; i++)
    origin.route('GET', site.path(i), { status: 200, headers: { 'content-type': site.contentType }, body: site.body });
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the stored tables directly: the ledger is the truth of what was charged.

/** Read-only SQL against the test's database (a SQLite file or a PostgreSQL URL). */
export interface Tables {
  rows<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** `$1`-style placeholders in both: SQLite's are rewritten to `?`. */
export function sqliteTables(file: string): Tables {
  return {
    async rows<T>(text: string, params: unknown[] = []) {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        db.exec('PRAGMA busy_timeout = 5000');
        return db.prepare(text.replace(/\$\d+/g, '?')).all(...(params as never[])) as T[];
      } finally {
        db.close();
      }
    },
    close: async () => {},
  };
}

export async function postgresTables(url: string): Promise<Tables> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async rows<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}

export interface ChargeAudit {
  /** Ledger rows of the account (each one charge). */
  ledgerRows: number;
  ledgerSum: number;
  /** Ledger rows whose request id is no delivered item's current request id. */
  strayLedgerRows: number;
  /** Delivered items with no ledger row, and with more than one (impossible by the unique request id, checked anyway). */
  deliveredUncharged: number;
  /** Holds and reservations still open for the account. */
  openReservations: number;
  delivered: number;
  deliveredCost: number;
}

/** What the ledger says of one account's batch items: the exactly-once checks. */
export async function auditCharges(tables: Tables, accountId: string): Promise<ChargeAudit> {
  const [ledger] = await tables.rows<{ n: number | string; s: number | string | null }>(
    'SELECT count(*) AS n, sum(credits) AS s FROM credit_ledger WHERE account_id = $1',
    [accountId],
  );
  const [stray] = await tables.rows<{ n: number | string }>(
    `SELECT count(*) AS n FROM credit_ledger l WHERE l.account_id = $1 AND NOT EXISTS
       (SELECT 1 FROM batch_items i WHERE i.request_id = l.request_id AND i.state = 'delivered')`,
    [accountId],
  );
  const [delivered] = await tables.rows<{ n: number | string; c: number | string | null }>(
    `SELECT count(*) AS n, sum(cost_units) AS c FROM batch_items WHERE account_id = $1 AND state = 'delivered'`,
    [accountId],
  );
  const [uncharged] = await tables.rows<{ n: number | string }>(
    `SELECT count(*) AS n FROM batch_items i WHERE i.account_id = $1 AND i.state = 'delivered' AND
       (SELECT count(*) FROM credit_ledger l WHERE l.request_id = i.request_id) <> 1`,
    [accountId],
  );
  const [open] = await tables.rows<{ n: number | string }>(
    `SELECT count(*) AS n FROM credit_reservations WHERE account_id = $1 AND state = 'reserved'`,
    [accountId],
  );
  return {
    ledgerRows: Number(ledger!.n),
    ledgerSum: Number(ledger!.s ?? 0),
    strayLedgerRows: Number(stray!.n),
    deliveredUncharged: Number(uncharged!.n),
    openReservations: Number(open!.n),
    delivered: Number(delivered!.n),
    deliveredCost: Number(delivered!.c ?? 0),
  };
}

/** The account a key belongs to, as /v1/usage says. */
export async function accountOf(baseUrl: string, key: string): Promise<string> {
  const res = await api(baseUrl, 'GET', '/v1/usage', undefined, key);
  if (res.status !== 200) throw new Error(`usage: ${res.status}`);
  return res.body.account_id as string;
}
