// The served /openapi.json: linted by a real OpenAPI linter (Redocly CLI, recommended-strict, no network) at zero
// problems, and checked for what issue 7 §5 asks of it (optional params, problem+json, ids, security, data shapes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { buildApp, type AppServices } from './app.js';
import { repoRoot } from '../../test/support/kumo-process.js';
import { pageTypeSchemas, type PageType } from '../extract/page-types.js';
import { errorCatalogue } from '../errors.js';
import { dataSchemasByPageType, variantName } from './openapi.js';
import { documentValidators } from '../../test/support/openapi.js';

const run = promisify(execFile);

type Json = Record<string, any>;
let doc: Json;
let requestId: string | undefined;
let dir: string;

beforeAll(async () => {
  const app = await buildApp({} as AppServices, { logger: pino({ level: 'silent' }), bodyLimitBytes: 16_384 });
  const res = await app.inject('/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
  requestId = res.headers['request-id'] as string | undefined;
  await app.close();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-openapi-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

// Loaded with --import into the linter's process: any socket or DNS lookup is recorded and refused.
const noNetwork = `
import net from 'node:net';
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
const record = (what) => appendFileSync(process.env.KUMO_NETWORK_LOG, what + '\\n');
net.Socket.prototype.connect = function (...args) {
  record('connect ' + JSON.stringify(args[0]?.host ?? args[0]?.path ?? args[0] ?? null));
  process.nextTick(() => this.destroy(new Error('network refused by the test')));
  return this;
};
dns.lookup = (host, options, callback) => {
  record('lookup ' + host);
  (typeof options === 'function' ? options : callback)(new Error('network refused by the test'));
};
dns.promises.lookup = async (host) => {
  record('lookup ' + host);
  throw new Error('network refused by the test');
};
`;

const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ path: p, method, op: op as Json })),
  );

describe('/openapi.json', () => {
  it('passes Redocly lint (recommended-strict) with zero errors and warnings, without touching the network', async () => {
    const file = path.join(dir, 'openapi.json');
    const preload = path.join(dir, 'no-network.mjs');
    const networkLog = path.join(dir, 'network.log');
    await writeFile(file, JSON.stringify(doc));
    await writeFile(preload, noNetwork);
    await writeFile(networkLog, '');
    const cli = path.join(repoRoot, 'node_modules/@redocly/cli/bin/cli.js');
    let stdout: string;
    try {
      ({ stdout } = await run(
        process.execPath,
        ['--import', preload, cli, 'lint', file, '--extends=recommended-strict', '--format=json'],
        {
          cwd: dir,
          timeout: 60_000,
          env: {
            HOME: dir,
            KUMO_NETWORK_LOG: networkLog,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
          },
          maxBuffer: 16 * 1024 * 1024,
        },
      ));
    } catch (error) {
      // A lint failure exits non-zero: its JSON report is still on stdout.
      stdout = (error as { stdout?: string }).stdout ?? '';
      if (!stdout) throw error;
    }
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(await readFile(networkLog, 'utf8')).toBe('');
  });

  it('is served with a Request-Id, and has servers', () => {
    expect(requestId).toMatch(/^req_/);
    expect(doc.servers).toEqual([expect.objectContaining({ url: expect.any(String) })]);
  });

  it('gives every operation a unique operationId, and security to every one but the public site list', () => {
    const ids = operations().map(({ op }) => op.operationId as string);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path: p, op } of operations()) {
      if (p === '/v1/sites') expect(op.security).toEqual([]);
      else expect(op.security).toEqual([{ bearer: [] }]);
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares every error response as application/problem+json with the Problem schema', () => {
    for (const { path: p, method, op } of operations()) {
      const statuses = Object.keys(op.responses as Json);
      expect(statuses.filter((s) => s.startsWith('4')).length, `${method} ${p}`).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(response.content), `${method} ${p} ${status}`).toEqual(['application/problem+json']);
        expect(response.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
        expect(response.description).toMatch(/`[a-z_]+`|HTTP \d+/);
      }
    }
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(Object.keys(errorCatalogue));
    expect(doc.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'code', 'detail', 'request_id']),
    );
  });

  it('declares the response headers: Request-Id on every answer, the limit headers on authenticated ones', () => {
    for (const { path: p, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        expect(response.headers['Request-Id']).toEqual({ $ref: '#/components/headers/Request-Id' });
        const authenticatedAnswer = p !== '/v1/sites' && status !== '401';
        for (const name of ['X-Credits-Limit', 'X-Credits-Remaining', 'RateLimit-Policy', 'RateLimit']) {
          expect(name in response.headers, `${p} ${status} ${name}`).toBe(authenticatedAnswer);
        }
        if (status === '429' || status === '503') expect(response.headers['Retry-After']).toBeDefined();
      }
    }
  });

  it('makes params and each of its fields optional, with the defaults the server applies', () => {
    const body = doc.paths['/v1/scrape'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['url']);
    const params = body.properties.params;
    expect(params.required ?? []).toEqual([]);
    expect(params.additionalProperties).toBe(false);
    const defaults = Object.fromEntries(
      Object.entries(params.properties as Json).map(([name, schema]) => [name, (schema as Json).default]),
    );
    expect(defaults).toEqual({
      mode: 'html_json',
      work_type: 'auto',
      include_html: false,
      store_artifact: false,
      render_js: false,
      max_age_s: 0,
    });
  });

  it('declares the optional Idempotency-Key header on POST /v1/scrape', () => {
    const parameters = doc.paths['/v1/scrape'].post.parameters as Json[];
    expect(parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
  });

  it('publishes the scrape answer as a union discriminated by page_type, one variant per page type', () => {
    const success = doc.paths['/v1/scrape'].post.responses['200'].content['application/json'].schema;
    expect(success).toEqual({ $ref: '#/components/schemas/ScrapeResult' });
    const union = doc.components.schemas.ScrapeResult;
    const pageTypes = Object.keys(pageTypeSchemas);
    expect(union.oneOf).toHaveLength(pageTypes.length);
    expect(union.discriminator.propertyName).toBe('page_type');
    for (const pageType of pageTypes) {
      const ref = `#/components/schemas/${variantName(pageType)}`;
      expect(union.oneOf).toContainEqual({ $ref: ref });
      expect(union.discriminator.mapping[pageType]).toBe(ref);
      const variant = doc.components.schemas[variantName(pageType)];
      expect(variant.properties.page_type).toEqual({ type: 'string', enum: [pageType] });
      expect(variant.required).toEqual(expect.arrayContaining(['page_type', 'data', 'fetch_summary', 'cache']));
      // Null is allowed, and only null beside the page type's own shapes (html-only mode, a target 404/410).
      const data = variant.properties.data.anyOf as Json[];
      expect(data.filter((s) => !s.$ref)).toEqual([{ type: 'null' }]);
      // The published shapes are the ones every extraction of the page type is validated against before it is
      // served (validateExtraction), so the variant covers what every site serving the page type returns.
      const shapes = data
        .filter((s) => s.$ref)
        .map((s) => {
          const {
            description: _description,
            examples: _examples,
            ...shape
          } = doc.components.schemas[String(s.$ref).split('/').pop()!] as Json;
          return shape;
        });
      const served = JSON.parse(JSON.stringify(pageTypeSchemas[pageType as PageType])) as Json;
      expect(shapes).toEqual(served.anyOf ?? [served]);
    }
    expect(doc.components.schemas.ItemData.required).toEqual(expect.arrayContaining(['title', 'price']));
    // A batch item's result: the same variants without request_id, under the same discriminator.
    const result =
      doc.paths['/v1/batches/{id}/items'].get.responses['200'].content['application/json'].schema.properties.items.items
        .properties.result;
    expect(result.$ref).toBe('#/components/schemas/BatchResult');
    const batchUnion = doc.components.schemas.BatchResult;
    expect(batchUnion.oneOf).toHaveLength(pageTypes.length);
    for (const pageType of pageTypes) {
      expect(batchUnion.discriminator.mapping[pageType]).toBe(
        `#/components/schemas/${variantName(pageType, 'BatchResult')}`,
      );
      const scrapeVariant = doc.components.schemas[variantName(pageType)];
      const batchVariant = doc.components.schemas[variantName(pageType, 'BatchResult')];
      const { request_id: _requestId, ...properties } = scrapeVariant.properties as Json;
      expect(batchVariant.properties).toEqual(properties);
      expect(batchVariant.required).toEqual((scrapeVariant.required as string[]).filter((n) => n !== 'request_id'));
    }
    expect(doc.components.schemas.FetchSummary.properties.status.enum).toEqual(['completed', 'not_found']);
  });

  it("gives an artifact's `data` every page type's shape, by name, or null", () => {
    const data =
      doc.paths['/v1/artifacts/{id}'].get.responses['200'].content['application/json'].schema.properties.data;
    const refs = (data.anyOf as Json[]).map((s) => String(s.$ref ?? s.type));
    expect(refs).toContain('null');
    const named = new Set(Object.values(dataSchemasByPageType).flat());
    for (const name of named) {
      expect(refs).toContain(`#/components/schemas/${name}`);
      expect(doc.components.schemas[name].type).toBe('object');
    }
    expect(refs).toHaveLength(named.size + 1);
    // Every page type the extractors can produce is named in the description a reader sees.
    for (const pageType of Object.keys(pageTypeSchemas)) expect(data.description).toContain(pageType);
  });

  it('gives every schema an example that validates: components, bodies, answers and parameters', () => {
    const validatorAt = documentValidators(doc);
    const pointer = (...parts: string[]) =>
      parts.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
    const missing: string[] = [];
    const invalid: string[] = [];
    const check = (at: string, schema: Json | undefined) => {
      if (!schema) return;
      const ref = typeof schema.$ref === 'string' ? schema.$ref : null;
      const owner = ref ? doc.components.schemas[ref.split('/').pop()!] : schema;
      if (!Array.isArray(owner?.examples) || owner.examples.length === 0) {
        missing.push(at);
        return;
      }
      if (ref) return; // the component itself is checked below
      const validate = validatorAt(at);
      for (const example of owner.examples as unknown[]) {
        if (!validate(example)) invalid.push(`${at}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      }
    };
    for (const name of Object.keys(doc.components.schemas as Json)) {
      check(pointer('components', 'schemas', name), doc.components.schemas[name]);
    }
    let checked = 0;
    for (const { path: p, method, op } of operations()) {
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        check(pointer('paths', p, method, 'requestBody', 'content', type, 'schema'), media.schema);
        checked += 1;
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          check(pointer('paths', p, method, 'responses', status, 'content', type, 'schema'), media.schema);
          checked += 1;
        }
      }
      for (const [i, parameter] of ((op.parameters ?? []) as Json[]).entries()) {
        check(pointer('paths', p, method, 'parameters', String(i), 'schema'), parameter.schema);
        checked += 1;
      }
    }
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    // The validators are real: an item without its price is refused.
    expect(validatorAt(pointer('components', 'schemas', 'ItemData'))({ title: 'ヤマハ', currency: 'JPY' })).toBe(false);
    // The item example reads as the product does: a Japanese title and whole-yen figures.
    expect(doc.components.schemas.ItemData.examples[0]).toMatchObject({
      price: 12800,
      price_tax: 'included',
      points: 128,
    });
    expect(doc.components.schemas.ItemData.examples[0].title).toMatch(/^ヤマハ /);
  });
});
