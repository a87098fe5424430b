// Keeps a tool's structured result within the agent's budget: lists are shortened and long strings cut, and a
// `truncated` note says what was cut and how to get the rest; never a silent cut.
/** The default cap on a result's serialized JSON, in characters (docs/mcp.md, "Output cap"). */
export const defaultOutputCapChars = 16_000;

/** One cut: the JSON path, what was kept of how many (items of a list, or characters of a string). */
export interface Cut {
  path: string;
  kept: number;
  total: number;
  unit: 'items' | 'characters';
}

export interface TruncatedNote {
  note: string;
  cuts: Cut[];
}

/** The JSON Schema of the note, added to every tool's output schema. */
export const truncatedSchema = {
  type: 'object',
  description:
    'Present only when the result was over the output cap: which lists were shortened and which strings cut. ' +
    'Ask for less (filters, a smaller limit, a cursor) or use the REST API for the whole answer.',
  properties: {
    note: { type: 'string' },
    cuts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'JSON path of the cut value, e.g. `$.data.items`.' },
          kept: { type: 'integer', minimum: 0 },
          total: { type: 'integer', minimum: 0 },
          unit: { type: 'string', enum: ['items', 'characters'] },
        },
        required: ['path', 'kept', 'total', 'unit'],
      },
    },
  },
  required: ['note', 'cuts'],
} as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const sizeOf = (value: unknown): number => JSON.stringify(value).length;

/** Strings shorter than this are never cut: cutting ids and prices would make the result wrong, not shorter. */
const minCuttableString = 200;

interface Candidate {
  path: string;
  holder: Json[] | { [key: string]: Json };
  key: number | string;
  size: number;
}

/** Every list and long string in the value, with where it sits, largest first. */
function candidatesOf(
  value: Json,
  path: string,
  holder: Candidate['holder'] | null,
  key: number | string,
): Candidate[] {
  const found: Candidate[] = [];
  if (Array.isArray(value)) {
    if (holder && value.length > 0) found.push({ path, holder, key, size: sizeOf(value) });
    value.forEach((item, i) => found.push(...candidatesOf(item, `${path}[${i}]`, value, i)));
  } else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      if (path === '$' && name === 'truncated') continue;
      found.push(...candidatesOf(item, `${path}.${name}`, value, name));
    }
  } else if (typeof value === 'string' && holder && value.length >= minCuttableString) {
    found.push({ path, holder, key, size: sizeOf(value) });
  }
  return found.sort((a, b) => b.size - a.size);
}

function read(holder: Candidate['holder'], key: number | string): Json {
  return (holder as Record<string | number, Json>)[key]!;
}

/**
 * The value itself when its JSON fits `limit` characters; else a copy with the largest lists shortened from the end
 * (then the longest strings cut) until the copy, its `truncated` note included, fits. Objects keep every field, so
 * the result still matches the tool's output schema.
 */
export function capOutput<T extends object>(
  value: T,
  limit: number = defaultOutputCapChars,
): T & { truncated?: TruncatedNote } {
  if (sizeOf(value) <= limit) return value;
  const copy = structuredClone(value) as unknown as { [key: string]: Json };
  const cuts = new Map<string, Cut>();
  const note: TruncatedNote = {
    note: `The result was over ${limit} characters; the lists and strings named in cuts were shortened from the end.`,
    cuts: [],
  };
  for (let round = 0; round < 200; round++) {
    note.cuts = [...cuts.values()];
    const over = sizeOf({ ...copy, truncated: note }) - limit;
    if (over <= 0) break;
    const target = candidatesOf(copy, '$', null, '').find((candidate) => {
      const current = read(candidate.holder, candidate.key);
      return Array.isArray(current) ? current.length > 0 : typeof current === 'string' && current.length > 0;
    });
    if (!target) break;
    const current = read(target.holder, target.key) as Json[] | string;
    const previous = cuts.get(target.path);
    const total = previous?.total ?? current.length;
    let kept: number;
    if (Array.isArray(current)) {
      // Drop about as many items as the excess takes, at least one, so the loop converges in a few rounds.
      const perItem = target.size / current.length;
      kept = Math.max(0, Math.min(current.length - 1, current.length - Math.ceil(over / perItem)));
      current.length = kept;
    } else {
      kept = Math.max(0, Math.min(current.length - 1, current.length - over - 32));
      (target.holder as Record<string | number, Json>)[target.key] = current.slice(0, kept);
    }
    cuts.set(target.path, { path: target.path, kept, total, unit: Array.isArray(current) ? 'items' : 'characters' });
  }
  // A cut inside a list item that a later cut removed no longer describes anything in the answer.
  note.cuts = [...cuts.values()].filter((cut) => exists(copy, cut.path));
  return { ...(copy as unknown as T), truncated: note };
}

function exists(root: Json, path: string): boolean {
  let node: Json | undefined = root;
  for (const part of path.slice(1).match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    if (node === null || typeof node !== 'object') return false;
    node = part.startsWith('[')
      ? (node as Json[])[Number(part.slice(1, -1))]
      : (node as Record<string, Json>)[part.slice(1)];
    if (node === undefined) return false;
  }
  return true;
}
