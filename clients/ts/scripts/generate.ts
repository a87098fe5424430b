// Regenerates src/schema.d.ts from Kumo's OpenAPI document: a served /openapi.json, a saved file, or the build.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/schema.d.ts');

/**
 * The text of src/schema.d.ts for a document. The server's test generates with this same function and compares, so
 * the committed file cannot drift from what the server publishes.
 */
export async function generateSchema(document: object): Promise<string> {
  // A deep copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(document) as Parameters<typeof openapiTS>[0]);
  return astToString(ast);
}

/** `--from http://host/openapi.json` or `--from file.json`; without it, the document of the server's build (dist/). */
async function loadDocument(from: string | undefined): Promise<object> {
  if (from && /^https?:\/\//.test(from)) {
    const response = await fetch(from);
    if (!response.ok) throw new Error(`${from}: HTTP ${response.status}`);
    return (await response.json()) as object;
  }
  if (from) return JSON.parse(await readFile(from, 'utf8')) as object;
  // The build-time document: the app built without services serves /openapi.json (run `npm run build` at the root).
  const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/http/app.js');
  const { buildApp } = (await import(pathToFileURL(app).href)) as {
    buildApp: (
      services: object,
      options: object,
    ) => Promise<{
      inject(url: string): Promise<{ statusCode: number; body: string }>;
      close(): Promise<void>;
    }>;
  };
  const { pino } = await import('pino');
  const server = await buildApp({}, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  try {
    const res = await server.inject('/openapi.json');
    if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
    return JSON.parse(res.body) as object;
  } finally {
    await server.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--from');
  const document = await loadDocument(at === -1 ? undefined : process.argv[at + 1]);
  await writeFile(schemaFile, await generateSchema(document));
  console.log(`wrote ${path.relative(process.cwd(), schemaFile)}`);
}
