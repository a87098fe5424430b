// Monitors end to end on a real Kumo process against a local origin under real hostnames, in either mode: typed
// alerts in integer yen to a signed webhook and to Slack, ChatWork and LINE receivers (exact vendor requests), failure
// is not change, the ledger charges completed checks only, tokens never leave, and DELETE purges (issue 21).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startBatchWorld, holding, type BatchWorld } from './batch-world.js';
import { api, createEndpoint, sleep } from './batches.js';
import { unpublishedWebhookBodies } from './openapi.js';
import { itemPage } from './pages.js';

const itemPath = '/c/c-/kb/kb01/kb011427/750592';
const itemUrl = `https://www.ikebe-gakki.com${itemPath}`;
const slackPath = '/services/T01KUMOTST/B02KUMOTST/zq8Xw3v9NbKumoSlackSecret42';
const chatworkToken = 'cwtok-Kumo-ChatWork-Secret-8f3a91';
const lineToken = 'lineTok-Kumo-Channel-Access-Secret-77c2e0';
const lineTo = `U${'0123456789abcdef'.repeat(2)}`;
const marker = 'kumo-monitor-marker-5e1f';

interface Received {
  host: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export function describeMonitors(mode: 'sqlite' | 'shared'): void {
  let world: BatchWorld;
  let baseUrl: string;
  let key: string;
  let accountId: string;
  /** What the origin answers for the item page now: a price, or a status. */
  let page: { price: number } | { status: number } = { price: 1000 };
  const channelRequests: Received[] = [];

  function capture(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      channelRequests.push({
        host: String(req.headers.host),
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }

  beforeAll(async () => {
    world = await startBatchWorld({
      mode,
      hosts: ['hooks.slack.com', 'api.chatwork.com', 'api.line.me'],
      // A failing page fails fast: one fetch attempt, one claim, so each check is one failure.
      // The host's breaker opens after the failures; its shortest cooldown lets the page's return be seen at once.
      env: { KUMO_FETCH_MAX_ATTEMPTS: '1', KUMO_HOST_MIN_INTERVAL_MS: '0', KUMO_BREAKER_COOLDOWN_MS: '100' },
    });
    baseUrl = world.instances[0]!.baseUrl;
    ({ key, accountId } = await world.newKey('growth'));
    world.origin.route('GET', itemPath, (_req, res) => {
      if ('status' in page) {
        res.writeHead(page.status, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(itemPage({ price: page.price, title: `WH-1000XM5 ${marker}`, marker }));
    });
    world.origin.route('POST', slackPath, capture);
    world.origin.route('POST', '/v2/rooms/424242/messages', capture);
    world.origin.route('POST', '/v2/bot/message/push', capture);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  /** POST …/run and wait until its check has ended; returns the check. */
  async function runCheck(monitorId: string): Promise<any> {
    const run = await api(baseUrl, 'POST', `/v1/monitors/${monitorId}/run`, undefined, key);
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const checkId = run.body.checks[0].id as string;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const page = await api(baseUrl, 'GET', `/v1/monitors/${monitorId}/checks?limit=20`, undefined, key);
      const check = (page.body.checks as any[]).find((c) => c.id === checkId);
      if (check && check.state !== 'queued' && check.state !== 'running') return check;
      if (Date.now() > deadline) throw new Error(`check ${checkId} did not end: ${JSON.stringify(check)}`);
      await sleep(100);
    }
  }

  describe(`monitors (${mode === 'sqlite' ? 'embedded SQLite' : 'shared PostgreSQL + Redis'})`, () => {
    let monitorId: string;
    let endpointSecret: string;

    it('creates a monitor with an estimate, jitter and next run, and never echoes a token', async () => {
      const endpoint = await createEndpoint(baseUrl, key, { url: world.hookUrl('/monitors') });
      endpointSecret = endpoint.secret;
      world.receiver.secrets = [endpointSecret];
      const res = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        {
          name: 'WH-1000XM5 競合価格',
          targets: [{ url: itemUrl, ref: 'SKU-0001' }],
          schedule: { every_minutes: 1440 },
          notify: {
            webhook: { endpoint_id: endpoint.id },
            slack: { webhook_url: `https://hooks.slack.com${slackPath}` },
            chatwork: { room_id: '424242', token: chatworkToken },
            line: { to: lineTo, channel_access_token: lineToken },
            language: 'ja',
          },
          failures: { alert_after: 3 },
          history: { retain_days: 30 },
        },
        key,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const monitor = res.body.monitor;
      monitorId = monitor.id;
      expect(monitor.id).toMatch(/^mon_/);
      expect(monitor.schedule).toMatchObject({ every_minutes: 1440, timezone: 'Asia/Tokyo' });
      expect(monitor.schedule.jitter_s).toBeLessThanOrEqual(900);
      expect(Date.parse(monitor.schedule.next_run_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(monitor.estimate).toMatchObject({ checks_per_month: 30, credits_per_month: 30, within_plan: true });
      expect(monitor.targets[0]).toMatchObject({ ref: 'SKU-0001', site: 'ikebe_gakki', page_type: 'item', last: null });
      const text = JSON.stringify(res.body);
      for (const secret of [chatworkToken, lineToken, 'zq8Xw3v9NbKumoSlackSecret42'])
        expect(text).not.toContain(secret);
      expect((monitor.notify.channels as { kind: string }[]).map((c) => c.kind)).toEqual(['slack', 'chatwork', 'line']);
    });

    it('a drop alerts in integer yen: signed webhook, and Slack, ChatWork and LINE in their vendors’ request shapes', async () => {
      page = { price: 1000 };
      const first = await runCheck(monitorId);
      expect(first).toMatchObject({ state: 'completed', cost_units: 1, changes: [] });
      page = { price: 900 };
      const second = await runCheck(monitorId);
      expect(second.state).toBe('completed');
      expect(second.changes).toEqual([{ field: 'price', before: 1000, after: 900, delta: -100, delta_pct: -10 }]);

      const [alert] = await world.receiver.waitFor(
        'the monitor.alert delivery',
        (ds) => ds.some((d) => d.json?.type === 'monitor.alert'),
        30_000,
      );
      const delivery = world.receiver.deliveries().find((d) => d.json?.type === 'monitor.alert')!;
      expect(alert).toBeDefined();
      expect(delivery.verifiedBy).toEqual([0]);
      expect(delivery.json.data).toMatchObject({
        monitor_id: monitorId,
        check_id: second.id,
        ref: 'SKU-0001',
        url: itemUrl,
        site: 'ikebe_gakki',
        changes: [{ field: 'price', before: 1000, after: 900, delta: -100, delta_pct: -10 }],
        current: { price: 900, price_tax: 'included' },
        cost_units: 1,
      });
      expect(delivery.body).not.toContain(marker);

      const deadline = Date.now() + 30_000;
      while (channelRequests.length < 3 && Date.now() < deadline) await sleep(100);
      const slack = channelRequests.find((r) => r.host.startsWith('hooks.slack.com'))!;
      const chatwork = channelRequests.find((r) => r.host.startsWith('api.chatwork.com'))!;
      const line = channelRequests.find((r) => r.host.startsWith('api.line.me'))!;
      expect(slack.path).toBe(slackPath);
      expect(slack.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(slack.body).text).toContain('¥1,000 → ¥900（−100円, −10.0%）');
      expect(chatwork.path).toBe('/v2/rooms/424242/messages');
      expect(chatwork.headers['x-chatworktoken']).toBe(chatworkToken);
      expect(chatwork.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      const form = new URLSearchParams(chatwork.body);
      expect(form.get('body')).toContain('¥1,000 → ¥900');
      expect(form.get('body')).toContain('【値下がり】');
      expect(line.path).toBe('/v2/bot/message/push');
      expect(line.headers.authorization).toBe(`Bearer ${lineToken}`);
      const push = JSON.parse(line.body);
      expect(push.to).toBe(lineTo);
      expect(push.messages[0]).toMatchObject({ type: 'text' });
      expect(push.messages[0].text).toContain('¥1,000 → ¥900');
      for (const r of channelRequests) expect(r.body).not.toContain(marker);
    }, 120_000);

    it('failure is not change: three 500s are three free failed checks and one check.failed; ¥900 again is no alert', async () => {
      page = { status: 500 };
      for (let i = 0; i < 3; i += 1) {
        const failed = await runCheck(monitorId);
        expect(failed).toMatchObject({ state: 'failed', cost_units: 0, changes: [] });
      }
      page = { price: 900 };
      // Past the breaker's cooldown (it opened on the failures): the next fetch is its probe.
      await sleep(300);
      const back = await runCheck(monitorId);
      expect(back, JSON.stringify(back)).toMatchObject({ state: 'completed', changes: [], rules_hit: [] });
      await world.receiver.waitFor(
        'the monitor.check.failed delivery',
        (ds) => ds.some((d) => d.json?.type === 'monitor.check.failed'),
        30_000,
      );
      await sleep(1500);
      const types = world.receiver.deliveries().map((d) => d.type);
      expect(types.filter((t) => t === 'monitor.check.failed')).toHaveLength(1);
      expect(types.filter((t) => t === 'monitor.alert')).toHaveLength(1);
      const failed = world.receiver.deliveries().find((d) => d.json?.type === 'monitor.check.failed')!;
      expect(failed.json.data).toMatchObject({ failures_in_a_row: 3, target_id: expect.stringMatching(/^tgt_/) });
      // The alert and the failure as received are the bodies the OpenAPI document publishes for their types.
      const bodies = world.receiver.deliveries().map((d): unknown => d.json);
      expect(await unpublishedWebhookBodies(baseUrl, bodies)).toEqual([]);
    }, 180_000);

    it('the ledger holds exactly the completed checks × their cost; failed checks cost nothing', async () => {
      const checks = (await api(baseUrl, 'GET', `/v1/monitors/${monitorId}/checks?limit=100`, undefined, key)).body
        .checks as any[];
      const completed = checks.filter((c) => c.state === 'completed');
      expect(completed).toHaveLength(3);
      expect(checks.filter((c) => c.state === 'failed').every((c) => c.cost_units === 0)).toBe(true);
      const [ledger] = await world.tables.rows<{ n: number; s: number }>(
        'SELECT count(*) AS n, sum(credits) AS s FROM credit_ledger WHERE account_id = $1',
        [accountId],
      );
      expect(Number(ledger!.s)).toBe(
        completed.reduce((sum: number, c: { cost_units: number }) => sum + c.cost_units, 0),
      );
      expect(Number(ledger!.n)).toBe(3);
      const usage = await api(baseUrl, 'GET', '/v1/usage', undefined, key);
      expect(usage.body.credits.used).toBe(3);
    });

    it('history and the monitor: watched values only; the page’s title is nowhere at rest or in the log', async () => {
      const history = await api(baseUrl, 'GET', `/v1/monitors/${monitorId}/history`, undefined, key);
      expect(history.status).toBe(200);
      expect((history.body.points as { price: number }[]).map((p) => p.price)).toEqual([1000, 900]);
      expect(history.body.stats.price).toMatchObject({ min: 900, max: 1000 });
      const csv = await fetch(`${baseUrl}/v1/monitors/${monitorId}/history?format=csv`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = (await csv.text())
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]!.split(',')[0]).toBe('t');
      expect(lines).toHaveLength(3);
      const got = await api(baseUrl, 'GET', `/v1/monitors/${monitorId}`, undefined, key);
      expect(got.body.monitor.targets[0].last).toMatchObject({ price: 900 });
      expect(holding(await world.atRest(), marker)).toEqual([]);
      const log = world.instances[0]!.output();
      for (const secret of [chatworkToken, lineToken, 'zq8Xw3v9NbKumoSlackSecret42']) expect(log).not.toContain(secret);
    });

    it('another account sees none of it; DELETE purges every row kept for the monitor', async () => {
      const other = await world.newKey('growth');
      expect((await api(baseUrl, 'GET', `/v1/monitors/${monitorId}`, undefined, other.key)).status).toBe(404);
      expect((await api(baseUrl, 'DELETE', `/v1/monitors/${monitorId}`, undefined, other.key)).status).toBe(404);
      const deleted = await api(baseUrl, 'DELETE', `/v1/monitors/${monitorId}`, undefined, key);
      expect(deleted.status).toBe(200);
      expect((await api(baseUrl, 'GET', `/v1/monitors/${monitorId}`, undefined, key)).status).toBe(404);
      for (const table of ['monitors', 'monitor_targets', 'monitor_checks', 'monitor_history', 'monitor_events']) {
        const [row] = await world.tables.rows<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
        expect(Number(row!.n), table).toBe(0);
      }
    });

    it('refuses what the plan or the contract does not allow, naming the numbers', async () => {
      const free = await world.newKey('free');
      const tooOften = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        { targets: [{ url: itemUrl }], schedule: { every_minutes: 60 } },
        free.key,
      );
      expect(tooOften.status).toBe(422);
      expect(tooOften.body.code).toBe('monitor_limit_exceeded');
      expect(tooOften.body.detail).toMatch(/360/);
      const history = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        { targets: [{ url: itemUrl }], schedule: { every_minutes: 360 }, history: { retain_days: 90 } },
        free.key,
      );
      expect(history.status).toBe(422);
      expect(history.body.detail).toMatch(/30 days/);
      const cron = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        { targets: [{ url: itemUrl }], schedule: { cron: 'every day at nine' } },
        key,
      );
      expect(cron.status).toBe(400);
      expect(cron.body.code).toBe('invalid_request');
      const badRule = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        {
          targets: [{ url: itemUrl }],
          schedule: { every_minutes: 60 },
          rules: [{ id: 'x', when: { field: 'availability', lte: 3 } }],
        },
        key,
      );
      expect(badRule.status).toBe(400);
      const unsupported = await api(
        baseUrl,
        'POST',
        '/v1/monitors',
        { targets: [{ url: 'https://example.com/item/1' }], schedule: { every_minutes: 60 } },
        key,
      );
      expect(unsupported.status).toBe(422);
      expect(unsupported.body.code).toBe('site_not_supported');
      const noKey = await api(baseUrl, 'GET', '/v1/monitors', undefined, null);
      expect(noKey.status).toBe(401);
    });

    it('Idempotency-Key: retries, even at once on every instance, make one monitor; another body conflicts', async () => {
      const { key: own, accountId: ownAccount } = await world.newKey('starter');
      const body = { name: '再送', targets: [{ url: itemUrl, ref: 'R-1' }], schedule: { every_minutes: 1440 } };
      const headers = { 'idempotency-key': 'monitor-create-0001' };
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => {
          const base = world.instances[i % world.instances.length]!.baseUrl;
          return api(base, 'POST', '/v1/monitors', body, own, headers);
        }),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
      const ids = new Set(answers.map((a) => a.body.monitor.id as string));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
      const [made] = await world.tables.rows<{ n: number }>(
        'SELECT count(*) AS n FROM monitors WHERE account_id = $1',
        [ownAccount],
      );
      expect(Number(made!.n)).toBe(1);
      const other = await api(baseUrl, 'POST', '/v1/monitors', { ...body, name: '別物' }, own, headers);
      expect([other.status, other.body.code, other.body.monitor_id]).toEqual([
        422,
        'idempotency_conflict',
        [...ids][0],
      ]);
      const bad = await api(baseUrl, 'POST', '/v1/monitors', body, own, { 'idempotency-key': 'k'.repeat(256) });
      expect([bad.status, bad.body.code]).toEqual([400, 'invalid_request']);
      // Deleting the monitor frees the key.
      await api(baseUrl, 'DELETE', `/v1/monitors/${[...ids][0]}`, undefined, own);
      const again = await api(baseUrl, 'POST', '/v1/monitors', body, own, headers);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body.monitor.id).not.toBe([...ids][0]);
    });
  });
}
