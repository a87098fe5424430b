// Turning what each driver returns (Date or text, jsonb or text) into the record types, and back.

/** An ISO 8601 UTC string from a Date (pg) or stored text (SQLite). */
export function isoOf(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function isoOrNull(value: string | Date | null): string | null {
  return value === null ? null : isoOf(value);
}

/**
 * Normalizes a timestamp the caller gives us. SQLite compares timestamps as text, which is only correct when
 * every stored value has the one shape `toISOString` produces.
 */
export function toIso(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new Error(`not a timestamp: ${value}`);
  return new Date(time).toISOString();
}

export function listOf<T extends string>(value: string | string[] | null): T[] | null {
  if (value === null) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}

export function listToColumn(value: readonly string[] | null): string | null {
  return value === null ? null : JSON.stringify(value);
}
