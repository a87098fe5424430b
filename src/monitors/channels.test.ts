// Slack, ChatWork and LINE requests as the vendors' servers receive them (local receivers under the real hostnames).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConnectTo } from '../fetch/connect-to.js';
import { WebhookTransport, type SendOutcome } from '../webhooks/webhook-transport.js';
import {
  channelOutcome,
  channelProblems,
  channelRequest,
  lineText,
  lineTextLimit,
  maskedChannel,
  retryKeyUuid,
  sendToChannel,
  type Channel,
  type ChannelKind,
  type ChannelOutcome,
} from './channels.js';
import { renderMessage } from './messages.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  port: number;
  requests: Received[];
  close(): Promise<void>;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(req, res);
    });
  });
  const state: Receiver = {
    port: 0,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  open.push(state);
  return state;
}

/** A real transport whose KUMO_CONNECT_TO sends the three vendors' hosts to the local receiver (as operators do). */
function transportTo(port: number, timeoutMs = 5_000): WebhookTransport {
  const origin = `http://127.0.0.1:${port}`;
  const t = new WebhookTransport({
    timeoutMs,
    connectTo: parseConnectTo(`hooks.slack.com=${origin},api.chatwork.com=${origin},api.line.me=${origin}`),
  });
  open.push(t);
  return t;
}

function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino({ level: 'trace' }, sink), lines };
}

const slackSecret = 'xOxSlackSecret0123456789';
const slack: Channel = { kind: 'slack', webhookUrl: `https://hooks.slack.com/services/T0001/B0002/${slackSecret}` };
const chatworkToken = 'cwtok0123456789abcdef0123456789ab';
const chatwork: Channel = { kind: 'chatwork', roomId: '123456789', token: chatworkToken };
const lineToken = 'LiNeToKeN+abc/def0123456789=ZYXWVUTSRQ';
const lineTo = 'U0123456789abcdef0123456789abcdef';
const line: Channel = { kind: 'line', to: lineTo, channelAccessToken: lineToken };
const eventId = 'evt_01JE3ABCDEF';

const message = renderMessage(
  'monitor.alert',
  {
    monitor_id: 'mon_1',
    monitor_name: 'イヤホン <競合> & [toall]',
    check_id: 'chk_1',
    target_id: 'tgt_1',
    ref: 'SKU-1',
    url: 'https://item.rakuten.co.jp/shop/a/?x=1&y=2',
    site: 'rakuten_ichiba',
    observed_at: '2026-11-27T04:03:04Z',
    previous_at: null,
    rules_hit: ['drop5'],
    changes: [{ field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 }],
    current: { price: 11800, price_tax: 'included', points: 118, shipping: 'free', availability: 'in_stock' },
    request_id: null,
    cost_units: 1,
  },
  'ja',
);

describe('the vendors receive their exact requests', () => {
  it('Slack: a JSON POST to the webhook URL, mrkdwn text with the title bold and &, <, > escaped', async () => {
    const r = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    const outcome = await sendToChannel(transportTo(r.port), slack, message, eventId);
    expect(outcome).toEqual({ result: 'delivered', status: 200 });
    expect(r.requests).toHaveLength(1);
    const [request] = r.requests;
    expect(request).toMatchObject({ method: 'POST', url: `/services/T0001/B0002/${slackSecret}` });
    expect(request!.headers.host).toBe('hooks.slack.com');
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(request!.body)).toEqual({
      text:
        '*【値下がり】イヤホン &lt;競合&gt; &amp; [toall]*\n' +
        message.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    });
    expect(JSON.parse(request!.body).text).toContain('価格: ¥12,800 → ¥11,800（−1,000円, −7.8%）');
    expect(JSON.parse(request!.body).text).toContain('https://item.rakuten.co.jp/shop/a/?x=1&amp;y=2');
  });

  it('ChatWork: a form POST with X-ChatWorkToken, `body` an info box whose tags a name cannot fake', async () => {
    const r = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const outcome = await sendToChannel(transportTo(r.port), chatwork, message, eventId);
    expect(outcome).toEqual({ result: 'delivered', status: 200 });
    const [request] = r.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v2/rooms/123456789/messages' });
    expect(request!.headers.host).toBe('api.chatwork.com');
    expect(request!.headers['x-chatworktoken']).toBe(chatworkToken);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.authorization).toBeUndefined();
    const form = new URLSearchParams(request!.body);
    expect([...form.keys()]).toEqual(['body']);
    const zw = '\u200B';
    expect(form.get('body')).toBe(
      `[info][title]【値下がり】イヤホン <競合> & [${zw}toall][/title]` +
        message.text.replace('[toall]', `[${zw}toall]`) +
        '[/info]',
    );
    expect(request!.body).not.toContain(chatworkToken);
  });

  it('LINE: a push with the Bearer token, the retry key from the event id, and {to, messages: [text]}', async () => {
    const r = await receiver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const t = transportTo(r.port);
    expect(await sendToChannel(t, line, message, eventId)).toEqual({ result: 'delivered', status: 200 });
    const [request] = r.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v2/bot/message/push' });
    expect(request!.headers.host).toBe('api.line.me');
    expect(request!.headers.authorization).toBe(`Bearer ${lineToken}`);
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request!.headers['x-line-retry-key']).toBe(retryKeyUuid(eventId));
    expect(JSON.parse(request!.body)).toEqual({
      to: lineTo,
      messages: [{ type: 'text', text: `${message.title}\n${message.text}` }],
    });
    // A retry of the same event carries the same key (LINE then answers 409 and shows it once).
    await sendToChannel(t, line, message, eventId);
    expect(r.requests[1]!.headers['x-line-retry-key']).toBe(request!.headers['x-line-retry-key']);
  });

  it('keeps every token out of the log lines and out of maskedChannel', async () => {
    const r = await receiver((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{}'));
    const t = transportTo(r.port);
    const { log, lines } = capturedLogger();
    for (const channel of [slack, chatwork, line]) {
      expect(await sendToChannel(t, channel, message, eventId, log)).toEqual({ result: 'give_up', status: 401 });
    }
    expect(r.requests).toHaveLength(3);
    expect(lines).toHaveLength(3);
    for (const [index, kind] of ['slack', 'chatwork', 'line'].entries()) {
      expect(JSON.parse(lines[index]!)).toMatchObject({ level: 40, channel: kind, result: 'give_up', status: 401 });
    }
    const logged = lines.join('');
    const masks = JSON.stringify([maskedChannel(slack), maskedChannel(chatwork), maskedChannel(line)]);
    // The Slack URL's path is its credential: neither its ids nor its secret part may show.
    for (const secret of [slackSecret, 'T0001/B0002', chatworkToken, lineToken]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(secret.slice(0, 8));
      expect(masks).not.toContain(secret);
      expect(masks).not.toContain(secret.slice(0, 8));
    }
    expect(logged).not.toContain('hooks.slack.com');
    expect(maskedChannel(slack)).toEqual({ kind: 'slack', webhook_url: 'https://hooks.slack.com/services/…6789' });
    expect(maskedChannel(chatwork)).toEqual({ kind: 'chatwork', room_id: '123456789', token: '…89ab' });
    expect(maskedChannel(line)).toEqual({ kind: 'line', to: lineTo, channel_access_token: '…TSRQ' });
    expect(maskedChannel({ kind: 'chatwork', roomId: '1', token: 'short1234' }).token).toBe('…');
  });
});

describe('outcomes over the wire', () => {
  it('retries a 503 (Retry-After), a 429, no connection and a timeout; gives up on a redirect', async () => {
    let answer: (res: http.ServerResponse) => void = (res) => res.writeHead(503, { 'retry-after': '30' }).end();
    const r = await receiver((_req, res) => answer(res));
    const t = transportTo(r.port, 400);
    expect(await sendToChannel(t, chatwork, message, eventId)).toEqual({
      result: 'retry',
      status: 503,
      retryAfterMs: 30_000,
    });
    answer = (res) => res.writeHead(429).end();
    expect(await sendToChannel(t, slack, message, eventId)).toEqual({ result: 'retry', status: 429 });
    answer = (res) => res.writeHead(409).end();
    expect(await sendToChannel(t, line, message, eventId)).toEqual({ result: 'delivered', status: 409 });
    expect(await sendToChannel(t, chatwork, message, eventId)).toEqual({ result: 'give_up', status: 409 });
    answer = (res) => res.writeHead(302, { location: 'https://example.com/' }).end();
    expect(await sendToChannel(t, slack, message, eventId)).toEqual({ result: 'give_up', status: 302 });
    answer = () => undefined;
    expect(await sendToChannel(t, line, message, eventId)).toEqual({ result: 'retry', status: null });
    const port = r.port;
    await r.close();
    open.splice(open.indexOf(r), 1);
    expect(await sendToChannel(transportTo(port), chatwork, message, eventId)).toEqual({
      result: 'retry',
      status: null,
    });
  });

  it('gives up, unconnected, when hooks.slack.com resolves to a private address (the address policy)', async () => {
    const t = new WebhookTransport({
      timeoutMs: 2_000,
      connectTo: new Map(),
      lookup: async () => [{ address: '10.0.0.8', family: 4 }],
    });
    open.push(t);
    const outcome = await sendToChannel(
      t,
      { kind: 'slack', webhookUrl: 'https://hooks.slack.com/services/a' },
      message,
      'e',
    );
    expect(outcome).toEqual({ result: 'give_up', status: null });
  });
});

describe('channelOutcome', () => {
  it('maps every answer and failure to delivered, retry or give_up', () => {
    const table: [ChannelKind, SendOutcome, ChannelOutcome][] = [
      ['slack', { kind: 'answered', status: 200 }, { result: 'delivered', status: 200 }],
      ['chatwork', { kind: 'answered', status: 204 }, { result: 'delivered', status: 204 }],
      ['line', { kind: 'answered', status: 409 }, { result: 'delivered', status: 409 }],
      ['slack', { kind: 'answered', status: 409 }, { result: 'give_up', status: 409 }],
      ['slack', { kind: 'answered', status: 500 }, { result: 'retry', status: 500 }],
      ['line', { kind: 'answered', status: 503, retryAfterMs: 5 }, { result: 'retry', status: 503, retryAfterMs: 5 }],
      [
        'chatwork',
        { kind: 'answered', status: 429, retryAfterMs: 9 },
        { result: 'retry', status: 429, retryAfterMs: 9 },
      ],
      ['line', { kind: 'answered', status: 429 }, { result: 'retry', status: 429 }],
      ['slack', { kind: 'answered', status: 408 }, { result: 'retry', status: 408 }],
      ['slack', { kind: 'answered', status: 400 }, { result: 'give_up', status: 400 }],
      ['chatwork', { kind: 'answered', status: 401 }, { result: 'give_up', status: 401 }],
      ['slack', { kind: 'answered', status: 403 }, { result: 'give_up', status: 403 }],
      ['chatwork', { kind: 'answered', status: 404 }, { result: 'give_up', status: 404 }],
      ['slack', { kind: 'answered', status: 410 }, { result: 'give_up', status: 410 }],
      ['slack', { kind: 'failed', failure: 'connect' }, { result: 'retry', status: null }],
      ['line', { kind: 'failed', failure: 'timeout' }, { result: 'retry', status: null }],
      ['slack', { kind: 'failed', failure: 'forbidden' }, { result: 'give_up', status: null }],
      ['chatwork', { kind: 'failed', failure: 'redirect', status: 301 }, { result: 'give_up', status: 301 }],
    ];
    for (const [kind, outcome, expected] of table) {
      expect(channelOutcome(kind, outcome), `${kind} ${JSON.stringify(outcome)}`).toEqual(expected);
    }
  });
});

describe('channelProblems', () => {
  const hex = '0123456789abcdef0123456789abcdef';
  it('accepts what the vendors issue, and names each field that is wrong without quoting a token', () => {
    const table: [Channel, string[]][] = [
      [slack, []],
      [{ kind: 'slack', webhookUrl: 'https://hooks.slack-gov.com/services/T1/B2/abc' }, []],
      [{ kind: 'slack', webhookUrl: 'http://hooks.slack.com/services/T1/B2/abc' }, ['notify.slack.webhook_url']],
      [
        { kind: 'slack', webhookUrl: 'https://hooks.slack.com.evil.example/services/T1/B2/c' },
        ['notify.slack.webhook_url'],
      ],
      [{ kind: 'slack', webhookUrl: 'https://evil.example/services/T1/B2/abc' }, ['notify.slack.webhook_url']],
      [{ kind: 'slack', webhookUrl: 'https://hooks.slack.com:8443/services/T1/B2/abc' }, ['notify.slack.webhook_url']],
      [{ kind: 'slack', webhookUrl: 'https://u@hooks.slack.com/services/T1/B2/abc' }, ['notify.slack.webhook_url']],
      [{ kind: 'slack', webhookUrl: 'https://hooks.slack.com/triggers/T1/B2/abc' }, ['notify.slack.webhook_url']],
      [{ kind: 'slack', webhookUrl: 'https://hooks.slack.com/services/T1/../x' }, ['notify.slack.webhook_url']],
      [{ kind: 'slack', webhookUrl: 'https://hooks.slack.com/services/T1?x=1' }, ['notify.slack.webhook_url']],
      [
        { kind: 'slack', webhookUrl: `https://hooks.slack.com/services/${'a'.repeat(480)}` },
        ['notify.slack.webhook_url'],
      ],
      [chatwork, []],
      [{ kind: 'chatwork', roomId: '12a', token: 'x' }, ['notify.chatwork.room_id']],
      [{ kind: 'chatwork', roomId: '', token: 'x' }, ['notify.chatwork.room_id']],
      [{ kind: 'chatwork', roomId: '1', token: '' }, ['notify.chatwork.token is required']],
      [{ kind: 'chatwork', roomId: '1', token: 'a'.repeat(201) }, ['notify.chatwork.token is longer than 200']],
      [{ kind: 'chatwork', roomId: '1', token: 'ab cd' }, ['notify.chatwork.token must be printable ASCII']],
      [{ kind: 'chatwork', roomId: '1', token: 'ab\r\nX-Evil: 1' }, ['notify.chatwork.token must be printable']],
      [{ kind: 'chatwork', roomId: '1', token: 'トークン' }, ['notify.chatwork.token must be printable']],
      [line, []],
      [{ kind: 'line', to: `C${hex}`, channelAccessToken: 'a'.repeat(500) }, []],
      [{ kind: 'line', to: `R${hex}`, channelAccessToken: 'x' }, []],
      [{ kind: 'line', to: `X${hex}`, channelAccessToken: 'x' }, ['notify.line.to']],
      [{ kind: 'line', to: `U${hex.toUpperCase()}`, channelAccessToken: 'x' }, ['notify.line.to']],
      [{ kind: 'line', to: `U${hex}0`, channelAccessToken: 'x' }, ['notify.line.to']],
      [
        { kind: 'line', to: 'U1', channelAccessToken: 'a'.repeat(501) },
        ['notify.line.to', 'notify.line.channel_access_token is longer than 500'],
      ],
    ];
    for (const [channel, expected] of table) {
      const problems = channelProblems(channel);
      expect(problems, JSON.stringify(channel)).toHaveLength(expected.length);
      expected.forEach((start, i) => expect(problems[i], JSON.stringify(channel)).toMatch(new RegExp(`^${start}`)));
      const token =
        channel.kind === 'chatwork' ? channel.token : channel.kind === 'line' ? channel.channelAccessToken : '';
      if (token.length > 1) for (const problem of problems) expect(problem).not.toContain(token);
    }
  });
});

describe('request details', () => {
  it('derives a stable RFC 9562 UUID (version 8) per event id for X-Line-Retry-Key', () => {
    const key = retryKeyUuid('evt_1');
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retryKeyUuid('evt_1')).toBe(key);
    expect(retryKeyUuid('evt_2')).not.toBe(key);
  });

  it("cuts a LINE text to LINE's 5,000 characters, never inside a surrogate pair", () => {
    const short = { title: 'T', text: 'x' };
    expect(lineText(short)).toBe('T\nx');
    const long = lineText({ title: 'T', text: 'あ'.repeat(6000) });
    expect(long).toHaveLength(lineTextLimit);
    expect(long.endsWith('あ…')).toBe(true);
    // The cut would fall between the halves of 🍣 (two UTF-16 units): it goes before it instead.
    const emoji = lineText({ title: 'T', text: `${'a'.repeat(lineTextLimit - 6)}🍣🍣🍣` });
    expect(emoji).toBe(`T\n${'a'.repeat(lineTextLimit - 6)}🍣…`);
    expect(emoji).toHaveLength(lineTextLimit - 1);
    const body = JSON.parse(channelRequest(line, { title: 'T', text: 'あ'.repeat(6000) }, 'e').body);
    expect(body.messages[0].text).toHaveLength(lineTextLimit);
  });

  it('puts the room id into the ChatWork path encoded, whatever reached it', () => {
    expect(channelRequest({ kind: 'chatwork', roomId: '1/../x', token: 't' }, message, 'e').url).toBe(
      'https://api.chatwork.com/v2/rooms/1%2F..%2Fx/messages',
    );
  });
});
