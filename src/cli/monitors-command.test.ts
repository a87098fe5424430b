// `kumo monitors`: its flags as the POST /v1/monitors body (rules spec, --every vs --cron, every mistake named before
// anything is sent), and create, list and run --wait against a stand-in of the monitor API's documented answers.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../time/clock.js';
import { UsageError } from './args.js';
import { ApiError, BatchApiClient } from './batch-client.js';
import {
  createBody,
  creationKey,
  monitorsCommand,
  parseRule,
  parseRules,
  type MonitorsIo,
} from './monitors-command.js';
import type { CheckView, MonitorView } from './monitors-format.js';
import { defaultWatch } from '../monitors/model.js';

const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592';

function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
}

describe('parseRule', () => {
  it.each([
    ['drop5:price:change_pct_lte:-5', { id: 'drop5', when: { field: 'price', change_pct_lte: -5 } }],
    ['up:price:change_gte:+500', { id: 'up', when: { field: 'price', change_gte: 500 } }],
    ['cheap:price:lte:9800:enter', { id: 'cheap', when: { field: 'price', lte: 9800 }, mode: 'enter' }],
    ['rate:points_rate:gte:2.5', { id: 'rate', when: { field: 'points_rate', gte: 2.5 } }],
    [
      'low:effective_price:below_lowest_days:30',
      { id: 'low', when: { field: 'effective_price', below_lowest_days: 30 } },
    ],
    [
      'back:availability:to:in_stock,limited',
      { id: 'back', when: { field: 'availability', to: ['in_stock', 'limited'] } },
    ],
    [
      'gone:availability:from:in_stock:to:out_of_stock,discontinued',
      { id: 'gone', when: { field: 'availability', from: ['in_stock'], to: ['out_of_stock', 'discontinued'] } },
    ],
    ['sale:on_sale:to:true', { id: 'sale', when: { field: 'on_sale', to: ['true'] } }],
  ])('%s', (spec, rule) => {
    expect(parseRule(spec)).toEqual(rule);
  });

  it.each([
    ['drop5:price:-5', 'write it ID:FIELD:OPERATOR:VALUE[:enter], e.g. drop5:price:change_pct_lte:-5'],
    ['drop5:prise:change_pct_lte:-5', 'unknown field prise (one of price, price_tax,'],
    ['drop5:price:drops:-5', 'unknown operator drops (one of change_gte, change_lte,'],
    ['drop5:price:change_pct_lte:five', 'change_pct_lte needs a number, not five'],
    ['drop5:price:change_pct_lte:1e3', 'change_pct_lte needs a number, not 1e3'],
    ['drop5:price:lte:5:later', 'later is not a mode (enter or change)'],
    ['x:price:lte:1:lte:2', 'lte is given twice'],
    ['back:availability:to:in_stock,', 'to takes a comma-separated list without empty items'],
    ['back:availability:to:instock', 'instock is not a value of availability (one of in_stock, out_of_stock,'],
  ])('%s is refused: %s', (spec, message) => {
    const error = usageError(() => parseRule(spec));
    expect(error.startsWith(`--rule ${spec}: `)).toBe(true);
    expect(error).toContain(message);
  });
});

describe('parseRules', () => {
  it("names each of the API's own problems by the --rule as typed", () => {
    const specs = ['a:price:lte:100', 'a:price:gte:200', 'b:price:change_pct_lte:-5:enter', 'c:price:lte:1:gte:2'];
    expect(usageError(() => parseRules(specs, defaultWatch)).split('\n')).toEqual([
      '--rule a:price:gte:200: id "a" is already the id of --rule a:price:lte:100',
      '--rule b:price:change_pct_lte:-5:enter: mode "enter" is for lte/gte (a change_pct_lte rule fires on a change)',
      '--rule c:price:lte:1:gte:2: when has 2 operators (lte, gte); a rule takes exactly one',
    ]);
  });

  it('refuses a rule on a field the monitor does not watch (it could never fire), and from/to on a number', () => {
    expect(usageError(() => parseRules(['back:availability:to:in_stock'], ['price']))).toBe(
      '--rule back:availability:to:in_stock: "availability" is not watched by this monitor (add it to --watch)',
    );
    expect(usageError(() => parseRules(['x:price:to:1'], defaultWatch))).toContain(
      '--rule x:price:to:1: from/to works on "availability", "price_tax", "shipping", "on_sale", not "price"',
    );
    expect(parseRules(['low:effective_price:lte:9000'], ['effective_price'])).toHaveLength(1);
  });
});

describe('createBody', () => {
  it('builds the whole POST body from the flags', () => {
    expect(
      createBody({
        url: [url, `${url}1`],
        ref: ['A-1', 'ギター 2'],
        every: '60',
        timezone: 'Asia/Tokyo',
        'business-days': true,
        name: 'Guitars',
        watch: 'price,availability',
        rule: ['drop5:price:change_pct_lte:-5', 'back:availability:to:in_stock'],
        'history-days': '90',
        'max-credits': '5000',
        webhook: 'whe_01ABC',
        language: 'en',
      }),
    ).toEqual({
      name: 'Guitars',
      targets: [
        { url, ref: 'A-1' },
        { url: `${url}1`, ref: 'ギター 2' },
      ],
      schedule: { every_minutes: 60, timezone: 'Asia/Tokyo', calendar: 'jp_business_days' },
      watch: ['price', 'availability'],
      rules: [
        { id: 'drop5', when: { field: 'price', change_pct_lte: -5 } },
        { id: 'back', when: { field: 'availability', to: ['in_stock'] } },
      ],
      notify: { webhook: { endpoint_id: 'whe_01ABC' }, language: 'en' },
      history: { retain_days: 90 },
      max_credits_per_month: 5000,
    });
  });

  it('sends only what was given: a cron schedule and the URLs', () => {
    expect(createBody({ url: [url], cron: '0 9 * * 1-5' })).toEqual({
      targets: [{ url }],
      schedule: { cron: '0 9 * * 1-5' },
    });
  });

  it.each([
    [{ url: [url], every: '60', cron: '0 9 * * *' }, '--every and --cron are exclusive'],
    [{ url: [url] }, 'needs a schedule: --every MINUTES or --cron "EXPR"'],
    [{ every: '60' }, 'needs --url'],
    [{ url: [''], every: '60' }, '--url needs a value'],
    [{ url: [url, url], ref: ['A-1'], every: '60' }, 'give one for each (2 --url, 1 --ref)'],
    [{ url: [url], ref: ['a\nb'], every: '60' }, '--ref "a\\nb": printable text'],
    [{ url: [url], every: '0' }, '--every must be a whole number from 1 to 43200'],
    [{ url: [url], every: '1.5' }, '--every must be a whole number from 1 to 43200'],
    [{ url: [url], every: '60', webhook: 'https://hooks.example' }, '--webhook takes a webhook endpoint id'],
    [{ url: [url], every: '60', language: 'fr' }, '--language must be ja or en'],
    [{ url: [url], every: '60', watch: 'price,stock' }, '--watch: unknown field stock'],
    [{ url: [url], every: '60', watch: 'price,' }, '--watch needs a comma-separated list without empty items'],
    [{ url: [url], every: '60', 'history-days': '400' }, '--history-days must be a whole number from 1 to 365'],
    [{ url: [url], every: '60', 'max-credits': '0' }, '--max-credits must be a whole number from 1'],
    [{ url: [url], every: '60', rule: ['rate:points_rate:gte:2'] }, '"points_rate" is not watched'],
  ])('%j is refused: %s', (values, message) => {
    expect(usageError(() => createBody(values))).toContain(message);
  });
});

/** A clock whose sleeps pass at once (moving its time), so a wait of minutes is a test of milliseconds. */
function instantClock(start = Date.parse('2026-06-01T00:00:00Z')): Clock {
  let now = start;
  return {
    now: () => now,
    setTimeout: () => ({ id: 0 }),
    clearTimeout: () => {},
    sleep: async (ms) => {
      now += ms;
    },
  };
}

interface Call {
  method: string;
  path: string;
  body: unknown;
  /** The Idempotency-Key header sent, if any. */
  key?: string;
}

/** The monitor API as a fetch: answers by "METHOD /path" (query left off), each a function of the call. */
function stubApi(
  routes: Record<
    string,
    (
      call: Call,
      nth: number,
    ) => { status?: number; body: unknown; headers?: Record<string, string>; answerLost?: boolean }
  >,
) {
  const calls: Call[] = [];
  const seen = new Map<string, number>();
  const fetchStub = (async (input: URL | Request | string, init?: RequestInit) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    const call: Call = {
      method: init?.method ?? 'GET',
      path: u.pathname + u.search,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      ...(new Headers(init?.headers).has('idempotency-key')
        ? { key: new Headers(init?.headers).get('idempotency-key')! }
        : {}),
    };
    calls.push(call);
    const key = `${call.method} ${u.pathname}`;
    const route = routes[key];
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    if (!route) return new Response(JSON.stringify({ code: 'not_found', detail: `no route ${key}` }), { status: 404 });
    const answer = route(call, nth);
    // The request reached the API, which acted on it; its answer never came back.
    if (answer.answerLost) throw new TypeError('fetch failed');
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  }) as typeof fetch;
  return { calls, fetch: fetchStub };
}

function harness(api: ReturnType<typeof stubApi>, files: Record<string, string> = {}, language: 'ja' | 'en' = 'en') {
  let out = '';
  let err = '';
  const clock = instantClock();
  const io: MonitorsIo = {
    client: new BatchApiClient({ baseUrl: 'http://kumo.test', apiKey: 'k', clock, fetch: api.fetch }),
    clock,
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    readFile: async (path) => {
      if (!(path in files)) throw new Error('ENOENT');
      return new TextEncoder().encode(files[path]);
    },
    language,
  };
  return { io, out: () => out, err: () => err, clock };
}

const target = {
  id: 'tgt_1',
  url,
  ref: 'A-1',
  site: 'ikebe_gakki',
  page_type: 'item',
  removed: false,
  last: null,
  last_check: { at: null, state: null, error_code: null },
};

const monitor: MonitorView = {
  id: 'mon_1',
  name: 'Guitars',
  status: 'active',
  paused_reason: null,
  schedule: {
    every_minutes: 60,
    cron: null,
    timezone: 'Asia/Tokyo',
    calendar: null,
    next_run_at: '2026-06-01T00:30:00.000Z',
  },
  estimate: {
    checks_per_month: 720,
    credits_per_month: 720,
    within_plan: true,
    host_load: [{ host: 'www.ikebe-gakki.com', checks_per_day: 24, share_per_day: 14_400 }],
  },
  targets: [target],
};

function check(state: string, extra: Partial<CheckView> = {}): CheckView {
  return {
    id: 'chk_1',
    target_id: 'tgt_1',
    state,
    reason: 'manual',
    cost_units: state === 'completed' ? 1 : 0,
    changes: [],
    rules_hit: [],
    error: null,
    ...extra,
  };
}

describe('kumo monitors create', () => {
  it('posts the body and prints the monitor: next run in JST, the estimate, the host load', async () => {
    const api = stubApi({ 'POST /v1/monitors': () => ({ status: 201, body: { request_id: 'req_1', monitor } }) });
    const h = harness(api);
    const code = await monitorsCommand(
      ['create', '--url', url, '--ref', 'A-1', '--every', '60', '--name', 'Guitars'],
      h.io,
    );
    expect(code).toBe(0);
    expect(api.calls).toEqual([
      {
        method: 'POST',
        path: '/v1/monitors',
        body: { name: 'Guitars', targets: [{ url, ref: 'A-1' }], schedule: { every_minutes: 60 } },
        key: expect.stringMatching(/^kumo-cli-monitor-/),
      },
    ]);
    expect(h.out()).toBe(
      [
        'mon_1  Guitars',
        'status     active',
        'schedule   every 60 min, Asia/Tokyo',
        'next run   2026-06-01 09:30 JST',
        'targets    1',
        `  tgt_1  ikebe_gakki item  A-1  ${url}`,
        "estimate   720 checks / month · 720 credits / month at most (within the plan's monthly credits)",
        "host load  www.ikebe-gakki.com: 24 checks / day (this account's fair share: 14,400 / day)",
        '',
      ].join('\n'),
    );
  });

  it('--json prints the monitor as the API returns it (snake_case)', async () => {
    const api = stubApi({ 'POST /v1/monitors': () => ({ status: 201, body: { request_id: 'req_1', monitor } }) });
    const h = harness(api);
    await monitorsCommand(['create', '--url', url, '--cron', '0 9 * * *', '--json'], h.io);
    expect(JSON.parse(h.out())).toEqual(monitor);
  });

  it('--file sends the file as the whole body, and refuses body flags beside it', async () => {
    const body = { targets: [{ url }], schedule: { every_minutes: 60 }, noise: { price_abs_yen: 100 } };
    const api = stubApi({ 'POST /v1/monitors': () => ({ status: 201, body: { request_id: 'req_1', monitor } }) });
    const h = harness(api, { 'monitor.json': `\uFEFF${JSON.stringify(body)}`, 'list.json': '[]', 'bad.json': '{' });
    expect(await monitorsCommand(['create', '--file', 'monitor.json'], h.io)).toBe(0);
    expect(api.calls[0]!.body).toEqual(body);
    await expect(monitorsCommand(['create', '--file', 'monitor.json', '--every', '60'], h.io)).rejects.toThrow(
      '--file is the whole body: give --every in the file, not with --file',
    );
    await expect(monitorsCommand(['create', '--file', 'list.json'], h.io)).rejects.toThrow('must hold one JSON object');
    await expect(monitorsCommand(['create', '--file', 'bad.json'], h.io)).rejects.toThrow('bad.json is not JSON');
    await expect(monitorsCommand(['create', '--file', 'none.json'], h.io)).rejects.toThrow('cannot read none.json');
    expect(api.calls).toHaveLength(1);
  });

  it("an API refusal is an ApiError with the problem's code and detail (printed as `code: detail`)", async () => {
    const api = stubApi({
      'POST /v1/monitors': () => ({
        status: 422,
        body: {
          code: 'monitor_limit_exceeded',
          detail: "every_minutes 5 is below the starter plan's minimum of 60 minutes",
          field: 'schedule',
        },
      }),
    });
    const h = harness(api);
    const error = await monitorsCommand(['create', '--url', url, '--every', '5'], h.io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).code, (error as ApiError).message]).toEqual([
      'monitor_limit_exceeded',
      "every_minutes 5 is below the starter plan's minimum of 60 minutes",
    ]);
  });

  it('a mistyped command is a usage error and sends nothing', async () => {
    const api = stubApi({});
    const h = harness(api);
    await expect(
      monitorsCommand(['create', '--url', url, '--every', '60', '--cron', '0 9 * * *'], h.io),
    ).rejects.toThrow(UsageError);
    await expect(monitorsCommand(['create', '--url', url, '--evry', '60'], h.io)).rejects.toThrow(
      'unknown option "--evry" (did you mean --every?)',
    );
    await expect(monitorsCommand(['nosuch'], h.io)).rejects.toThrow(/^usage:\n {2}kumo monitors create/);
    await expect(monitorsCommand(['run'], h.io)).rejects.toThrow('kumo monitors run MONITOR_ID');
    await expect(monitorsCommand(['run', 'mon_1', '--timeout', '5'], h.io)).rejects.toThrow('--timeout needs --wait');
    expect(api.calls).toEqual([]);
  });
});

describe('kumo monitors create: one body, one monitor', () => {
  it('sends an Idempotency-Key from the body, sends it again when the answer is lost, says when it was made before', async () => {
    const replayed: Record<string, string> = { 'idempotent-replayed': 'true' };
    const api = stubApi({
      'POST /v1/monitors': (_call, nth) =>
        nth === 0
          ? { status: 201, body: {}, answerLost: true }
          : {
              status: 201,
              body: { request_id: 'r', monitor },
              headers: nth === 1 ? {} : replayed,
            },
    });
    const h = harness(api);
    const args = ['create', '--url', url, '--every', '60', '--name', 'Guitars'];
    expect(await monitorsCommand(args, h.io)).toBe(0);
    expect(h.err()).toBe('');
    expect(await monitorsCommand([...args, '--json'], h.io)).toBe(0);
    expect(h.err()).toBe('already made by an earlier run of this command: mon_1 (delete it first to make another)\n');
    const keys = api.calls.map((c) => c.key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(creationKey(api.calls[0]!.body));
    expect(keys[0]).toMatch(/^kumo-cli-monitor-[0-9a-f]{64}$/);
    // Another body is another key; key order in a --file body does not matter.
    expect(creationKey({ b: 1, a: [1, 2] })).toBe(creationKey({ a: [1, 2], b: 1 }));
    expect(creationKey({ a: [2, 1], b: 1 })).not.toBe(creationKey({ a: [1, 2], b: 1 }));
  });
});

describe('kumo monitors show, pause, resume and delete', () => {
  const paused: MonitorView = { ...monitor, status: 'paused', paused_reason: 'caller' };

  it('show GETs the monitor and prints it as create does; --json as the API answered', async () => {
    const api = stubApi({ 'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'req_1', monitor } }) });
    const h = harness(api);
    expect(await monitorsCommand(['show', 'mon_1'], h.io)).toBe(0);
    expect(h.out()).toContain('mon_1  Guitars');
    expect(h.out()).toContain('status     active');
    expect(await monitorsCommand(['show', 'mon_1', '--json'], h.io)).toBe(0);
    expect(JSON.parse(h.out().slice(h.out().indexOf('{')))).toEqual(monitor);
  });

  it('pause and resume PATCH the status and print the monitor as it now is', async () => {
    const api = stubApi({
      'PATCH /v1/monitors/mon_1': (call) => ({
        body: {
          request_id: 'req_2',
          monitor: (call.body as { status: string }).status === 'paused' ? paused : monitor,
        },
      }),
    });
    const h = harness(api);
    expect(await monitorsCommand(['pause', 'mon_1'], h.io)).toBe(0);
    expect(h.out()).toMatch(/status {5}paused/);
    expect(await monitorsCommand(['resume', 'mon_1', '--json'], h.io)).toBe(0);
    expect(api.calls).toEqual([
      { method: 'PATCH', path: '/v1/monitors/mon_1', body: { status: 'paused' } },
      { method: 'PATCH', path: '/v1/monitors/mon_1', body: { status: 'active' } },
    ]);
    expect(JSON.parse(h.out().slice(h.out().lastIndexOf('\n{') + 1)).status).toBe('active');
  });

  it('delete sends DELETE and says so; --json prints {id, deleted}', async () => {
    const api = stubApi({ 'DELETE /v1/monitors/mon_1': () => ({ body: { request_id: 'req_3', deleted: true } }) });
    const h = harness(api);
    expect(await monitorsCommand(['delete', 'mon_1'], h.io)).toBe(0);
    expect(h.out()).toBe('deleted mon_1 and everything kept for it\n');
    expect(await monitorsCommand(['delete', 'mon_1', '--json'], h.io)).toBe(0);
    expect(JSON.parse(h.out().slice(h.out().indexOf('{')))).toEqual({ id: 'mon_1', deleted: true });
    expect(api.calls.map((c) => c.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('a monitor that is not there (or another account’s) is the API’s not_found; a missing id sends nothing', async () => {
    const api = stubApi({
      'GET /v1/monitors/mon_x': () => ({ status: 404, body: { code: 'not_found', detail: 'no monitor mon_x' } }),
    });
    const h = harness(api);
    await expect(monitorsCommand(['show', 'mon_x'], h.io)).rejects.toBeInstanceOf(ApiError);
    for (const action of ['show', 'pause', 'resume', 'delete'])
      await expect(monitorsCommand([action], h.io)).rejects.toThrow(`kumo monitors ${action} MONITOR_ID [--json]`);
    await expect(monitorsCommand(['pause', 'mon_1', 'mon_2'], h.io)).rejects.toThrow(UsageError);
    expect(api.calls).toHaveLength(1);
  });
});

describe('kumo monitors list', () => {
  it("a line per monitor: id, name, status, schedule, next run, each target's price and availability", async () => {
    const paused: MonitorView = {
      ...monitor,
      id: 'mon_2',
      name: null,
      status: 'paused',
      paused_reason: 'max_credits_per_month',
      schedule: {
        ...monitor.schedule,
        every_minutes: null,
        cron: '0 9 * * 1-5',
        calendar: 'jp_business_days',
        next_run_at: null,
      },
      targets: [
        { ...target, last: { price: 12_800, availability: 'in_stock', at: '2026-06-01T00:00:00Z' } },
        { ...target, id: 'tgt_2', ref: null, last: { price: null, availability: 'out_of_stock' } },
        {
          ...target,
          id: 'tgt_3',
          ref: 'B\u001b[31m',
          last_check: { at: null, state: 'failed', error_code: 'upstream_error' },
        },
        { ...target, id: 'tgt_4', ref: null, removed: true },
      ],
    };
    const api = stubApi({ 'GET /v1/monitors': () => ({ body: { request_id: 'r', monitors: [monitor, paused] } }) });
    const h = harness(api);
    expect(await monitorsCommand(['list'], h.io)).toBe(0);
    expect(api.calls[0]!.path).toBe('/v1/monitors?limit=100');
    expect(h.out().split('\n')).toEqual([
      'mon_1  Guitars  active  every 60 min  next 2026-06-01 09:30 JST  A-1 not checked yet',
      'mon_2  -  paused (max_credits_per_month)  cron "0 9 * * 1-5", JP business days  next —  ' +
        'A-1 ¥12,800 in_stock · — out_of_stock · ' +
        'B [31m no good check yet (last check failed: upstream_error) · removed',
      '',
    ]);
  });

  it('--json prints the monitors as the API returns them; an empty list says so on stderr', async () => {
    const api = stubApi({ 'GET /v1/monitors': () => ({ body: { request_id: 'r', monitors: [] } }) });
    const h = harness(api);
    await monitorsCommand(['list', '--json'], h.io);
    expect(JSON.parse(h.out())).toEqual([]);
    const plain = harness(api);
    await monitorsCommand(['list'], plain.io);
    expect([plain.out(), plain.err()]).toEqual(['', 'no monitors\n']);
  });
});

describe('kumo monitors run', () => {
  const after = {
    ...monitor,
    targets: [{ ...target, last: { price: 11_800, price_tax: 'included', availability: 'in_stock' } }],
  };
  const drop = {
    changes: [{ field: 'price' as const, before: 12_800, after: 11_800, delta: -1000, delta_pct: -7.81 }],
    rules_hit: ['drop5'],
  };

  it('--wait reads the checks until this run’s are done, then prints state, cost and changes (English)', async () => {
    const api = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({ status: 202, body: { request_id: 'r', checks: [check('queued')] } }),
      'GET /v1/monitors/mon_1/checks': (_call, nth) => ({
        body: {
          request_id: 'r',
          // A newer scheduled check first, as the API lists newest first; ours runs, then completes.
          checks: [
            check('queued', { id: 'chk_9', reason: null }),
            nth === 0 ? check('running') : check('completed', drop),
          ],
          next_cursor: null,
        },
      }),
      'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'r', monitor: after } }),
    });
    const h = harness(api);
    expect(await monitorsCommand(['run', 'mon_1', '--wait'], h.io)).toBe(0);
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/monitors/mon_1/run',
      'GET /v1/monitors/mon_1/checks?limit=100',
      'GET /v1/monitors/mon_1/checks?limit=100',
      'GET /v1/monitors/mon_1',
    ]);
    expect(h.err()).toBe('waiting for 1 check of mon_1 (up to 120 s)\n');
    expect(h.out()).toBe(
      [
        `chk_1  completed  1 credit  A-1  ${url}`,
        '  Price: ¥12,800 → ¥11,800 (−¥1,000, −7.8%)',
        '  Now: ¥11,800 (tax incl.) / In stock',
        '  Rules: drop5',
        '',
      ].join('\n'),
    );
  });

  it('in Japanese when the locale is, as the alert messages word it', async () => {
    const api = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({
        status: 202,
        body: { request_id: 'r', checks: [check('completed', drop)] },
      }),
      'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'r', monitor: after } }),
    });
    const h = harness(api, {}, 'ja');
    expect(await monitorsCommand(['run', 'mon_1', '--wait'], h.io)).toBe(0);
    expect(h.out()).toBe(
      [
        `chk_1  completed  1クレジット  A-1  ${url}`,
        '  価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）',
        '  現在: ¥11,800（税込） / 在庫あり',
        '  ルール: drop5',
        '',
      ].join('\n'),
    );
  });

  it('pages the checks as far as needed to find this run’s', async () => {
    const ours = ['chk_1', 'chk_2'];
    const api = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({
        status: 202,
        body: { request_id: 'r', checks: ours.map((id) => check('queued', { id })) },
      }),
      'GET /v1/monitors/mon_1/checks': (call) => ({
        body: call.path.includes('cursor=chk_1')
          ? { request_id: 'r', checks: [check('completed', { id: 'chk_2' })], next_cursor: 'chk_2' }
          : { request_id: 'r', checks: [check('completed', { id: 'chk_1' })], next_cursor: 'chk_1' },
      }),
      'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'r', monitor: after } }),
    });
    const h = harness(api);
    expect(await monitorsCommand(['run', 'mon_1', '--wait', '--json'], h.io)).toBe(0);
    expect(api.calls.map((c) => c.path)).toEqual([
      '/v1/monitors/mon_1/run',
      '/v1/monitors/mon_1/checks?limit=100',
      '/v1/monitors/mon_1/checks?limit=100&cursor=chk_1',
      '/v1/monitors/mon_1',
    ]);
    const printed = JSON.parse(h.out()) as { checks: CheckView[]; monitor: MonitorView };
    expect(printed.checks.map((c) => [c.id, c.state])).toEqual([
      ['chk_1', 'completed'],
      ['chk_2', 'completed'],
    ]);
    expect(printed.monitor).toEqual(after);
  });

  it('gives up after --timeout (exit 1, what is still open on stderr); a failed check is exit 1 too', async () => {
    const api = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({ status: 202, body: { request_id: 'r', checks: [check('queued')] } }),
      'GET /v1/monitors/mon_1/checks': () => ({
        body: { request_id: 'r', checks: [check('running')], next_cursor: null },
      }),
      'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'r', monitor } }),
    });
    const h = harness(api);
    const started = h.clock.now();
    expect(await monitorsCommand(['run', 'mon_1', '--wait', '--timeout', '5'], h.io)).toBe(1);
    expect(h.clock.now() - started).toBe(5000);
    expect(h.out()).toBe(`chk_1  running  0 credits  A-1  ${url}\n`);
    expect(h.err()).toContain('still waiting after 5 s: 1 check queued or running');

    const failed = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({
        status: 202,
        body: { request_id: 'r', checks: [check('failed', { error: { code: 'upstream_error', status: 502 } })] },
      }),
      'GET /v1/monitors/mon_1': () => ({ body: { request_id: 'r', monitor } }),
    });
    const f = harness(failed);
    expect(await monitorsCommand(['run', 'mon_1', '--wait'], f.io)).toBe(1);
    expect(f.out()).toBe(`chk_1  failed  0 credits  A-1  ${url}\n  error: upstream_error (502)\n`);
  });

  it('without --wait prints the checks queued (JSON: as the API answered) and exits 0', async () => {
    const api = stubApi({
      'POST /v1/monitors/mon_1/run': () => ({ status: 202, body: { request_id: 'r', checks: [check('queued')] } }),
    });
    const h = harness(api);
    expect(await monitorsCommand(['run', 'mon_1', '--json'], h.io)).toBe(0);
    expect(JSON.parse(h.out())).toEqual({ checks: [check('queued')] });
    expect(api.calls).toHaveLength(1);
  });
});
