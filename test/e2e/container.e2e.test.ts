// The Dockerfile and compose.yaml agree with the project (Node major, env names, routes, files), and the image's
// HEALTHCHECK command, run as written, tells a live server from a dead one. (No Docker daemon here to build with.)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EnvSchema, loadConfig } from '../../src/config.js';
import { envOf, projectDockerfile } from '../support/dockerfile.js';
import { repoRoot, startKumo, type KumoProcess } from '../support/kumo-process.js';

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?error}` against an environment. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (_m, name: string, op?: string, arg?: string) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (op === '?') throw new Error(`compose: ${name} is required: ${arg}`);
      return op === '-' ? arg! : '';
    },
  );
}

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const all = projectDockerfile();
const runtime = all.at(-1)!;
const runtimeEnv = envOf(runtime.body);
const compose = parseYaml(readFileSync(path.join(repoRoot, 'compose.yaml'), 'utf8'));
const dockerignore = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const envNames = Object.keys(EnvSchema.properties);

describe('Dockerfile', () => {
  it('builds and runs on the Node major the project requires', () => {
    const engine = /^>=\s*(\d+)/.exec(pkg.engines.node)![1];
    const bundled = /^\^?(\d+)/.exec(pkg.dependencies.node!)![1];
    expect(engine).toBe(bundled);
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) expect(stage.image, stage.name).toMatch(new RegExp(`^node:${engine}(-|$)`));
  });

  it('builds with the project toolchain and ships only dist/, package.json and production dependencies', () => {
    const run = (stage: (typeof all)[number]) => stage.body.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    const build = all.find((s) => run(s).some((r) => /\bnpm run build\b/.test(r)));
    expect(build, 'a stage runs npm run build').toBeDefined();
    expect(run(build!).some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(pkg.scripts.build).toMatch(/ship-record/);

    const copies = runtime.body.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    const sources = copies.flatMap((c) =>
      c
        .split(/\s+/)
        .filter((word) => !word.startsWith('--'))
        .slice(0, -1)
        .map((source) => path.basename(source)),
    );
    expect(sources.sort()).toEqual(['dist', 'node_modules', 'package.json']);
    expect(copies.find((c) => c.includes('dist'))).toContain(`--from=${build!.name}`);
    const depsStage = /--from=(\S+)/.exec(copies.find((c) => c.includes('node_modules'))!)![1];
    expect(run(all.find((s) => s.name === depsStage)!).join(' ')).toMatch(/npm ci\b.*--omit=dev/);
  });

  it('copies into the build only files that exist and that .dockerignore lets through', () => {
    for (const stage of all)
      for (const copy of stage.body.filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))) {
        const sources = copy.args
          .split(/\s+/)
          .filter((word) => !word.startsWith('--'))
          .slice(0, -1);
        for (const source of sources) {
          expect(existsSync(path.join(repoRoot, source)), source).toBe(true);
          expect(dockerignore, source).not.toContain(source.replace(/^\.\//, ''));
        }
      }
    for (const kept of ['node_modules', 'dist', 'data', '.env', '.git']) expect(dockerignore).toContain(kept);
  });

  it('runs as a non-root user, with the data folder as a volume and only known settings', () => {
    const users = runtime.body.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.at(-1)).toBeDefined();
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const volume = runtime.body.find((i) => i.keyword === 'VOLUME')!.args;
    expect(volume).toContain(runtimeEnv.KUMO_DATA_DIR);
    for (const name of Object.keys(runtimeEnv).filter((n) => n !== 'NODE_ENV')) expect(envNames).toContain(name);
    expect(() => loadConfig(runtimeEnv)).not.toThrow();
    expect(runtime.body.find((i) => i.keyword === 'EXPOSE')!.args).toBe(runtimeEnv.PORT);
  });

  it('starts the built entry point', () => {
    const cmd = JSON.parse(runtime.body.filter((i) => i.keyword === 'CMD').at(-1)!.args) as string[];
    expect(cmd[0]).toBe('node');
    // The entry last, after the same Node options `npm start` gives it.
    expect(existsSync(path.join(repoRoot, cmd.at(-1)!))).toBe(true);
    expect(cmd.slice(1).join(' ')).toBe(pkg.scripts.start!.replace(/^node\s+/, ''));
  });
});

describe("the image's HEALTHCHECK, run as written with this machine's Node", () => {
  const healthcheck = runtime.body.find((i) => i.keyword === 'HEALTHCHECK')!;
  const command = JSON.parse(healthcheck.args.slice(healthcheck.args.indexOf('CMD [') + 4)) as string[];
  let kumo: KumoProcess;

  beforeAll(async () => {
    kumo = await startKumo({});
  });
  afterAll(async () => {
    await kumo?.stop();
    await kumo?.cleanup();
  });

  async function probe(port: number): Promise<number | null> {
    expect(command[0]).toBe('node');
    const child = spawn(process.execPath, command.slice(1), {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: 'ignore',
    });
    return new Promise((resolve) => child.once('exit', resolve));
  }

  it('asks a real route', () => {
    expect(command.join(' ')).toMatch(/\/healthz\b/);
    expect(healthcheck.args).toMatch(/--interval=\S+/);
  });

  it('passes against a healthy server', async () => {
    expect(await probe(Number(new URL(kumo.baseUrl).port))).toBe(0);
  });

  it('fails when nothing answers', async () => {
    const server = createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
    await new Promise((resolve) => server.close(resolve));
    expect(await probe(port)).toBe(1);
  });
});

describe('compose.yaml', () => {
  const services = compose.services as Record<string, any>;
  const kumoService = services.kumo;
  const env = { KUMO_BOOTSTRAP_KEY: 'compose_demo_key_0123456789' };
  const resolved = () =>
    Object.fromEntries(
      Object.entries(kumoService.environment as Record<string, string>).map(([k, v]) => [k, interpolate(v, env)]),
    );

  it('runs Kumo from this Dockerfile beside PostgreSQL and Redis, started only once they are healthy', () => {
    expect(Object.keys(services).sort()).toEqual(['kumo', 'postgres', 'redis']);
    expect(kumoService.build).toBe('.');
    for (const backend of ['postgres', 'redis']) {
      expect(kumoService.depends_on[backend]).toEqual({ condition: 'service_healthy' });
      expect(services[backend].healthcheck.test.length).toBeGreaterThan(0);
    }
    expect(services.postgres.image).toMatch(/^postgres:\d+/);
    expect(services.redis.image).toMatch(/^redis:\d+/);
  });

  it('sets only settings Kumo knows, which it accepts, pointing at the services by name', () => {
    for (const name of Object.keys(kumoService.environment)) expect(envNames).toContain(name);
    const settings = resolved();
    const config = loadConfig(settings);
    expect(config.storage.kind).toBe('postgres');
    expect(config.limits.kind).toBe('redis');
    const database = new URL(settings.DATABASE_URL!);
    expect(database.hostname).toBe('postgres');
    expect(database.username).toBe(services.postgres.environment.POSTGRES_USER);
    expect(database.pathname).toBe(`/${services.postgres.environment.POSTGRES_DB}`);
    expect(decodeURIComponent(database.password)).toBe(
      interpolate(services.postgres.environment.POSTGRES_PASSWORD, env),
    );
    expect(new URL(settings.REDIS_URL!).hostname).toBe('redis');
    expect(config.bootstrap).toEqual({ key: env.KUMO_BOOTSTRAP_KEY, plan: 'free' });
  });

  it('takes the bootstrap key from the environment and refuses to start without one', () => {
    expect(kumoService.environment.KUMO_BOOTSTRAP_KEY).toMatch(/^\$\{KUMO_BOOTSTRAP_KEY:\?/);
    expect(() => interpolate(kumoService.environment.KUMO_BOOTSTRAP_KEY, {})).toThrow(/KUMO_BOOTSTRAP_KEY/);
  });

  it("keeps Kumo's data folder on a volume and publishes the port the image listens on", () => {
    const [volume, target] = (kumoService.volumes[0] as string).split(':');
    expect(target).toBe(runtimeEnv.KUMO_DATA_DIR);
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect((kumoService.ports[0] as string).split(':').at(-1)).toBe(runtimeEnv.PORT);
  });
});
