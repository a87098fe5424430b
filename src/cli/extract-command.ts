// `kumo extract`: the JSON the API would put in `data` for a saved page, the reviewer's tool.
import { readFile } from 'node:fs/promises';
import { SiteRegistry } from '../sites/registry.js';
import { normalizePage } from '../normalize/normalize-page.js';
import { validateExtraction } from '../extract/page-types.js';
import { parseTargetUrl } from '../fetch/url-policy.js';
import { KumoError } from '../errors.js';
import { parse, print, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { extractHelp } from './extract-help.js';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function extract(args: string[]): Promise<void> {
  const { values } = parse(args, {
    site: { type: 'string' },
    url: { type: 'string' },
    file: { type: 'string' },
    'work-type': { type: 'string' },
    // A page as the browser route renders it (a saved rendered DOM), read by that route's extractor.
    'render-js': { type: 'boolean' },
  });
  if (!values.site || !values.url) throw new UsageError(commandHelpText(extractHelp));
  const registry = new SiteRegistry();
  const site = registry.get(values.site);
  if (!site) throw new UsageError(`unknown site ${values.site}; see kumo sites verify`);
  const url = parseTargetUrl(values.url);
  if (!site.hosts.includes(url.hostname)) throw new UsageError(`${url.hostname} is not a host of ${site.id}`);
  const entry = registry.pageTypeFor(site, url, values['work-type'] ?? 'auto');
  if (!entry) throw new KumoError('page_not_supported', `no page type of ${site.id} matches this URL`);
  const rendering = values['render-js'] ? entry.browser : undefined;
  if (values['render-js'] && !rendering)
    throw new KumoError('page_not_supported', `${site.id} ${entry.pageType} has no browser route (render_js)`);
  const extractor = rendering ? rendering.extractor : entry.extractor;
  const body = values.file ? await readFile(values.file) : await readStdin();
  const page = normalizePage({
    body: new Uint8Array(body),
    headers: {},
    finalUrl: url.href,
    input: extractor.input,
  });
  const extraction = extractor.extract(page);
  validateExtraction(entry.pageType, extraction);
  print({
    site: site.id,
    page_type: entry.pageType,
    extractor: { id: extractor.id, version: extractor.version, coverage: rendering?.coverage ?? entry.coverage },
    charset: page.charset,
    data: extraction.data,
    provenance: extraction.provenance,
    warnings: extraction.warnings,
  });
}
