// Starts the built server (dist/main.js) as a real child process on a free port, for the end-to-end tier.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Node options `npm start` gives the server (package.json: `node <options> dist/main.js`), so tests and benches
 * run it as users do. */
const startOptions = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .slice(1, -1);

export interface KumoProcess {
  baseUrl: string;
  dataDir: string;
  /** The server's process id (the benchmark reads its CPU time and memory from /proc). */
  pid: number;
  /** Everything the process printed (stdout + stderr), for log assertions. */
  output(): string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL: a crash mid-call. */
  kill(): Promise<void>;
  /** Removes the data folder (after stop). */
  cleanup(): Promise<void>;
}

export const testKey = 'kumo_test_e2e_bootstrap_key_0123456789abcdefghijklmnop';

export interface StartOptions {
  dataDir?: string;
  /** The folder holding dist/ (and package.json, node_modules); default this repository. */
  root?: string;
  /** The script to run instead of `<root>/dist/main.js` (the benchmark's cluster launcher). */
  entry?: string;
}

export async function startKumo(env: Record<string, string>, options: StartOptions = {}): Promise<KumoProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'kumo-e2e-')));
  const root = options.root ?? repoRoot;
  const child: ChildProcess = spawn(
    process.execPath,
    [...startOptions, options.entry ?? path.join(root, 'dist/main.js')],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        KUMO_DATA_DIR: dataDir,
        KUMO_BOOTSTRAP_KEY: testKey,
        KUMO_HOST_MAX_IN_FLIGHT: '64',
        KUMO_HOST_MIN_INTERVAL_MS: '0',
        KUMO_FETCH_RETRY_BASE_MS: '10',
        // Tests run as root without user namespaces, where Chromium's sandbox cannot start: off here only (unsafe in
        // production, see KUMO_BROWSER_SANDBOX); a test that checks the sandbox turns it back on.
        KUMO_BROWSER_SANDBOX: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // A bound on a wait, not a measure of start-up: on CI's busy 2-core machine, with several servers, PostgreSQL and
  // Redis starting beside two test workers, building the app once took more than the 20 s this used to be.
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kumo did not start within 60 s:\n${out}`)), 60_000);
    const onData = () => {
      const match = /"address":"(http:\/\/[^"]+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kumo exited with ${code}:\n${out}`));
    });
  });

  return {
    baseUrl,
    dataDir,
    pid: child.pid!,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    cleanup: async () => {
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

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

/** POST /v1/scrape with a key (a string body is sent as is), and any other headers (an Idempotency-Key). */
export async function scrape(
  baseUrl: string,
  body: unknown,
  key: string | null = testKey,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await fetch(`${baseUrl}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return answer(response);
}

export async function call(baseUrl: string, pathname: string, key: string | null = testKey, method = 'GET') {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return answer(response);
}

/** What one run of the `kumo` CLI gave. */
export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the built `kumo` CLI (dist/cli/kumo.js) with only PATH and `env` in its environment, to its exit. */
export async function runKumo(args: string[], env: Record<string, string>, cwd = repoRoot): Promise<CliRun> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/cli/kumo.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

/** Runs the `kumo` CLI against the same data folder; returns its parsed JSON output. */
export async function kumoCli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<any> {
  const { code, out, err } = await runKumo(args, { KUMO_DATA_DIR: dataDir, ...env });
  if (code !== 0) throw new Error(`kumo ${args.join(' ')} exited ${code}: ${err}`);
  return JSON.parse(out);
}
