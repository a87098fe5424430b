// docs/data-model.md names every field of every page type's schema (so a new field cannot ship undocumented).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { repoRoot } from '../sites/corpus.js';
import { DataTableSchema, ListItemSchema, OfferSchema, pageTypeSchemas, StatsTableSchema } from './page-types.js';

const doc = readFileSync(path.join(repoRoot, 'docs/data-model.md'), 'utf8');
const fieldsOf = (schema: TSchema) => Object.keys((schema as unknown as { properties: object }).properties);

describe('docs/data-model.md', () => {
  const schemas: [string, TSchema][] = [
    ...Object.entries(pageTypeSchemas).filter(([name]) => name !== 'table'),
    ['table (stats)', StatsTableSchema],
    ['table (data)', DataTableSchema],
    ['offers[] of an item', OfferSchema],
    ['items[] of a list', ListItemSchema],
  ];
  it.each(schemas)('documents every field of %s', (name, schema) => {
    const missing = fieldsOf(schema).filter((field) => !doc.includes(`\`${field}\``));
    expect(fieldsOf(schema).length).toBeGreaterThan(2);
    expect(missing, name).toEqual([]);
  });
});
