// docs/sites.md, generated from the registry (`kumo sites doc --write`): the catalogue as it is served, never by hand.
import { routeCost } from './pricing.js';
import type { SiteRegistry } from './registry.js';
import { cacheLimitOf } from './site.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text}\``;

/** A cache limit in words: minutes or hours. */
function durationOf(seconds: number): string {
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export function renderSitesDoc(registry: SiteRegistry): string {
  const sites = registry.list();
  const out: string[] = [
    '# Supported sites',
    '',
    '<!-- Generated from src/sites/registry.ts by `npm run -s kumo -- sites doc --write`; a test keeps it equal. -->',
    '',
    'The catalogue is fixed in code (`src/sites/registry.ts`, one folder per site). Each page type has a **declared**',
    'coverage level and an **earned** one; it is served at the lower of the two (DESIGN §6): `stable` and `beta` are',
    'served, `verifying` and `experimental` only in development, `stopped` never. `GET /v1/sites` shows the same, and',
    '`npm run -s kumo -- sites verify` prints it from a live run. Fixtures are **real** (pages recorded from the site:',
    'the shared corpus or recorded here) or **modelled** (written by us on the site’s known structure; they never make',
    'a page type `stable`).',
    '',
    '| site id | site | kind | hosts | route | credits | page type | URL pattern | declared | served | fixtures (real / modelled) | review |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const site of sites) {
    site.pageTypes.forEach((entry, i) => {
      const v = entry.verification;
      const first = i === 0;
      out.push(
        `| ${[
          first ? code(site.id) : '',
          first ? cell(site.name) : '',
          first ? site.kind : '',
          first ? site.hosts.map(code).join(', ') : '',
          first ? site.route : '',
          first ? String(routeCost(site)) : '',
          code(entry.pageType),
          code(cell(entry.urlPattern)),
          entry.declaredCoverage ?? entry.coverage,
          entry.coverage,
          v ? `${v.real} / ${v.modelled}` : '',
          entry.review ? 'needs approval' : '',
        ].join(' | ')} |`,
      );
    });
  }
  out.push('', '## Per site', '');
  for (const site of sites) {
    out.push(`### ${site.name} (${code(site.id)})`, '');
    out.push(`- Hosts: ${site.hosts.map(code).join(', ')}; ${site.schemes.map((s) => s.replace(':', '')).join(', ')}.`);
    const apiHosts = [...new Set(site.pageTypes.flatMap((e) => e.api?.hosts ?? []))];
    out.push(
      `- Route: ${site.route}${apiHosts.length ? ` (page URLs are served through ${apiHosts.map(code).join(', ')}, the API the site’s web app calls)` : ''}; ${routeCost(site)} credit${routeCost(site) > 1 ? 's' : ''} a call (+1 with \`store_artifact\`).`,
    );
    out.push(
      `- Politeness: at most ${site.politeness.maxInFlight} in flight per host, ${site.politeness.minIntervalMs} ms apart (robots.txt crawl-delay wins when longer).`,
    );
    if (site.secretQueryParams.length > 0)
      out.push(
        `- Caller credentials in the query (never stored, logged or echoed): ${site.secretQueryParams.map(code).join(', ')}.`,
      );
    for (const entry of site.pageTypes) {
      const v = entry.verification;
      out.push(
        `- ${code(entry.pageType)} (${code(entry.urlPattern)}): declared ${entry.declaredCoverage ?? entry.coverage}, served ${entry.coverage}${v ? `; fixtures ${v.pass} pass, ${v.fail} fail, ${v.skipped} skipped (${v.real} real, ${v.modelled} modelled)` : ''}. ${entry.verifiedBy}`,
      );
      const limit = cacheLimitOf(site, entry);
      out.push(
        `  - Cache limit ${durationOf(limit.seconds)} (\`cache_limit_s\` ${limit.seconds}): ${limit.reason.replace(/[^.。]$/, '$&.')}`,
      );
      if (entry.browser && entry.route !== 'browser')
        out.push(
          `  - Also rendered in the headless browser with \`render_js: true\` (2 credits; extractor ${code(entry.browser.extractor.id)}): served ${entry.browser.coverage}. ${entry.browser.verifiedBy}.`,
        );
      if (entry.review)
        out.push(
          `  - Needs review: ${entry.review.reason.replace(/[^.。]$/, '$&.')} Served only to accounts an operator approved (\`kumo accounts approve\`); others get 403 \`key_scope_denied\`.`,
        );
    }
    out.push('');
  }
  out.push(
    '## How coverage is earned',
    '',
    '- Every fixture (`src/sites/<site>/fixtures/<name>.meta.json` + page + `expected.json`) runs through',
    '  normalize → extract → validate and is compared with what the reviewer expects.',
    '- `kumo sites verify --record` (with the shared corpus present) runs every fixture and writes the outcomes to',
    '  `src/sites/verification-record.json`, which is committed. `npm run build` checks that record against a live run',
    '  and ships it as `dist/sites/verification-record.json`; a stale record fails the build. The server earns',
    '  coverage from the shipped record alone, so `dist/` deploys without `src/`.',
    '- Any failing fixture makes the page type `verifying` (not served in production); a passing real page is needed',
    '  for `stable`; modelled fixtures alone give `beta`.',
    '- Adding a site: `docs/adding-a-site.md`.',
    '',
    '## Cache limits',
    '',
    'A call with `params.max_age_s` may be answered from the account’s own cached result (docs/cache.md), never one',
    'older than its page type’s cache limit, whatever `max_age_s` asks: at most 24 h unless the site’s terms allow',
    'longer (DESIGN §5). Each limit above says why it is what it is.',
    '',
  );
  return out.join('\n');
}
