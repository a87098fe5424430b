// deploy/kubernetes/ agrees with the project as compose.yaml does (container.e2e.test.ts): every setting it names is
// one src/config.ts knows and accepts, ports, probes, user and commands match the Dockerfile, secrets are referenced,
// the drain outlasts a call, and the probes and the browser server answer when run as the manifests run them.
/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- manifests are untyped YAML (as
   the JSON bodies other tests inspect): walking their shape is the point. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { browserEnvironmentNames, EnvSchema, loadConfig } from '../../src/config.js';
import { findChromium } from '../../src/browser/browser-pool.js';
import { cmdOf, envOf, projectDockerfile } from '../support/dockerfile.js';
import { call, repoRoot, startKumo, type KumoProcess } from '../support/kumo-process.js';

const folder = path.join(repoRoot, 'deploy/kubernetes');
const kustomization = parseYaml(readFileSync(path.join(folder, 'kustomization.yaml'), 'utf8'));
const resources: any[] = (kustomization.resources as string[]).flatMap((file) =>
  parseAllDocuments(readFileSync(path.join(folder, file), 'utf8')).map((doc) => doc.toJS()),
);
const find = (kind: string, name: string) => {
  const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes/`);
  return found;
};

const api = find('Deployment', 'kumo-api');
const apiPod = api.spec.template.spec;
const apiContainer = apiPod.containers[0];
const browser = find('Deployment', 'kumo-browser');
const browserPod = browser.spec.template.spec;
const browserContainer = browserPod.containers[0];
const deployments = [api, browser];

const dockerfile = projectDockerfile();
const runtime = dockerfile.at(-1)!;
const runtimeEnv = envOf(runtime.body);
const browserStage = dockerfile.find((s) => s.name === 'browser');
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/** The node:24 images' `node` user, which the Dockerfile's `USER node` runs as. */
const nodeUser = { uid: 1000, gid: 1000 };
/** What the Secret `kumo` holds in a test: the shapes an operator's would have. */
const secretValues: Record<string, string> = {
  DATABASE_URL: 'postgres://kumo:secret@postgres.example.internal:5432/kumo',
  REDIS_URL: 'redis://redis.example.internal:6379',
  KUMO_BROWSER_WS: 'ws://kumo-browser:3000/0123456789abcdef0123456789abcdef0123456789abcdef',
  KUMO_BOOTSTRAP_KEY: 'k8s_demo_key_0123456789',
};
const secretNames = Object.keys(secretValues);

/** A container's environment as the kubelet would give it: values, the Secret's keys, the pod's address. */
function resolvedEnv(container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) env[entry.name] = String(entry.value);
    else if (entry.valueFrom?.secretKeyRef) env[entry.name] = secretValues[entry.valueFrom.secretKeyRef.key]!;
    else if (entry.valueFrom?.fieldRef?.fieldPath === 'status.podIP') env[entry.name] = '10.1.2.3';
    else throw new Error(`unresolvable env ${entry.name}`);
  }
  return env;
}

const labelsMatch = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const portNamed = (container: any, port: string | number) =>
  typeof port === 'number' ? port : container.ports.find((p: any) => p.name === port)?.containerPort;

describe('deploy/kubernetes', () => {
  it('applies every manifest in the folder, and no Secret: secrets are the operator’s', () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
    expect(resources.map((r) => r.kind)).not.toContain('Secret');
    expect(resources.map((r) => r.kind)).not.toContain('ConfigMap');
  });

  it('names only settings src/config.ts knows, and takes every credential from the Secret', () => {
    const known = new Set<string>([...Object.keys(EnvSchema.properties), ...browserEnvironmentNames]);
    for (const deployment of deployments)
      for (const container of deployment.spec.template.spec.containers)
        for (const entry of container.env ?? []) {
          expect(known, `${deployment.metadata.name}: ${entry.name}`).toContain(entry.name);
          if (secretNames.includes(entry.name)) {
            expect(entry.value, `${entry.name} written in a manifest`).toBeUndefined();
            expect(entry.valueFrom.secretKeyRef).toMatchObject({ name: 'kumo', key: entry.name });
          }
        }
    for (const deployment of deployments) expect(deployment.spec.template.spec.containers[0].envFrom).toBeUndefined();
  });

  it('runs the API in shared mode with settings the config accepts, the browser route on the browser server', () => {
    const config = loadConfig(resolvedEnv(apiContainer));
    expect(config.storage.kind).toBe('postgres');
    expect(config.limits.kind).toBe('redis');
    // The egress proxies on the pod's own address (not loopback: the browser is in another pod).
    expect(config.browser.proxyHost).toBe('10.1.2.3');
    const ws = new URL(config.browser.wsEndpoint!);
    const service = find('Service', ws.hostname);
    expect(labelsMatch(service.spec.selector, browser.spec.template.metadata.labels)).toBe(true);
    const servicePort = service.spec.ports.find((p: any) => p.port === Number(ws.port));
    expect(portNamed(browserContainer, servicePort.targetPort)).toBe(Number(browserContainer.command.at(-1)));
    // The browser server is given the same secret URL: it serves at that path (its only credential).
    expect(loadConfig(resolvedEnv(browserContainer)).browser.wsEndpoint).toBe(config.browser.wsEndpoint);
    expect(resolvedEnv(browserContainer).KUMO_BROWSER_SANDBOX).not.toBe('false');
  });

  it('serves on the port the image exposes, with the image’s own command', () => {
    expect(apiContainer.command).toBeUndefined();
    expect(apiContainer.args).toBeUndefined();
    const port = apiContainer.ports.find((p: any) => p.name === 'http').containerPort;
    expect(String(port)).toBe(runtime.body.find((i) => i.keyword === 'EXPOSE')!.args);
    expect(String(port)).toBe(resolvedEnv(apiContainer).PORT ?? runtimeEnv.PORT);
    const service = find('Service', 'kumo-api');
    expect(labelsMatch(service.spec.selector, api.spec.template.metadata.labels)).toBe(true);
    expect(portNamed(apiContainer, service.spec.ports[0].targetPort)).toBe(port);
  });

  it('asks /readyz for readiness and /healthz for liveness, on the API port', () => {
    expect(apiContainer.readinessProbe.httpGet.path).toBe('/readyz');
    expect(apiContainer.livenessProbe.httpGet.path).toBe('/healthz');
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe'])
      expect(portNamed(apiContainer, apiContainer[probe].httpGet.port), probe).toBe(Number(runtimeEnv.PORT));
    expect(portNamed(browserContainer, browserContainer.readinessProbe.tcpSocket.port)).toBe(3000);
  });

  it('runs both as the image’s unprivileged user, read-only, without privileges', () => {
    expect(runtime.body.filter((i) => i.keyword === 'USER').at(-1)!.args).toBe('node');
    expect(browserStage!.body.filter((i) => i.keyword === 'USER').at(-1)!.args).toBe('node');
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const name = deployment.metadata.name as string;
      expect(pod.securityContext, name).toMatchObject({
        runAsNonRoot: true,
        runAsUser: nodeUser.uid,
        runAsGroup: nodeUser.gid,
      });
      expect(pod.automountServiceAccountToken, name).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext, name).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.resources.requests, name).toHaveProperty('memory');
        expect(container.resources.limits, name).toHaveProperty('memory');
        // A read-only root: whatever the process writes is a mounted volume.
        const mounts = (container.volumeMounts as any[]).map((m) => m.mountPath);
        expect(mounts, name).toContain('/tmp');
        for (const mount of container.volumeMounts)
          expect(
            pod.volumes.map((v: any) => v.name),
            name,
          ).toContain(mount.name);
      }
    }
    expect(apiPod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    const dataDir = resolvedEnv(apiContainer).KUMO_DATA_DIR ?? runtimeEnv.KUMO_DATA_DIR;
    expect(apiContainer.volumeMounts.map((m: any) => m.mountPath)).toContain(dataDir);
  });

  it('gives a stopping instance the time its longest admitted call may take', () => {
    const config = loadConfig(resolvedEnv(apiContainer));
    // docs/architecture.md: fetch deadline + extraction queue wait + extraction deadline + a 10 s margin.
    const callBudgetMs =
      config.fetch.deadlineMs + config.extraction.queueWaitMs + config.extraction.deadlineMs + 10_000;
    const preStop = apiContainer.lifecycle.preStop.exec.command as string[];
    expect(preStop[0]).toBe('sleep');
    const preStopMs = Number(preStop[1]) * 1000;
    expect(apiPod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(preStopMs + callBudgetMs);
    const browserConfig = loadConfig(resolvedEnv(browserContainer));
    expect(browserPod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(browserConfig.browser.pageDeadlineMs);
    // A rollout adds before it removes.
    expect(api.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('keeps instances through disruptions and scales the API deployment', () => {
    const pdb = find('PodDisruptionBudget', 'kumo-api');
    expect(labelsMatch(pdb.spec.selector.matchLabels, api.spec.template.metadata.labels)).toBe(true);
    const hpa = find('HorizontalPodAutoscaler', 'kumo-api');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kumo-api' });
    expect(hpa.spec.minReplicas - pdb.spec.maxUnavailable).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    expect(hpa.spec.metrics.map((m: any) => m.resource.name)).toEqual(['cpu']);
    for (const deployment of deployments)
      expect(
        labelsMatch(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels),
        deployment.metadata.name,
      ).toBe(true);
  });

  it('lets only the browser server reach the API pods’ egress proxies, and the browser reach only them', () => {
    const apiPolicy = find('NetworkPolicy', 'kumo-api');
    expect(apiPolicy.spec.podSelector.matchLabels).toEqual(api.spec.template.metadata.labels);
    const open = apiPolicy.spec.ingress.filter((rule: any) => rule.from === undefined);
    for (const rule of open) expect(rule.ports.map((p: any) => portNamed(apiContainer, p.port))).toEqual([8080]);
    const fromBrowser = apiPolicy.spec.ingress.find((rule: any) => rule.from !== undefined);
    expect(fromBrowser.from).toEqual([{ podSelector: { matchLabels: browser.spec.template.metadata.labels } }]);
    const browserPolicy = find('NetworkPolicy', 'kumo-browser');
    expect(browserPolicy.spec.podSelector.matchLabels).toEqual(browser.spec.template.metadata.labels);
    expect(browserPolicy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(browserPolicy.spec.egress).toEqual([
      { to: [{ podSelector: { matchLabels: api.spec.template.metadata.labels } }] },
    ]);
  });

  it('runs the images the Dockerfile makes, at this version', () => {
    const images = Object.fromEntries((kustomization.images as any[]).map((i) => [i.name, i.newTag]));
    expect(images).toEqual({ kumo: pkg.version, 'kumo-browser': pkg.version });
    expect(apiContainer.image).toBe('kumo');
    expect(browserContainer.image).toBe('kumo-browser');
    expect(browserStage, 'a `browser` stage in the Dockerfile').toBeDefined();
    expect(browserStage!.image).toBe(runtime.image);
    expect(browserStage!.body.map((i) => i.args).join('\n')).toMatch(/apt-get install .*chromium/);
    // The browser server's command is the browser image's CMD, an entry the build makes.
    expect(browserContainer.command).toEqual(cmdOf(browserStage!.body));
    expect(browserContainer.command.slice(0, 3)).toEqual(['node', 'dist/cli/kumo.js', 'browser-server']);
    expect(existsSync(path.join(repoRoot, 'src/cli/kumo.ts'))).toBe(true);
    expect(String(browserContainer.ports[0].containerPort)).toBe(
      browserStage!.body.find((i) => i.keyword === 'EXPOSE')!.args,
    );
  });
});

describe('the API’s probes, against a live server', () => {
  let kumo: KumoProcess;
  beforeAll(async () => {
    kumo = await startKumo({});
  });
  afterAll(async () => {
    await kumo?.stop();
    await kumo?.cleanup();
  });

  it.each(['readinessProbe', 'livenessProbe', 'startupProbe'])('%s answers 2xx', async (probe) => {
    const answer = await call(kumo.baseUrl, apiContainer[probe].httpGet.path, null);
    expect(answer.status).toBe(200);
  });
});

const chromiumPath = findChromium('');

describe.skipIf(chromiumPath === null)('the browser server, run as its manifest runs it', () => {
  it('serves a browser at the path of the secret KUMO_BROWSER_WS', async () => {
    // The manifest's command on a free loopback port; the suite runs as root, where Chromium's sandbox cannot start.
    const args = (browserContainer.command as string[]).slice(1).map((arg, i, all) => {
      if (all[i - 1] === '--host') return '127.0.0.1';
      if (all[i - 1] === '--port') return '0';
      return arg;
    });
    const secretPath = new URL(secretValues.KUMO_BROWSER_WS!).pathname;
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: '/tmp',
        ...resolvedEnv(browserContainer),
        KUMO_BROWSER_SANDBOX: 'false',
        KUMO_BROWSER_PATH: chromiumPath!,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no endpoint:\n${err}`)), 60_000);
        child.stdout.on('data', () => {
          const match = /"ws_endpoint":\s*"([^"]+)"/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`browser-server exited:\n${err}`));
        });
      });
      expect(new URL(endpoint).pathname).toBe(secretPath);
      const remote = await chromium.connect(endpoint);
      try {
        expect(remote.version()).toMatch(/^\d+\./);
      } finally {
        await remote.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
