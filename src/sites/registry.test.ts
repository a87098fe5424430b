// The closed site catalogue: exact hosts, URL patterns per page type, explicit work types, secrets.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './corpus.js';
import { cacheLimitCapSeconds, cacheLimitOf, routesOf } from './site.js';
import { registrableDomain, SiteRegistry } from './registry.js';

const registry = new SiteRegistry();
const site = (host: string) => {
  const s = registry.resolveHost(host);
  if (!s) throw new Error(`no site for ${host}`);
  return s;
};
const typeOf = (url: string, workType = 'auto') =>
  registry.pageTypeFor(site(new URL(url).hostname), new URL(url), workType)?.pageType ?? null;

describe('SiteRegistry', () => {
  it('lists the sites and finds them by id', () => {
    // The catalogue is the folders (catalogue-index.test.ts); here, each is found by its id.
    expect(registry.list().length).toBeGreaterThanOrEqual(20);
    for (const listed of registry.list()) expect(registry.get(listed.id)).toBe(listed);
    expect(registry.get('estat_api')?.hosts).toEqual(['api.e-stat.go.jp']);
    expect(registry.get('nope')).toBeNull();
  });

  it('resolves only exact canonical hosts', () => {
    expect(registry.resolveHost('www.ikebe-gakki.com')?.id).toBe('ikebe_gakki');
    expect(registry.resolveHost('WWW.IKEBE-GAKKI.COM')?.id).toBe('ikebe_gakki');
    expect(registry.resolveHost('ikebe-gakki.com')).toBeNull();
    expect(registry.resolveHost('evil.www.ikebe-gakki.com')).toBeNull();
    expect(registry.resolveHost('www.ikebe-gakki.com.evil.jp')).toBeNull();
  });

  it.each([
    ['https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592', 'item'],
    ['https://www.ikebe-gakki.com/c/c-/dt/dt03/dt031548/dt031548002/750802', 'item'],
    ['https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427', 'search'],
    ['https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/', 'search'],
    ['https://www.ikebe-gakki.com/p/search?tag=x', 'search'],
    ['https://www.ikebe-gakki.com/company/', null],
    ['https://www.jma.go.jp/bosai/forecast/data/forecast/130000.json', 'forecast'],
    ['https://www.jma.go.jp/bosai/forecast/data/overview_forecast/070000.json', 'forecast_overview'],
    ['https://www.jma.go.jp/bosai/forecast/data/forecast/13000.json', null],
    ['https://www.jma.go.jp/bosai/common/const/area.json', 'areas'],
    ['https://www.jma.go.jp/bosai/common/const/area.json.bak', null],
    ['https://laws.e-gov.go.jp/api/2/law_data/405AC0000000088', 'document'],
    ['https://laws.e-gov.go.jp/law/405AC0000000088/20240401_504AC0100000052', 'document'],
    ['https://laws.e-gov.go.jp/api/2/law_data/405AC0000000088?elm=MainProvision', null],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getStatsData?appId=k&statsDataId=0003014522', 'table'],
    ['https://api.e-stat.go.jp/rest/2.0/app/json/getStatsData', 'table'],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getMetaInfo', 'meta'],
    ['https://api.e-stat.go.jp/rest/2.0/app/json/getStatsList?appId=k&statsCode=00200502', 'list'],
    ['https://api.e-stat.go.jp/rest/3.0/app/json/getDataCatalog', null],
  ])('auto: %s → %s', (url, expected) => {
    expect(typeOf(url)).toBe(expected);
  });

  it('takes an explicit work_type the site declares, and refuses others', () => {
    expect(typeOf('https://www.ikebe-gakki.com/company/', 'item')).toBe('item');
    expect(typeOf('https://www.ikebe-gakki.com/c/c-/kb/kb01/kb011427/750592', 'table')).toBeNull();
  });

  it('marks the e-Stat appId as a caller secret', () => {
    expect(site('api.e-stat.go.jp').secretQueryParams).toEqual(['appId']);
  });

  it('pairs every page type with an extractor of the same type and a sane coverage', () => {
    for (const s of registry.list()) {
      for (const entry of s.pageTypes) {
        expect(entry.extractor.pageType).toBe(entry.pageType);
        expect(entry.extractor.id).toBe(`${s.id}/${entry.pageType}`);
        expect(entry.contentTypes.length).toBeGreaterThan(0);
        expect(entry.verifiedBy).not.toBe('');
      }
    }
  });

  it('rejects a catalogue with a duplicated host or id', () => {
    const one = registry.list()[0]!;
    expect(() => new SiteRegistry([one, { ...one, id: 'other' }])).toThrow(/belongs to two sites/);
    expect(() => new SiteRegistry([one, { ...one, hosts: ['x.jp'] }])).toThrow(/duplicate site id/);
  });
});

describe('the api route in the registry', () => {
  const live = new SiteRegistry();
  const mercari = live.get('mercari')!;
  const other = (changes: Partial<typeof mercari>) => ({
    ...mercari,
    id: 'other_app',
    hosts: ['other.example'],
    ...changes,
  });

  it('maps a fetched API host to its site (politeness comes from there)', () => {
    expect(live.siteOfFetchedHost('api.mercari.jp')?.id).toBe('mercari');
    expect(live.siteOfFetchedHost('jp.mercari.com')?.id).toBe('mercari');
    expect(live.siteOfFetchedHost('api.example')).toBeNull();
  });

  it('refuses an api route without a mapping, an API host of two sites, and an API host that is a page host', () => {
    const noMapping = other({ pageTypes: mercari.pageTypes.map(({ api: _api, ...entry }) => entry) });
    expect(() => new SiteRegistry([noMapping], { record: null })).toThrow(/go together/);
    expect(() => new SiteRegistry([mercari, other({})], { record: null })).toThrow(/belongs to two sites/);
    const onPageHost = other({
      pageTypes: mercari.pageTypes.map((e) => ({ ...e, api: { ...e.api!, hosts: ['www.ikebe-gakki.com'] } })),
    });
    expect(() => new SiteRegistry([live.get('ikebe_gakki')!, onPageHost], { record: null })).toThrow(
      /another site's page host/,
    );
  });
});

describe('routes per page type', () => {
  const live = new SiteRegistry();
  const ikebe = live.get('ikebe_gakki')!;
  const mercari = live.get('mercari')!;

  it('gives mercari item its api default and the browser beside it, capped below the page type by its own level', () => {
    const item = mercari.pageTypes[0]!;
    expect(routesOf(mercari, item)).toEqual(['api', 'browser']);
    expect(item.browser?.extractor.id).toBe('mercari/item_rendered');
    expect(item.browser?.coverage).toBe('beta');
    expect(routesOf(ikebe, ikebe.pageTypes[0]!)).toEqual(['http']);
  });

  it("earns the browser route's level only from rendered-page fixtures (meta route browser), never the default route's", async () => {
    // The same fixtures without the rendered pages: the api route's fixtures still pass, the browser route earns nothing.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-browser-coverage-'));
    try {
      const source = path.join(repoRoot, 'src', 'sites', 'mercari', 'fixtures');
      for (const name of readdirSync(source)) {
        if (name.startsWith('modelled-rendered-')) continue;
        await copyFile(path.join(source, name), path.join(dir, name));
      }
      const withoutRendered = new SiteRegistry([{ ...mercari, fixturesDir: dir }], { record: null });
      const item = withoutRendered.get('mercari')!.pageTypes[0]!;
      expect(item.verification?.fail).toBe(0);
      expect(item.coverage).not.toBe('experimental');
      expect(item.browser?.coverage).toBe('experimental');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a browser default without its rendering, and a rendering read by a non-HTML extractor', () => {
    const entry = ikebe.pageTypes[0]!;
    const browserOnly = { ...ikebe, pageTypes: [{ ...entry, route: 'browser' as const }] };
    expect(() => new SiteRegistry([browserOnly], { record: null })).toThrow(/needs its rendering declared/);
    const jsonRendering = {
      ...mercari,
      pageTypes: mercari.pageTypes.map((e) => ({ ...e, browser: { ...e.browser!, extractor: e.extractor } })),
    };
    expect(() => new SiteRegistry([jsonRendering], { record: null })).toThrow(/reads rendered HTML/);
  });
});

describe('cache limits (DESIGN §5, §10)', () => {
  it('every page type of every site has a cache limit of whole seconds, at most 24 h, with its reason', () => {
    const limits = registry
      .list()
      .flatMap((s) => s.pageTypes.map((e) => ({ at: `${s.id}/${e.pageType}`, ...cacheLimitOf(s, e) })));
    expect(limits.length).toBeGreaterThan(20);
    for (const limit of limits) {
      expect(Number.isInteger(limit.seconds) && limit.seconds > 0, limit.at).toBe(true);
      // Longer only where a site's terms allow it: none does yet, so a longer limit is a mistake until one is written.
      expect(limit.seconds, limit.at).toBeLessThanOrEqual(cacheLimitCapSeconds);
      expect(limit.reason.trim().length, limit.at).toBeGreaterThanOrEqual(20);
    }
  });

  it('holds the limits the terms and the research set: 楽天 24 h, メルカリ 1 h, market quotes minutes, JMA forecasts 6 h', () => {
    const of = (id: string, pageType: string) => {
      const s = registry.list().find((x) => x.id === id)!;
      return cacheLimitOf(
        s,
        s.pageTypes.find((e) => e.pageType === pageType)!,
      ).seconds;
    };
    expect(of('rakuten_ichiba', 'item')).toBeLessThanOrEqual(86_400);
    expect(of('mercari', 'item')).toBeLessThanOrEqual(3_600);
    for (const id of ['kabutan', 'minkabu', 'nikkei']) expect(of(id, 'quote')).toBeLessThanOrEqual(900);
    expect(of('jma_forecast', 'forecast')).toBeLessThanOrEqual(6 * 3_600);
  });
});

describe('suggestHosts: the supported host a near miss probably meant', () => {
  // Derived from the registry's hosts: every site host, with and without `www.`, finds itself back.
  it('finds every site host from its www-less or www-added spelling', () => {
    for (const s of registry.list()) {
      for (const host of s.hosts) {
        const sibling = host.startsWith('www.') ? host.slice(4) : `www.${host}`;
        if (registry.resolveHost(sibling)) continue;
        expect(registry.suggestHosts(sibling)[0], sibling).toBe(host);
      }
    }
  });

  it('names the www spelling first, then other hosts under the same registrable domain', () => {
    expect(registry.suggestHosts('ikebe-gakki.com')).toEqual(['www.ikebe-gakki.com']);
    expect(registry.suggestHosts('WWW.Kakaku.com')).toEqual(['kakaku.com']);
    expect(registry.suggestHosts('shop.ikebe-gakki.com')).toEqual(['www.ikebe-gakki.com']);
    const rakuten = registry.suggestHosts('www.rakuten.co.jp');
    expect(rakuten).toContain('item.rakuten.co.jp');
    expect(rakuten.every((host) => host.endsWith('.rakuten.co.jp'))).toBe(true);
    expect(registry.suggestHosts('shopping.yahoo.co.jp')).toEqual(['store.shopping.yahoo.co.jp']);
  });

  it('suggests nothing for an unrelated host, a supported host itself, or another owner under a shared suffix', () => {
    expect(registry.suggestHosts('shop.example.net')).toEqual([]);
    expect(registry.suggestHosts('www.ikebe-gakki.com')).toEqual([]);
    // co.jp and go.jp are registries, not owners: amazon.co.jp says nothing about rakuten.co.jp.
    expect(registry.suggestHosts('www.example.co.jp')).toEqual([]);
    expect(registry.suggestHosts('www.example.go.jp')).toEqual([]);
  });

  it('takes the registrable domain under .jp attribute names and elsewhere', () => {
    expect(registrableDomain('item.rakuten.co.jp')).toBe('rakuten.co.jp');
    expect(registrableDomain('api.e-stat.go.jp')).toBe('e-stat.go.jp');
    expect(registrableDomain('www.suruga-ya.jp')).toBe('suruga-ya.jp');
    expect(registrableDomain('www.ikebe-gakki.com')).toBe('ikebe-gakki.com');
    expect(registrableDomain('kabutan.jp')).toBe('kabutan.jp');
  });
});
