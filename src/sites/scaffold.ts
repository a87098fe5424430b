// `kumo sites new`: a new site's folder (entry, extractor, a modelled fixture and a test) rendered from the templates
// in src/sites/templates/<page type>/, which the scaffold test builds and tests on every CI run.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { exportNameOf } from './catalogue-index.js';
import type { Site } from './site.js';

/** The page types a template exists for; others are written by hand (docs/adding-a-site.md). */
export const scaffoldPageTypes = ['item', 'search'] as const;
export type ScaffoldPageType = (typeof scaffoldPageTypes)[number];

export interface ScaffoldRequest {
  /** snake_case site id; the folder is its kebab-case (`zozo_town` → `zozo-town`). */
  id: string;
  host: string;
  kind: Site['kind'];
  pageType: ScaffoldPageType;
  /** The site's name as buyers know it; default the host. */
  name: string;
  /** `YYYY-MM-DD`, written into the fixture's note. */
  today: string;
}

export interface ScaffoldFile {
  /** Relative to the site's folder. */
  path: string;
  content: string;
}

const ID = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
// What the name is written into: a TypeScript string in single quotes, HTML text and JSON. None of these characters
// is in a shop's name often enough to be worth escaping for three languages.
const NAME_UNSAFE = /['"`\\<>&{}\p{Cc}]/u;

/** What is wrong with a request, in words a person can act on; empty when it can be scaffolded. */
export function scaffoldProblems(
  request: Omit<ScaffoldRequest, 'pageType' | 'kind'> & { pageType: string; kind: string },
  existing: { sites: readonly Pick<Site, 'id' | 'hosts'>[]; sitesDir: string },
): string[] {
  const problems: string[] = [];
  const { id, host, name } = request;
  if (!ID.test(id) || id.length > 40)
    problems.push(`site id "${id}": lower-case letters and digits in words joined by _, at most 40 (zozo_town)`);
  else if (existing.sites.some((s) => s.id === id)) problems.push(`site id "${id}" is already a site`);
  else if (existsSync(path.join(existing.sitesDir, folderOf(id))))
    problems.push(`src/sites/${folderOf(id)} already exists`);
  if (!isHostName(host))
    problems.push(`--host "${host}": a host name as the site's URLs write it, lower-case, no scheme (zozo.jp)`);
  else {
    const owner = existing.sites.find((s) => s.hosts.includes(host));
    if (owner) problems.push(`--host ${host} is already a host of ${owner.id}`);
  }
  if (!['commerce', 'public', 'public_data'].includes(request.kind))
    problems.push(`--kind "${request.kind}": one of commerce, public`);
  if (!(scaffoldPageTypes as readonly string[]).includes(request.pageType))
    problems.push(
      `--page-type "${request.pageType}": templates exist for ${scaffoldPageTypes.join(', ')}; other page types are written by hand (docs/adding-a-site.md)`,
    );
  if (name.trim() === '' || name.length > 80 || NAME_UNSAFE.test(name))
    problems.push(`--name "${name}": 1 to 80 characters, without quotes, backslashes, braces, <, > or &`);
  return problems;
}

export function kindOf(word: string): Site['kind'] {
  return word === 'commerce' ? 'commerce' : 'public_data';
}

export function folderOf(id: string): string {
  return id.replaceAll('_', '-');
}

function isHostName(host: string): boolean {
  if (!/^[a-z0-9.-]+$/.test(host) || host.length > 253 || !host.includes('.')) return false;
  if (/^[0-9.]+$/.test(host)) return false;
  return host.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/**
 * The folder's files: every `*.tmpl` under the page type's template folder, its name without `.tmpl` and its
 * `{{placeholders}}` filled. A placeholder the request does not fill is an error, never left in a file.
 */
export function renderScaffold(request: ScaffoldRequest, templates: readonly ScaffoldFile[]): ScaffoldFile[] {
  const values: Record<string, string> = {
    id: request.id,
    camel: exportNameOf(folderOf(request.id)),
    host: request.host,
    kind: request.kind,
    name: request.name,
    today: request.today,
  };
  return templates.map((template) => ({
    path: template.path.replace(/\.tmpl$/, ''),
    content: template.content.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`template ${template.path}: unknown placeholder {{${key}}}`);
      return value;
    }),
  }));
}

/** The templates of one page type, read from `templatesDir/<page type>/`. */
export function readTemplates(templatesDir: string, pageType: ScaffoldPageType): ScaffoldFile[] {
  const root = path.join(templatesDir, pageType);
  const files: ScaffoldFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.tmpl'))
        files.push({ path: path.relative(root, full).split(path.sep).join('/'), content: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return files;
}

/** Writes the folder; refuses (before writing anything) when it exists, so nobody's work is overwritten. */
export function writeScaffold(siteDir: string, files: readonly ScaffoldFile[]): void {
  if (existsSync(siteDir)) throw new Error(`${siteDir} already exists`);
  for (const file of files) {
    const target = path.join(siteDir, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content, { flag: 'wx' });
  }
}
