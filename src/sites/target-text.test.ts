// No text a target controls reaches an error `detail`: every string of every in-project fixture is replaced, in turn,
// by a planted marker, and whatever the pipeline throws must not carry it (issue 7 §5: e-Stat's ERROR_MSG, headings…).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { siteCatalogue } from './registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import { isKumoError } from '../errors.js';
import { repoRoot } from '../../test/support/kumo-process.js';
import type { Site } from './site.js';

const marker = 'ZQXPLANTEDBYTARGET';
/** Variants per fixture: enough to reach every string of the small modelled pages, bounded for the big ones. */
const maxVariants = 400;

interface Fixture {
  site: Site;
  name: string;
  url: string;
  contentType: string;
  pageType?: string;
  /** `browser`: a rendered page, read by the page type's browser-route extractor. */
  route?: 'browser';
  body: string;
}

function fixturesOf(site: Site): Fixture[] {
  const dir = site.fixturesDir ?? path.join(repoRoot, 'src/sites', site.id.replaceAll('_', '-'), 'fixtures');
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.meta.json'));
  } catch {
    return [];
  }
  return names.flatMap((file) => {
    const meta = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      page?: string;
      url: string;
      contentType: string;
      pageType?: string;
      route?: 'browser';
    };
    if (!meta.page) return [];
    const body = readFileSync(path.join(dir, meta.page), 'utf8');
    return [
      {
        site,
        name: file.replace('.meta.json', ''),
        url: meta.url,
        contentType: meta.contentType,
        pageType: meta.pageType,
        ...(meta.route ? { route: meta.route } : {}),
        body,
      },
    ];
  });
}

/** Each JSON string and number (and each object key) replaced by the marker, one at a time. */
function jsonVariants(text: string): string[] {
  const root: unknown = JSON.parse(text);
  const out: string[] = [];
  const walk = (value: unknown, replace: (v: unknown) => unknown) => {
    if (Array.isArray(value)) {
      const items: unknown[] = value;
      items.forEach((item, i) => walk(item, (v) => replace(items.map((x, j) => (j === i ? v : x)))));
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key, item] of entries) {
        walk(item, (v) => replace({ ...value, [key]: v }));
        out.push(JSON.stringify(replace(Object.fromEntries(entries.map(([k, x]) => [k === key ? marker : k, x])))));
      }
    } else if (typeof value === 'string' || typeof value === 'number') {
      out.push(JSON.stringify(replace(marker)));
      if (typeof value === 'string') out.push(JSON.stringify(replace(`${value}${marker}`)));
    }
  };
  walk(root, (v) => v);
  return out;
}

/** Each text run and each attribute value replaced by the marker, one at a time. */
function htmlVariants(text: string): string[] {
  const spans = [...text.matchAll(/>([^<>]+)</g), ...text.matchAll(/="([^"]*)"/g)].map((m) => {
    const start = m.index + m[0].indexOf(m[1]!);
    return [start, start + m[1]!.length] as const;
  });
  return spans.flatMap(([from, to]) => [
    text.slice(0, from) + marker + text.slice(to),
    text.slice(0, to) + marker + text.slice(to),
  ]);
}

function sample<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

const fixtures = siteCatalogue.flatMap(fixturesOf);
let totalFailures = 0;

describe('target text never reaches an error detail', () => {
  it('finds fixtures to mutate', () => {
    expect(fixtures.length).toBeGreaterThan(5);
  });

  for (const fixture of fixtures) {
    it(`${fixture.site.id}/${fixture.name}`, () => {
      const url = new URL(fixture.url);
      const entry = fixture.pageType
        ? fixture.site.pageTypes.find((e) => e.pageType === fixture.pageType)
        : fixture.site.pageTypes.find((e) => e.matches(url));
      expect(entry).toBeDefined();
      const extractor = fixture.route === 'browser' ? entry!.browser?.extractor : entry!.extractor;
      expect(extractor).toBeDefined();
      const variants = extractor!.input === 'json' ? jsonVariants(fixture.body) : htmlVariants(fixture.body);
      const leaks: string[] = [];
      let failures = 0;
      for (const body of sample(variants, maxVariants)) {
        try {
          const page = normalizePage({
            body: new TextEncoder().encode(body),
            headers: { 'content-type': fixture.contentType },
            finalUrl: fixture.url,
            input: extractor!.input,
          });
          const extraction = extractor!.extract(page);
          validateExtraction(entry!.pageType, extraction);
        } catch (error) {
          if (!isKumoError(error)) throw error;
          failures += 1;
          const shown = JSON.stringify({ detail: error.message, body: error.extras.body ?? null });
          // A prefix too: a detail that quotes a truncated value (`slice(0, 12)`) leaks just the same.
          if (shown.includes(marker.slice(0, 5))) leaks.push(shown);
        }
      }
      expect(leaks.slice(0, 5)).toEqual([]);
      totalFailures += failures;
    });
  }

  it('the mutations are real: many of them break a page (otherwise the test proves nothing)', () => {
    expect(totalFailures).toBeGreaterThan(50);
  });
});
