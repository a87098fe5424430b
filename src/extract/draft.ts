// A result built field by field: the first source that gives a field keeps it, and provenance names that source.
import { KumoError } from '../errors.js';
import type { NormalizedPage } from '../normalize/page.js';

export interface Draft<T> {
  data: Partial<T>;
  provenance: Record<string, string>;
  /** Starts with what normalization warned about the page; extractors add theirs. */
  warnings: string[];
  /** Sets `field` unless the value is null/undefined or an earlier (more trusted) source already set it. */
  set: <K extends keyof T>(field: K, value: T[K] | null | undefined, source: string) => void;
}

export function startDraft<T>(page: NormalizedPage): Draft<T> {
  const data: Partial<T> = {};
  const provenance: Record<string, string> = {};
  return {
    data,
    provenance,
    warnings: [...(page.warnings ?? [])],
    set: (field, value, source) => {
      if (value === null || value === undefined || data[field] !== undefined) return;
      data[field] = value;
      provenance[field as string] = source;
    },
  };
}

/**
 * A result is served only with its required fields: throws `extraction_failed` whose body names the fields no source
 * gave (`/title`, `/price`). `message` gets their names and must describe where they were looked for, never what the
 * page holds.
 */
export function requireFields<T>(
  data: Partial<T>,
  fields: readonly (keyof T & string)[],
  message: (missing: readonly string[]) => string,
): void {
  const missing = fields.filter((f) => data[f] === undefined);
  if (missing.length === 0) return;
  throw new KumoError('extraction_failed', message(missing), { body: { fields: missing.map((f) => `/${f}`) } });
}
