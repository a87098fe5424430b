// The README's Quick start key line and call, and its "try it with no internet" commands, run as written (ports
// swapped for free ones): a copied example must make a working key, serve a page and answer with its data.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, startKumo, type KumoProcess } from '../support/kumo-process.js';
import { connectToSpec, startOrigin, type Origin } from '../support/origin.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The fenced sh block after `<!-- example: NAME … -->`, as commands (continuations joined, comments gone). */
function exampleCommands(name = 'local-origin'): string[] {
  const marker = readme.indexOf(`<!-- example: ${name} `);
  expect(marker, `README has the ${name} example`).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker))![1]!;
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `bash -c`, in its own process group so the whole pipeline (npm and its child) can be stopped. With `env`, only PATH,
 * HOME and those: a DATABASE_URL of the machine would send the CLI to another storage than the server's.
 */
function sh(
  command: string,
  env?: Record<string, string>,
): { child: ChildProcess; out: () => string; exited: Promise<number | null> } {
  const child = spawn('bash', ['-c', command], {
    cwd: repoRoot,
    env: env ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } : { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return { child, out: () => out, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

let origin: ReturnType<typeof sh> | undefined;
let kumo: KumoProcess | undefined;
let quickKumo: KumoProcess | undefined;
let quickStart: ReturnType<typeof sh> | undefined;
let shop: Origin | undefined;

afterAll(async () => {
  if (origin?.child.pid && origin.child.exitCode === null) {
    process.kill(-origin.child.pid, 'SIGTERM');
    await origin.exited;
  }
  await kumo?.stop();
  await kumo?.cleanup();
  if (quickStart?.child.pid && quickStart.child.exitCode === null) {
    process.kill(-quickStart.child.pid, 'SIGTERM');
    await quickStart.exited;
  }
  await quickKumo?.stop();
  await quickKumo?.cleanup();
  await shop?.close();
});

describe("the README's Quick start", () => {
  it('sets KUMO_KEY from the key it creates, and the call as written is answered with it (not a 401)', async () => {
    const [keyLine, call, ...rest] = exampleCommands('quick-start');
    expect(rest).toEqual([]);
    expect(keyLine).toMatch(/^export KUMO_KEY=\$\(npm run -s kumo -- keys create .*\)$/);
    expect(call).toMatch(/^curl -s http:\/\/127\.0\.0\.1:8080\/v1\/scrape .*\$KUMO_KEY/);

    // The page of the call, from a local shop under its real hostname (no internet here).
    const url = JSON.parse(/-d '(\{.*\})'/.exec(call!)![1]!).url as string;
    shop = await startOrigin();
    shop.route('GET', new URL(url).pathname, {
      status: 200,
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      body: readFileSync(path.join(repoRoot, 'src/sites/ikebe-gakki/fixtures/modelled-no-json-ld.html')),
    });
    quickKumo = await startKumo({
      KUMO_CONNECT_TO: connectToSpec({ [new URL(url).hostname]: shop.url }),
      KUMO_HOST_MIN_INTERVAL_MS: '0',
    });

    // The two lines in one shell, as a reader pastes them (the key into the server's data folder, as npm start's).
    const port = new URL(quickKumo.baseUrl).port;
    const run = (quickStart = sh(
      `${keyLine}\nprintf 'KUMO_KEY=%s\\n' "$KUMO_KEY"\n${call!.replace('127.0.0.1:8080', `127.0.0.1:${port}`)}`,
      {
        KUMO_DATA_DIR: quickKumo.dataDir,
      },
    ));
    expect(await run.exited, run.out()).toBe(0);
    const [, key, answer] = /KUMO_KEY=(.*)\n([\s\S]*)$/.exec(run.out())!;
    expect(key).toMatch(/^kumo_live_[0-9A-Za-z]+$/);
    const body = JSON.parse(answer!.slice(answer!.indexOf('{')));
    expect(body).toMatchObject({ resolved_site: 'ikebe_gakki', page_type: 'item' });
    expect(body.fetch_summary).toMatchObject({ status: 'completed', http_status: 200 });
  });
});

describe("the README's local-origin example", () => {
  it('serves the saved page at the product path and Kumo extracts it', async () => {
    const [serve, start, call, ...rest] = exampleCommands();
    expect(rest).toEqual([]);
    const originPort = await freePort();
    const withPorts = (command: string) =>
      command.replaceAll('--port 9000', `--port ${originPort}`).replaceAll('127.0.0.1:9000', `127.0.0.1:${originPort}`);

    // 1. The origin, through the CLI as written. The build in front of it already ran (`npm test` builds first);
    // running it again here would rewrite dist/ under the other end-to-end files.
    expect(serve).toMatch(/^npm run -s build && npm run -s kumo -- origin serve /);
    origin = sh(withPorts(serve!.replace(/^npm run -s build && /, '')));
    const deadline = Date.now() + 20_000;
    while (!origin.out().includes('serving ') && Date.now() < deadline) {
      if (origin.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(origin.out()).toContain(`on http://127.0.0.1:${originPort}`);

    // 2. Kumo with the README's settings. `npm start` is the build when dist/ is stale (src/prestart.mjs), then
    // dist/main.js: the latter is started here.
    const words = withPorts(start!).split(/\s+/);
    expect(words.slice(-2)).toEqual(['npm', 'start']);
    const env = Object.fromEntries(
      words.slice(0, -2).map((assignment) => {
        const at = assignment.indexOf('=');
        return [assignment.slice(0, at), assignment.slice(at + 1)];
      }),
    );
    expect(Object.keys(env).sort()).toEqual(['KUMO_BOOTSTRAP_KEY', 'KUMO_CONNECT_TO', 'KUMO_HOST_MIN_INTERVAL_MS']);
    kumo = await startKumo(env);

    // 3. The curl command as written, against the port this server got.
    const port = new URL(kumo.baseUrl).port;
    expect(call).toMatch(/^curl -s http:\/\/127\.0\.0\.1:8080\/v1\/scrape /);
    const curl = sh(call!.replace('127.0.0.1:8080', `127.0.0.1:${port}`));
    expect(await curl.exited).toBe(0);
    const answer = JSON.parse(curl.out());
    expect(answer.fetch_summary).toMatchObject({ status: 'completed', http_status: 200 });
    const expected = JSON.parse(
      readFileSync(path.join(repoRoot, 'src/sites/ikebe-gakki/fixtures/modelled-no-json-ld.expected.json'), 'utf8'),
    );
    expect(answer.data).toEqual(expected);
  });
});
