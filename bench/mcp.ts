// `npm run bench:mcp`: what MCP adds to a call. The same fixture page through POST /v1/scrape and through the
// `scrape` tool on POST /mcp (2025 era: one stateless JSON-RPC POST; 2026-07-28 era: the SDK client), sequential,
// interleaved so both see the same machine; p50 and p90 of each and the p50 difference (research target ≤ 5 ms).
// Options: --calls N (per way, default 300).
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startOrigin, connectToSpec } from '../test/support/origin.ts';
import { startKumo, kumoCli } from '../test/support/kumo-process.ts';
import { itemPage } from '../test/support/pages.ts';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '300' } } });
const calls = Number(args.calls);
if (!(calls > 0)) {
  console.error('--calls takes a positive number');
  process.exit(2);
}

const origin = await startOrigin({ keepAliveTimeoutMs: 5_000 });
origin.route('GET', '/robots.txt', { status: 404 });
const page = itemPage();
origin.route('GET', '/c/c-/kb/kb01/kb011427/750001', {
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: page,
});
const url = 'https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750001';
const kumo = await startKumo({
  KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }),
  KUMO_HOST_MAX_IN_FLIGHT: '256',
  KUMO_HOST_MIN_INTERVAL_MS: '0',
});

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

try {
  const { key } = (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string };
  const auth = { authorization: `Bearer ${key}` };

  const rest = async () => {
    const res = await fetch(`${kumo.baseUrl}/v1/scrape`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    const body = (await res.json()) as { cost_units: number };
    if (res.status !== 200 || body.cost_units !== 1) throw new Error(`REST answered ${res.status}`);
  };
  let id = 0;
  const legacy = async () => {
    const res = await fetch(`${kumo.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: 'scrape', arguments: { url } },
      }),
    });
    const body = (await res.json()) as { result?: { structuredContent?: { cost_units: number } } };
    if (body.result?.structuredContent?.cost_units !== 1) throw new Error(`MCP answered ${res.status}`);
  };
  const client = new Client(
    { name: 'kumo-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${kumo.baseUrl}/mcp`), { requestInit: { headers: auth } }),
  );
  const modern = async () => {
    const result = await client.callTool({ name: 'scrape', arguments: { url } });
    if ((result.structuredContent as { cost_units?: number }).cost_units !== 1) throw new Error('MCP call failed');
  };

  const ways = { 'POST /v1/scrape': rest, 'MCP 2025 (raw POST)': legacy, 'MCP 2026-07-28 (SDK client)': modern };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  // Warm-up: JIT, connections, the extraction workers.
  for (let i = 0; i < 20; i++) for (const run of Object.values(ways)) await run();
  for (let i = 0; i < calls; i++) {
    for (const [name, run] of Object.entries(ways)) {
      const started = performance.now();
      await run();
      times[name]!.push(performance.now() - started);
    }
  }
  await client.close();

  const restP50 = quantile(times['POST /v1/scrape']!, 0.5);
  console.log(`${calls} calls each, interleaved, sequential; item page ${page.length} bytes; Node ${process.version}`);
  console.log('| way | p50 ms | p90 ms | p50 over REST ms |');
  console.log('|---|---|---|---|');
  for (const [name, values] of Object.entries(times)) {
    const p50 = quantile(values, 0.5);
    console.log(
      `| ${name} | ${p50.toFixed(2)} | ${quantile(values, 0.9).toFixed(2)} | ${name.startsWith('POST') ? '—' : (p50 - restP50).toFixed(2)} |`,
    );
  }
} finally {
  await kumo.stop();
  await kumo.cleanup();
  await origin.close();
}
