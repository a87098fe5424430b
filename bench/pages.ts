// The benchmark's page set: every site's HTML fixtures (real corpus pages read in place, and in-project ones).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as RegistryModule from '../src/sites/registry.ts';
import type * as VerificationModule from '../src/sites/verification.ts';
import type { FixtureMeta } from '../src/sites/verification.ts';

export interface BenchPage {
  site: string;
  pageType: string;
  fixture: string;
  source: FixtureMeta['source'];
  /** The page URL a caller gives Kumo. */
  url: string;
  /** Explicit work_type when the fixture names one (else `auto`). */
  workType: string | null;
  contentType: string;
  body: Buffer;
}

export interface PageSet {
  pages: BenchPage[];
  /** Why fixtures were left out, one line per reason with a count. */
  skipped: string[];
  corpusAvailable: boolean;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * HTML pages on the plain-HTTP route only: the floor and the peer parse HTML, so API (JSON/XML/CSV) and browser-route
 * pages have no counterpart to compare with. Review-gated page types (served only to approved accounts) are left out.
 */
export async function loadPages(dist: (file: string) => string, corpusDir: string): Promise<PageSet> {
  const { siteCatalogue } = (await import(dist('sites/registry.js'))) as typeof RegistryModule;
  const { fixturesDirOf } = (await import(dist('sites/verification.js'))) as typeof VerificationModule;
  const corpusAvailable = existsSync(corpusDir);
  const pages: BenchPage[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const site of siteCatalogue) {
    const dir = fixturesDirOf(site);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith('.meta.json')) continue;
      const name = file.slice(0, -'.meta.json'.length);
      const meta = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as FixtureMeta;
      if (meta.expectError || !existsSync(path.join(dir, `${name}.expected.json`))) {
        skip('fixtures that prove an error');
        continue;
      }
      const url = new URL(meta.url);
      const entry = meta.pageType
        ? site.pageTypes.find((e) => e.pageType === meta.pageType)
        : site.pageTypes.find((e) => e.matches(url));
      if (!entry) continue;
      if (site.route !== 'http' || entry.api) {
        skip(`${site.route} route (no HTML counterpart for the floor and the peer)`);
        continue;
      }
      if (!HTML_TYPES.has(meta.contentType.split(';')[0]!.trim().toLowerCase())) {
        skip('non-HTML content');
        continue;
      }
      if (entry.review) {
        skip('review-gated page types');
        continue;
      }
      if (meta.source === 'corpus' && !corpusAvailable) {
        skip('corpus pages (corpus absent)');
        continue;
      }
      const body = readFileSync(
        meta.source === 'corpus' ? path.join(corpusDir, meta.corpusPath!) : path.join(dir, meta.page!),
      );
      pages.push({
        site: site.id,
        pageType: entry.pageType,
        fixture: name,
        source: meta.source,
        url: meta.url,
        workType: meta.pageType ?? null,
        contentType: meta.contentType,
        body,
      });
    }
  }
  return { pages, skipped: [...skipped].map(([why, n]) => `${n} × ${why}`), corpusAvailable };
}
