// Typed reads from parsed JSON of unknown shape: every accessor checks, none throws, so extractors decide.
import { isObject, type JsonObject } from './json-ld.js';

export { isObject, type JsonObject };

export function obj(value: unknown): JsonObject | null {
  return isObject(value) ? value : null;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** APIs that turn a one-element list into a bare object (e-Stat does) read the same either way. */
export function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function int(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}
