// Keeps docs/errors.md, docs/configuration.md and .env.example equal to the code they describe.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorCatalogue } from '../src/errors.js';
import { statusByCode } from '../src/http/problem.js';
import { ConfigError, EnvSchema, loadConfig } from '../src/config.js';
import { formatBytes } from '../src/http/app.js';
import { batchBodyLimitBytes } from '../src/http/routes/batches.js';
import { monitorBodyLimitBytes } from '../src/http/routes/monitors.js';
import { createKeyCommand } from '../src/accounts/start-keys.js';
import { repoRoot } from './support/kumo-process.js';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

describe('docs/errors.md', () => {
  it('lists exactly the catalogue, with each status and title', () => {
    const rows = [...read('docs/errors.md').matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|\s*([^|]+?)\s*\|/gm)].map(
      (m) => [m[1], Number(m[2]), m[3]!.trim()],
    );
    const expected = Object.entries(errorCatalogue).map(([code, entry]) => [
      code,
      statusByCode[code as keyof typeof statusByCode],
      entry.title,
    ]);
    expect(rows).toEqual(expected);
  });
});

describe('docs/errors.md, beyond the table', () => {
  it("names each route's body limit as the 413 answer does", () => {
    const bullet = read('docs/errors.md')
      .split('\n- ')
      .find((part) => part.startsWith('`payload_too_large` (413)'));
    expect(bullet).toBeDefined();
    const scrapeLimit = (EnvSchema.properties.KUMO_BODY_LIMIT_BYTES as unknown as { default: number }).default;
    const text = bullet!.replace(/\s+/g, ' ');
    expect(text).toContain(`the request body is over the ${formatBytes(scrapeLimit)} body limit of POST /v1/scrape`);
    for (const limit of [scrapeLimit, batchBodyLimitBytes, monitorBodyLimitBytes]) {
      expect(text).toContain(formatBytes(limit).replace(/ \(.*/, ''));
    }
  });
});

describe('docs/configuration.md and .env.example', () => {
  it('shows the message a start with several mistakes really prints, and the real command for a first key', () => {
    const docs = read('docs/configuration.md');
    const shown = /```text\nkumo: (invalid configuration[^`]*)```/.exec(docs)?.[1]?.trimEnd();
    let message = '';
    try {
      loadConfig({ PORT: 'abc', LOG_LEVEL: 'verbose', KUMO_TRUST_PROXY: 'true' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(shown).toBe(message);
    expect(docs).toContain(createKeyCommand);
  });

  const schema = Object.entries(EnvSchema.properties).map(([name, s]) => {
    const def = (s as unknown as { default: unknown }).default;
    return [name, def === '' ? '(empty)' : String(def)];
  });

  it('the docs table lists every variable with its default, and nothing else', () => {
    const rows = [...read('docs/configuration.md').matchAll(/^\|\s*`([A-Z_]+)`\s*\|\s*`([^`]*)`\s*\|/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(rows).toEqual(schema);
  });

  it('.env.example sets every variable to its default, and nothing else', () => {
    const rows = [...read('.env.example').matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [
      m[1],
      m[2] === '' ? '(empty)' : m[2]!.replace(/^"(.*)"$/, '$1'),
    ]);
    expect(rows).toEqual(schema);
  });
});
