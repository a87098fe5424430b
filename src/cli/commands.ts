// The `kumo` commands (entered through kumo.ts): keys for operators, and the reviewer's tools, on the server's config.
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot } from '../sites/corpus.js';
import { ConfigError, loadConfigFromProcess } from '../config.js';
import { AccountError, Accounts, type CreateKeyOptions } from '../accounts/accounts-service.js';
import { SiteRegistry, siteCatalogue } from '../sites/registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import {
  earnedCoverage,
  effectiveCoverage,
  readsCorpus,
  readVerificationRecord,
  toRecord,
  verificationRecordPath,
  verifyAll,
} from '../sites/verification.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import { isKumoError, KumoError } from '../errors.js';
import type { Output, PlanId } from '../storage/storage.js';
import { allOperations } from '../storage/storage.js';
import { recordFixture } from '../sites/record-fixture.js';
import { InProcessHostGate } from '../fetch/host-gate.js';
import { parsePrice } from '../normalize/price.js';
import { parseDate } from '../normalize/date.js';
import { parseNumber } from '../normalize/number.js';
import { normalizeText } from '../normalize/text.js';
import { idTypes, parseId, type IdType } from '../normalize/ids.js';
import { parse, print, snakeCaseKeys, UnknownOptionError, UsageError } from './args.js';
import { closest, commandHelpText, globalHelpText, kumoVersion, type CommandHelp } from './help.js';
import {
  isReviewApprovalAction,
  reviewApprovals,
  reviewApprovalsOptions,
  reviewApprovalsUsage,
} from './review-approvals.js';
import { createLogger } from '../logger.js';
import { batchCommand, batchHelp, type Sink } from './batch-command.js';
import { monitorsCommand, monitorsHelp } from './monitors-command.js';
import { languageOf } from './monitors-format.js';
import { ApiError, BatchApiClient, UnreachableError } from './batch-client.js';
import { systemClock } from '../time/clock.js';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { pino } from 'pino';
import { serveKumoOverStdio } from '../mcp/stdio.js';

const plans: readonly PlanId[] = ['free', 'starter', 'growth'];
const operations = allOperations;
const outputs: readonly Output[] = ['json', 'html', 'artifact'];

/** A comma-separated list; every item non-empty and, when `allowed` is given, one of those. */
function list<T extends string>(value: string | undefined, name: string, allowed?: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim());
  if (items.some((item) => item === ''))
    throw new UsageError(`--${name} needs a comma-separated list without empty items`);
  for (const item of items)
    if (allowed && !allowed.includes(item as T))
      throw new UsageError(`--${name}: unknown value ${item} (one of ${allowed.join(', ')})`);
  return items as T[];
}

function int(value: string | undefined, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}`);
  return n;
}

function plan(value: string | undefined): PlanId | undefined {
  if (value === undefined) return undefined;
  if (!plans.includes(value as PlanId)) throw new UsageError(`--plan must be one of ${plans.join(', ')}`);
  return value as PlanId;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const keysHelp: CommandHelp = {
  name: 'keys',
  summary: 'create, list, revoke and rotate API keys (the operator’s, on the server’s storage)',
  usage: [
    `kumo keys create [--plan free|starter|growth] [--overage-cap N] [--sites a,b] [--operations ${operations.join(',')}]
     [--outputs ${outputs.join(',')}] [--credits N] [--concurrency N] [--label NAME] [--json | --key-only]`,
    `kumo keys create --account ID [--sites a,b] [--operations …] [--outputs …] [--credits N] [--concurrency N]
     [--label NAME] [--json | --key-only]`,
    'kumo keys list [--account ID] [--json]   (each key with its label and used_this_month)',
    'kumo keys revoke KEY_ID',
    'kumo keys rotate KEY_ID [--json | --key-only]',
  ],
  options: [
    ['--plan PLAN', `create: a new account on this plan (${plans.join(', ')}; default free)`],
    ['--overage-cap N', 'create: the new account’s overage cap in credits (starter and growth)'],
    ['--account ID', 'create: a further key of this account; list: only its keys'],
    ['--sites a,b', 'create: narrow the key to these sites'],
    ['--operations a,b', `create: narrow the key to these operations (${operations.join(', ')})`],
    ['--outputs a,b', `create: narrow the key to these outputs (${outputs.join(', ')})`],
    ['--credits N', 'create: the key’s own monthly credit limit'],
    ['--concurrency N', 'create: the key’s own concurrency limit (never above the plan’s)'],
    ['--label NAME', 'create: your name for the key (1–64 characters), shown by list and the console'],
    ['--json', 'create: print {"key","key_id","account_id"} as JSON (list, revoke and rotate always print JSON)'],
    ['--key-only', 'create, rotate: print only the key on stdout (its ids go to stderr), for KUMO_KEY=$(…)'],
  ],
  examples: [
    'kumo keys create --plan starter --overage-cap 1000 --sites ikebe_gakki --json',
    'export KUMO_KEY=$(kumo keys create --plan free --key-only)',
  ],
};

async function keys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parse(
    rest,
    {
      plan: { type: 'string' },
      'overage-cap': { type: 'string' },
      account: { type: 'string' },
      sites: { type: 'string' },
      operations: { type: 'string' },
      outputs: { type: 'string' },
      credits: { type: 'string' },
      concurrency: { type: 'string' },
      label: { type: 'string' },
      json: { type: 'boolean', default: false },
      // No default: an option given where it does not apply must stay visible to the check below.
      'key-only': { type: 'boolean' },
    },
    true,
  );
  if (values.json && values['key-only']) throw new UsageError('--json and --key-only are exclusive');
  // Everything is checked before storage is opened, so a mistyped command changes nothing.
  let create: CreateKeyOptions | null = null;
  if (action === 'create') {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (values.account !== undefined && (values.plan !== undefined || values['overage-cap'] !== undefined))
      throw new UsageError(
        '--plan and --overage-cap are for a new account; change an existing one with ' +
          '`kumo accounts set --account ID --plan … --overage-cap N`',
      );
    const sites = list(
      values.sites,
      'sites',
      siteCatalogue.map((site) => site.id),
    );
    const ops = list(values.operations, 'operations', operations);
    const outs = list(values.outputs, 'outputs', outputs);
    const credits = int(values.credits, 'credits');
    const concurrency = int(values.concurrency, 'concurrency', 1);
    const overage = int(values['overage-cap'], 'overage-cap');
    create = {
      ...(values.account !== undefined ? { accountId: values.account } : { plan: plan(values.plan) ?? 'free' }),
      ...(overage !== undefined ? { overageCapCredits: overage } : {}),
      ...(sites ? { sites } : {}),
      ...(ops ? { operations: ops } : {}),
      ...(outs ? { outputs: outs } : {}),
      ...(credits !== undefined ? { monthlyCreditLimit: credits } : {}),
      ...(concurrency !== undefined ? { concurrencyLimit: concurrency } : {}),
      ...(values.label !== undefined ? { label: values.label } : {}),
    };
  } else if (action === 'list' || action === 'revoke' || action === 'rotate') {
    const allowed = action === 'list' ? ['account', 'json'] : action === 'rotate' ? ['json', 'key-only'] : ['json'];
    const extra = Object.keys(values).find((name) => !allowed.includes(name));
    if (extra) throw new UsageError(`--${extra} does not apply to keys ${action}`);
    if (action === 'list' && positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (action !== 'list' && positionals.length !== 1) throw new UsageError(`kumo keys ${action} KEY_ID`);
  } else {
    throw new UsageError(commandHelpText(keysHelp));
  }

  // Loaded here so the reviewer's tools (normalize, extract, sites) need no storage backend at all.
  const { openStorage } = await import('../services.js');
  const storage = await openStorage(loadConfigFromProcess());
  try {
    const accounts = new Accounts(storage);
    if (action === 'create') {
      const created = await accounts.createKey(create!);
      const out = { key: created.key, key_id: created.keyId, account_id: created.accountId };
      if (values['key-only']) printKeyOnly(out);
      else if (values.json) print(out);
      else
        process.stdout.write(
          `key ${out.key}\nkey_id ${out.key_id}\naccount_id ${out.account_id}\n(the key is shown once; store it now)\n`,
        );
      return;
    }
    const id = positionals[0]!;
    switch (action) {
      case 'list':
        return print(snakeCaseKeys(await accounts.listKeys(values.account)));
      case 'revoke': {
        const ok = await accounts.revokeKey(id);
        if (!ok) throw new UsageError(`no active key ${id}`);
        return print({ key_id: id, revoked: true });
      }
      case 'rotate': {
        const rotated = await accounts.rotateKey(id);
        const out = { key: rotated.key, key_id: rotated.keyId, account_id: rotated.accountId, replaces: id };
        return values['key-only'] ? printKeyOnly(out) : print(out);
      }
    }
  } finally {
    await storage.close();
  }
}

/** The secret alone on stdout, so `$(…)` captures exactly it; what else the operator should see goes to stderr. */
function printKeyOnly(out: { key: string; key_id: string; account_id: string; replaces?: string }): void {
  process.stdout.write(`${out.key}\n`);
  process.stderr.write(
    `key_id ${out.key_id}\naccount_id ${out.account_id}\n` +
      (out.replaces !== undefined ? `replaces ${out.replaces}\n` : '') +
      '(the key is shown once; store it now)\n',
  );
}

const accountsHelp: CommandHelp = {
  name: 'accounts',
  summary: 'change an account’s plan; approve accounts for the sites under review',
  usage: [
    'kumo accounts set --account ID [--plan free|starter|growth] [--overage-cap N] [--json]',
    ...reviewApprovalsUsage,
  ],
  options: [
    ['--account ID', 'the account (approvals: only its history)'],
    ['--plan PLAN', `set: the new plan (${plans.join(', ')})`],
    ['--overage-cap N', 'set: the new overage cap in credits'],
    ...reviewApprovalsOptions,
    ['--json', 'set, approve, revoke-approval: print the result as JSON (approvals always does)'],
  ],
  examples: [
    'kumo accounts set --account acc_… --plan growth --overage-cap 5000 --json',
    'kumo accounts approve --account acc_… --site mercari --by "A. Operator" --json',
  ],
};

/**
 * The operator's plan change (`kumo accounts set --account ID [--plan P] [--overage-cap N]`) and review approvals
 * (`kumo accounts approve | revoke-approval | approvals`, in review-approvals.ts).
 */
async function accountsCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (isReviewApprovalAction(action))
    return reviewApprovals(action, rest, {
      sites: siteCatalogue,
      connect: async () => {
        const config = loadConfigFromProcess();
        const { openStorage } = await import('../services.js');
        // Stderr, so the JSON answer on stdout stays parseable; written at once, before the process exits.
        const logger = createLogger(config.log.level, pino.destination({ dest: 2, sync: true }));
        return { storage: await openStorage(config, logger), logger };
      },
      write: (text) => process.stdout.write(text),
    });
  if (action !== 'set') throw new UsageError(commandHelpText(accountsHelp));
  const { values, positionals } = parse(
    rest,
    {
      account: { type: 'string' },
      plan: { type: 'string' },
      'overage-cap': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (values.account === undefined)
    throw new UsageError('kumo accounts set --account ID [--plan free|starter|growth] [--overage-cap N]');
  const changes = {
    ...(values.plan !== undefined ? { plan: plan(values.plan) } : {}),
    ...(values['overage-cap'] !== undefined ? { overageCapCredits: int(values['overage-cap'], 'overage-cap') } : {}),
  };
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give --plan and/or --overage-cap');

  const { openStorage } = await import('../services.js');
  const storage = await openStorage(loadConfigFromProcess());
  try {
    const account = await new Accounts(storage).changePlan(values.account, changes);
    const out = { account_id: account.id, plan: account.plan, overage_cap: account.overageCapCredits };
    if (values.json) print(out);
    else process.stdout.write(`account_id ${out.account_id}\nplan ${out.plan}\noverage_cap ${out.overage_cap}\n`);
  } finally {
    await storage.close();
  }
}

const extractHelp: CommandHelp = {
  name: 'extract',
  summary: 'the JSON the API would put in `data` for a saved page (the reviewer’s tool)',
  usage: [
    `kumo extract --site ID --url URL [--file page.html] [--work-type TYPE] [--render-js]
     (reads the page from stdin without --file)`,
  ],
  options: [
    ['--site ID', 'the site (kumo sites verify lists them)'],
    ['--url URL', 'the URL the page was saved from: it picks the page type'],
    ['--file FILE', 'the saved page (default: stdin)'],
    ['--work-type TYPE', 'the page type, where the URL alone does not say (default auto)'],
    ['--render-js', 'a rendered page, read by the browser route’s extractor'],
  ],
  examples: [
    'kumo extract --site ikebe_gakki --url https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456 --file page.html',
  ],
};

async function extract(args: string[]): Promise<void> {
  const { values } = parse(args, {
    site: { type: 'string' },
    url: { type: 'string' },
    file: { type: 'string' },
    'work-type': { type: 'string' },
    // A page as the browser route renders it (a saved rendered DOM), read by that route's extractor.
    'render-js': { type: 'boolean' },
  });
  if (!values.site || !values.url) throw new UsageError(commandHelpText(extractHelp));
  const registry = new SiteRegistry();
  const site = registry.get(values.site);
  if (!site) throw new UsageError(`unknown site ${values.site}; see kumo sites verify`);
  const url = parseTargetUrl(values.url);
  if (!site.hosts.includes(url.hostname)) throw new UsageError(`${url.hostname} is not a host of ${site.id}`);
  const entry = registry.pageTypeFor(site, url, values['work-type'] ?? 'auto');
  if (!entry) throw new KumoError('page_not_supported', `no page type of ${site.id} matches this URL`);
  const rendering = values['render-js'] ? entry.browser : undefined;
  if (values['render-js'] && !rendering)
    throw new KumoError('page_not_supported', `${site.id} ${entry.pageType} has no browser route (render_js)`);
  const extractor = rendering ? rendering.extractor : entry.extractor;
  const body = values.file ? await readFile(values.file) : await readStdin();
  const page = normalizePage({
    body: new Uint8Array(body),
    headers: {},
    finalUrl: url.href,
    input: extractor.input,
  });
  const extraction = extractor.extract(page);
  validateExtraction(entry.pageType, extraction);
  print({
    site: site.id,
    page_type: entry.pageType,
    extractor: { id: extractor.id, version: extractor.version, coverage: rendering?.coverage ?? entry.coverage },
    charset: page.charset,
    data: extraction.data,
    provenance: extraction.provenance,
    warnings: extraction.warnings,
  });
}

const normalizeHelp: CommandHelp = {
  name: 'normalize',
  summary: 'one string through the normalization library: a price, date, number, text or id',
  usage: ['kumo normalize price|date|number|text "<input>"', `kumo normalize id --type ${idTypes.join('|')} "<input>"`],
  options: [['--type TYPE', `id: the kind of id (${idTypes.join(', ')})`]],
  examples: ['kumo normalize price "10,000円(税込11,000円)"', 'kumo normalize id --type isbn 4-00-416004-9'],
};

/** research §0 shapes, so a reviewer can check the library against the policy table one string at a time. */
function normalize(args: string[]): void {
  const [kind, ...rest] = args;
  const { values, positionals } = parse(rest, { type: { type: 'string' } }, true);
  const input = positionals[0];
  if (input === undefined || positionals.length > 1) throw new UsageError(commandHelpText(normalizeHelp));
  // The library's shapes are TypeScript records (`idType`): printed in the API's snake_case.
  switch (kind ?? '') {
    case 'price':
      return print(snakeCaseKeys(parsePrice(input)));
    case 'date':
      return print(snakeCaseKeys(parseDate(input)));
    case 'number': {
      const parsed = parseNumber(input);
      return print(snakeCaseKeys(parsed ?? { value: null, reason: 'not_a_number' }));
    }
    case 'text':
      return print({ value: normalizeText(input, 'ja-extract'), profile: 'ja-extract' });
    case 'id': {
      const idType = values.type as IdType | undefined;
      if (!idType || !idTypes.includes(idType)) throw new UsageError(`--type must be one of ${idTypes.join(', ')}`);
      return print(snakeCaseKeys(parseId(idType, input)));
    }
    default:
      throw new UsageError(commandHelpText(normalizeHelp));
  }
}

const sitesHelp: CommandHelp = {
  name: 'sites',
  summary: 'verify every fixture, regenerate docs/sites.md and the site index, record a page as a fixture draft',
  usage: [
    `kumo sites verify [--json] [--record]
     (every fixture, live; exit status 1 when one fails)`,
    'kumo sites doc [--write]',
    `kumo sites index [--write]
     (src/sites/catalogue.generated.ts from the site folders: run it after adding a folder)`,
    'kumo sites record URL [--site ID] [--name NAME] [--out DIR]',
  ],
  options: [
    ['--json', 'verify: the coverage table and every fixture’s result as JSON'],
    ['--record', 'verify: rewrite the committed verification record (needs the shared corpus)'],
    ['--write', 'doc, index: write docs/sites.md (or the catalogue index) instead of printing it'],
    ['--site ID', 'record: the site, where the URL’s host is not enough'],
    ['--name NAME', 'record: the fixture’s file name (without extension)'],
    ['--out DIR', 'record: the folder (default the site’s own fixtures)'],
  ],
  examples: [
    'kumo sites verify',
    'kumo sites record https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592 --name usb-cable',
  ],
};

async function sites(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'record') return record(rest);
  if (action === 'doc') return sitesDoc(rest);
  if (action === 'index') return sitesIndex(rest);
  if (action !== 'verify') throw new UsageError(commandHelpText(sitesHelp));
  const { values } = parse(rest, {
    json: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
  });
  // Live, not the shipped record: this is the tool that regenerates a record the build refused as stale.
  const registry = new SiteRegistry(undefined, { record: readVerificationRecord() });
  const results = await verifyAll(registry);
  if (values.record) {
    // A record written without the corpus would claim nothing verified the real pages: refuse instead.
    if (results.some((r) => readsCorpus(r.source) && r.status === 'skipped'))
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
    print({ coverage: table, fixtures: snakeCaseKeys(results) });
  } else {
    for (const r of results.filter((x) => x.status !== 'pass'))
      process.stdout.write(`${r.status.toUpperCase()} ${r.site} ${r.fixture}: ${r.detail ?? ''}\n`);
    process.stdout.write(
      `${'site'.padEnd(20)}${'page type'.padEnd(20)}${'declared'.padEnd(14)}${'earned'.padEnd(14)}${'effective'.padEnd(14)}pass/fail/skipped\n`,
    );
    for (const row of table)
      process.stdout.write(
        `${row.site.padEnd(20)}${row.page_type.padEnd(20)}${row.declared.padEnd(14)}${row.earned.padEnd(14)}${row.effective.padEnd(14)}${row.pass}/${row.fail}/${row.skipped}\n`,
      );
  }
  if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
}

/** docs/sites.md from the registry as the server would build it (coverage from the committed record). */
async function sitesDoc(args: string[]): Promise<void> {
  const { values } = parse(args, { write: { type: 'boolean', default: false } });
  const { renderSitesDoc } = await import('../sites/sites-doc.js');
  const doc = renderSitesDoc(new SiteRegistry());
  if (values.write) await writeFile(path.join(repoRoot, 'docs', 'sites.md'), doc);
  else process.stdout.write(doc);
}

/** src/sites/catalogue.generated.ts from the folders of src/sites/ (a source checkout: the folders are read). */
async function sitesIndex(args: string[]): Promise<void> {
  const { values } = parse(args, { write: { type: 'boolean', default: false } });
  const { renderCatalogueIndex, siteFolders } = await import('../sites/catalogue-index.js');
  const sitesDir = path.join(repoRoot, 'src', 'sites');
  const index = renderCatalogueIndex(siteFolders(sitesDir));
  if (values.write) await writeFile(path.join(sitesDir, 'catalogue.generated.ts'), index);
  else process.stdout.write(index);
}

async function record(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    args,
    { site: { type: 'string' }, name: { type: 'string' }, out: { type: 'string' } },
    true,
  );
  if (positionals.length !== 1) throw new UsageError(commandHelpText(sitesHelp));
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
    print(snakeCaseKeys(result));
  } finally {
    await fetcher.close();
  }
}

/** RFC 9110 token characters, and a quoted-string of visible ASCII, space and tab. */
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x20-\\x7e])*"';
const mediaTypePattern = new RegExp(`^${token}/${token}(?:[ \\t]*;[ \\t]*${token}=(?:${token}|${quoted}))*$`);

/** RFC 9110 §8.3.1 media-type: type/subtype with optional parameters; nothing else reaches the header. */
function isMediaType(value: string): boolean {
  return mediaTypePattern.test(value);
}

const originHelp: CommandHelp = {
  name: 'origin',
  summary: 'serve a saved page at its URL’s path on 127.0.0.1, for KUMO_CONNECT_TO (no internet needed)',
  usage: [
    `kumo origin serve --url URL --file page.html [--port 9000] [--content-type TYPE]
     (until Ctrl-C; prints the origin and the KUMO_CONNECT_TO mapping as JSON)`,
  ],
  options: [
    ['--url URL', 'the page’s real URL: its path is where the page is served'],
    ['--file FILE', 'the saved page'],
    ['--port N', 'the port on 127.0.0.1 (default 9000; 0 picks a free one)'],
    ['--content-type TYPE', 'the Content-Type header, such as "text/html; charset=Shift_JIS"'],
  ],
  examples: [
    'kumo origin serve --url https://www.ikebe-gakki.com/c/c-/gt/gt13/gt131234/123456 --file page.html --port 9000',
  ],
};

/** Runs until interrupted; prints where it serves (stderr) and the origin as JSON (stdout). */
async function origin(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'serve') throw new UsageError(commandHelpText(originHelp));
  const { values } = parse(rest, {
    url: { type: 'string' },
    file: { type: 'string' },
    port: { type: 'string' },
    'content-type': { type: 'string' },
  });
  if (values.url === undefined || values.file === undefined) throw new UsageError(commandHelpText(originHelp));
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url ${values.url} is not an absolute URL`);
  }
  const port = int(values.port ?? '9000', 'port')!;
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const contentType = values['content-type'];
  // Checked here, not at the first request: a CR/LF or other byte a header cannot carry would crash the server then.
  if (contentType !== undefined && !isMediaType(contentType)) {
    throw new UsageError(
      `--content-type must be a media type such as text/html or "text/html; charset=Shift_JIS" (RFC 9110 §8.3.1)`,
    );
  }
  const { serveOrigin } = await import('./origin.js');
  let running;
  try {
    running = await serveOrigin({
      url,
      file: values.file,
      port,
      ...(contentType !== undefined ? { contentType } : {}),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw new UsageError(`--file ${values.file} does not exist`);
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; pick another with --port`);
    throw error;
  }
  process.stderr.write(`serving ${values.file} as ${url.pathname} on ${running.url} (Ctrl-C stops)\n`);
  print({ origin: running.url, path: url.pathname, connect_to: `${url.hostname}=${running.url}` });
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

const browserServerHelp: CommandHelp = {
  name: 'browser-server',
  summary: 'the remote browser for KUMO_BROWSER_WS: Chromium with Kumo’s hardening',
  usage: [
    `kumo browser-server [--host 127.0.0.1] [--port 0]
     (prints ws_endpoint, at the path of KUMO_BROWSER_WS when that is set here too; until Ctrl-C)`,
  ],
  options: [
    ['--host HOST', 'the address to listen on (default 127.0.0.1)'],
    ['--port N', 'the port (default 0: a free one)'],
  ],
  examples: ['kumo browser-server --host 0.0.0.0 --port 3000'],
};

/**
 * The only supported remote browser for KUMO_BROWSER_WS: Playwright's launchServer with the local launch's hardening
 * (quiet switches, no unproxied WebRTC UDP, refusing default proxy, sandbox setting, minimal environment).
 */
async function browserServer(args: string[]): Promise<void> {
  const { values } = parse(args, { host: { type: 'string' }, port: { type: 'string' } });
  const port = int(values.port ?? '0', 'port')!;
  if (port > 65535) throw new UsageError('--port must be at most 65535');
  const config = loadConfigFromProcess();
  const { findChromium, launchHardenedBrowserServer, loopbackBypassReason } =
    await import('../browser/browser-pool.js');
  if (config.browser.loopbackBypass) throw new UsageError(loopbackBypassReason);
  const executablePath = config.browser.path === null ? null : findChromium(config.browser.path);
  if (!executablePath) throw new UsageError('no Chromium: install chromium-headless-shell or set KUMO_BROWSER_PATH');
  const server = await launchHardenedBrowserServer({
    executablePath,
    sandbox: config.browser.sandbox,
    env: config.browser.env,
    host: values.host ?? '127.0.0.1',
    port,
    // Where KUMO_BROWSER_WS is set here too (deploy/kubernetes/), serve at its path: one secret URL for both sides,
    // instead of a random path the API instances could not know.
    ...(config.browser.wsEndpoint === null ? {} : { wsPath: new URL(config.browser.wsEndpoint).pathname }),
    proxyBindHost: '127.0.0.1',
  });
  process.stderr.write(`browser server on ${server.wsEndpoint} (Ctrl-C stops); set KUMO_BROWSER_WS to it\n`);
  print({ ws_endpoint: server.wsEndpoint, sandbox: config.browser.sandbox });
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** stdout as a Sink: waits when the pipe is full, so a large batch's results are not all held in memory. */
const stdoutSink: Sink = {
  write: async (text) => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  },
  close: async () => {},
};

async function fileSink(file: string): Promise<Sink> {
  let handle;
  try {
    handle = await open(file, 'w');
  } catch {
    throw new UsageError(`cannot write ${file}`);
  }
  return { write: async (text) => void (await handle.write(text)), close: () => handle.close() };
}

/** `kumo batch …`: an API client (KUMO_BASE_URL, KUMO_API_KEY), not an operator's tool on the storage. */
async function batch(args: string[]): Promise<void> {
  const { client } = loadConfigFromProcess();
  if (args[0] !== undefined && ['submit', 'status', 'items', 'cancel'].includes(args[0]) && client.apiKey === '')
    throw new UsageError('kumo batch needs KUMO_API_KEY (a key allowed the batch operation) and KUMO_BASE_URL');
  process.exitCode = await batchCommand(args, {
    client: new BatchApiClient({ baseUrl: client.baseUrl, apiKey: client.apiKey, clock: systemClock }),
    clock: systemClock,
    stdout: stdoutSink,
    stderr: process.stderr,
    readFile: (file) => readFile(file),
    openOut: fileSink,
  });
}

/** `kumo monitors …`: an API client like `kumo batch` (KUMO_BASE_URL, KUMO_API_KEY). */
async function monitors(args: string[]): Promise<void> {
  const { client } = loadConfigFromProcess();
  if (args[0] !== undefined && ['create', 'list', 'run'].includes(args[0]) && client.apiKey === '')
    throw new UsageError('kumo monitors needs KUMO_API_KEY (a key allowed the monitor operation) and KUMO_BASE_URL');
  process.exitCode = await monitorsCommand(args, {
    client: new BatchApiClient({ baseUrl: client.baseUrl, apiKey: client.apiKey, clock: systemClock }),
    clock: systemClock,
    stdout: process.stdout,
    stderr: process.stderr,
    readFile: (file) => readFile(file),
    // Node's default locale comes from LC_ALL, LC_MESSAGES or LANG (config.ts alone reads the environment).
    language: languageOf(new Intl.DateTimeFormat().resolvedOptions().locale),
  });
}

const mcpHelp: CommandHelp = {
  name: 'mcp',
  summary: 'Kumo’s tools over MCP on stdin/stdout, for desktop agents (docs/mcp.md)',
  usage: [
    `kumo mcp
     (a client of the server at KUMO_BASE_URL, with KUMO_API_KEY)`,
  ],
  options: [],
  examples: ['KUMO_BASE_URL=http://127.0.0.1:8080 KUMO_API_KEY=$KUMO_KEY kumo mcp'],
};

/** `kumo mcp`: an API client like `kumo batch`, speaking MCP on stdin/stdout (docs/mcp.md). */
function mcp(args: string[]): void {
  if (args.length > 0) throw new UsageError('kumo mcp takes no arguments: set KUMO_BASE_URL and KUMO_API_KEY');
  const { client } = loadConfigFromProcess();
  if (client.apiKey === '') throw new UsageError('kumo mcp needs KUMO_API_KEY (an API key) and KUMO_BASE_URL');
  serveKumoOverStdio({
    baseUrl: client.baseUrl,
    apiKey: client.apiKey,
    diagnostics: (line) => process.stderr.write(`${line}\n`),
  });
}

interface Command {
  help: CommandHelp;
  run(args: string[]): Promise<void> | void;
}

/** Every command, in the order `kumo --help` lists them: what is not here does not exist, and has no help. */
export const commands: readonly Command[] = [
  { help: keysHelp, run: keys },
  { help: accountsHelp, run: accountsCommand },
  { help: batchHelp, run: batch },
  { help: monitorsHelp, run: monitors },
  { help: mcpHelp, run: mcp },
  { help: extractHelp, run: extract },
  { help: normalizeHelp, run: normalize },
  { help: sitesHelp, run: sites },
  { help: originHelp, run: origin },
  { help: browserServerHelp, run: browserServer },
];

function commandNamed(name: string): Command {
  const command = commands.find((c) => c.help.name === name);
  if (command) return command;
  const near = closest(
    name,
    commands.map((c) => c.help.name),
  );
  throw new UsageError(
    `kumo: unknown command "${name}"${near !== undefined ? `; did you mean "${near}"?` : ''}\n` +
      'kumo --help lists the commands',
  );
}

const globalHelp = () => globalHelpText(commands.map((c) => c.help));

/**
 * `kumo --help` and `kumo help` list the commands; `kumo <command> --help` (or `-h` anywhere before a `--`) and
 * `kumo help <command>` print that command's own help. Help goes to stdout with exit 0: asking is not an error.
 */
async function run(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(globalHelp());
  if (first === '--version' || first === '-V') {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]} after ${first}`);
    process.stdout.write(`${kumoVersion()}\n`);
    return;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    const name = rest.find((arg) => !arg.startsWith('-'));
    process.stdout.write(`${name === undefined ? globalHelp() : commandHelpText(commandNamed(name).help)}\n`);
    return;
  }
  if (first.startsWith('-')) {
    const near = closest(first, ['--help', '-h', '--version', '-V']);
    throw new UsageError(
      `kumo: unknown option "${first}"${near !== undefined ? ` (did you mean ${near}?)` : ''}\n` +
        'kumo --help lists the commands',
    );
  }
  const command = commandNamed(first);
  const end = rest.indexOf('--');
  const options = end === -1 ? rest : rest.slice(0, end);
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`${commandHelpText(command.help)}\n`);
    return;
  }
  try {
    await command.run(rest);
  } catch (error) {
    // Named with its command, and where to find the options it does take.
    if (error instanceof UnknownOptionError)
      error.message = `kumo ${first}: ${error.message}\nkumo ${first} --help lists its options`;
    throw error;
  }
}

/** The process's command line to its output and exit status (kumo.ts calls it after the Node version check). */
export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error: unknown) {
    report(error);
  }
}

function report(error: unknown): void {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof AccountError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof ApiError) {
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof UnreachableError) {
    process.stderr.write(`kumo: ${error.message}\n`);
    process.exitCode = 1;
  } else if (isKumoError(error)) {
    process.stderr.write(`${error.code}: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`kumo: ${error instanceof Error ? error.message : 'failed'}\n`);
    process.exitCode = 1;
  }
}
