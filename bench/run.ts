// `npm run bench`: Kumo through its HTTP API against the floor (fetch + parse only) and a Crawlee peer, on one machine.
// Runs on Node 24's own TypeScript stripping; options: --quick, --levels 1,16,128, --only floor,kumo,peer,
// --pages all|real, --cluster N, --profile DIR, --rounds N.
import { spawn, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startOrigin, connectToSpec, type Origin, type OriginHandler } from '../test/support/origin.ts';
import { startKumo, scrape, repoRoot, testKey, kumoCli, type KumoProcess } from '../test/support/kumo-process.ts';
import { closedLoop, countOption, protocolLine, type ChildJob, type Target, type WindowResult } from './load.ts';
import { loadPages, type BenchPage } from './pages.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    levels: { type: 'string', default: '1,16,128' },
    only: { type: 'string', default: 'floor,kumo,peer' },
    /** `real`: the corpus pages only (the large pages the issue's targets speak of); default `all`. */
    pages: { type: 'string', default: 'all' },
    /** Kumo as a node:cluster of N processes (bench/cluster.ts), each with one extraction worker, not one process. */
    cluster: { type: 'string' },
    /** A folder: the server (main thread and extraction workers) writes V8 CPU profiles there (bench/profile.ts). */
    profile: { type: 'string' },
    /** Extra environment for the Kumo server, `A=1,B=2` (experiments: worker count, V8 flags). */
    'server-env': { type: 'string' },
    /** Windows per contender and level, taken in turn (floor, Kumo, peer, floor, …); the median is reported.
     * A shared VM's speed drifts by ±20 % within minutes: one window each would compare the drift. */
    rounds: { type: 'string' },
  },
});
const levels = args.levels.split(',').map(Number);
const contenders = new Set(args.only.split(','));
const rounds = countOption('rounds', args.rounds ?? (args.quick ? '1' : '3'));
/** Measured pages per concurrency level; each contender warms up on a quarter as many first. */
const totalAt = (c: number): number =>
  (args.quick ? { 1: 40, 16: 240, 128: 400 } : { 1: 150, 16: 800, 128: 1200 })[c] ?? c * 10;
/** A Growth key may hold 20 calls in flight (DESIGN §3); more callers spread over more accounts. */
const callersPerKey = 20;

const dist = (file: string) => path.join(repoRoot, 'dist', file);
const corpusDir = path.resolve(repoRoot, '../shared/corpus/real');
const set = await loadPages(dist, corpusDir);
if (args.pages === 'real') set.pages = set.pages.filter((page) => page.source === 'corpus');
if (!set.corpusAvailable) console.log(`note: ${corpusDir} is absent; real pages skipped, in-project fixtures only`);
if (set.pages.length === 0) {
  console.log('bench skipped: no HTML fixtures found');
  process.exit(0);
}

// One origin per host, answering by path and query: Kumo reaches it under the real hostname (KUMO_CONNECT_TO), the
// floor and the peer at its loopback address; the bytes are the same.
const origins = new Map<string, { origin: Origin; pages: Map<string, BenchPage> }>();
for (const page of set.pages) {
  const url = new URL(page.url);
  let host = origins.get(url.hostname);
  if (!host) {
    const pages = new Map<string, BenchPage>();
    // Idle sockets kept as a real site keeps them (Node's default 5 s), so that every contender reuses its connections.
    host = { origin: await startOrigin({ keepAliveTimeoutMs: 5_000 }), pages };
    origins.set(url.hostname, host);
  }
  host.pages.set(url.pathname + url.search, page);
  const pages = host.pages;
  const answer: OriginHandler = (req, res) => {
    const hit = pages.get(req.url ?? '');
    if (!hit) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit.contentType }).end(hit.body);
  };
  host.origin.route('GET', url.pathname, answer);
}
const targetOf = (page: BenchPage): Target => {
  const url = new URL(page.url);
  return { url: origins.get(url.hostname)!.origin.url + url.pathname + url.search };
};

// --- measuring a process: CPU time and resident memory from /proc (Linux) ---

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The process and its descendants (a cluster's primary and its workers; threads are counted with their process). */
function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').trim();
        if (children) all.push(...children.split(' ').map(Number));
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return all;
}

function cpuMs(root: number): number {
  return tree(root).reduce((sum, pid) => sum + cpuMsOf(pid), 0);
}

function cpuMsOf(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

function rssMb(root: number): number {
  return tree(root).reduce((sum, pid) => sum + rssMbOf(pid), 0);
}

function rssMbOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface Measured extends WindowResult {
  cpuMs: number;
  peakRssMb: number;
}

/** Samples the process's RSS every 25 ms while `window` runs; CPU is the difference across it. */
async function measure(pid: number, window: () => Promise<WindowResult>): Promise<Measured> {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  const cpu0 = cpuMs(pid);
  const result = await window();
  const cpu1 = cpuMs(pid);
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { ...result, cpuMs: cpu1 - cpu0, peakRssMb: peak };
}

/** Runs bench/floor.ts or bench/peer.ts as its own process and measures its window. */
async function runChild(script: string, job: ChildJob, cwd: string): Promise<Measured> {
  const jobFile = path.join(cwd, 'job.json');
  await writeFile(jobFile, JSON.stringify(job));
  const child = spawn(process.execPath, [path.join(repoRoot, 'bench', script), jobFile], {
    cwd,
    env: { PATH: process.env.PATH ?? '', CRAWLEE_STORAGE_DIR: path.join(cwd, 'storage') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    for (;;) {
      const line = await lines.next();
      if (line.done) throw new Error(`${script} ended early (exit ${await exited})`);
      const message = protocolLine(line.value);
      if (message !== null) return message;
    }
  };
  if ((await next()) !== 'warm') throw new Error(`${script}: unexpected handshake`);
  const measured = await measure(child.pid!, async () => {
    child.stdin.write('go\n');
    return JSON.parse(await next()) as WindowResult;
  });
  child.stdin.end('exit\n');
  await exited;
  return measured;
}

// --- Kumo: the built server, a Growth key per 20 callers ---

function serverEnv(spec: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of (spec ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

async function startKumoForBench(): Promise<{ kumo: KumoProcess; keys: string[] }> {
  const kumo = await startKumo(
    {
      KUMO_CONNECT_TO: connectToSpec(Object.fromEntries([...origins].map(([host, o]) => [host, o.origin.url]))),
      KUMO_BOOTSTRAP_PLAN: 'growth',
      // An operator's explicit politeness override for hosts it owns (DESIGN §7): the origin is ours.
      KUMO_HOST_MAX_IN_FLIGHT: '256',
      KUMO_HOST_MIN_INTERVAL_MS: '0',
      ...(args.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(args.profile)}` } : {}),
      ...(args.cluster ? { KUMO_EXTRACT_WORKERS: '1' } : {}),
      ...serverEnv(args['server-env']),
    },
    args.cluster ? { entry: path.join(repoRoot, 'bench', 'cluster.ts') } : {},
  );
  const keys = [testKey];
  const needed = Math.ceil(Math.max(...levels) / callersPerKey);
  while (keys.length < needed) {
    const created = (await kumoCli(kumo.dataDir, ['keys', 'create', '--plan', 'growth', '--json'])) as { key: string };
    keys.push(created.key);
  }
  return { kumo, keys };
}

/** Kumo's refusals and errors by status and code, over the whole run (warm-ups included). */
const kumoFailures = new Map<string, number>();

function kumoCall(kumo: KumoProcess, keys: string[], pages: BenchPage[]) {
  return async (i: number, caller: number): Promise<boolean> => {
    const page = pages[i % pages.length]!;
    const res = await scrape(
      kumo.baseUrl,
      { url: page.url, ...(page.workType ? { params: { work_type: page.workType } } : {}) },
      keys[Math.floor(caller / callersPerKey) % keys.length],
    );
    const ok = res.status === 200 && (res.body as { data: unknown }).data !== null;
    if (!ok) {
      const why = `${res.status} ${(res.body as { code?: string } | null)?.code ?? ''}`.trim();
      kumoFailures.set(why, (kumoFailures.get(why) ?? 0) + 1);
    }
    return ok;
  };
}

// --- the run ---

const scratch = await mkdtemp(path.join(os.tmpdir(), 'kumo-bench-'));
const results = new Map<number, Map<string, Measured[]>>();
let pages = set.pages;
const dropped: string[] = [];
let kumo: { kumo: KumoProcess; keys: string[] } | null = null;
try {
  if (contenders.has('kumo')) {
    kumo = await startKumoForBench();
    // Every page once: a page type this build does not serve here (coverage, environment) is left out for all three.
    const served: BenchPage[] = [];
    for (const page of pages) {
      const ok = await kumoCall(kumo.kumo, kumo.keys, [page])(0, 0);
      if (ok) served.push(page);
      else dropped.push(`${page.site}/${page.fixture}`);
    }
    pages = served;
  }
  const targets = pages.map(targetOf);
  for (const c of levels) {
    const total = totalAt(c);
    const warmup = Math.max(c, Math.round(total / 4));
    const row = new Map<string, Measured[]>();
    results.set(c, row);
    const add = (name: string, m: Measured) => row.set(name, [...(row.get(name) ?? []), m]);
    const job: ChildJob = { targets, concurrency: c, total, warmup };
    const call = kumo ? kumoCall(kumo.kumo, kumo.keys, pages) : null;
    // Kumo's server stays up between windows, so it warms up once per level; floor and peer start warm each time.
    if (kumo && call) await closedLoop(c, warmup, call);
    for (let round = 0; round < rounds; round++) {
      if (contenders.has('floor')) add('floor', await runChild('floor.ts', job, scratch));
      if (kumo && call)
        add(
          args.cluster ? `kumo (cluster of ${args.cluster})` : 'kumo',
          await measure(kumo.kumo.pid, () => closedLoop(c, total, call)),
        );
      if (contenders.has('peer')) add('peer', await runChild('peer.ts', job, scratch));
    }
    console.error(`concurrency ${c} done`);
  }
} finally {
  await kumo?.kumo.stop();
  await kumo?.kumo.cleanup();
  for (const { origin } of origins.values()) await origin.close();
  await rm(scratch, { recursive: true, force: true });
}

// --- the report: markdown to paste into docs/benchmarks.md ---

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const rate = (m: Measured) => (m.latencies.length / m.elapsedMs) * 1000;
/** The window with the median pages/s: its latencies, CPU and memory are reported together, as measured. */
const median = (windows: Measured[]): Measured =>
  [...windows].sort((a, b) => rate(a) - rate(b))[(windows.length - 1) >> 1]!;
const spread = (windows: Measured[]): string =>
  windows.length < 2
    ? ''
    : ` (${Math.min(...windows.map(rate)).toFixed(0)}–${Math.max(...windows.map(rate)).toFixed(0)})`;
const sizes = pages.map((p) => p.body.length);
const real = pages.filter((p) => p.source === 'corpus');
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot }).toString().trim();
} catch {
  // Not a git checkout (a deployed build): the report says so.
}
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `Node ${process.version}; load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log(`date: ${new Date().toISOString()}; commit ${commit}${args.quick ? '; quick mode' : ''}`);
console.log(
  `pages: ${pages.length} HTML pages of ${new Set(pages.map((p) => p.site)).size} sites, in rotation ` +
    `(${real.length} real corpus pages, ${pages.length - real.length} in-project fixtures); size median ` +
    `${(quantile(sizes, 0.5) / 1024).toFixed(0)} KB, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(0)} KB, ` +
    `largest ${(Math.max(...sizes) / 1024).toFixed(0)} KB`,
);
if (set.skipped.length > 0) console.log(`left out: ${set.skipped.join('; ')}`);
if (kumoFailures.size > 0)
  console.log(
    `Kumo's failed calls, by status and code: ${[...kumoFailures].map(([k, n]) => `${n} × ${k}`).join(', ')}`,
  );
if (dropped.length > 0) console.log(`not served by this build here (left out for all): ${dropped.join(', ')}`);
console.log('');
for (const [c, row] of results) {
  console.log(
    `**Concurrency ${c}** (${totalAt(c)} pages measured after a warm-up; ` +
      (rounds > 1 ? `the median of ${rounds} windows taken in turn, their range in brackets)` : 'one window)'),
  );
  console.log('');
  console.log('| contender | pages/s | p50 ms | p99 ms | CPU ms/page | peak RSS MB | failed |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, windows] of row) {
    const m = median(windows);
    console.log(
      `| ${name} | ${rate(m).toFixed(1)}${spread(windows)} | ${quantile(m.latencies, 0.5).toFixed(1)} | ` +
        `${quantile(m.latencies, 0.99).toFixed(1)} | ${(m.cpuMs / m.latencies.length).toFixed(2)} | ` +
        `${m.peakRssMb.toFixed(0)} | ${windows.reduce((sum, w) => sum + w.failures, 0)} |`,
    );
  }
  const floor = row.get('floor');
  const k = row.get('kumo') ?? row.get(`kumo (cluster of ${args.cluster})`);
  const peer = row.get('peer');
  // Each round's windows were taken minutes apart at most, so a ratio within a round cancels most of the VM's
  // drift: the median of the rounds' ratios is reported, their range in brackets.
  const perRound = (a: Measured[], b: Measured[], of: (x: Measured, y: Measured) => number, digits: number) => {
    const values = a.map((x, i) => of(x, b[i]!)).sort((p, q) => p - q);
    const mid = values[(values.length - 1) >> 1]!.toFixed(digits);
    return values.length < 2 ? mid : `${mid} (${values[0]!.toFixed(digits)}–${values.at(-1)!.toFixed(digits)})`;
  };
  const ratios: string[] = [];
  if (k && floor) {
    ratios.push(`Kumo/floor ${perRound(k, floor, (x, y) => rate(x) / rate(y), 2)}×`);
    const p99 = (m: Measured) => quantile(m.latencies, 0.99);
    ratios.push(`p99 added ${perRound(k, floor, (x, y) => p99(x) - p99(y), 1)} ms`);
  }
  if (k && peer) ratios.push(`Kumo/peer ${perRound(k, peer, (x, y) => rate(x) / rate(y), 2)}×`);
  if (ratios.length > 0) console.log(`\n${ratios.join('; ')}`);
  console.log('');
}
const failed = [...results.values()].some((row) => [...row.values()].flat().some((m) => m.failures > 0));
if (failed) process.exitCode = 1;
