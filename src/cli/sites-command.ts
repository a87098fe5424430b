// `kumo sites`: verify every fixture (and rewrite the record), regenerate docs/sites.md, record a page as a fixture,
// scaffold a new site (sites-new-command.ts).
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { repoRoot } from '../sites/corpus.js';
import { loadConfigFromProcess } from '../config.js';
import { SiteRegistry } from '../sites/registry.js';
import {
  earnedCoverage,
  effectiveCoverage,
  readsCorpus,
  readVerificationRecord,
  toRecord,
  verificationRecordPath,
  verifyAll,
  withSiteRecorded,
} from '../sites/verification.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import { recordFixture } from '../sites/record-fixture.js';
import { InProcessHostGate } from '../fetch/host-gate.js';
import { parse, print, snakeCaseKeys, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { sitesHelp } from './sites-help.js';
import { sitesNew } from './sites-new-command.js';

export async function sites(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'record') return record(rest);
  if (action === 'doc') return sitesDoc(rest);
  if (action === 'index') return sitesIndex(rest);
  if (action === 'new') return sitesNew(rest);
  if (action !== 'verify') throw new UsageError(commandHelpText(sitesHelp));
  const { values } = parse(rest, {
    json: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    site: { type: 'string' },
  });
  // Live, not the shipped record: this is the tool that regenerates a record the build refused as stale.
  const committed = readVerificationRecord();
  const registry = new SiteRegistry(undefined, { record: committed });
  if (values.site !== undefined && !registry.get(values.site))
    throw new UsageError(`--site ${values.site}: no such site (kumo sites verify lists them)`);
  const results = await verifyAll(registry);
  if (values.record) {
    const recorded = values.site === undefined ? results : results.filter((r) => r.site === values.site);
    // A record written without the corpus would claim nothing verified the real pages: refuse instead.
    if (recorded.some((r) => readsCorpus(r.source) && r.status === 'skipped'))
      throw new UsageError(
        values.site === undefined
          ? '--record needs the shared corpus (../shared/corpus/real)'
          : `--record --site ${values.site} needs the shared corpus (../shared/corpus/real): the site has real pages there`,
      );
    const record =
      values.site === undefined
        ? toRecord(results)
        : withSiteRecorded(
            committed ?? { note: toRecord([]).note, fixtures: [] },
            values.site,
            results,
            registry.list().map((s) => s.id),
          );
    await writeFile(verificationRecordPath, `${JSON.stringify(record, null, 2)}\n`);
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
