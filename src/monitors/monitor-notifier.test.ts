// MonitorNotifier with a fake outbox and sender: signed webhook bodies, channel messages in the monitor's language,
// retries on the schedule (Retry-After honoured), giving up on a channel's 4xx and a webhook's 410, no token in any log.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../time/clock.js';
import { AesGcmSecrets } from '../secrets/aes-gcm-secrets.js';
import type { SendOutcome, WebhookSender } from '../webhooks/webhook-transport.js';
import { newSigningSecret } from '../webhooks/signer.js';
import { MonitorNotifier, channelsContext } from './monitor-notifier.js';
import type { DueMonitorDelivery, MonitorStore } from './monitor-store.js';
import type { Channel } from './channels.js';

const secrets = new AesGcmSecrets(randomBytes(32));
const monitorId = 'mon_01TESTMONITOR0000000000000';
const token = 'cw-secret-token-0123456789';
const signingSecret = newSigningSecret();

const alert = {
  monitor_id: monitorId,
  monitor_name: 'WH-1000XM5',
  check_id: 'chk_1',
  target_id: 'tgt_1',
  ref: 'SKU-1',
  url: 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592',
  site: 'ikebe_gakki',
  observed_at: '2026-11-27T04:03:04.000Z',
  previous_at: '2026-11-27T00:02:51.000Z',
  rules_hit: [],
  changes: [{ field: 'price', before: 12800, after: 11800, delta: -1000, delta_pct: -7.81 }],
  current: { price: 11800, price_tax: 'included' },
  request_id: 'req_1',
  cost_units: 1,
};

/** `answers`: by the start of the URL sent to, in order for each (then 200). */
function harness(answers: Record<string, SendOutcome[]> = {}) {
  // Now: the reference verifier checks the signed timestamp against its own clock.
  const clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  const { box, sealed } = secrets.newDataKey(monitorId);
  const channels: Channel[] = [{ kind: 'chatwork', roomId: '42', token }];
  const channelsSealed = box.seal(JSON.stringify(channels), channelsContext(monitorId));
  const due: DueMonitorDelivery[] = (['webhook', 'chatwork'] as const).map((channel, i) => ({
    id: `dlv_${i}`,
    eventId: 'evt_1',
    accountId: 'acc_1',
    monitorId,
    channel,
    attempts: 0,
    type: 'monitor.alert',
    data: JSON.stringify(alert),
    createdAt: new Date(clock.now()).toISOString(),
    channelsSealed,
    dataKeySealed: sealed,
    webhookEndpointId: 'whe_1',
    language: 'ja',
  }));
  const outcomes: string[] = [];
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const logs: string[] = [];
  const disabled: string[] = [];
  const store: Pick<MonitorStore, 'claimDeliveries' | 'delivered' | 'deliveryFailed'> = {
    claimDeliveries: async () => due.splice(0),
    delivered: async (id, _holder, status) => {
      outcomes.push(`${id} delivered ${status}`);
    },
    deliveryFailed: async (id, _holder, status, next) => {
      outcomes.push(`${id} failed ${status} ${next ?? 'give up'}`);
    },
  };
  const sender: WebhookSender = {
    send: async (url, headers, body) => {
      sent.push({ url, headers, body });
      const queue = Object.entries(answers).find(([prefix]) => url.startsWith(prefix))?.[1];
      return queue?.shift() ?? { kind: 'answered', status: 200 };
    },
  };
  const notifier = new MonitorNotifier({
    store,
    endpoints: {
      get: async () => ({
        id: 'whe_1',
        accountId: 'acc_1',
        url: 'https://hooks.example.jp/kumo',
        events: [],
        secretLast4: 'abcd',
        createdAt: '2026-11-01T00:00:00.000Z',
        disabledAt: null,
        disabledReason: null,
      }),
      signingSecrets: async () => [signingSecret],
      disable: async (id, reason) => {
        disabled.push(`${id}: ${reason}`);
      },
    },
    secrets,
    sender,
    clock,
    holder: 'ins_a',
    retryScheduleMs: [60_000],
    timeoutMs: 1000,
    random: () => 0.5,
    log: { warn: (...args: unknown[]) => void logs.push(JSON.stringify(args)) },
  });
  return { notifier, outcomes, sent, logs, clock, disabled };
}

describe('MonitorNotifier', () => {
  it('signs the webhook body (Standard Webhooks) and sends ChatWork its form in Japanese', async () => {
    const { notifier, outcomes, sent } = harness();
    expect(await notifier.runOnce()).toBe(2);
    expect(outcomes.sort()).toEqual(['dlv_0 delivered 200', 'dlv_1 delivered 200']);
    const hook = sent.find((s) => s.url === 'https://hooks.example.jp/kumo')!;
    const verified = new Webhook(signingSecret).verify(hook.body, hook.headers) as { type: string; data: unknown };
    expect(verified).toMatchObject({ type: 'monitor.alert', data: { changes: alert.changes } });
    const chatwork = sent.find((s) => s.url.includes('chatwork'))!;
    expect(chatwork.url).toBe('https://api.chatwork.com/v2/rooms/42/messages');
    expect(chatwork.headers['X-ChatWorkToken'] ?? chatwork.headers['x-chatworktoken']).toBe(token);
    expect(new URLSearchParams(chatwork.body).get('body')).toContain('¥12,800 → ¥11,800（−1,000円, −7.8%）');
  });

  it('retries a webhook’s 503 (Retry-After wins when longer); a channel’s 400 gives up; no token is logged', async () => {
    const { notifier, outcomes, logs, clock } = harness({
      'https://hooks.example.jp/': [{ kind: 'answered', status: 503, retryAfterMs: 120_000 }],
      'https://api.chatwork.com/': [{ kind: 'answered', status: 400 }],
    });
    await notifier.runOnce();
    const retryAt = new Date(clock.now() + 120_000).toISOString();
    expect(outcomes.sort()).toEqual([`dlv_0 failed 503 ${retryAt}`, 'dlv_1 failed 400 give up']);
    expect(logs.join('\n')).not.toContain(token);
    expect(logs.length).toBeGreaterThan(0);
  });

  it('treats the webhook as batch events are treated: a redirect is retried, a 410 retires the endpoint', async () => {
    const redirected = harness({ 'https://hooks.example.jp/': [{ kind: 'failed', failure: 'redirect', status: 301 }] });
    await redirected.notifier.runOnce();
    const retryAt = new Date(redirected.clock.now() + 60_000).toISOString();
    expect(redirected.outcomes.find((o) => o.startsWith('dlv_0'))).toBe(`dlv_0 failed 301 ${retryAt}`);
    expect(redirected.disabled).toEqual([]);

    const gone = harness({ 'https://hooks.example.jp/': [{ kind: 'answered', status: 410 }] });
    await gone.notifier.runOnce();
    expect(gone.outcomes.find((o) => o.startsWith('dlv_0'))).toBe('dlv_0 failed 410 give up');
    expect(gone.disabled).toEqual(['whe_1: the receiver answered 410 Gone']);
  });
});
