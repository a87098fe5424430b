// `kumo sites new`: scaffolds a site's folder, then compiles and lets the new build write the site index, its record
// entries and docs/sites.md, so that `npm run build` and the site tests pass right after it.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { renderCatalogueIndex, siteFolders } from '../sites/catalogue-index.js';
import { repoRoot } from '../sites/corpus.js';
import { siteCatalogue } from '../sites/registry.js';
import {
  folderOf,
  kindOf,
  readTemplates,
  renderScaffold,
  scaffoldProblems,
  writeScaffold,
  type ScaffoldPageType,
} from '../sites/scaffold.js';
import { parse, print, UsageError } from './args.js';
import { sitesNewUsage } from './sites-help.js';

export async function sitesNew(args: string[], now: () => Date = () => new Date()): Promise<void> {
  const { values, positionals } = parse(
    args,
    { host: { type: 'string' }, kind: { type: 'string' }, 'page-type': { type: 'string' }, name: { type: 'string' } },
    true,
  );
  const [id] = positionals;
  const { host, kind, name } = values;
  const pageType = values['page-type'];
  if (positionals.length !== 1 || id === undefined || !host || !kind || !pageType)
    throw new UsageError(`kumo sites new needs ID, --host, --kind and --page-type: ${sitesNewUsage}`);

  const sitesDir = path.join(repoRoot, 'src', 'sites');
  const request = { id, host, kind, pageType, name: name ?? host, today: now().toISOString().slice(0, 10) };
  const problems = scaffoldProblems(request, { sites: siteCatalogue, sitesDir });
  if (problems.length > 0) throw new UsageError(problems.join('\n'));

  // Resolved before anything is written: without them the folder could not be checked, so it is not begun.
  const prettier = devTool('prettier/bin/prettier.cjs');
  const tsc = devTool('typescript/bin/tsc');
  const siteDir = path.join(sitesDir, folderOf(id));
  const scaffold = { ...request, kind: kindOf(kind), pageType: pageType as ScaffoldPageType };
  const files = renderScaffold(scaffold, readTemplates(path.join(sitesDir, 'templates'), scaffold.pageType));
  writeScaffold(siteDir, files);
  writeFileSync(path.join(sitesDir, 'catalogue.generated.ts'), renderCatalogueIndex(siteFolders(sitesDir)));

  // Formatted as the project formats (a long name or host moves line breaks), before anything reads the files.
  step('format the folder', [prettier, '--write', siteDir]);
  // This process loaded the catalogue before the folder existed: the new site is verified by a fresh build.
  step('compile (tsc -p tsconfig.build.json)', [tsc, '-p', 'tsconfig.build.json']);
  const kumo = path.join(repoRoot, 'dist', 'cli', 'kumo.js');
  step(`record ${id}'s fixtures`, [kumo, 'sites', 'verify', '--record', '--site', id]);
  // The build's own check of the record, which also ships it to dist/ where `sites doc` reads the earned levels.
  step('check and ship the record', [path.join(repoRoot, 'dist', 'sites', 'ship-record.js')]);
  step('write docs/sites.md', [kumo, 'sites', 'doc', '--write']);

  print({
    site: id,
    folder: path.relative(repoRoot, siteDir),
    files: files.map((f) => f.path),
    also_written: ['src/sites/catalogue.generated.ts', 'src/sites/verification-record.json', 'docs/sites.md'],
    coverage: 'experimental (not served in production until raised)',
    next: [
      `replace the URL rule in ${path.relative(repoRoot, siteDir)}/site.ts and the extractor's selectors with the site's own`,
      'model fixtures on the site’s real pages, record a real one with `kumo sites record URL`',
      'npm run build && npx vitest run src/sites  (docs/adding-a-site.md)',
    ],
  });
}

/** A development dependency's script: the scaffold runs in a checkout (`npm ci`), never in a deployed dist/. */
function devTool(script: string): string {
  try {
    return createRequire(import.meta.url).resolve(script);
  } catch {
    throw new UsageError(`kumo sites new runs in a checkout with its dev dependencies (npm ci): ${script} is missing`);
  }
}

/** Runs one step with this Node; its output is shown only when it fails, and the folder is left for the reader. */
function step(what: string, args: string[]): void {
  const run = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status === 0) return;
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
  throw new Error(`sites new: ${what} failed (the folder is written; fix it and run the step again):\n${output}`);
}
