#!/usr/bin/env node
// The `kumo` command: keys for operators, and the reviewer's tools (extract, sites verify), on the server's config.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFromProcess } from '../config.js';
import { Accounts } from '../accounts/accounts-service.js';
import { SiteRegistry } from '../sites/registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import {
  earnedCoverage,
  effectiveCoverage,
  readVerificationRecord,
  toRecord,
  verificationRecordPath,
  verifyAll,
} from '../sites/verification.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import { isKumoError, KumoError } from '../errors.js';
import type { Operation, Output, PlanId } from '../storage/storage.js';
import { recordFixture } from '../sites/record-fixture.js';
import { InProcessHostGate } from '../fetch/host-gate.js';
import { parsePrice } from '../normalize/price.js';
import { parseDate } from '../normalize/date.js';
import { parseNumber } from '../normalize/number.js';
import { normalizeText } from '../normalize/text.js';
import { idTypes, parseId, type IdType } from '../normalize/ids.js';

const usage = `usage:
  kumo keys create --plan free|starter|growth [--account ID] [--sites a,b] [--operations scrape,usage,artifacts]
                   [--outputs json,html,artifact] [--credits N] [--concurrency N] [--json]
  kumo keys list [--account ID] [--json]
  kumo keys revoke KEY_ID
  kumo keys rotate KEY_ID [--json]
  kumo extract --site ID --url URL [--file page.html]   (reads stdin without --file)
  kumo normalize price|date|number|text "<input>"
  kumo normalize id --type jan|isbn|corporate_number|postal_code|phone "<input>"
  kumo sites verify [--json] [--record]
  kumo sites record URL [--site ID] [--name NAME] [--out DIR]`;

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
  // Loaded here so the reviewer's tools (normalize, extract, sites) need no storage backend at all.
  const { openStorage } = await import('../services.js');
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

/** research §0 shapes, so a reviewer can check the library against the policy table one string at a time. */
function normalize(args: string[]): void {
  const [kind, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { type: { type: 'string' } },
  });
  const input = positionals[0];
  if (input === undefined || positionals.length > 1) throw new UsageError(usage);
  switch (kind ?? '') {
    case 'price':
      return print(parsePrice(input));
    case 'date':
      return print(parseDate(input));
    case 'number': {
      const parsed = parseNumber(input);
      return print(parsed ?? { value: null, reason: 'not_a_number' });
    }
    case 'text':
      return print({ value: normalizeText(input, 'ja-extract'), profile: 'ja-extract' });
    case 'id': {
      const idType = values.type as IdType | undefined;
      if (!idType || !idTypes.includes(idType)) throw new UsageError(`--type must be one of ${idTypes.join(', ')}`);
      return print(parseId(idType, input));
    }
    default:
      throw new UsageError(usage);
  }
}

async function sites(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'record') return record(rest);
  if (action !== 'verify') throw new UsageError(usage);
  const { values } = parseArgs({
    args: rest,
    options: { json: { type: 'boolean', default: false }, record: { type: 'boolean', default: false } },
  });
  // Live, not the shipped record: this is the tool that regenerates a record the build refused as stale.
  const registry = new SiteRegistry(undefined, { record: readVerificationRecord() });
  const results = await verifyAll(registry);
  if (values.record) {
    // A record written without the corpus would claim nothing verified the real pages: refuse instead.
    if (results.some((r) => r.source === 'corpus' && r.status === 'skipped'))
      throw new UsageError('--record needs the shared corpus (../shared/corpus/real)');
    await writeFile(verificationRecordPath, `${JSON.stringify(toRecord(results), null, 2)}\n`);
  }
  // The table shows what verification earns now (live, corpus included), next to what each site declares.
  const table = registry.list().flatMap((site) =>
    site.pageTypes.map((entry) => {
      const mine = results.filter(
        (r) => r.site === site.id && r.pageType === entry.pageType && !r.fixture.startsWith('('),
      );
      const count = (status: string) => mine.filter((r) => r.status === status).length;
      const earned = earnedCoverage(mine);
      const declared = entry.declaredCoverage ?? entry.coverage;
      return {
        site: site.id,
        page_type: entry.pageType,
        declared,
        earned,
        effective: effectiveCoverage(declared, earned),
        pass: count('pass'),
        fail: count('fail'),
        skipped: count('skipped'),
      };
    }),
  );
  if (values.json) {
    print({ coverage: table, fixtures: results });
  } else {
    for (const r of results.filter((x) => x.status !== 'pass'))
      process.stdout.write(`${r.status.toUpperCase()} ${r.site} ${r.fixture}: ${r.detail ?? ''}\n`);
    process.stdout.write(
      `${'site'.padEnd(16)}${'page type'.padEnd(20)}${'declared'.padEnd(14)}${'earned'.padEnd(14)}${'effective'.padEnd(14)}pass/fail/skipped\n`,
    );
    for (const row of table)
      process.stdout.write(
        `${row.site.padEnd(16)}${row.page_type.padEnd(20)}${row.declared.padEnd(14)}${row.earned.padEnd(14)}${row.effective.padEnd(14)}${row.pass}/${row.fail}/${row.skipped}\n`,
      );
  }
  if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
}

async function record(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { site: { type: 'string' }, name: { type: 'string' }, out: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('kumo sites record URL [--site ID] [--name NAME] [--out DIR]');
  const { createHttpFetcher } = await import('../services.js');
  const fetcher = createHttpFetcher(loadConfigFromProcess(), {
    hostGate: new InProcessHostGate(),
    // One page per run: the site's own spacing cannot be broken by a single request.
    politeness: () => ({ maxInFlight: 1, minIntervalMs: 0 }),
  });
  try {
    const result = await recordFixture(new SiteRegistry(), fetcher, {
      url: parseTargetUrl(positionals[0]!),
      ...(values.site ? { siteId: values.site } : {}),
      ...(values.name ? { name: values.name } : {}),
      ...(values.out ? { outDir: values.out } : {}),
    });
    print(result);
  } finally {
    await fetcher.close();
  }
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
    case 'normalize':
      return normalize(rest);
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
