// Caller credentials in query strings (e-Stat `appId`, Rakuten `applicationId`/`accessKey`/`affiliateId`, 法人番号
// `id`, EDINET `Subscription-Key` …): one mechanism, declared per site. Each is planted in a real call (a success kept
// as an artifact, a target 404, a failure), reaches the target, and is found in no response, no stored byte and no
// log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, scrape, call, repoRoot, type KumoProcess } from '../support/kumo-process.js';
import { siteCatalogue } from '../../src/sites/registry.js';
import { fixtureBody, fixturesDirOf, type FixtureMeta } from '../../src/sites/verification.js';
import type { Site } from '../../src/sites/site.js';

const corpus = path.resolve(repoRoot, '../shared/corpus/real');

interface Case {
  site: Site;
  meta: FixtureMeta;
  body: Buffer;
  /** The page URL with every credential of the site planted, each with its own marker value. */
  url: URL;
  planted: string[];
}

function caseOf(site: Site): Case | null {
  const dir = fixturesDirOf(site);
  const metas = readdirSync(dir)
    .filter((f) => f.endsWith('.meta.json'))
    .sort()
    .map((f) => ({ name: f.slice(0, -10), meta: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as FixtureMeta }))
    .filter(({ name, meta }) => !meta.expectError && existsSync(path.join(dir, `${name}.expected.json`)))
    .filter(({ meta }) => meta.source !== 'corpus' || existsSync(path.join(corpus, meta.corpusPath ?? '')));
  const chosen = metas.find((m) => m.meta.source === 'modelled') ?? metas[0];
  if (!chosen) return null;
  const { meta } = chosen;
  const url = new URL(meta.url);
  const planted: string[] = [];
  site.secretQueryParams.forEach((name, i) => {
    const value = `KUMOSECRET${i}x${site.id.replace(/_/g, '')}q7Z`;
    url.searchParams.set(name, value);
    planted.push(value);
  });
  const page = fixtureBody(meta, dir, corpus);
  return { site, meta, body: echoing(page, planted), url, planted };
}

/**
 * The page as an API that repeats the caller's credentials would send it: every link in a JSON answer carries them
 * (Rakuten's `rafcid=wsc_i_is_<applicationId>`, affiliate links), so the extractor itself must leave them out.
 */
function echoing(page: Buffer, planted: readonly string[]): Buffer {
  let json: unknown;
  try {
    json = JSON.parse(page.toString('utf8'));
  } catch {
    return page;
  }
  const tail = planted.map((v, i) => `${i === 0 ? 'rafcid=wsc_i_is_' : `p${i}=`}${v}`).join('&');
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string' && /^https?:\/\//.test(value))
      return `${value}${value.includes('?') ? '&' : '?'}${tail}`;
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return Buffer.from(JSON.stringify(walk(json)));
}

const cases = siteCatalogue.filter((s) => s.secretQueryParams.length > 0).flatMap((s) => caseOf(s) ?? []);
const origins = new Map<string, Origin>();
let kumo: KumoProcess;

async function bytesUnder(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => ({
        file: path.join(e.parentPath, e.name),
        bytes: await readFile(path.join(e.parentPath, e.name)),
      })),
  );
}

beforeAll(async () => {
  for (const c of cases) {
    let origin = origins.get(c.url.hostname);
    if (!origin) origins.set(c.url.hostname, (origin = await startOrigin()));
    origin.route('GET', c.url.pathname, { status: 200, headers: { 'content-type': c.meta.contentType }, body: c.body });
  }
  kumo = await startKumo({
    KUMO_CONNECT_TO: connectToSpec(Object.fromEntries([...origins].map(([host, o]) => [host, o.url]))),
    LOG_LEVEL: 'debug',
  });
}, 60_000);

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  for (const origin of origins.values()) await origin.close();
});

describe('caller credentials in the query string', () => {
  it('are declared by the sites that take them', () => {
    const declared = Object.fromEntries(siteCatalogue.map((s) => [s.id, s.secretQueryParams]));
    expect(declared.estat_api).toContain('appId');
    expect(declared.rakuten_webservice).toEqual(expect.arrayContaining(['applicationId', 'affiliateId']));
    expect(declared.houjin_bangou).toEqual(['id']);
    expect(declared.edinet).toEqual(['Subscription-Key']);
    expect(cases.map((c) => c.site.id)).toEqual(
      expect.arrayContaining(['estat_api', 'rakuten_webservice', 'houjin_bangou', 'edinet']),
    );
  });

  it.each(cases.map((c) => [c.site.id, c] as const))(
    '%s: reach the target, and nothing Kumo answers, stores or logs holds them',
    async (_, c) => {
      const origin = origins.get(c.url.hostname)!;
      const answers: unknown[] = [];
      const ok = await scrape(kumo.baseUrl, {
        url: c.url.href,
        params: { store_artifact: true, ...(c.meta.pageType ? { work_type: c.meta.pageType } : {}) },
      });
      expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
      answers.push(ok.body, Object.fromEntries(ok.headers));
      answers.push((await call(kumo.baseUrl, `/v1/artifacts/${ok.body.artifact.id}`)).body);
      answers.push((await call(kumo.baseUrl, `/v1/requests/${ok.body.request_id}`)).body);
      // The target sees the credentials: the caller's API call needs them.
      const sent = origin.requests(c.url.pathname).at(-1)!;
      for (const value of c.planted) expect(sent.url).toContain(value);

      // A target 404 (free) and a failure (free) go through the same paths.
      const missing = new URL(c.url);
      missing.pathname = `${c.url.pathname.replace(/\/?$/, '')}-gone`;
      const pageType = c.meta.pageType ?? c.site.pageTypes.find((e) => e.matches(c.url))!.pageType;
      const gone = await scrape(kumo.baseUrl, { url: missing.href, params: { work_type: pageType } });
      expect(gone.status, JSON.stringify(gone.body).slice(0, 300)).toBe(200);
      expect(gone.body.fetch_summary.status).toBe('not_found');
      expect(origin.requests(missing.pathname).at(-1)!.url).toContain(c.planted[0]!);
      answers.push(gone.body);
      origin.route('GET', c.url.pathname, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'no' });
      const failed = await scrape(kumo.baseUrl, { url: c.url.href });
      origin.route('GET', c.url.pathname, {
        status: 200,
        headers: { 'content-type': c.meta.contentType },
        body: c.body,
      });
      expect(failed.status).toBeGreaterThanOrEqual(400);
      answers.push(failed.body);
      answers.push((await call(kumo.baseUrl, '/v1/usage')).body);

      const answered = JSON.stringify(answers);
      const stored = await bytesUnder(kumo.dataDir);
      for (const value of c.planted) {
        expect(answered).not.toContain(value);
        expect(stored.filter((f) => f.bytes.includes(Buffer.from(value))).map((f) => f.file)).toEqual([]);
        expect(kumo.output()).not.toContain(value);
      }
      // What was asked is still recorded, with the credentials redacted.
      expect(JSON.stringify(answers)).toContain('REDACTED');
    },
    60_000,
  );
});
