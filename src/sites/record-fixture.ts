// `kumo sites record`: fetch one page of a supported site and save it as a fixture draft for a reviewer.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Fetcher } from '../fetch/fetcher.js';
import { isKumoError } from '../errors.js';
import { validateExtraction } from '../extract/page-types.js';
import { normalizePage } from '../normalize/normalize-page.js';
import type { SiteRegistry } from './registry.js';
import type { FixtureMeta } from './verification.js';
import { credentialValues, redactUrl } from './redact-url.js';
import { fixturesDirOf } from './verification.js';

export interface RecordOptions {
  url: URL;
  siteId?: string;
  name?: string;
  /** Fixture folder; default the site's own (src/sites/<site>/fixtures). */
  outDir?: string;
  now?: Date;
}

export interface RecordResult {
  site: string;
  pageType: string;
  dir: string;
  files: string[];
  /** The error code when the current extractor could not produce data (the draft then says so). */
  extractionError?: string;
}

export async function recordFixture(
  registry: SiteRegistry,
  fetcher: Fetcher,
  options: RecordOptions,
): Promise<RecordResult> {
  const site = options.siteId ? registry.get(options.siteId) : registry.resolveHost(options.url.hostname);
  if (!site) throw new Error(`no supported site for ${options.url.hostname}`);
  if (!site.hosts.includes(options.url.hostname))
    throw new Error(`${options.url.hostname} is not a host of ${site.id}`);
  const entry = registry.pageTypeFor(site, options.url, 'auto');
  if (!entry) throw new Error(`no page type of ${site.id} matches ${options.url.href}`);

  // The api route records what the server fetches for the page: the API request its web app makes.
  const source = entry.api ? entry.api.request(options.url) : { url: options.url };
  const page = await fetcher.fetch({
    url: source.url,
    ...(source.headers ? { headers: source.headers } : {}),
    target: {
      allowedHosts: entry.api?.hosts ?? site.hosts,
      allowedSchemes: site.schemes,
      acceptContentTypes: entry.contentTypes,
    },
    deadlineAt: Date.now() + 60_000,
  });
  if (page.httpStatus !== 200) throw new Error(`the site answered ${page.httpStatus}`);
  // Caller credentials in the query are never stored (DESIGN §6): not in the meta, and not echoed in the body.
  const echoed = credentialValues(options.url, site.secretQueryParams, 6).filter((v) =>
    Buffer.from(page.body).includes(Buffer.from(v)),
  );
  if (echoed.length > 0) {
    throw new Error(
      'the response repeats a credential of the request URL (an affiliate link, an echoed id); record with ' +
        'throwaway credentials, or remove them from the page by hand before committing',
    );
  }

  const now = options.now ?? new Date();
  const name = options.name ?? `recorded-${now.toISOString().slice(0, 10)}-${entry.pageType}`;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error('--name must be kebab-case (a-z, 0-9, -)');
  const dir = options.outDir ?? fixturesDirOf(site);
  const ext = entry.extractor.input;
  const pageFile = `${name}.${ext}`;
  if (existsSync(path.join(dir, pageFile))) throw new Error(`${pageFile} already exists in ${dir}`);
  const contentType =
    page.headers['content-type'] ??
    (ext === 'json'
      ? 'application/json'
      : ext === 'csv'
        ? 'text/csv'
        : ext === 'xml'
          ? 'application/xml'
          : 'text/html');

  const meta: FixtureMeta & { recordedAt: string; finalUrl: string } = {
    source: 'recorded',
    page: pageFile,
    url: redactUrl(options.url, site.secretQueryParams),
    finalUrl: redactUrl(new URL(page.finalUrl), site.secretQueryParams),
    contentType,
    recordedAt: now.toISOString(),
    note: 'DRAFT recorded by `kumo sites record`: review the page and expected.json, then write what you checked here.',
  };
  // The draft holds what the current extractor says, explicitly unreviewed: verification fails until a person
  // removes `reviewed: false` after checking every value against the page.
  let draft: Record<string, unknown>;
  let extractionError: string | undefined;
  try {
    const normalized = normalizePage({
      body: page.body,
      headers: { 'content-type': contentType },
      finalUrl: page.finalUrl,
      input: entry.extractor.input,
    });
    const extraction = entry.extractor.extract(normalized);
    validateExtraction(entry.pageType, extraction);
    draft = { reviewed: false, ...extraction.data };
  } catch (error) {
    if (!isKumoError(error)) throw error;
    extractionError = error.code;
    draft = { reviewed: false, extraction_error: `${error.code}: ${error.message}` };
  }

  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, pageFile), page.body);
  await writeFile(path.join(dir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  await writeFile(path.join(dir, `${name}.expected.json`), `${JSON.stringify(draft, null, 2)}\n`);
  return {
    site: site.id,
    pageType: entry.pageType,
    dir,
    files: [pageFile, `${name}.meta.json`, `${name}.expected.json`],
    ...(extractionError ? { extractionError } : {}),
  };
}
