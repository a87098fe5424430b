// `npm run bench:webhooks`: webhook latency from an item's event (ready) to the receiver's 2xx, at a steady 50 events/s
// on loopback (issue 20, target p99 ≤ 1 s over 5 minutes). Options: --minutes N (default 1; the figure is 5),
// --rate N (events/s, default 50).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { startOrigin, connectToSpec } from '../test/support/origin.ts';
import { startKumo, kumoCli } from '../test/support/kumo-process.ts';
import { itemPage } from '../test/support/pages.ts';
import { startWebhookReceiver } from '../test/support/webhook-receiver.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    rate: { type: 'string', default: '50' },
  },
});
const minutes = Number(args.minutes);
const rate = Number(args.rate);
if (!(minutes > 0) || !(rate > 0)) {
  console.error('--minutes and --rate take positive numbers');
  process.exit(2);
}

const origin = await startOrigin({ keepAliveTimeoutMs: 5_000 });
const body = itemPage();
origin.route('GET', '/robots.txt', { status: 404 });
const receiver = await startWebhookReceiver();
const hookHost = 'hooks.kumo-bench.example';
const kumo = await startKumo({
  KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url, [hookHost]: receiver.url }),
  KUMO_HOST_MAX_IN_FLIGHT: '256',
  KUMO_HOST_MIN_INTERVAL_MS: '0',
  KUMO_SECRETS_KEY: randomBytes(32).toString('base64'),
});

async function json(
  method: string,
  pathname: string,
  key: string,
  payload?: unknown,
): Promise<{ status: number; body: { endpoint: { id: string; secret: string } } }> {
  const res = await fetch(`${kumo.baseUrl}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as { endpoint: { id: string; secret: string } } };
}

const tick = 200;
const perTick = Math.max(1, Math.round((rate * tick) / 1000));
let submitted = 0;
let refused = 0;
try {
  const { key } = (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string };
  const endpoint = await json('POST', '/v1/webhook-endpoints', key, { url: `https://${hookHost}/bench` });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
  receiver.secrets = [endpoint.body.endpoint.secret];
  const endpointId = endpoint.body.endpoint.id;
  // Items become ready at the submission rate: `perTick` item pages every 200 ms, one batch each.
  const end = performance.now() + minutes * 60_000;
  let n = 0;
  let next = performance.now();
  const pending: Promise<void>[] = [];
  while (performance.now() < end) {
    const items = Array.from({ length: perTick }, () => {
      const path = `/c/c-/kb/kb01/kb011427/${900000 + n++}`;
      origin.route('GET', path, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
      return { url: `https://www.ikebe-gakki.com${path}` };
    });
    pending.push(
      json('POST', '/v1/batches', key, {
        items,
        webhook: { endpoint_id: endpointId, events: ['item.succeeded'] },
      }).then((res) => {
        if (res.status === 202) submitted += items.length;
        else refused += items.length;
      }),
    );
    next += tick;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await Promise.all(pending);
  await receiver.waitFor(
    'every item delivered',
    (d) =>
      new Set(d.filter((x) => x.type === 'item.succeeded' && x.answer.kind === 'status').map((x) => x.itemId)).size >=
      submitted,
    120_000,
  );
} finally {
  await kumo.stop();
  await kumo.cleanup();
  await origin.close();
}

const deliveries = receiver.deliveries().filter((d) => d.type === 'item.succeeded');
await receiver.close();
// Latency: the event's own time (its `timestamp`, written when the item became ready) to the receiver's answer.
const firstByItem = new Map<string, number>();
for (const d of deliveries) {
  if (d.itemId && !firstByItem.has(d.itemId))
    firstByItem.set(d.itemId, d.wallAt - Date.parse((d.json as { timestamp: string }).timestamp));
}
const latencies = [...firstByItem.values()].sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
const unverified = deliveries.filter((d) => d.verifiedBy.length === 0).length;
console.log(`webhooks: ${minutes} min at ${rate} events/s; ${submitted} items submitted, ${refused} refused`);
console.log('');
console.log('| events delivered | p50 ms | p90 ms | p99 ms | max ms | retries | unverified |');
console.log('| ---------------- | ------ | ------ | ------ | ------ | ------- | ---------- |');
console.log(
  `| ${latencies.length} | ${q(0.5).toFixed(0)} | ${q(0.9).toFixed(0)} | ${q(0.99).toFixed(0)} | ${(latencies.at(-1) ?? NaN).toFixed(0)} | ${deliveries.length - latencies.length} | ${unverified} |`,
);
