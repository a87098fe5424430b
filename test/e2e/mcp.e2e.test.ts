// MCP end to end: the SDK's own Client against a started server over real HTTP (both protocol eras) and against
// `kumo mcp` over stdio, with a local origin playing the shop; auth, scopes, charges and the output cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import {
  startKumo,
  call,
  kumoCli,
  repoRoot,
  runKumo,
  scrape,
  testKey,
  type KumoProcess,
} from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';

const itemUrl = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750001';
const allowedOrigin = 'https://agent.example.com';
const slowPath = '/c/c-/kb/kb01/kb011427/750002';
const toolNames = [
  'create_monitor',
  'get_batch',
  'get_usage',
  'list_monitors',
  'list_sites',
  'scrape',
  'start_batch',
] as const;

let origin: Origin;
let kumo: KumoProcess;
const clients: Client[] = [];

async function connect(
  key: string,
  mode: 'legacy' | { pin: string } = 'legacy',
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'kumo-e2e', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(`${kumo.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A fresh account (free plan) and its key: its ledger starts at 0. */
async function freshKey(extra: string[] = []): Promise<string> {
  const created = await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'free', ...extra, '--json']);
  return created.key as string;
}

const postMcp = (init: {
  headers?: Record<string, string>;
  body?: unknown;
  query?: string;
  method?: string;
  signal?: AbortSignal;
}) =>
  fetch(`${kumo.baseUrl}/mcp${init.query ?? ''}`, {
    method: init.method ?? 'POST',
    ...(init.signal ? { signal: init.signal } : {}),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...init.headers,
    },
    ...(init.method === 'GET' ? {} : { body: JSON.stringify(init.body ?? listToolsRequest) }),
  });

const listToolsRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', '/c/c-/kb/kb01/kb011427/750001', {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage(),
  });
  // A page that answers late, so that a client can leave while the scrape behind its tool call runs.
  origin.route('GET', slowPath, (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(itemPage());
    }, 1_500);
  });
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
    KUMO_MCP_ALLOWED_ORIGINS: allowedOrigin,
  });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
});

describe('POST /mcp through the SDK client', () => {
  it('lists every tool with typed input and output schemas and truthful annotations', async () => {
    const client = await connect(testKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.outputSchema?.properties).toHaveProperty('truncated');
      expect(tool.description!.length).toBeGreaterThan(80);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.scrape!.inputSchema.required).toEqual(['url']);
    expect(Object.keys(byName.scrape!.inputSchema.properties!).sort()).toEqual([
      'idempotency_key',
      'include_html',
      'max_age_s',
      'render_js',
      'url',
    ]);
    expect(byName.scrape!.description).toMatch(/楽天/);
    expect(byName.scrape!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.start_batch!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.create_monitor!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('scrapes a local-origin item page: integer yen and cost_units, as structured content and as text', async () => {
    const client = await connect(testKey);
    const result = await client.callTool({ name: 'scrape', arguments: { url: itemUrl, max_age_s: 0 } });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body.request_id).toMatch(/^req_/);
    expect(body.resolved_site).toBe('ikebe_gakki');
    expect(body.page_type).toBe('item');
    expect(body.data.price).toBe(2200);
    expect(Number.isInteger(body.data.price)).toBe(true);
    expect(body.cost_units).toBe(1);
    expect(body.cache.state).toBe('bypass');
    expect(body.truncated).toBeUndefined();
    const text = (result.content as Array<{ type: string; text: string }>)[0]!;
    expect(JSON.parse(text.text)).toEqual(body);
    // The REST call behind it is in the request log like any other call of this key.
    const row = await call(kumo.baseUrl, `/v1/requests/${body.request_id}`);
    expect(row.status).toBe(200);
    expect(row.body).toMatchObject({ cost_units: 1, site: 'ikebe_gakki', status: 'completed' });
  });

  it('answers an unsupported site as a tool error with the catalogue code and a request id', async () => {
    const client = await connect(testKey);
    const result = await client.callTool({ name: 'scrape', arguments: { url: 'https://shop.example.net/item/1' } });
    expect(result.isError).toBe(true);
    const error = result.structuredContent as any;
    expect(error).toMatchObject({ code: 'site_not_supported', status: 422 });
    expect(error.detail).toMatch(/shop\.example\.net/);
    expect(error.request_id).toMatch(/^req_/);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(error);
  });

  it('refuses a key narrowed to another site with key_scope_denied', async () => {
    const narrowed = await freshKey(['--sites', 'yodobashi']);
    const client = await connect(narrowed);
    const result = await client.callTool({ name: 'scrape', arguments: { url: itemUrl } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'key_scope_denied', status: 403 });
    expect((result.structuredContent as any).request_id).toMatch(/^req_/);
  });

  it('charges exactly what the API charges: the ledger equals the sum of cost_units, failures cost 0', async () => {
    const key = await freshKey();
    const client = await connect(key);
    const costs: number[] = [];
    for (const url of [itemUrl, 'https://shop.example.net/item/2', itemUrl]) {
      const result = await client.callTool({ name: 'scrape', arguments: { url } });
      const body = result.structuredContent as any;
      costs.push(result.isError ? 0 : body.cost_units);
      if (result.isError) expect(body.code).toBe('site_not_supported');
    }
    expect(costs).toEqual([1, 0, 1]);
    const rest = await scrape(kumo.baseUrl, { url: itemUrl }, key);
    expect(rest.status).toBe(200);
    expect(rest.body.cost_units).toBe(costs[0]);

    const usage = await call(kumo.baseUrl, '/v1/usage', key);
    expect(usage.body.credits.used).toBe(costs.reduce((a, b) => a + b, 0) + rest.body.cost_units);
    // get_usage is the same answer as GET /v1/usage, and costs nothing itself.
    const viaTool = await client.callTool({ name: 'get_usage', arguments: {} });
    expect((viaTool.structuredContent as any).credits).toEqual(usage.body.credits);
  });

  it('charges a retried scrape with the same idempotency_key once, and answers it with the first result', async () => {
    const key = await freshKey();
    const client = await connect(key);
    const args = { url: itemUrl, idempotency_key: 'agent-retry-1' };
    const first = (await client.callTool({ name: 'scrape', arguments: args })).structuredContent as any;
    const again = (await client.callTool({ name: 'scrape', arguments: args })).structuredContent as any;
    expect(first.cost_units).toBe(1);
    expect(again.data).toEqual(first.data);
    const usage = await call(kumo.baseUrl, '/v1/usage', key);
    expect(usage.body.credits.used).toBe(1);
  });

  it('answers a repeated scrape with max_age_s from the cache: cost 0, no request to the shop, never across accounts', async () => {
    const cachedPath = '/c/c-/kb/kb01/kb011427/750003';
    origin.route('GET', cachedPath, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: itemPage(),
    });
    const url = `https://www.ikebe-gakki.com${cachedPath}`;
    const key = await freshKey();
    const client = await connect(key);
    const first = (await client.callTool({ name: 'scrape', arguments: { url, max_age_s: 600 } }))
      .structuredContent as any;
    expect(first).toMatchObject({ cost_units: 1, cache: { state: 'miss', age_s: 0 } });
    const hitsAfterMiss = origin.hits(cachedPath);
    const again = (await client.callTool({ name: 'scrape', arguments: { url, max_age_s: 600 } }))
      .structuredContent as any;
    expect(again).toMatchObject({ cost_units: 0, cache: { state: 'hit', fetched_at: first.cache.fetched_at } });
    expect(again.data).toEqual(first.data);
    expect(again.request_id).not.toBe(first.request_id);
    expect(origin.hits(cachedPath)).toBe(hitsAfterMiss);
    expect((await call(kumo.baseUrl, '/v1/usage', key)).body.credits.used).toBe(1);

    // Another account asking the same page with the same max_age_s fetches it and pays for it.
    const other = await connect(await freshKey());
    const theirs = (await other.callTool({ name: 'scrape', arguments: { url, max_age_s: 600 } }))
      .structuredContent as any;
    expect(theirs).toMatchObject({ cost_units: 1, cache: { state: 'miss' } });
    expect(origin.hits(cachedPath)).toBe(hitsAfterMiss + 1);
  });

  it('filters list_sites by kind and page type, and caps the unfiltered list with a truncated note', async () => {
    const client = await connect(testKey);
    const filtered = await client.callTool({
      name: 'list_sites',
      arguments: { kind: 'public', page_type: 'forecast' },
    });
    const sites = (
      filtered.structuredContent as { sites: Array<{ kind: string; page_types: Array<{ page_type: string }> }> }
    ).sites;
    expect(sites.length).toBeGreaterThan(0);
    for (const site of sites) {
      expect(site.kind).toBe('public_data');
      expect(site.page_types.map((entry) => entry.page_type)).toEqual(['forecast']);
    }

    const all = await client.callTool({ name: 'list_sites', arguments: {} });
    const body = all.structuredContent as {
      sites: unknown[];
      truncated: { note: string; cuts: Array<{ path: string }> };
    };
    const full = await call(kumo.baseUrl, '/v1/sites', null);
    expect(JSON.stringify(full.body).length).toBeGreaterThan(16_000);
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(16_000);
    expect((all.content as Array<{ text: string }>)[0]!.text.length).toBeLessThanOrEqual(16_000);
    expect(body.truncated.note).toMatch(/16000 characters/);
    const listCut = body.truncated.cuts.find((cut) => cut.path === '$.sites');
    expect(listCut).toMatchObject({ total: full.body.sites.length, kept: body.sites.length, unit: 'items' });
    expect(body.sites.length).toBeLessThan(full.body.sites.length);
  });

  it('serves the newest protocol version as well as the legacy initialize handshake', async () => {
    const legacy = await connect(testKey, 'legacy');
    expect(legacy.getProtocolEra()).toBe('legacy');
    const modern = await connect(testKey, { pin: '2026-07-28' });
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await modern.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...toolNames]);
    const result = await modern.callTool({ name: 'scrape', arguments: { url: itemUrl } });
    expect((result.structuredContent as any).data.price).toBe(2200);
    expect((result.structuredContent as any).cost_units).toBe(1);
  });
});

describe('POST /mcp on the wire', () => {
  it('answers both eras with one JSON body (no event stream) and counts tool calls in /metrics', async () => {
    const auth = { authorization: `Bearer ${testKey}` };
    const initialize = await postMcp({
      headers: auth,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('content-type')).toMatch(/^application\/json/);
    expect(initialize.headers.get('mcp-session-id')).toBeNull();
    expect(((await initialize.json()) as any).result.serverInfo.name).toBe('kumo');

    const modern = await connect(testKey, { pin: '2026-07-28' });
    await modern.callTool({ name: 'get_usage', arguments: {} });
    const metrics = await (await fetch(`${kumo.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/kumo_mcp_tool_calls_total\{tool="get_usage",result="ok"\} [1-9]/);
  });
});

describe('a client that leaves', () => {
  it('is not charged for the scrape its tool call started, as a REST caller that leaves is not', async () => {
    const key = await freshKey();
    const before = origin.hits(slowPath);
    const leave = new AbortController();
    const sent = postMcp({
      headers: { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-11-25' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'scrape', arguments: { url: `https://www.ikebe-gakki.com${slowPath}` } },
      },
      signal: leave.signal,
    });
    const deadline = Date.now() + 10_000;
    while (origin.hits(slowPath) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(origin.hits(slowPath)).toBe(before + 1);
    leave.abort();
    await expect(sent).rejects.toThrow();
    // The origin answers at 1.5 s; by then the call was stopped and released.
    await new Promise((r) => setTimeout(r, 2_000));
    const usage = await call(kumo.baseUrl, '/v1/usage', key);
    expect(usage.body.credits).toMatchObject({ used: 0, reserved: 0 });
    expect(usage.body.concurrency.in_use).toBe(0);
  });
});

describe('POST /mcp refusals before any tool runs', () => {
  it('answers 401 with WWW-Authenticate and a problem, without a key and with a bad key', async () => {
    for (const headers of [{}, { authorization: 'Bearer kumo_live_not_a_real_key_0000000000' }] as Array<
      Record<string, string>
    >) {
      const response = await postMcp({ headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="kumo"');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await response.json()) as any;
      expect(body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(body.request_id).toMatch(/^req_/);
    }
    await expect(connect('kumo_live_not_a_real_key_0000000000')).rejects.toThrow();
  });

  it('refuses a key in the URL with 400, even a valid one', async () => {
    for (const name of ['api_key', 'key', 'token']) {
      const response = await postMcp({ query: `?${name}=${testKey}` });
      expect(response.status).toBe(400);
      const body = (await response.json()) as any;
      expect(body.code).toBe('invalid_request');
      expect(body.detail).toMatch(/never accepted in a URL/);
      expect(body.detail).toMatch(/Authorization: Bearer/);
      expect(JSON.stringify(body)).not.toContain(testKey);
    }
  });

  it('refuses a foreign browser Origin (DNS rebinding) and accepts its own', async () => {
    const auth = { authorization: `Bearer ${testKey}` };
    const foreign = await postMcp({ headers: { ...auth, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).code).toBe('origin_not_allowed');
    const own = await postMcp({ headers: { ...auth, origin: kumo.baseUrl } });
    expect(own.status).toBe(200);
  });

  it('lets an origin on KUMO_MCP_ALLOWED_ORIGINS through CORS, and no other', async () => {
    const preflight = await fetch(`${kumo.baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: allowedOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization.*mcp-protocol-version/);
    const posted = await postMcp({ headers: { authorization: `Bearer ${testKey}`, origin: allowedOrigin } });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    const unauthorized = await postMcp({ headers: { origin: allowedOrigin } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/);

    const other = await fetch(`${kumo.baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.status).toBe(405);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers GET and DELETE /mcp with 405: the server is stateless, there is no stream or session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${kumo.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${testKey}` } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(((await response.json()) as any).code).toBe('method_not_allowed');
    }
  });
});

describe('kumo mcp over stdio', () => {
  it('serves the same tools to the SDK stdio client, calling the started server', async () => {
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(repoRoot, 'dist/cli/kumo.js'), 'mcp'],
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', KUMO_BASE_URL: kumo.baseUrl, KUMO_API_KEY: testKey },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'kumo-e2e-stdio', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...toolNames]);
    const result = await client.callTool({ name: 'scrape', arguments: { url: itemUrl } });
    expect((result.structuredContent as any).data.price).toBe(2200);
    expect((result.structuredContent as any).cost_units).toBe(1);
    const refused = await client.callTool({ name: 'scrape', arguments: { url: 'https://shop.example.net/x' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'site_not_supported' });
    await client.close();
    expect(stderr).toMatch(/kumo mcp: serving/);
    expect(stderr).not.toContain(testKey);
  });

  it('refuses to start without a key, on stderr, with status 2', async () => {
    const { code, out, err } = await runKumo(['mcp'], { KUMO_BASE_URL: kumo.baseUrl });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/kumo mcp needs KUMO_API_KEY/);
  });
});
