#!/usr/bin/env node
// The `kumo` command: keys for operators, and the reviewer's tools (extract, sites verify), on the server's config.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFromProcess } from '../config.js';
import { openStorage } from '../services.js';
import { Accounts } from '../accounts/accounts-service.js';
import { SiteRegistry } from '../sites/registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import { verifyAll } from '../sites/verification.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import { isKumoError, KumoError } from '../errors.js';
import type { Operation, Output, PlanId } from '../storage/storage.js';

const usage = `usage:
  kumo keys create --plan free|starter|growth [--account ID] [--sites a,b] [--operations scrape,usage,artifacts]
                   [--outputs json,html,artifact] [--credits N] [--concurrency N] [--json]
  kumo keys list [--account ID] [--json]
  kumo keys revoke KEY_ID
  kumo keys rotate KEY_ID [--json]
  kumo extract --site ID --url URL [--file page.html]   (reads stdin without --file)
  kumo sites verify [--json]`;

class UsageError extends Error {}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function keys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      account: { type: 'string' },
      sites: { type: 'string' },
      operations: { type: 'string' },
      outputs: { type: 'string' },
      credits: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const storage = await openStorage(loadConfigFromProcess());
  try {
    const accounts = new Accounts(storage);
    switch (action ?? '') {
      case 'create': {
        const plan = (values.plan ?? 'free') as PlanId;
        if (!['free', 'starter', 'growth'].includes(plan))
          throw new UsageError('--plan must be free, starter or growth');
        const created = await accounts.createKey({
          ...(values.account ? { accountId: values.account } : { plan }),
          ...(values.sites ? { sites: list(values.sites)! } : {}),
          ...(values.operations ? { operations: list(values.operations) as Operation[] } : {}),
          ...(values.outputs ? { outputs: list(values.outputs) as Output[] } : {}),
          ...(values.credits ? { monthlyCreditLimit: int(values.credits, 'credits')! } : {}),
          ...(values.concurrency ? { concurrencyLimit: int(values.concurrency, 'concurrency')! } : {}),
        });
        const out = { key: created.key, key_id: created.keyId, account_id: created.accountId };
        if (values.json) print(out);
        else
          process.stdout.write(
            `key ${out.key}\nkey_id ${out.key_id}\naccount_id ${out.account_id}\n(the key is shown once; store it now)\n`,
          );
        return;
      }
      case 'list': {
        const rows = await accounts.listKeys(values.account);
        print(rows);
        return;
      }
      case 'revoke': {
        const id = positionals[0];
        if (!id) throw new UsageError('kumo keys revoke KEY_ID');
        const ok = await accounts.revokeKey(id);
        if (!ok) throw new UsageError(`no active key ${id}`);
        print({ key_id: id, revoked: true });
        return;
      }
      case 'rotate': {
        const id = positionals[0];
        if (!id) throw new UsageError('kumo keys rotate KEY_ID');
        const rotated = await accounts.rotateKey(id);
        print({ key: rotated.key, key_id: rotated.keyId, account_id: rotated.accountId, replaces: id });
        return;
      }
      default:
        throw new UsageError(usage);
    }
  } finally {
    await storage.close();
  }
}

async function extract(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      site: { type: 'string' },
      url: { type: 'string' },
      file: { type: 'string' },
      'work-type': { type: 'string' },
    },
  });
  if (!values.site || !values.url) throw new UsageError('kumo extract --site ID --url URL [--file page.html]');
  const registry = new SiteRegistry();
  const site = registry.get(values.site);
  if (!site) throw new UsageError(`unknown site ${values.site}; see kumo sites verify`);
  const url = parseTargetUrl(values.url);
  if (!site.hosts.includes(url.hostname)) throw new UsageError(`${url.hostname} is not a host of ${site.id}`);
  const entry = registry.pageTypeFor(site, url, values['work-type'] ?? 'auto');
  if (!entry) throw new KumoError('page_not_supported', `no page type of ${site.id} matches this URL`);
  const body = values.file ? await readFile(values.file) : await readStdin();
  const page = normalizePage({
    body: new Uint8Array(body),
    headers: {},
    finalUrl: url.href,
    input: entry.extractor.input,
  });
  const extraction = entry.extractor.extract(page);
  validateExtraction(entry.pageType, extraction);
  print({
    site: site.id,
    page_type: entry.pageType,
    extractor: { id: entry.extractor.id, version: entry.extractor.version, coverage: entry.coverage },
    charset: page.charset,
    data: extraction.data,
    provenance: extraction.provenance,
    warnings: extraction.warnings,
  });
}

async function sites(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'verify') throw new UsageError(usage);
  const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } } });
  const results = await verifyAll(new SiteRegistry());
  if (values.json) {
    print(results);
  } else {
    for (const r of results) process.stdout.write(`${r.site.padEnd(14)} ${r.fixture.padEnd(34)} ${r.status}\n`);
  }
  if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command ?? '') {
    case 'keys':
      return keys(rest);
    case 'extract':
      return extract(rest);
    case 'sites':
      return sites(rest);
    default:
      throw new UsageError(usage);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  } else if (isKumoError(error)) {
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`kumo: ${error instanceof Error ? error.message : 'failed'}\n`);
    process.exitCode = 1;
  }
});
