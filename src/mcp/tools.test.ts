// The tools over a fake KumoApi: each is the REST call it stands for, errors keep the catalogue code and retry hint.
import { describe, expect, it } from 'vitest';
import { runTool, toolSpecs, type ToolSpec } from './tools.js';
import { KumoUnreachable, remoteKumoApi, type KumoAnswer, type KumoApi } from './kumo-api.js';

const spec = (name: string): ToolSpec => toolSpecs.find((tool) => tool.name === name)!;

/** Records every request and answers from a table keyed by `METHOD path`. */
function fakeApi(answers: Record<string, KumoAnswer>) {
  const calls: Array<{ method: string; path: string; body: unknown; idempotencyKey?: string }> = [];
  const api: KumoApi = {
    async request(method, path, body, idempotencyKey) {
      calls.push({ method, path, body, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) });
      const answer = answers[`${method} ${path}`];
      if (!answer) throw new Error(`unexpected ${method} ${path}`);
      return answer;
    },
  };
  return { api, calls };
}

const okAnswer = (body: unknown): KumoAnswer => ({ status: 200, body, headers: {} });

describe('the tools', () => {
  it('scrape posts the url and only the params given', async () => {
    const { api, calls } = fakeApi({ 'POST /v1/scrape': okAnswer({ request_id: 'req_1', cost_units: 1 }) });
    await runTool(spec('scrape'), api, { url: 'https://item.rakuten.co.jp/shop/item/' });
    await runTool(spec('scrape'), api, { url: 'https://item.rakuten.co.jp/shop/item/', max_age_s: 600 });
    expect(calls.map((call) => call.body)).toEqual([
      { url: 'https://item.rakuten.co.jp/shop/item/' },
      { url: 'https://item.rakuten.co.jp/shop/item/', params: { max_age_s: 600 } },
    ]);
  });

  it('answers a problem as isError with the code, detail, request id, retry_after_s and extras', async () => {
    const { api } = fakeApi({
      'POST /v1/scrape': {
        status: 429,
        body: {
          type: 'https://kumo.dev/errors/credits_exhausted',
          title: 'Credits exhausted',
          status: 429,
          code: 'credits_exhausted',
          detail: 'the monthly allowance is used up',
          request_id: 'req_9',
          resets_at: '2026-12-01T00:00:00+09:00',
        },
        headers: { 'retry-after': '259200', 'request-id': 'req_9' },
      },
    });
    const result = await runTool(spec('scrape'), api, { url: 'https://www.yodobashi.com/product/1/' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      code: 'credits_exhausted',
      status: 429,
      detail: 'the monthly allowance is used up',
      request_id: 'req_9',
      resets_at: '2026-12-01T00:00:00+09:00',
      retry_after_s: 259200,
    });
  });

  it('answers an unreachable server as unavailable without a request id', async () => {
    const api: KumoApi = {
      request: async () => {
        throw new KumoUnreachable('cannot reach Kumo at http://127.0.0.1:1');
      },
    };
    const called: string[] = [];
    const result = await runTool(
      spec('get_usage'),
      api,
      {},
      { called: (tool, outcome) => called.push(`${tool}:${outcome}`) },
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'unavailable', request_id: null });
    expect(called).toEqual(['get_usage:unavailable']);
  });

  it('list_sites filters by kind (public = public_data) and page type', async () => {
    const sites = [
      { id: 'a', kind: 'commerce', page_types: [{ page_type: 'item' }, { page_type: 'search' }] },
      { id: 'b', kind: 'public_data', page_types: [{ page_type: 'forecast' }] },
      { id: 'c', kind: 'public_data', page_types: [{ page_type: 'table' }] },
    ];
    const { api } = fakeApi({ 'GET /v1/sites': okAnswer({ request_id: 'req_s', sites }) });
    const run = async (args: Record<string, unknown>) =>
      ((await runTool(spec('list_sites'), api, args)).structuredContent as { sites: Array<{ id: string }> }).sites;
    expect((await run({ kind: 'public' })).map((site) => site.id)).toEqual(['b', 'c']);
    expect(await run({ page_type: 'search' })).toEqual([{ ...sites[0], page_types: [{ page_type: 'search' }] }]);
    expect(await run({})).toEqual(sites);
  });

  it('get_batch reads the batch, and with include_items a page of items (the handover)', async () => {
    const { api, calls } = fakeApi({
      'GET /v1/batches/bat_1': okAnswer({ request_id: 'req_b', batch: { id: 'bat_1' } }),
      'GET /v1/batches/bat_1/items?state=ready&limit=5': okAnswer({
        request_id: 'req_i',
        items: [{ id: 'itm_1' }],
        next_cursor: 'c2',
      }),
    });
    const plain = await runTool(spec('get_batch'), api, { batch_id: 'bat_1' });
    expect(plain.structuredContent).toEqual({ request_id: 'req_b', batch: { id: 'bat_1' } });
    const withItems = await runTool(spec('get_batch'), api, {
      batch_id: 'bat_1',
      include_items: true,
      state: 'ready',
      limit: 5,
    });
    expect(withItems.structuredContent).toEqual({
      request_id: 'req_b',
      batch: { id: 'bat_1' },
      items: [{ id: 'itm_1' }],
      next_cursor: 'c2',
    });
    expect(calls.map((call) => call.path)).toEqual([
      '/v1/batches/bat_1',
      '/v1/batches/bat_1',
      '/v1/batches/bat_1/items?state=ready&limit=5',
    ]);
  });

  it('start_batch, create_monitor and list_monitors pass the REST body and query through', async () => {
    const { api, calls } = fakeApi({
      'POST /v1/batches': { status: 202, body: { request_id: 'r', batch: {} }, headers: {} },
      'POST /v1/monitors': { status: 201, body: { request_id: 'r', monitor: {} }, headers: {} },
      'GET /v1/monitors?limit=10': okAnswer({ request_id: 'r', monitors: [], next_cursor: null }),
    });
    const batch = { items: [{ url: 'https://item.rakuten.co.jp/shop/a/' }], max_credits: 10 };
    const monitor = { targets: [{ url: 'https://item.rakuten.co.jp/shop/a/' }], schedule: { every_minutes: 60 } };
    for (const [name, args] of [
      ['start_batch', batch],
      ['create_monitor', monitor],
      ['list_monitors', { limit: 10 }],
    ] as const) {
      expect((await runTool(spec(name), api, args)).isError).toBeFalsy();
    }
    expect(calls.map((call) => call.body)).toEqual([batch, monitor, undefined]);
    await runTool(spec('start_batch'), api, { ...batch, idempotency_key: 'k-1' });
    expect(calls.at(-1)).toMatchObject({ body: batch, idempotencyKey: 'k-1' });
    await runTool(spec('create_monitor'), api, { ...monitor, idempotency_key: 'k-2' });
    expect(calls.at(-1)).toMatchObject({ body: monitor, idempotencyKey: 'k-2' });
  });
});

describe('remoteKumoApi', () => {
  it('sends the key as a bearer header, never in the URL, and reads the problem answer', async () => {
    const seen: Array<{ url: string; headers: Headers }> = [];
    const api = remoteKumoApi({
      baseUrl: 'https://kumo.example/base',
      apiKey: 'kumo_live_secret',
      fetch: async (input, init) => {
        seen.push({ url: input instanceof URL ? input.href : (input as string), headers: new Headers(init?.headers) });
        return new Response(JSON.stringify({ code: 'site_busy' }), {
          status: 503,
          headers: { 'retry-after': '5', 'request-id': 'req_x' },
        });
      },
    });
    const answer = await api.request('GET', '/v1/usage');
    expect(seen[0]!.url).toBe('https://kumo.example/base/v1/usage');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer kumo_live_secret');
    expect(answer).toEqual({
      status: 503,
      body: { code: 'site_busy' },
      headers: { 'retry-after': '5', 'request-id': 'req_x' },
    });
  });

  it('turns a refused connection into KumoUnreachable naming only the origin', async () => {
    const api = remoteKumoApi({
      baseUrl: 'http://127.0.0.1:9/',
      apiKey: 'kumo_live_secret',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(api.request('GET', '/v1/usage')).rejects.toThrow(
      new KumoUnreachable('cannot reach Kumo at http://127.0.0.1:9'),
    );
  });
});
