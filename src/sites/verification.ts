// Golden-fixture verification: every fixture of every site through normalize → extract → validate, compared
// with what a reviewer expects. Real pages are read from the shared corpus in place; without it they are skipped.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isKumoError } from '../errors.js';
import { validateExtraction } from '../extract/page-types.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { writeZip } from '../normalize/zip-write.js';
import { corpusDir, repoRoot } from './corpus.js';
import type { Coverage, PageTypeEntry, Site } from './site.js';

/** What verification reads of the site registry; the registry imports this module, so it names no class of it. */
export interface SiteCatalogue {
  list(): readonly Site[];
  pageTypeFor(site: Site, url: URL, workType: string): PageTypeEntry | null;
}

/**
 * `corpus-wrapped`: a real corpus body placed in a container we build (meta `wrap`, e.g. EDINET's filing ZIP). The
 * body is real, the container is modelled, so it earns what a modelled fixture earns (`beta`), never `stable`.
 */
export type FixtureSource = 'corpus' | 'corpus-wrapped' | 'modelled' | 'recorded';

/** Fixtures whose page is read from the shared corpus (skipped without it; their outcome ships in the record). */
export const readsCorpus = (source: FixtureSource | null) => source === 'corpus' || source === 'corpus-wrapped';
/** Fixtures that are a real page as the site serves it: only these earn `stable`. */
export const isRealPage = (source: FixtureSource | null) => source === 'corpus' || source === 'recorded';

/** `<name>.meta.json` beside `<name>.expected.json` in `src/sites/<site-folder>/fixtures/`. */
export interface FixtureMeta {
  /** corpus: a real page in ../shared/corpus/real; recorded: a real page kept here; modelled: written by us. */
  source: FixtureSource;
  corpusPath?: string;
  /** File in the fixtures folder (modelled or recorded pages). */
  page?: string;
  url: string;
  contentType: string;
  note: string;
  /** Page type to run; default: the one `auto` picks for the URL. */
  pageType?: string;
  /** `browser`: a rendered page, read by the page type's browser-route extractor (default: its own extractor). */
  route?: 'browser';
  /** The fixture proves a failure: this error code instead of data (no expected.json then). */
  expectError?: string;
  /**
   * The page is wrapped at verification time in a ZIP, as entry `zip`, beside `others` (entry name → a corpusPath
   * for a corpus fixture, a file in the fixtures folder for a modelled one). A wrapped corpus page's source is
   * `corpus-wrapped`: the body is real, the archive is ours.
   */
  wrap?: { zip: string; others?: Record<string, string> };
}

export interface FixtureResult {
  site: string;
  pageType: string | null;
  fixture: string;
  source: FixtureSource | null;
  status: 'pass' | 'fail' | 'skipped';
  detail?: string;
  /** `/path: expected …, got …` lines, at most 20. */
  diff?: string[];
  /** sha256 of the page bytes that were checked, so a record names exactly what verified a page type. */
  sha256?: string;
  /** Fields of `data` with no entry in `extractor.provenance`: every served field must say where it came from. */
  unsourced?: string[];
  /** `browser` for a rendered-page fixture (meta `route`): only these earn the page type's browser-route level. */
  route?: 'browser';
}

/** Fixtures live in the source tree, found from the repository root so the built CLI reads the same files. */
export function fixturesDirOf(site: Site): string {
  return site.fixturesDir ?? path.join(repoRoot, 'src', 'sites', site.id.replace(/_/g, '-'), 'fixtures');
}

export interface VerifyOptions {
  /** Where the shared real-page corpus is; default `../shared/corpus/real` beside the repository. */
  corpusDir?: string;
  registry?: SiteCatalogue;
}

/**
 * Synchronous on purpose: the registry runs the in-project fixtures when it is built, before anything is served
 * (the fixtures are small; see registry.test.ts for the time it takes).
 */
export function verifySiteSync(site: Site, options: VerifyOptions & { only?: (meta: FixtureMeta) => boolean } = {}) {
  const dir = fixturesDirOf(site);
  const names = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.meta.json'))
        .map((f) => f.slice(0, -'.meta.json'.length))
    : [];
  const results: FixtureResult[] = [];
  const corpus = options.corpusDir ?? corpusDir;
  const haveCorpus = existsSync(corpus);
  for (const name of names.sort()) {
    const meta = readMeta(dir, name);
    if (meta && options.only && !options.only(meta)) continue;
    results.push(
      verifyFixture(site, dir, name, meta, { corpus: haveCorpus ? corpus : null, registry: options.registry }),
    );
  }
  return results;
}

export function verifySite(site: Site, options: VerifyOptions = {}): Promise<FixtureResult[]> {
  const results = verifySiteSync(site, options);
  return Promise.resolve([...results, ...coverageChecks(site, results)]);
}

export async function verifyAll(
  registry: SiteCatalogue,
  options: Omit<VerifyOptions, 'registry'> = {},
): Promise<FixtureResult[]> {
  const all: FixtureResult[] = [];
  for (const site of registry.list()) all.push(...(await verifySite(site, { ...options, registry })));
  return all;
}

function readMeta(dir: string, name: string): FixtureMeta | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, `${name}.meta.json`), 'utf8')) as FixtureMeta;
  } catch {
    return null;
  }
}

function verifyFixture(
  site: Site,
  dir: string,
  name: string,
  meta: FixtureMeta | null,
  { corpus, registry }: { corpus: string | null; registry: SiteCatalogue | undefined },
): FixtureResult {
  const base: FixtureResult = { site: site.id, pageType: null, fixture: name, source: null, status: 'fail' };
  if (!meta) return { ...base, detail: 'meta.json missing or not JSON' };
  base.source = meta.source === 'corpus' && meta.wrap ? 'corpus-wrapped' : meta.source;
  if (meta.route === 'browser') base.route = 'browser';

  const url = new URL(meta.url);
  const entry = meta.pageType
    ? site.pageTypes.find((e) => e.pageType === meta.pageType)
    : (registry?.pageTypeFor(site, url, 'auto') ?? site.pageTypes.find((e) => e.matches(url)));
  if (!entry) return { ...base, detail: `no page type of ${site.id} for ${meta.url}` };
  base.pageType = entry.pageType;
  if (!site.hosts.includes(url.hostname)) return { ...base, detail: `${url.hostname} is not a host of ${site.id}` };
  const extractor = meta.route === 'browser' ? entry.browser?.extractor : entry.extractor;
  if (!extractor) return { ...base, detail: `${site.id} ${entry.pageType} has no browser route` };

  let body: Buffer;
  if (meta.source === 'corpus') {
    if (!meta.corpusPath) return { ...base, detail: 'corpus fixture without corpusPath' };
    if (!corpus) return { ...base, status: 'skipped', detail: 'shared corpus absent' };
    body = fixtureBody(meta, dir, corpus);
  } else {
    if (!meta.page) return { ...base, detail: `${meta.source} fixture without page` };
    body = fixtureBody(meta, dir, corpus);
  }
  base.sha256 = createHash('sha256').update(body).digest('hex');

  let data: Record<string, unknown>;
  let unsourced: string[] = [];
  try {
    const page = normalizePage({
      body: new Uint8Array(body),
      headers: { 'content-type': meta.contentType },
      // On the api route the extractor reads what the server fetches for the page URL, as it does when serving; a
      // rendered page is read at the page URL the browser loaded.
      finalUrl: entry.api && meta.route !== 'browser' ? entry.api.request(url).url.href : meta.url,
      input: extractor.input,
    });
    const extraction = extractor.extract(page);
    validateExtraction(entry.pageType, extraction);
    data = extraction.data;
    unsourced = Object.keys(data).filter((k) => !(k in extraction.provenance));
  } catch (error) {
    if (!isKumoError(error))
      return { ...base, detail: `threw ${error instanceof Error ? error.message : 'a non-error'}` };
    if (meta.expectError === error.code) return { ...base, status: 'pass', detail: error.message };
    return { ...base, detail: `${error.code}: ${error.message}` };
  }
  if (meta.expectError) return { ...base, detail: `expected ${meta.expectError}, got data` };

  let expected: unknown;
  try {
    expected = JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), 'utf8'));
  } catch {
    return { ...base, detail: 'expected.json missing or not JSON' };
  }
  if (isPlainObject(expected) && expected.reviewed === false)
    return { ...base, detail: 'draft from `kumo sites record`, not reviewed yet' };
  const diff = diffJson(expected, data);
  if (unsourced.length > 0) base.unsourced = unsourced;
  return diff.length === 0
    ? { ...base, status: 'pass' }
    : { ...base, detail: `${diff.length} difference(s)`, diff: diff.slice(0, 20) };
}

/**
 * The bytes a fixture stands for, as the site would send them: its page, wrapped in a ZIP when the meta says so (same
 * input, same bytes). The end-to-end tests serve these from the local origin.
 */
export function fixtureBody(meta: FixtureMeta, dir: string, corpus: string | null): Buffer {
  const base = meta.source === 'corpus' ? corpus : dir;
  const file = meta.source === 'corpus' ? meta.corpusPath : meta.page;
  if (base === null || !file) throw new Error(`fixture page unavailable: ${meta.url}`);
  const body = readFileSync(path.join(base, file));
  if (!meta.wrap) return body;
  const others = Object.entries(meta.wrap.others ?? {}).map(([name, other]) => ({
    name,
    data: new Uint8Array(readFileSync(path.join(base, other))),
  }));
  return writeZip([...others, { name: meta.wrap.zip, data: new Uint8Array(body) }]);
}

const RANK: readonly Coverage[] = ['experimental', 'verifying', 'beta', 'stable'];

/**
 * What the fixtures of one page type earn (DESIGN §6): any failing fixture → verifying; a passing real page →
 * stable; passing modelled fixtures only → beta; nothing that ran (no fixtures, or all skipped) → experimental.
 */
export function earnedCoverage(results: readonly Pick<FixtureResult, 'source' | 'status'>[]): Coverage {
  if (results.some((r) => r.status === 'fail')) return 'verifying';
  const passed = results.filter((r) => r.status === 'pass');
  if (passed.some((r) => isRealPage(r.source))) return 'stable';
  return passed.length > 0 ? 'beta' : 'experimental';
}

/** The declared level capped by the earned one; `stopped` is an operator's decision and always stays. */
export function effectiveCoverage(declared: Coverage, earned: Coverage): Coverage {
  if (declared === 'stopped') return 'stopped';
  return RANK[Math.min(RANK.indexOf(declared), RANK.indexOf(earned))]!;
}

/** DESIGN §6: `stable` needs a real page that verifies; a page type with only modelled fixtures is `beta` at most. */
function coverageChecks(site: Site, results: readonly FixtureResult[]): FixtureResult[] {
  return site.pageTypes.map((entry) => {
    const mine = results.filter((r) => r.pageType === entry.pageType);
    const real = mine.filter((r) => isRealPage(r.source));
    const check: FixtureResult = {
      site: site.id,
      pageType: entry.pageType,
      fixture: `(coverage ${entry.pageType}: ${entry.coverage})`,
      source: null,
      status: 'pass',
    };
    if (entry.coverage === 'stable') {
      if (real.length === 0) return { ...check, status: 'fail', detail: 'stable without a real-page fixture' };
      if (real.every((r) => r.status === 'skipped'))
        return { ...check, status: 'skipped', detail: 'real pages absent' };
      if (!real.some((r) => r.status === 'pass'))
        return { ...check, status: 'fail', detail: 'no real-page fixture passes' };
    } else if (entry.coverage === 'beta' && mine.length === 0) {
      return { ...check, status: 'fail', detail: 'beta without any fixture' };
    }
    return check;
  });
}

/**
 * Structural differences as `/path: expected X, got Y`; key order does not matter, array order does. A long list
 * can be checked by sample, so a large real answer is not copied into the project whole: an expected
 * `{ "$length": n, "$sample": { "0": …, "1999": … } }` matches an array of exactly n entries whose listed indexes
 * equal the samples.
 */
export function diffJson(expected: unknown, actual: unknown, at = ''): string[] {
  const where = at || '/';
  if (isSampledList(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected a list of ${expected.$length}, got ${show(actual)}`];
    const out: string[] = [];
    if (actual.length !== expected.$length)
      out.push(`${where}: expected ${expected.$length} items, got ${actual.length}`);
    for (const [index, sample] of Object.entries(expected.$sample)) {
      const i = Number(index);
      if (!Number.isInteger(i) || i < 0 || i >= actual.length) out.push(`${at}/${index}: missing (expected a sample)`);
      else out.push(...diffJson(sample, actual[i], `${at}/${i}`));
    }
    return out;
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual))
      return [`${where}: expected ${show(expected)}, got ${show(actual)}`];
    const out: string[] = [];
    if (expected.length !== actual.length)
      out.push(`${where}: expected ${expected.length} items, got ${actual.length}`);
    for (let i = 0; i < Math.min(expected.length, actual.length); i++)
      out.push(...diffJson(expected[i], actual[i], `${at}/${i}`));
    return out;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (!(key in actual)) out.push(`${at}/${key}: missing (expected ${show(expected[key])})`);
      else if (!(key in expected)) out.push(`${at}/${key}: unexpected ${show(actual[key])}`);
      else out.push(...diffJson(expected[key], actual[key], `${at}/${key}`));
    }
    return out;
  }
  return Object.is(expected, actual) ? [] : [`${where}: expected ${show(expected)}, got ${show(actual)}`];
}

function isSampledList(value: unknown): value is { $length: number; $sample: Record<string, unknown> } {
  return (
    isPlainObject(value) &&
    Number.isInteger(value.$length) &&
    isPlainObject(value.$sample) &&
    Object.keys(value).length === 2
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The committed outcome of the real-page fixtures, for machines without the corpus (production). */
export interface VerificationRecord {
  note: string;
  fixtures: RecordedFixture[];
}

export interface RecordedFixture {
  site: string;
  fixture: string;
  pageType: string | null;
  source: FixtureSource | null;
  sha256: string | null;
  status: FixtureResult['status'];
  /** Present (`browser`) for a rendered-page fixture: what earns the browser route's level. */
  route?: 'browser';
}

/** The committed record, in the source tree: what `kumo sites verify --record` writes and the build checks. */
export const verificationRecordPath = path.join(repoRoot, 'src', 'sites', 'verification-record.json');

/**
 * The record the server reads: beside this module, so `dist/sites/` when built (the build ships a checked copy
 * there) and the committed file itself when run from source. Nothing else is read at run time (DESIGN §7).
 */
export const shippedRecordPath = fileURLToPath(new URL('./verification-record.json', import.meta.url));

export function toRecord(results: readonly FixtureResult[]): VerificationRecord {
  return {
    note: 'Written by `kumo sites verify --record` with the shared corpus present; do not edit by hand.',
    fixtures: results
      .filter((r) => !r.fixture.startsWith('('))
      .map((r) => ({
        site: r.site,
        fixture: r.fixture,
        pageType: r.pageType,
        source: r.source,
        sha256: r.sha256 ?? null,
        status: r.status,
        ...(r.route ? { route: r.route } : {}),
      })),
  };
}

export function readVerificationRecord(file = verificationRecordPath): VerificationRecord | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VerificationRecord;
  } catch {
    return null;
  }
}

/**
 * The shipped record, or an error that names the file: without it nothing could be served, and a server that starts
 * anyway would refuse every page without saying why, so the caller refuses to start instead.
 */
export function loadShippedRecord(file = shippedRecordPath): VerificationRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`verification record missing at ${file}: \`npm run build\` ships it inside dist/sites/`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`verification record at ${file} is not JSON: rebuild with \`npm run build\``);
  }
  if (!isPlainObject(parsed) || !Array.isArray(parsed.fixtures) || !parsed.fixtures.every(isRecordedFixture))
    throw new Error(`verification record at ${file} has no valid fixtures list: rebuild with \`npm run build\``);
  return parsed as unknown as VerificationRecord;
}

function isRecordedFixture(value: unknown): value is RecordedFixture {
  return (
    isPlainObject(value) &&
    typeof value.site === 'string' &&
    typeof value.fixture === 'string' &&
    (value.pageType === null || typeof value.pageType === 'string') &&
    ['pass', 'fail', 'skipped'].includes(value.status as string)
  );
}

/**
 * Why a record is not current for these fixtures (empty when it is): every fixture in the source tree has its entry
 * and no other; in-project pages (and corpus pages, when the corpus is here) must give exactly the recorded outcome
 * and sha256; a corpus page that is absent here must have been verified (pass or fail) when the record was written.
 */
export function recordProblems(record: VerificationRecord, live: readonly FixtureResult[]): string[] {
  const now = toRecord(live).fixtures;
  const key = (f: Pick<RecordedFixture, 'site' | 'fixture'>) => `${f.site}/${f.fixture}`;
  const recorded = new Map(record.fixtures.map((f) => [key(f), f]));
  const problems: string[] = [];
  for (const fixture of now) {
    const entry = recorded.get(key(fixture));
    recorded.delete(key(fixture));
    if (!entry) {
      problems.push(`${key(fixture)}: not in the record`);
    } else if (readsCorpus(fixture.source) && fixture.status === 'skipped') {
      if (entry.source !== fixture.source || entry.pageType !== fixture.pageType || entry.status === 'skipped')
        problems.push(`${key(fixture)}: the record does not hold a verified outcome for this real page`);
    } else if (diffJson(entry, fixture).length > 0) {
      problems.push(`${key(fixture)}: ${diffJson(entry, fixture).join('; ')}`);
    }
  }
  for (const gone of recorded.keys()) problems.push(`${gone}: in the record but no longer a fixture`);
  return problems;
}

/**
 * The record with one site's entries replaced by its live outcome and every other entry kept as recorded, in
 * catalogue order (`order`: the site ids as the registry lists them): what `kumo sites verify --record --site` and
 * `kumo sites new` write, without the shared corpus, when that site reads nothing from it.
 */
export function withSiteRecorded(
  record: VerificationRecord,
  siteId: string,
  results: readonly FixtureResult[],
  order: readonly string[],
): VerificationRecord {
  const mine = toRecord(results.filter((r) => r.site === siteId)).fixtures;
  const rank = (site: string) => {
    const i = order.indexOf(site);
    return i === -1 ? order.length : i;
  };
  // Array.prototype.sort is stable: each site's fixtures keep their order.
  const fixtures = [...record.fixtures.filter((f) => f.site !== siteId), ...mine].sort(
    (a, b) => rank(a.site) - rank(b.site),
  );
  return { note: record.note, fixtures };
}
