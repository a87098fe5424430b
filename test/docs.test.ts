// Keeps docs/errors.md, docs/configuration.md and .env.example equal to the code they describe.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorCatalogue } from '../src/errors.js';
import { statusByCode } from '../src/http/problem.js';
import { EnvSchema } from '../src/config.js';
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

describe('docs/configuration.md and .env.example', () => {
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
