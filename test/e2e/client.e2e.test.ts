// The typed client (clients/ts) against a started server: its committed types are what the served document generates,
// they narrow a scrape answer by page_type under `tsc --strict`, and real calls (a scrape, a batch) read integer yen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { startOrigin, connectToSpec, type Origin } from '../support/origin.js';
import { startKumo, repoRoot, testKey, type KumoProcess } from '../support/kumo-process.js';
import { itemPage } from '../support/pages.js';
import { publishedValidator } from '../support/openapi.js';
import { generateSchema, schemaFile } from '../../clients/ts/scripts/generate.js';
import { createKumoClient } from '../../clients/ts/src/index.js';

const itemPath = '/c/c-/kb/kb01/kb011427/750592';
const itemUrl = `https://www.ikebe-gakki.com${itemPath}`;
const batchPath = '/c/c-/kb/kb01/kb011427/751204';
const clientEntry = path.join(repoRoot, 'clients/ts/src/index.js');

let origin: Origin;
let kumo: KumoProcess;
let dir: string;
let served: { components: { schemas: Record<string, unknown> } };

beforeAll(async () => {
  origin = await startOrigin();
  origin.route('GET', itemPath, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ title: 'ヤマハ YAMAHA ギターストラップ GS-01', price: 12800 }),
  });
  origin.route('GET', batchPath, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: itemPage({ title: 'ヤマハ YAMAHA PSR-E383 ポータブルキーボード', price: 24200 }),
  });
  kumo = await startKumo({ KUMO_CONNECT_TO: connectToSpec({ 'www.ikebe-gakki.com': origin.url }) });
  dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-client-'));
  const res = await fetch(`${kumo.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  served = (await res.json()) as typeof served;
  // The programs below compile against these freshly generated types, not the committed copy.
  await writeFile(path.join(dir, 'schema.d.ts'), await generateSchema(served));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
});

afterAll(async () => {
  await kumo?.stop();
  await kumo?.cleanup();
  await origin?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Type-checks programs under --strict --noEmit beside the freshly generated schema.d.ts; returns their errors.
 * Declaration files are checked too unless `skipLibCheck` (the docs' examples, which only need to use them).
 */
async function compile(
  files: Record<string, string>,
  options: { types?: string[]; skipLibCheck?: boolean } = {},
): Promise<ts.Diagnostic[]> {
  const names: string[] = [];
  for (const [name, source] of Object.entries(files)) {
    names.push(path.join(dir, name));
    await writeFile(path.join(dir, name), source);
  }
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: options.types ?? [],
    typeRoots: [path.join(repoRoot, 'node_modules/@types')],
    skipLibCheck: options.skipLibCheck ?? false,
  });
  return [...ts.getPreEmitDiagnostics(program)];
}

const explain = (diagnostics: readonly ts.Diagnostic[]) =>
  diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');

describe('@kumo/client against a started server', () => {
  it('its committed src/schema.d.ts is what the served /openapi.json generates', async () => {
    const generated = await readFile(path.join(dir, 'schema.d.ts'), 'utf8');
    // Stale? Run `npm run build && npm run generate --prefix clients/ts` and commit the file.
    expect(await readFile(schemaFile, 'utf8')).toBe(generated);
  });

  it('narrows an answer on page_type: an item reads data.price as a number, with no cast', async () => {
    const errors = await compile({
      'item.ts': `import type { components } from './schema.js';
import { createKumoClient } from ${JSON.stringify(clientEntry)};

export function priceOf(answer: components['schemas']['ScrapeResult']): number | null {
  if (answer.page_type === 'item' && answer.data !== null) {
    const yen: number = answer.data.price;
    return yen;
  }
  return null;
}

export async function scrapePrice(url: string): Promise<number | null> {
  const kumo = createKumoClient({ baseUrl: 'http://127.0.0.1', apiKey: 'kumo_live_x' });
  const { data: answer, error } = await kumo.POST('/v1/scrape', { body: { url, params: { max_age_s: 60 } } });
  // An error is the Problem body, its code from the closed catalogue; without one, the answer is there.
  if (error) throw new Error(\`\${error.code}: \${error.detail}\`);
  if (answer.page_type !== 'item' || answer.data === null) return null;
  return answer.data.price;
}
`,
    });
    expect(explain(errors)).toBe('');
  });

  it('refuses to compile data.price read from a table answer (the types are real)', async () => {
    const errors = await compile({
      'table.ts': `import type { components } from './schema.js';

export function priceOf(answer: components['schemas']['ScrapeResult']): number | null {
  if (answer.page_type === 'table' && answer.data !== null) {
    const yen: number = answer.data.price;
    return yen;
  }
  return null;
}
`,
    });
    // Exactly one error, the missing property: not a broken setup that would fail anything.
    expect(errors.map((d) => [d.code, path.basename(d.file?.fileName ?? '')])).toEqual([[2339, 'table.ts']]);
    expect(explain(errors)).toMatch(/Property 'price' does not exist/);
  });

  it('narrows a webhook body on type: an alert reads its yen changes, a full item its price; no cast', async () => {
    const program = (read: string) => `import type { KumoWebhookEvent } from ${JSON.stringify(clientEntry)};

export function describe(event: KumoWebhookEvent): string {
  switch (event.type) {
    case 'monitor.alert':
      return event.data.changes.map((c) => \`\${c.field}: \${String(c.before)} → \${String(c.after)}\`).join(', ');
    case 'item.succeeded': {
      const result = event.data.result;
      if (result?.page_type === 'item' && result.data !== null) return \`¥\${result.data.price}\`;
      return event.data.result_url ?? 'no result';
    }
    case 'item.failed':
      return event.data.error?.code ?? 'failed';
    case 'monitor.paused':
      return \`\${event.data.credits_this_month} / \${event.data.max_credits_per_month}\`;
    default:
      return ${read};
  }
}
`;
    expect(explain(await compile({ 'hook.ts': program('event.type') }))).toBe('');
    // A batch event has no changes: reading them past the narrowing is refused.
    const errors = await compile({
      'wrong.ts': program("event.type === 'batch.completed' ? String(event.data.changes) : ''"),
    });
    expect(errors.map((d) => [d.code, path.basename(d.file?.fileName ?? '')])).toEqual([[2339, 'wrong.ts']]);
  });

  it('compiles the usage example of clients/ts/README.md and docs/api.md as written', async () => {
    const files: Record<string, string> = {};
    for (const doc of ['clients/ts/README.md', 'docs/api.md']) {
      const text = await readFile(path.join(repoRoot, doc), 'utf8');
      const example = [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
        .map((m) => m[1]!)
        .find((code) => code.includes('createKumoClient'));
      expect(example, doc).toBeDefined();
      // As a reader runs it: the package by its name is this source; docs/api.md's example takes the URL from them.
      files[`${path.basename(doc, '.md')}.ts`] =
        'declare const url: string;\n' + example!.replace("from '@kumo/client'", `from ${JSON.stringify(clientEntry)}`);
    }
    expect(explain(await compile(files, { types: ['node'], skipLibCheck: true }))).toBe('');
  });

  it('makes a real call: the item from the local origin, its integer-yen price', async () => {
    const kumoClient = createKumoClient({ baseUrl: kumo.baseUrl, apiKey: testKey });
    const { data: answer, error, response } = await kumoClient.POST('/v1/scrape', { body: { url: itemUrl } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(publishedValidator(served, 'ScrapeResult')(answer)).toBe(true);
    if (answer?.page_type !== 'item' || answer.data === null) throw new Error(`not an item: ${JSON.stringify(answer)}`);
    expect(answer.data.price).toBe(12800);
    expect(Number.isInteger(answer.data.price)).toBe(true);
    expect(answer.data).toMatchObject({
      title: 'ヤマハ YAMAHA ギターストラップ GS-01',
      currency: 'JPY',
      price_tax: 'included',
    });
    expect(origin.hits(itemPath)).toBe(1);

    const refused = await createKumoClient({ baseUrl: kumo.baseUrl, apiKey: 'kumo_live_wrong' }).POST('/v1/scrape', {
      body: { url: itemUrl },
    });
    expect(refused.data).toBeUndefined();
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ status: 401, code: expect.any(String) });
  });

  it("types a batch item's result as the same union: a real batch through the client", async () => {
    const kumoClient = createKumoClient({ baseUrl: kumo.baseUrl, apiKey: testKey });
    const submitted = await kumoClient.POST('/v1/batches', {
      body: { items: [{ url: `https://www.ikebe-gakki.com${batchPath}`, ref: 'PSR-E383' }] },
    });
    expect(submitted.response.status).toBe(202);
    if (!submitted.data) throw new Error(JSON.stringify(submitted.error));
    const id = submitted.data.batch.id;
    // The dispatcher runs on its own schedule; the test's timeout bounds the wait.
    for (;;) {
      const { data } = await kumoClient.GET('/v1/batches/{id}', { params: { path: { id } } });
      if (data?.batch.counts.ready === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const page = await kumoClient.GET('/v1/batches/{id}/items', { params: { path: { id } } });
    const result = page.data?.items[0]?.result;
    const validate = publishedValidator(served, 'BatchResult');
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    if (result?.page_type !== 'item' || result.data === null) throw new Error(`not an item: ${JSON.stringify(result)}`);
    expect(result.data.price).toBe(24200);
    expect(result).not.toHaveProperty('request_id');
  });
});
