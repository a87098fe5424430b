// A build deploys on its own (DESIGN §7): dist/ + package.json + node_modules, without src/ or fixtures, serves
// every stable page type, starts with `npm start` as well as `node dist/main.js`, refuses an older Node in one line,
// and a build without its verification record refuses to start instead of every page.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteRegistry } from '../../src/sites/registry.js';
import type { FixtureMeta } from '../../src/sites/verification.js';
import { call, repoRoot, scrape, startKumo, testKey, type KumoProcess } from '../support/kumo-process.js';
import { connectToSpec, startOrigin, type Origin } from '../support/origin.js';

interface Page {
  url: string;
  contentType: string;
  body: Buffer;
  /** What a reviewer expects in `data`, when a fixture says so. */
  expected?: unknown;
}

/**
 * Page types no passing in-project fixture covers (their real pages live in the shared corpus): a page written here
 * in the site's format, values invented. Empty today: every stable page type has a passing modelled fixture.
 */
const written: Record<string, Page> = {};

/** A passing modelled fixture of the page type, read from the source tree by the test (never by the server). */
async function fixturePage(siteFolder: string, pageType: string, registry: SiteRegistry, siteId: string) {
  const dir = path.join(repoRoot, 'src/sites', siteFolder, 'fixtures');
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.meta.json')).sort()) {
    const meta = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as FixtureMeta;
    if (meta.source === 'corpus' || meta.expectError || !meta.page) continue;
    const site = registry.get(siteId)!;
    const type = meta.pageType ?? registry.pageTypeFor(site, new URL(meta.url), 'auto')?.pageType;
    if (type !== pageType) continue;
    const name = file.slice(0, -'.meta.json'.length);
    return {
      url: meta.url,
      contentType: meta.contentType,
      body: await readFile(path.join(dir, meta.page)),
      expected: JSON.parse(await readFile(path.join(dir, `${name}.expected.json`), 'utf8')),
    } satisfies Page;
  }
  return null;
}

const registry = new SiteRegistry();
const stable = registry
  .list()
  .flatMap((site) => site.pageTypes.filter((e) => e.coverage === 'stable').map((e) => ({ site, entry: e })));

let deploy: string;
let kumo: KumoProcess;
const origins = new Map<string, Origin>();
const pages = new Map<string, Page>();

/** A folder holding only what a deployment has: dist/, package.json and node_modules (linked). */
async function deployment(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-deploy-'));
  await cp(path.join(repoRoot, 'dist'), path.join(dir, 'dist'), { recursive: true });
  await cp(path.join(repoRoot, 'package.json'), path.join(dir, 'package.json'));
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

beforeAll(async () => {
  for (const { site, entry } of stable) {
    const page =
      written[`${site.id}/${entry.pageType}`] ??
      (await fixturePage(site.id.replace(/_/g, '-'), entry.pageType, registry, site.id));
    if (!page) throw new Error(`no page for stable ${site.id}/${entry.pageType}: add one to \`written\``);
    pages.set(`${site.id}/${entry.pageType}`, page);
    // The api route fetches the API its web app calls, not the page URL.
    const url = entry.api ? entry.api.request(new URL(page.url)).url : new URL(page.url);
    let origin = origins.get(url.hostname);
    if (!origin) {
      origin = await startOrigin();
      origins.set(url.hostname, origin);
    }
    origin.route('GET', url.pathname, {
      status: 200,
      headers: { 'content-type': page.contentType },
      body: page.body,
    });
  }
  deploy = await deployment();
  const spec = connectToSpec(Object.fromEntries([...origins].map(([host, origin]) => [host, origin.url])));
  kumo = await startKumo({ KUMO_CONNECT_TO: spec }, { root: deploy });
  // Page types under review are served to approved accounts only: the operator approves with the deployment's CLI.
  const gated = [...new Set(stable.filter(({ entry }) => entry.review).map(({ site }) => site.id))];
  const account = gated.length > 0 ? (await call(kumo.baseUrl, '/v1/usage')).body.account_id : null;
  for (const site of gated) {
    const args = ['accounts', 'approve', '--account', account, '--site', site, '--by', 'dist-alone e2e', '--json'];
    const child = spawn(process.execPath, [path.join(deploy, 'dist/cli/kumo.js'), ...args], {
      cwd: deploy,
      env: { PATH: process.env.PATH ?? '', KUMO_DATA_DIR: kumo.dataDir },
      stdio: 'ignore',
    });
    if ((await new Promise((resolve) => child.once('exit', resolve))) !== 0) throw new Error(`approve ${site} failed`);
  }
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  for (const origin of origins.values()) await origin.close();
  if (deploy) await rm(deploy, { recursive: true, force: true });
});

describe('a deployment of dist/ alone', () => {
  it('has no source tree or fixtures to lean on', async () => {
    expect((await readdir(deploy)).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    expect(stable.length).toBeGreaterThanOrEqual(5);
  });

  it('lists every page type at the level it earned in the build', async () => {
    const sites = await call(kumo.baseUrl, '/v1/sites');
    expect(sites.status).toBe(200);
    const served = (sites.body.sites as any[]).flatMap((s) =>
      (s.page_types as any[]).map((p) => `${s.id}/${p.page_type}:${p.coverage}`),
    );
    for (const { site, entry } of stable) expect(served).toContain(`${site.id}/${entry.pageType}:stable`);
  });

  it.each(stable.map(({ site, entry }) => `${site.id}/${entry.pageType}`))('serves %s', async (key) => {
    const page = pages.get(key)!;
    const answer = await scrape(kumo.baseUrl, { url: page.url }, testKey);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(`${answer.body.resolved_site}/${answer.body.page_type}`).toBe(key);
    expect(answer.body.extractor.coverage).toBe('stable');
    expect(answer.body.cost_units).toBe(1);
    if (page.expected !== undefined) expect(answer.body.data).toEqual(page.expected);
  });
});

describe('the CLI of a deployment of dist/ alone', () => {
  it('makes a key the server accepts (as `docker compose exec kumo node dist/cli/kumo.js …` would)', async () => {
    const child = spawn(process.execPath, [path.join(deploy, 'dist/cli/kumo.js'), 'keys', 'create', '--json'], {
      cwd: deploy,
      env: { PATH: process.env.PATH ?? '', KUMO_DATA_DIR: kumo.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    expect(await new Promise((resolve) => child.once('exit', resolve)), err).toBe(0);
    const page = pages.get('ikebe_gakki/item')!;
    const answer = await scrape(kumo.baseUrl, { url: page.url }, JSON.parse(out).key);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });
});

describe('a deployment whose build lost its verification record', () => {
  it('refuses to start and says why', async () => {
    const dir = await deployment();
    try {
      await rm(path.join(dir, 'dist/sites/verification-record.json'));
      const child = spawn(process.execPath, [path.join(dir, 'dist/main.js')], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', KUMO_DATA_DIR: path.join(dir, 'data') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).not.toBe(0);
      expect(out).toMatch(/failed to start: verification record missing at .*dist\/sites\/verification-record\.json/);
      expect(out).not.toMatch(/listening/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('`npm start` in a deployment of dist/ alone (no src/, no tsconfig: nothing to build)', () => {
  it('starts the build it has and serves', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kumo-npm-start-'));
    // Its own process group: `npm start` runs a shell that runs node, and the whole group is stopped at the end.
    const child = spawn('npm', ['start'], {
      cwd: deploy,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        KUMO_DATA_DIR: dataDir,
        KUMO_BOOTSTRAP_KEY: testKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${out}`)), 30_000);
        child.stdout.on('data', () => {
          const match = /"address":"(http:\/\/[^"]+)"/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`npm start exited with ${code}:\n${out}`));
        });
      });
      expect((await call(address, '/v1/usage')).status).toBe(200);
      expect(out).not.toMatch(/\btsc\b|building/);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** The first `node` on PATH, outside node_modules, older than Node 24 (the machines' system Node is 20), if any. */
function olderNode(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'node');
    if (dir.includes('node_modules') || !existsSync(file)) continue;
    const version = spawnSync(file, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < 24) return file;
  }
  return null;
}

describe('the entries of a deployment of dist/ alone, on an older Node', () => {
  const entries = [
    ['the server', ['dist/main.js']],
    ['the CLI', ['dist/cli/kumo.js', 'keys', 'list']],
    ['the browser server', ['dist/cli/kumo.js', 'browser-server']],
  ] as const;
  const older = olderNode();

  /** Runs an entry; a server that did start is stopped after 20 s, so the test fails rather than hangs. */
  async function run(node: string, nodeArgs: string[], args: readonly string[]) {
    const child = spawn(node, [...nodeArgs, ...args], {
      cwd: deploy,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', KUMO_DATA_DIR: path.join(deploy, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    return { code, stdout, stderr };
  }

  function expectRefusal(result: { code: number | null; stdout: string; stderr: string }, version: string) {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    // One line naming the Node it needs and the one it got: no stack trace, nothing about node:sqlite.
    expect(result.stderr).toBe(
      `kumo: needs Node 24 or later, and this is Node ${version}: run it with Node 24 (\`npm start\` uses the one npm installed with the project)\n`,
    );
  }

  it.each(entries)('%s refuses Node 20 (reported by a preload) in one line', async (_name, args) => {
    const spoof = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})`;
    expectRefusal(await run(process.execPath, ['--import', spoof], args), '20.20.2');
  });

  it.skipIf(older === null).each(entries)(
    `%s refuses this machine's older Node (${older ?? 'none on PATH'}) in one line`,
    async (_name, args) => {
      const version = spawnSync(older!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
      expectRefusal(await run(older!, [], args), version);
    },
  );
});
