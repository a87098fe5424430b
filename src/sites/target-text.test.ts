// No text a target controls reaches an error `detail`: every string of every in-project fixture is replaced, in turn,
// by a planted marker, and whatever the pipeline throws must not carry it (issue 7 §5: e-Stat's ERROR_MSG, headings…).
// Names too (issue 18 §8): JSON keys, XML/HTML element and attribute names, CSV fields (a header line's included), a
// charset label, and ZIP entry names, each also with the entry damaged so that the ZIP reader itself refuses it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { siteCatalogue } from './registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import { isKumoError } from '../errors.js';
import { writeZip } from '../normalize/zip-write.js';
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
  dir: string;
  /** The page is served wrapped in a ZIP (meta `wrap`), as entry `zip` beside `others` (name → file in `dir`). */
  wrap?: { zip: string; others?: Record<string, string> };
}

/** One mutated answer: its bytes and the content type it is served with. */
interface Variant {
  body: Uint8Array;
  contentType: string;
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
      wrap?: Fixture['wrap'];
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
        ...(meta.wrap ? { wrap: meta.wrap } : {}),
        body,
        dir,
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

/** Each element name, then each attribute name, replaced by the marker wherever it occurs. */
function nameVariants(text: string): string[] {
  const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const elements = new Set([...text.matchAll(/<\/?([A-Za-z][\w:.-]*)/g)].map((m) => m[1]!));
  const attributes = new Set([...text.matchAll(/\s([A-Za-z][\w:.-]*)=["']/g)].map((m) => m[1]!));
  return [
    ...[...elements].map((n) => text.replace(new RegExp(`(</?)${escape(n)}(?=[\\s/>])`, 'g'), `$1${marker}`)),
    ...[...attributes].map((n) => text.replace(new RegExp(`(\\s)${escape(n)}(?==["'])`, 'g'), `$1${marker}`)),
  ];
}

/** Each CSV field (a header line's too) replaced by the marker, and followed by it, one at a time. */
function csvVariants(text: string): string[] {
  return [...text.matchAll(/[^,\r\n]+/g)].flatMap((m) => {
    const [from, to] = [m.index, m.index + m[0].length];
    return [text.slice(0, from) + marker + text.slice(to), text.slice(0, to) + marker + text.slice(to)];
  });
}

const encode = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** The central directory header of entry `index` (0-based) in an archive from writeZip, and its local header. */
function headersOf(zip: Buffer, index: number): { central: number; local: number } {
  let central = zip.readUInt32LE(zip.length - 22 + 16);
  for (let i = 0; i < index; i++) central += 46 + zip.readUInt16LE(central + 28);
  return { central, local: zip.readUInt32LE(central + 42) };
}

/** Damage to one entry, each refused by the ZIP reader in its own way (so each of its details is exercised). */
const entryDamage: ReadonlyArray<(zip: Buffer, at: { central: number; local: number }) => void> = [
  (zip, at) => zip.writeUInt16LE(zip.readUInt16LE(at.central + 8) | 0x1, at.central + 8), // encrypted
  (zip, at) => zip.writeUInt16LE(99, at.central + 10), // unknown method
  (zip, at) => zip.writeUInt32LE((zip.readUInt32LE(at.central + 16) ^ 1) >>> 0, at.central + 16), // CRC
  (zip, at) => zip.writeUInt32LE(zip.readUInt32LE(at.central + 24) + 1, at.central + 24), // declared size
  (zip, at) => zip.writeUInt8(zip.readUInt8(at.local + 30) ^ 0x20, at.local + 30), // local name differs
  (zip, at) => zip.writeUInt32LE(at.local + 1, at.central + 42), // no local header there
  (zip, at) => zip.writeUInt32LE(0x7fff_0000, at.central + 20), // truncated
  (zip, at) => zip.fill(0xff, at.local + 30 + zip.readUInt16LE(at.local + 26), at.local + 40), // not deflate
  (zip, at) => zip.writeUInt32LE(0xffff_fffe, at.central + 24), // past the inflation cap
];

/** The archive's entries with the page (mutated or not) as entry `wrap.zip`. */
function entriesOf(fixture: Fixture, page: string): { name: string; data: Uint8Array }[] {
  const others = Object.entries(fixture.wrap?.others ?? {}).map(([name, file]) => ({
    name,
    data: new Uint8Array(readFileSync(path.join(fixture.dir, file))),
  }));
  return [...others, { name: fixture.wrap!.zip, data: encode(page) }];
}

/** Each entry renamed to carry the marker (keeping its extension, so it is still read), intact and damaged. */
function zipNameVariants(fixture: Fixture): Uint8Array[] {
  const entries = entriesOf(fixture, fixture.body);
  return entries.flatMap((_, i) =>
    [(name: string) => name.replace(/(\.[a-z]+)?$/, `${marker}$1`), () => marker].flatMap((rename) => {
      const renamed = entries.map((e, j) => (j === i ? { ...e, name: rename(e.name) } : e));
      return [undefined, ...entryDamage].map((damage) => {
        const zip = writeZip(renamed);
        damage?.(zip, headersOf(zip, i));
        return new Uint8Array(zip);
      });
    }),
  );
}

/** The fixture's variants: values sampled to `maxVariants`, names (fewer, and each one reaching far) all kept. */
function variantsOf(fixture: Fixture, input: string): Variant[] {
  const { body, contentType } = fixture;
  if (input === 'json') return sample(jsonVariants(body), maxVariants).map((b) => ({ body: encode(b), contentType }));
  if (input === 'csv') {
    return [...sample(csvVariants(body), maxVariants), body].map((b, i, all) => ({
      body: encode(b),
      // The last one: the fixture as it is, under a charset label the target chose.
      contentType: i === all.length - 1 ? `text/csv; charset=${marker}` : contentType,
    }));
  }
  const pages = [...sample(htmlVariants(body), maxVariants), ...nameVariants(body)];
  if (input === 'zip' && fixture.wrap) {
    return [
      ...pages.map((page) => new Uint8Array(writeZip(entriesOf(fixture, page)))),
      ...zipNameVariants(fixture),
    ].map((b) => ({ body: b, contentType }));
  }
  const label = input === 'xml' ? `application/xml; charset=${marker}` : `text/html; charset=${marker}`;
  return [...pages.map((b) => ({ body: encode(b), contentType })), { body: encode(body), contentType: label }];
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
      const leaks: string[] = [];
      let failures = 0;
      for (const { body, contentType } of variantsOf(fixture, extractor!.input)) {
        try {
          const page = normalizePage({
            body,
            headers: { 'content-type': contentType },
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
