// A result built field by field: the first source that gives a field keeps it, and provenance names that source.
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
