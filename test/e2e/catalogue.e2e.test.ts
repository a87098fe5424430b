// Every site and page type of the catalogue, end to end: one of its golden fixtures served under the site's real
// hostname by a local origin, scraped through the started server, and the `data` compared with the reviewer's JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, kumoCli, repoRoot, type KumoProcess } from '../support/kumo-process.js';
import { siteCatalogue } from '../../src/sites/registry.js';
import { diffJson, fixtureBody, fixturesDirOf, type FixtureMeta } from '../../src/sites/verification.js';
import type { PageTypeEntry, Site } from '../../src/sites/site.js';

const corpus = path.resolve(repoRoot, '../shared/corpus/real');
const corpusAvailable = existsSync(corpus);
if (!corpusAvailable) console.warn(`catalogue e2e: ${corpus} is absent, real-page fixtures are skipped`);

interface Case {
  site: Site;
  entry: PageTypeEntry;
  fixture: string;
  meta: FixtureMeta;
  body: Buffer;
  expected: unknown;
  /** Host and path+query the server will fetch (the API's for the api route). */
  fetched: URL;
  headers: Readonly<Record<string, string>>;
}

/** Per page type: a real page when the corpus is here, else a modelled one; fixtures that expect data only. */
function casesOf(site: Site): { cases: Case[]; missing: string[] } {
  const dir = fixturesDirOf(site);
  const metas = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.meta.json'))
        .sort()
        .map((f) => {
          const name = f.slice(0, -'.meta.json'.length);
          return { name, meta: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as FixtureMeta };
        })
    : [];
  const cases: Case[] = [];
  const missing: string[] = [];
  for (const entry of site.pageTypes) {
    const usable = metas.filter(({ name, meta }) => {
      if (meta.expectError || !existsSync(path.join(dir, `${name}.expected.json`))) return false;
      const url = new URL(meta.url);
      const type = meta.pageType ?? site.pageTypes.find((e) => e.matches(url))?.pageType;
      if (type !== entry.pageType) return false;
      return meta.source !== 'corpus' || corpusAvailable;
    });
    const chosen = usable.find((u) => u.meta.source !== 'modelled') ?? usable[0];
    if (!chosen) {
      missing.push(`${site.id} ${entry.pageType}`);
      continue;
    }
    const { name, meta } = chosen;
    // As the site sends it: a wrapped fixture (EDINET's filing ZIP) is served as the archive's binary bytes.
    const body = fixtureBody(meta, dir, corpusAvailable ? corpus : null);
    const pageUrl = new URL(meta.url);
    const request = entry.api ? entry.api.request(pageUrl) : { url: pageUrl };
    cases.push({
      site,
      entry,
      fixture: name,
      meta,
      body,
      expected: JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), 'utf8')),
      fetched: request.url,
      headers: request.headers?.(request.url) ?? {},
    });
  }
  return { cases, missing };
}

const all = siteCatalogue.map(casesOf);
const cases = all.flatMap((a) => a.cases);
const missing = all.flatMap((a) => a.missing);
if (missing.length > 0) console.warn(`catalogue e2e: no usable fixture here for ${missing.join(', ')}`);

const origins = new Map<string, Origin>();
let kumo: KumoProcess;
let served: Map<string, Map<string, string>>;

beforeAll(async () => {
  for (const c of cases) {
    const host = c.fetched.hostname;
    let origin = origins.get(host);
    if (!origin) origins.set(host, (origin = await startOrigin()));
    origin.route('GET', c.fetched.pathname, {
      status: 200,
      headers: { 'content-type': c.meta.contentType },
      body: c.body,
    });
  }
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec(Object.fromEntries([...origins].map(([host, o]) => [host, o.url]))),
    // Review-gated page types are approved for the test's account below; development would serve unverified ones.
    KUMO_ENV: 'production',
  });
  const sites = await call(kumo.baseUrl, '/v1/sites', null);
  served = new Map(
    (sites.body.sites as { id: string; page_types: { page_type: string; coverage: string }[] }[]).map((s) => [
      s.id,
      new Map(s.page_types.map((p) => [p.page_type, p.coverage])),
    ]),
  );
  const gated = [...new Set(cases.filter((c) => c.entry.review).map((c) => c.site.id))];
  if (gated.length > 0) {
    const usage = await call(kumo.baseUrl, '/v1/usage');
    for (const site of gated)
      await kumoCli(kumo.dataDir, [
        'accounts',
        'approve',
        '--account',
        usage.body.account_id,
        '--site',
        site,
        '--by',
        'catalogue e2e',
        '--json',
      ]);
  }
}, 60_000);

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  for (const origin of origins.values()) await origin.close();
});

describe('the catalogue through the API', () => {
  it('has a fixture to run for every page type (given the corpus)', () => {
    expect(cases.length).toBeGreaterThan(0);
    if (corpusAvailable) expect(missing).toEqual([]);
  });

  it.each(cases.map((c) => [`${c.site.id} ${c.entry.pageType} (${c.fixture}, ${c.meta.source})`, c] as const))(
    '%s',
    async (_, c) => {
      const coverage = served.get(c.site.id)?.get(c.entry.pageType);
      const params = c.meta.pageType ? { work_type: c.meta.pageType } : {};
      const before = origins.get(c.fetched.hostname)!.requests(c.fetched.pathname).length;
      const res = await scrape(kumo.baseUrl, { url: c.meta.url, params });
      if (coverage !== 'stable' && coverage !== 'beta') {
        // Not served in production: refused for free, and the target is never asked.
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('page_not_supported');
        expect(origins.get(c.fetched.hostname)!.requests(c.fetched.pathname).length).toBe(before);
        return;
      }
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
      expect(res.body).toMatchObject({
        resolved_site: c.site.id,
        page_type: c.entry.pageType,
        cost_units: c.site.route === 'browser' ? 2 : 1,
        fetch_summary: { status: 'completed', route: c.site.route, http_status: 200 },
        extractor: { id: c.entry.extractor.id, coverage },
      });
      // The golden comparison itself (a long real answer's expected.json checks its rows by count and sample).
      expect(diffJson(c.expected, res.body.data)).toEqual([]);
      for (const field of Object.keys(res.body.data)) expect(res.body.extractor.provenance[field]).toBeTruthy();
      const seen = origins.get(c.fetched.hostname)!.requests(c.fetched.pathname);
      expect(seen.length).toBe(before + 1);
      const request = seen.at(-1)!;
      expect(request.url).toBe(`${c.fetched.pathname}${c.fetched.search}`);
      // The api route sends what the site's web app sends (a fresh signature each time, so names only).
      for (const name of Object.keys(c.headers)) expect(request.headers[name.toLowerCase()]).toBeTruthy();
    },
    30_000,
  );
});
